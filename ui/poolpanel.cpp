// SPDX-License-Identifier: GPL-3.0-or-later
#include "poolpanel.h"

#include "languages/language.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using namespace sandbox;

namespace {

constexpr int RefreshMs = 500;
constexpr int MaxWarm = 8;
constexpr int MaxPerKeyLimit = 16;

QString limitsSummary(const PoolKey &key)
{
    QStringList parts;
    parts << QStringLiteral("%1 CPU").arg(double(key.nanoCpus) / 1e9, 0, 'g', 3);
    parts << QStringLiteral("%1 MiB").arg(key.memoryBytes >> 20);
    parts << QStringLiteral("%1 pids").arg(key.pids);
    return parts.join(u" · "_s);
}

QString networkName(NetworkMode mode)
{
    switch (mode) {
    case NetworkMode::None:
        return PoolPanel::tr("none");
    case NetworkMode::Host:
        return PoolPanel::tr("host");
    default:
        return PoolPanel::tr("bridge");
    }
}

} // namespace

PoolPanel::PoolPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(u"poolPanel"_s);
    auto *layout = new QVBoxLayout(this);

    auto *settings = new QGroupBox(tr("Sandbox pool"), this);
    auto *form = new QFormLayout(settings);
    m_enabled = new QCheckBox(tr("Keep warm sandboxes ready"), settings);
    m_enabled->setObjectName(u"poolEnabled"_s);
    m_enabled->setChecked(true);
    m_enabled->setToolTip(tr("Runs without library installs borrow a ready sandbox instead of "
                             "creating a fresh one."));
    form->addRow(m_enabled);
    connect(m_enabled, &QCheckBox::toggled, this, &PoolPanel::settingsChanged);

    for (const LanguageDescriptor &lang : LanguageRegistry::instance().all()) {
        auto *box = new QSpinBox(settings);
        box->setObjectName(u"poolWarm_"_s + lang.id);
        box->setRange(0, MaxWarm);
        box->setValue(lang.id == u"python"_s ? 1 : 0);
        box->setAlignment(Qt::AlignRight);
        box->setAccessibleName(tr("Warm %1 sandboxes").arg(lang.displayName));
        box->setToolTip(tr("Sandboxes kept ready for %1 with the current limits and network")
                            .arg(lang.displayName));
        form->addRow(tr("Warm %1:").arg(lang.displayName), box);
        m_warm.insert(lang.id, box);
        connect(box, &QSpinBox::valueChanged, this, &PoolPanel::settingsChanged);
    }

    m_max = new QSpinBox(settings);
    m_max->setObjectName(u"poolMax"_s);
    m_max->setRange(1, MaxPerKeyLimit);
    m_max->setValue(4);
    m_max->setAlignment(Qt::AlignRight);
    m_max->setAccessibleName(tr("Maximum sandboxes per key"));
    m_max->setToolTip(tr("At most this many sandboxes (warm, busy or being made) per language, "
                         "limits and network"));
    form->addRow(tr("Maximum per key:"), m_max);
    connect(m_max, &QSpinBox::valueChanged, this, &PoolPanel::settingsChanged);
    layout->addWidget(settings);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(u"poolTable"_s);
    m_table->setAccessibleName(tr("Pooled sandboxes"));
    m_table->setHorizontalHeaderLabels({tr("Key"), tr("Limits"), tr("Network"), tr("Warm"),
                                        tr("Busy"), tr("Creating"), tr("Unhealthy")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);

    m_total = new QLabel(this);
    m_total->setObjectName(u"poolTotal"_s);
    layout->addWidget(m_total);

    m_refresh.setInterval(RefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &PoolPanel::refresh);
    refresh();
}

bool PoolPanel::poolEnabled() const
{
    return m_enabled->isChecked();
}

void PoolPanel::setPoolEnabled(bool on)
{
    m_enabled->setChecked(on);
}

int PoolPanel::warmFor(const QString &language) const
{
    const QSpinBox *box = m_warm.value(language);
    return box ? box->value() : 0;
}

void PoolPanel::setWarmFor(const QString &language, int warm)
{
    if (QSpinBox *box = m_warm.value(language))
        box->setValue(warm);
}

QHash<QString, int> PoolPanel::warmCounts() const
{
    QHash<QString, int> out;
    for (auto it = m_warm.cbegin(); it != m_warm.cend(); ++it)
        out.insert(it.key(), it.value()->value());
    return out;
}

int PoolPanel::maxPerKey() const
{
    return m_max->value();
}

void PoolPanel::setMaxPerKey(int max)
{
    m_max->setValue(max);
}

void PoolPanel::setPool(std::shared_ptr<SandboxPool> pool)
{
    m_pool = std::move(pool);
    if (m_pool)
        m_refresh.start();
    else
        m_refresh.stop();
    refresh();
}

void PoolPanel::noteKey(const PoolKey &key)
{
    m_keys.insert(key.hash(), key);
}

void PoolPanel::refresh()
{
    // stats() copies a few counters per key under the pool's mutex: cheap enough here.
    const QList<PoolStats> stats = m_pool ? m_pool->stats() : QList<PoolStats>{};
    m_table->setRowCount(int(stats.size()));
    int totals[ColumnCount] = {};
    auto set = [this](int row, int column, const QString &text, const QString &tip = {}) {
        QTableWidgetItem *item = m_table->item(row, column);
        if (!item) {
            item = new QTableWidgetItem;
            m_table->setItem(row, column, item);
        }
        item->setText(text);
        item->setToolTip(tip);
        if (column >= WarmColumn)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    };
    for (int row = 0; row < stats.size(); ++row) {
        const PoolStats &s = stats.at(row);
        set(row, KeyColumn, s.language + u" / "_s + s.image.section(u'/', -1),
            tr("Key %1, image %2").arg(s.key, s.image));
        m_table->item(row, KeyColumn)->setData(Qt::UserRole, s.language);
        const auto known = m_keys.constFind(s.key);
        set(row, LimitsColumn, known != m_keys.cend() ? limitsSummary(*known) : u"—"_s);
        set(row, NetworkColumn, known != m_keys.cend() ? networkName(known->network) : u"—"_s);
        const int counts[] = {s.warm, s.busy, s.creating, s.unhealthy};
        for (int i = 0; i < 4; ++i) {
            set(row, WarmColumn + i, QString::number(counts[i]));
            totals[WarmColumn + i] += counts[i];
        }
    }
    if (!m_pool)
        m_total->setText(poolEnabled() ? tr("Pool starting…") : tr("Pool off"));
    else
        m_total->setText(tr("Total: %1 warm, %2 busy, %3 creating, %4 unhealthy")
                             .arg(totals[WarmColumn])
                             .arg(totals[BusyColumn])
                             .arg(totals[CreatingColumn])
                             .arg(totals[UnhealthyColumn]));
}

int PoolPanel::count(const QString &language, Column column) const
{
    int sum = 0;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem *key = m_table->item(row, KeyColumn);
        const QTableWidgetItem *cell = m_table->item(row, column);
        if (key && cell && key->data(Qt::UserRole).toString() == language)
            sum += cell->text().toInt();
    }
    return sum;
}
