// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/pool.h"

#include <QHash>
#include <QTimer>
#include <QWidget>
#include <memory>

class QCheckBox;
class QLabel;
class QSpinBox;
class QTableWidget;

/// The "Sandbox Pool" dock page: the pool settings (on/off, warm sandboxes per language,
/// maximum per key) and a live table of the pool's keys (warm, busy, creating, unhealthy),
/// refreshed every 500 ms from SandboxPool::stats() (a copy taken under the pool's mutex).
class PoolPanel final : public QWidget
{
    Q_OBJECT

public:
    enum Column
    {
        KeyColumn,
        LimitsColumn,
        NetworkColumn,
        WarmColumn,
        BusyColumn,
        CreatingColumn,
        UnhealthyColumn,
        ColumnCount
    };

    explicit PoolPanel(QWidget *parent = nullptr);

    bool poolEnabled() const;
    void setPoolEnabled(bool on);
    /// Whether pool sandboxes keep a preloaded interpreter that one-shot runs fork from
    /// (PoolOptions::zygotes).
    bool zygotesEnabled() const;
    void setZygotesEnabled(bool on);
    /// Warm sandboxes kept for language (0-8); unknown languages are 0.
    int warmFor(const QString &language) const;
    void setWarmFor(const QString &language, int warm);
    /// Every language's warm count, by LanguageRegistry id.
    QHash<QString, int> warmCounts() const;
    int maxPerKey() const;
    void setMaxPerKey(int max);

    /// The pool shown in the table (nullptr = none: the table empties).
    void setPool(std::shared_ptr<sandbox::SandboxPool> pool);
    /// Remembers what a key hash stands for (limits and network are not in PoolStats).
    void noteKey(const sandbox::PoolKey &key);

    QTableWidget *table() const { return m_table; }
    QLabel *totalLabel() const { return m_total; }
    /// Sum of column over the table's rows whose language is language (from the last refresh).
    int count(const QString &language, Column column) const;

public Q_SLOTS:
    /// Takes a snapshot of the pool's stats and updates the table.
    void refresh();

Q_SIGNALS:
    /// A setting changed, by the user or by a setter.
    void settingsChanged();

private:
    QCheckBox *m_enabled = nullptr;
    QCheckBox *m_zygotes = nullptr;
    QHash<QString, QSpinBox *> m_warm;
    QSpinBox *m_max = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_total = nullptr;
    QTimer m_refresh;
    std::shared_ptr<sandbox::SandboxPool> m_pool;
    QHash<QString, sandbox::PoolKey> m_keys; // by hash
};
