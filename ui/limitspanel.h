// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/runtypes.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QComboBox;
class QLineEdit;
class QDoubleSpinBox;
class QSpinBox;

/// Form for the resource limits of a run (meant for a dock). Shows people's units (cores,
/// MiB, seconds, KiB) and converts to and from sandbox::Limits (bytes, nano-CPUs, ms).
/// Fields it does not show (work directory, artifacts) keep the values last set.
class LimitsPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit LimitsPanel(QWidget *parent = nullptr);

    sandbox::Limits limits() const;
    /// Values outside a control's range are clamped to it.
    void setLimits(const sandbox::Limits &limits);

    bool networkEnabled() const;
    void setNetworkEnabled(bool enabled);

    /// Restores the defaults of sandbox::Limits{} and network off.
    void resetToDefaults();

    /// Libraries to install before the run (pip/npm specs, Maven g:a:v, Go modules, R
    /// packages), split on commas and spaces; empty = detected from the code's imports.
    QStringList libraries() const;
    void setLibraries(const QStringList &libraries);

    /// The language the limits are for: its minimum memory (LanguageDescriptor::
    /// minMemoryBytes) is checked and shown.
    void setLanguage(const QString &languageId);
    /// Why the limits cannot be used for the language ("memory limit 64 MiB is below what
    /// Java needs (at least 128 MiB)"), shown under the form; empty when they are valid.
    QString validationError() const;

    /// Language standards the current language offers (empty hides the picker).
    void setStandards(const QStringList &standards, const QString &defaultStandard);
    /// The chosen standard, empty when the language has none.
    QString standard() const;

Q_SIGNALS:
    /// Any value changed, by the user or by a setter.
    void limitsChanged();

private:
    void validate();
    sandbox::Limits m_hidden; // carries the fields without a control
    QDoubleSpinBox *m_cpus;
    QSpinBox *m_memoryMiB;
    QSpinBox *m_pids;
    QSpinBox *m_timeoutSeconds;
    QSpinBox *m_outputKiB;
    QSpinBox *m_workDirMiB;
    QLabel *m_error;
    QString m_language;
    QCheckBox *m_network;
    QLineEdit *m_libraries;
    QComboBox *m_standard;
    QWidget *m_standardLabel = nullptr;
};
