// SPDX-License-Identifier: GPL-3.0-or-later
#include "limitspanel.h"

#include "languages/language.h"
#include "policy/preflight.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>
#include <cmath>

namespace {

constexpr qint64 MiB = 1ll << 20;
constexpr qint64 KiB = 1ll << 10;
constexpr double NanoCpusPerCore = 1e9;

QSpinBox *spinBox(int min, int max, int step, const QString &suffix, const QString &name,
                  const QString &help, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setSingleStep(step);
    box->setSuffix(suffix);
    box->setAccelerated(true);
    box->setAlignment(Qt::AlignRight);
    box->setAccessibleName(name);
    box->setToolTip(help);
    return box;
}

int clampToInt(qint64 value, const QSpinBox *box)
{
    return int(std::clamp<qint64>(value, box->minimum(), box->maximum()));
}

} // namespace

LimitsPanel::LimitsPanel(QWidget *parent)
    : QWidget(parent)
    , m_cpus(new QDoubleSpinBox(this))
    , m_memoryMiB(spinBox(32, 64 * 1024, 64, tr(" MiB"), tr("Memory limit"),
                          tr("Memory the sandbox may use (swap included); the program is killed "
                             "when it needs more."),
                          this))
    , m_pids(spinBox(16, 32768, 16, QString(), tr("Process limit"),
                     tr("Processes and threads the sandbox may run at once."), this))
    , m_timeoutSeconds(spinBox(1, 3600, 5, tr(" s"), tr("Time limit"),
                               tr("Wall time of the program; it is killed at the limit."), this))
    , m_outputKiB(spinBox(1, 64 * 1024, 64, tr(" KiB"), tr("Output limit"),
                          tr("Output (stdout and stderr) kept from a run; the rest is dropped "
                             "and the run is flagged as truncated."),
                          this))
    , m_workDirMiB(spinBox(1, 16 * 1024, 64, tr(" MiB"), tr("Work directory size"),
                           tr("Size of the sandbox's work directory (/sandbox, in memory); "
                              "writes beyond it fail with \"no space left\"."),
                           this))
    , m_error(new QLabel(this))
    , m_network(new QCheckBox(tr("Allow network access"), this))
    , m_libraries(new QLineEdit(this))
    , m_standard(new QComboBox(this))
{
    setObjectName(QStringLiteral("limitsPanel"));

    m_cpus->setObjectName(QStringLiteral("cpuLimit"));
    m_memoryMiB->setObjectName(QStringLiteral("memoryLimit"));
    m_pids->setObjectName(QStringLiteral("pidsLimit"));
    m_timeoutSeconds->setObjectName(QStringLiteral("timeLimit"));
    m_outputKiB->setObjectName(QStringLiteral("outputLimit"));
    m_network->setObjectName(QStringLiteral("networkEnabled"));
    m_workDirMiB->setObjectName(QStringLiteral("workDirLimit"));
    m_error->setObjectName(QStringLiteral("limitsError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_error->hide();

    m_cpus->setRange(0.1, qMax(1, QThread::idealThreadCount()));
    m_cpus->setDecimals(1);
    m_cpus->setSingleStep(0.5);
    m_cpus->setSuffix(tr(" cores"));
    m_cpus->setAlignment(Qt::AlignRight);
    m_cpus->setAccelerated(true);
    m_cpus->setAccessibleName(tr("CPU limit"));
    m_cpus->setToolTip(tr("CPU time the sandbox may use, in cores (1.5 = one and a half)."));

    m_network->setAccessibleName(tr("Network access"));
    m_network->setToolTip(tr("Off by default: the sandbox has no network interface except "
                             "loopback. Turn on only for code you trust to reach the internet."));

    m_libraries->setObjectName(QStringLiteral("libraries"));
    m_libraries->setPlaceholderText(tr("detected from imports"));
    m_libraries->setAccessibleName(tr("Libraries to install"));
    m_libraries->setToolTip(tr("Packages installed before the run with the language's own "
                               "package manager (pip, npm, Maven g:a:v, Go modules, R packages), "
                               "separated by commas or spaces. Leave empty to detect them from "
                               "the code's imports. Installs use the network; the program itself "
                               "runs with network off unless allowed above."));
    m_standard->setObjectName(QStringLiteral("languageStandard"));
    m_standard->setAccessibleName(tr("Language standard"));
    m_standard->setToolTip(tr("Language standard the compiler uses."));

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    const auto addRow = [form](const QString &label, QWidget *field) {
        auto *text = new QLabel(label);
        text->setBuddy(field);
        form->addRow(text, field);
    };
    addRow(tr("&CPU:"), m_cpus);
    addRow(tr("&Memory:"), m_memoryMiB);
    addRow(tr("&Processes:"), m_pids);
    addRow(tr("&Time:"), m_timeoutSeconds);
    addRow(tr("&Output:"), m_outputKiB);
    addRow(tr("&Work dir:"), m_workDirMiB);
    form->addRow(m_network);
    addRow(tr("&Libraries:"), m_libraries);
    addRow(tr("&Standard:"), m_standard);
    m_standardLabel = form->labelForField(m_standard);
    setStandards({}, {});

    auto *reset = new QPushButton(tr("Reset to defaults"), this);
    reset->setObjectName(QStringLiteral("resetLimits"));
    reset->setAccessibleName(tr("Reset limits to defaults"));
    connect(reset, &QPushButton::clicked, this, &LimitsPanel::resetToDefaults);

    auto *hint = new QLabel(tr("Applied to the next run."), this);
    hint->setForegroundRole(QPalette::PlaceholderText);
    hint->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(hint);
    layout->addWidget(reset, 0, Qt::AlignRight);
    layout->addStretch(1);

    resetToDefaults();

    const auto changed = [this] {
        validate();
        Q_EMIT limitsChanged();
    };
    connect(m_cpus, &QDoubleSpinBox::valueChanged, this, changed);
    for (QSpinBox *box : {m_memoryMiB, m_pids, m_timeoutSeconds, m_outputKiB, m_workDirMiB})
        connect(box, &QSpinBox::valueChanged, this, changed);
    connect(m_network, &QCheckBox::toggled, this, changed);
}

QStringList LimitsPanel::libraries() const
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    return m_libraries->text().split(separators, Qt::SkipEmptyParts);
}

void LimitsPanel::setLibraries(const QStringList &libraries)
{
    m_libraries->setText(libraries.join(QStringLiteral(", ")));
}

void LimitsPanel::setStandards(const QStringList &standards, const QString &defaultStandard)
{
    const QString previous = m_standard->currentText();
    m_standard->clear();
    m_standard->addItems(standards);
    const qsizetype keep = standards.indexOf(previous);
    m_standard->setCurrentIndex(int(keep >= 0 ? keep : standards.indexOf(defaultStandard)));
    m_standard->setVisible(!standards.isEmpty());
    if (m_standardLabel)
        m_standardLabel->setVisible(!standards.isEmpty());
}

QString LimitsPanel::standard() const
{
    return m_standard->isVisibleTo(this) || m_standard->count() > 0 ? m_standard->currentText()
                                                                    : QString();
}

sandbox::Limits LimitsPanel::limits() const
{
    sandbox::Limits limits = m_hidden;
    limits.nanoCpus = std::llround(m_cpus->value() * NanoCpusPerCore);
    limits.memoryBytes = m_memoryMiB->value() * MiB;
    limits.pids = m_pids->value();
    limits.timeoutMs = qint64(m_timeoutSeconds->value()) * 1000;
    limits.outputBytes = m_outputKiB->value() * KiB;
    limits.workDirBytes = m_workDirMiB->value() * MiB;
    return limits;
}

void LimitsPanel::setLimits(const sandbox::Limits &limits)
{
    m_hidden = limits;
    m_cpus->setValue(double(limits.nanoCpus) / NanoCpusPerCore);
    m_memoryMiB->setValue(clampToInt(limits.memoryBytes / MiB, m_memoryMiB));
    m_pids->setValue(clampToInt(limits.pids, m_pids));
    m_timeoutSeconds->setValue(clampToInt((limits.timeoutMs + 999) / 1000, m_timeoutSeconds));
    m_outputKiB->setValue(clampToInt(limits.outputBytes / KiB, m_outputKiB));
    m_workDirMiB->setValue(clampToInt(limits.workDirBytes / MiB, m_workDirMiB));
    validate();
}

void LimitsPanel::setLanguage(const QString &languageId)
{
    m_language = languageId;
    if (const auto *lang = sandbox::LanguageRegistry::instance().find(languageId))
        m_memoryMiB->setToolTip(tr("Memory the sandbox may use (swap included); the program is "
                                   "killed when it needs more. %1 needs at least %2 MiB.")
                                    .arg(lang->displayName)
                                    .arg(lang->minMemoryBytes / MiB));
    validate();
}

QString LimitsPanel::validationError() const
{
    if (m_language.isEmpty())
        return limits().validate() ? QString() : limits().validate().error().message;
    auto v = sandbox::validateLimitsFor(limits(), m_language);
    return v ? QString() : v.error().message;
}

void LimitsPanel::validate()
{
    const QString error = validationError();
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    m_memoryMiB->setProperty("invalid", error.contains(QLatin1String("memory")));
}

bool LimitsPanel::networkEnabled() const
{
    return m_network->isChecked();
}

void LimitsPanel::setNetworkEnabled(bool enabled)
{
    m_network->setChecked(enabled);
}

void LimitsPanel::resetToDefaults()
{
    setLimits(sandbox::Limits{});
    setNetworkEnabled(false);
}
