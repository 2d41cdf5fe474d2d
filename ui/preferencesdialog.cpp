// SPDX-License-Identifier: GPL-3.0-or-later
#include "preferencesdialog.h"

#include "session/runtypes.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QLocale>
#include <QPalette>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleHints>
#include <QTabWidget>
#include <QTranslator>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 MiB = 1ll << 20;
constexpr qint64 KiB = 1ll << 10;
constexpr int DefaultMcpPort = 8765;
constexpr int DefaultPoolMax = 4;

QString settingsKey(const char *k)
{
    return QString::fromLatin1(k);
}

QLabel *noteLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

QFormLayout *formFor(QWidget *page)
{
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto *layout = new QVBoxLayout(page);
    layout->addLayout(form);
    return form;
}

void addRow(QFormLayout *form, const QString &label, QWidget *field)
{
    auto *text = new QLabel(label);
    text->setBuddy(field);
    form->addRow(text, field);
}

// Translators installed by the last installTranslators() call.
QList<QTranslator *> &installedTranslators()
{
    static QList<QTranslator *> list;
    return list;
}

// The theme "system" mode follows; empty when not in system mode.
QString &currentThemeMode()
{
    static QString mode;
    return mode;
}

QPalette fusionDarkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80);
    const QColor highlight(0x3d, 0x7a, 0xd6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb6, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xf0));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, window.lighter(150));
    p.setColor(QPalette::Midlight, window.lighter(125));
    p.setColor(QPalette::Mid, window.darker(120));
    p.setColor(QPalette::Dark, window.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, window.lighter(130));
    return p;
}

void applyThemeNow(const QString &theme)
{
    auto *app = qobject_cast<QApplication *>(QCoreApplication::instance());
    if (!app)
        return;
    static const QString platformStyle = app->style() ? app->style()->name() : QString();
    const auto fusion = [](const QPalette &palette) {
        // Fusion draws every control from the palette, so any palette looks right.
        if (QApplication::style()->name().compare(u"fusion"_s, Qt::CaseInsensitive) != 0)
            QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
        QApplication::setPalette(palette);
    };
    if (theme == u"dark") {
        fusion(fusionDarkPalette());
        return;
    }
    if (theme == u"light") {
        fusion(QApplication::style()->standardPalette());
        return;
    }
    // "system": the platform's style and palette; a dark scheme the platform theme does not
    // paint (no dark palette) gets Fusion's dark palette.
    if (!platformStyle.isEmpty() &&
        QApplication::style()->name().compare(platformStyle, Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStyleFactory::create(platformStyle));
    QApplication::setPalette(QPalette());
    if (QGuiApplication::styleHints()->colorScheme() == Qt::ColorScheme::Dark &&
        !StudioSettings::paletteIsDark())
        fusion(fusionDarkPalette());
}

} // namespace

// ---------------------------------------------------------------------------------------
// StudioSettings

namespace StudioSettings {

QString filePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
           u"/sandbox-studio.conf"_s;
}

std::unique_ptr<QSettings> open()
{
    return std::make_unique<QSettings>(filePath(), QSettings::IniFormat);
}

QStringList recentFiles(const QSettings &settings)
{
    return settings.value(settingsKey(key::RecentFiles)).toStringList();
}

void addRecentFile(QSettings &settings, const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles(settings);
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > MaxRecentFiles)
        files.removeLast();
    settings.setValue(settingsKey(key::RecentFiles), files);
}

QList<std::pair<QString, QString>> uiLanguages()
{
    return {{QString(), QCoreApplication::translate("StudioSettings", "System language")},
            {u"en"_s, u"English"_s},
            {u"de"_s, u"Deutsch"_s}};
}

QString installTranslators(QCoreApplication *app, const QString &languageCode)
{
    for (QTranslator *t : std::as_const(installedTranslators())) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
    installedTranslators().clear();

    const QLocale locale = languageCode.isEmpty() ? QLocale::system() : QLocale(languageCode);
    const QStringList dirs = {
        QDir::cleanPath(QCoreApplication::applicationDirPath() +
                        u"/../share/sandbox-studio/translations"_s),
        u":/i18n"_s,
    };
    QString loaded = u"en"_s;
    auto *own = new QTranslator(app);
    bool found = false;
    for (const QString &dir : dirs) {
        if (own->load(locale, u"sandbox-studio"_s, u"_"_s, dir)) {
            found = true;
            break;
        }
    }
    if (found) {
        QCoreApplication::installTranslator(own);
        installedTranslators().append(own);
        loaded = own->language().section(u'_', 0, 0);
        // Qt's own strings (dialog buttons, context menus), when qt6-translations-l10n is
        // installed.
        auto *qt = new QTranslator(app);
        if (qt->load(locale, u"qtbase"_s, u"_"_s,
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
            QCoreApplication::installTranslator(qt);
            installedTranslators().append(qt);
        } else {
            delete qt;
        }
    } else {
        delete own;
    }
    QLocale::setDefault(languageCode.isEmpty() ? QLocale::system()
                                               : QLocale(locale.language(), locale.territory()));
    return loaded;
}

void applyTheme(const QString &theme)
{
    const bool first = currentThemeMode().isNull();
    currentThemeMode() = theme.isEmpty() ? u"system"_s : theme;
    applyThemeNow(currentThemeMode());
    if (first && qobject_cast<QApplication *>(QCoreApplication::instance())) {
        QObject::connect(QGuiApplication::styleHints(), &QStyleHints::colorSchemeChanged, qApp, [] {
            if (currentThemeMode() == u"system")
                applyThemeNow(currentThemeMode());
        });
    }
}

bool paletteIsDark()
{
    const QPalette p = QGuiApplication::palette();
    return p.color(QPalette::WindowText).lightness() > p.color(QPalette::Window).lightness();
}

} // namespace StudioSettings

// ---------------------------------------------------------------------------------------
// PreferencesDialog

PreferencesDialog::PreferencesDialog(QSettings *settings, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_tabs(new QTabWidget(this))
{
    setObjectName(u"preferencesDialog"_s);
    setWindowTitle(tr("Preferences"));
    m_tabs->setObjectName(u"preferencesTabs"_s);
    m_tabs->setAccessibleName(tr("Preference pages"));

    auto *buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &PreferencesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &PreferencesDialog::reject);
    connect(buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this,
            &PreferencesDialog::apply);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);

    addPage(new GeneralPreferencesPage);
    addPage(new SandboxPreferencesPage);
    addPage(new BackendPreferencesPage);
    addPage(new PolicyPreferencesPage);
    addPage(new McpPreferencesPage);
    resize(560, 440);
}

void PreferencesDialog::addPage(PreferencesPage *page)
{
    page->load(*m_settings);
    m_tabs->addTab(page, page->title());
}

PreferencesPage *PreferencesDialog::page(const QString &name) const
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto *p = qobject_cast<PreferencesPage *>(m_tabs->widget(i));
            p && p->objectName() == name)
            return p;
    return nullptr;
}

void PreferencesDialog::apply()
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto *p = qobject_cast<PreferencesPage *>(m_tabs->widget(i)))
            p->save(*m_settings);
    m_settings->sync();
    Q_EMIT settingsApplied();
}

void PreferencesDialog::accept()
{
    apply();
    QDialog::accept();
}

// ---------------------------------------------------------------------------------------
// General

GeneralPreferencesPage::GeneralPreferencesPage(QWidget *parent)
    : PreferencesPage(parent)
    , m_language(new QComboBox(this))
    , m_theme(new QComboBox(this))
    , m_checkSetup(new QCheckBox(tr("Check engines and images at every start"), this))
{
    setObjectName(u"generalPage"_s);
    m_language->setObjectName(u"uiLanguage"_s);
    m_language->setAccessibleName(tr("Interface language"));
    for (const auto &[code, name] : StudioSettings::uiLanguages())
        m_language->addItem(name, code);
    m_theme->setObjectName(u"theme"_s);
    m_theme->setAccessibleName(tr("Theme"));
    m_theme->addItem(tr("Follow the system"), u"system"_s);
    m_theme->addItem(tr("Light (Fusion)"), u"light"_s);
    m_theme->addItem(tr("Dark (Fusion)"), u"dark"_s);
    m_checkSetup->setObjectName(u"checkSetupAtStart"_s);

    QFormLayout *form = formFor(this);
    addRow(form, tr("Interface &language:"), m_language);
    form->addRow(QString(), noteLabel(tr("A new language applies after a restart."), this));
    addRow(form, tr("&Theme:"), m_theme);
    form->addRow(QString(), m_checkSetup);
}

QString GeneralPreferencesPage::title() const
{
    return tr("General");
}

void GeneralPreferencesPage::load(const QSettings &settings)
{
    using namespace StudioSettings;
    m_language->setCurrentIndex(
        qMax(0, m_language->findData(settings.value(settingsKey(key::UiLanguage)).toString())));
    m_theme->setCurrentIndex(qMax(
        0, m_theme->findData(settings.value(settingsKey(key::Theme), u"system"_s).toString())));
    m_checkSetup->setChecked(settings.value(settingsKey(key::ShowFirstRun), false).toBool());
}

void GeneralPreferencesPage::save(QSettings &settings) const
{
    using namespace StudioSettings;
    const QString theme = m_theme->currentData().toString();
    const bool themeChanged = settings.value(settingsKey(key::Theme), u"system"_s) != theme;
    settings.setValue(settingsKey(key::UiLanguage), m_language->currentData().toString());
    settings.setValue(settingsKey(key::Theme), theme);
    settings.setValue(settingsKey(key::ShowFirstRun), m_checkSetup->isChecked());
    if (themeChanged)
        applyTheme(theme);
}

// ---------------------------------------------------------------------------------------
// Sandbox

SandboxPreferencesPage::SandboxPreferencesPage(QWidget *parent)
    : PreferencesPage(parent)
    , m_cpus(new QDoubleSpinBox(this))
    , m_memoryMiB(new QSpinBox(this))
    , m_pids(new QSpinBox(this))
    , m_timeoutS(new QDoubleSpinBox(this))
    , m_outputKiB(new QSpinBox(this))
    , m_poolEnabled(new QCheckBox(tr("Keep warm sandboxes ready (pool)"), this))
    , m_poolMax(new QSpinBox(this))
{
    setObjectName(u"sandboxPage"_s);
    m_cpus->setObjectName(u"defaultCpus"_s);
    m_cpus->setRange(0.1, 64);
    m_cpus->setDecimals(1);
    m_cpus->setSingleStep(0.5);
    m_cpus->setSuffix(tr(" cores"));
    m_cpus->setAccessibleName(tr("CPU limit"));
    m_memoryMiB->setObjectName(u"defaultMemory"_s);
    m_memoryMiB->setRange(32, 64 * 1024);
    m_memoryMiB->setSingleStep(64);
    m_memoryMiB->setSuffix(tr(" MiB"));
    m_memoryMiB->setAccessibleName(tr("Memory limit"));
    m_pids->setObjectName(u"defaultPids"_s);
    m_pids->setRange(16, 32768);
    m_pids->setAccessibleName(tr("Process limit"));
    m_timeoutS->setObjectName(u"defaultTimeout"_s);
    m_timeoutS->setRange(1, 3600);
    m_timeoutS->setDecimals(0);
    m_timeoutS->setSuffix(tr(" s"));
    m_timeoutS->setAccessibleName(tr("Time limit"));
    m_outputKiB->setObjectName(u"defaultOutput"_s);
    m_outputKiB->setRange(1, 64 * 1024);
    m_outputKiB->setSuffix(tr(" KiB"));
    m_outputKiB->setAccessibleName(tr("Output limit"));
    m_poolEnabled->setObjectName(u"poolEnabled"_s);
    m_poolMax->setObjectName(u"poolMax"_s);
    m_poolMax->setRange(1, 16);
    m_poolMax->setAccessibleName(tr("Warm sandboxes per kind at most"));

    QFormLayout *form = formFor(this);
    addRow(form, tr("&CPU:"), m_cpus);
    addRow(form, tr("&Memory:"), m_memoryMiB);
    addRow(form, tr("&Processes:"), m_pids);
    addRow(form, tr("&Time:"), m_timeoutS);
    addRow(form, tr("&Output:"), m_outputKiB);
    form->addRow(QString(), m_poolEnabled);
    addRow(form, tr("Pool si&ze per kind:"), m_poolMax);
    form->addRow(QString(),
                 noteLabel(tr("The same settings as the Limits and Sandbox Pool panels."), this));
}

QString SandboxPreferencesPage::title() const
{
    return tr("Sandbox");
}

void SandboxPreferencesPage::load(const QSettings &settings)
{
    using namespace StudioSettings;
    const sandbox::Limits d;
    m_cpus->setValue(settings.value(settingsKey(key::NanoCpus), d.nanoCpus).toLongLong() / 1e9);
    m_memoryMiB->setValue(
        int(settings.value(settingsKey(key::MemoryBytes), d.memoryBytes).toLongLong() / MiB));
    m_pids->setValue(int(settings.value(settingsKey(key::Pids), d.pids).toLongLong()));
    m_timeoutS->setValue(settings.value(settingsKey(key::TimeoutMs), d.timeoutMs).toLongLong() /
                         1000.0);
    m_outputKiB->setValue(
        int(settings.value(settingsKey(key::OutputBytes), d.outputBytes).toLongLong() / KiB));
    m_poolEnabled->setChecked(settings.value(settingsKey(key::PoolEnabled), true).toBool());
    m_poolMax->setValue(settings.value(settingsKey(key::PoolMax), DefaultPoolMax).toInt());
}

void SandboxPreferencesPage::save(QSettings &settings) const
{
    using namespace StudioSettings;
    settings.setValue(settingsKey(key::NanoCpus),
                      qint64(qRound64(m_cpus->value() * 10) * 100'000'000));
    settings.setValue(settingsKey(key::MemoryBytes), qint64(m_memoryMiB->value()) * MiB);
    settings.setValue(settingsKey(key::Pids), qint64(m_pids->value()));
    settings.setValue(settingsKey(key::TimeoutMs), qint64(qRound64(m_timeoutS->value() * 1000)));
    settings.setValue(settingsKey(key::OutputBytes), qint64(m_outputKiB->value()) * KiB);
    settings.setValue(settingsKey(key::PoolEnabled), m_poolEnabled->isChecked());
    settings.setValue(settingsKey(key::PoolMax), m_poolMax->value());
}

// ---------------------------------------------------------------------------------------
// Backend

BackendPreferencesPage::BackendPreferencesPage(QWidget *parent)
    : PreferencesPage(parent)
    , m_kind(new QComboBox(this))
    , m_uri(new QLineEdit(this))
    , m_certPath(new QLineEdit(this))
{
    setObjectName(u"backendPage"_s);
    m_kind->setObjectName(u"backendKind"_s);
    m_kind->setAccessibleName(tr("Backend kind"));
    m_kind->addItem(tr("Docker"), u"docker"_s);
    m_kind->addItem(tr("Docker over TLS"), u"docker-tls"_s);
    m_kind->addItem(tr("Podman"), u"podman"_s);
    m_kind->addItem(tr("Kubernetes"), u"kubernetes"_s);
    m_uri->setObjectName(u"backendUri"_s);
    m_uri->setAccessibleName(tr("Endpoint"));
    m_uri->setPlaceholderText(tr("DOCKER_HOST or unix:///var/run/docker.sock"));
    m_certPath->setObjectName(u"backendCertPath"_s);
    m_certPath->setAccessibleName(tr("Certificate folder"));
    m_certPath->setPlaceholderText(tr("DOCKER_CERT_PATH (ca.pem, cert.pem, key.pem)"));

    QFormLayout *form = formFor(this);
    addRow(form, tr("&Kind:"), m_kind);
    addRow(form, tr("&Endpoint:"), m_uri);
    addRow(form, tr("&Certificates:"), m_certPath);
    form->addRow(QString(), noteLabel(tr("Used from the next start on. Leave the endpoint "
                                         "empty to follow DOCKER_HOST or the local socket."),
                                      this));
}

QString BackendPreferencesPage::title() const
{
    return tr("Backend");
}

void BackendPreferencesPage::load(const QSettings &settings)
{
    using namespace StudioSettings;
    m_kind->setCurrentIndex(qMax(
        0,
        m_kind->findData(settings.value(settingsKey(key::BackendKind), u"docker"_s).toString())));
    m_uri->setText(settings.value(settingsKey(key::BackendUri)).toString());
    m_certPath->setText(settings.value(settingsKey(key::BackendCertPath)).toString());
}

void BackendPreferencesPage::save(QSettings &settings) const
{
    using namespace StudioSettings;
    settings.setValue(settingsKey(key::BackendKind), m_kind->currentData().toString());
    settings.setValue(settingsKey(key::BackendUri), m_uri->text().trimmed());
    settings.setValue(settingsKey(key::BackendCertPath), m_certPath->text().trimmed());
}

// ---------------------------------------------------------------------------------------
// Policy

PolicyPreferencesPage::PolicyPreferencesPage(QWidget *parent)
    : PreferencesPage(parent)
    , m_preset(new QComboBox(this))
{
    setObjectName(u"policyPage"_s);
    m_preset->setObjectName(u"policyPreset"_s);
    m_preset->setAccessibleName(tr("Policy preset"));
    m_preset->addItem(tr("Strict: no network, small limits"), u"strict"_s);
    m_preset->addItem(tr("Standard: no network, the default limits"), u"standard"_s);
    m_preset->addItem(tr("Open: network allowed"), u"open"_s);

    QFormLayout *form = formFor(this);
    addRow(form, tr("&Preset:"), m_preset);
    form->addRow(QString(), noteLabel(tr("The preset is stored for the run policy; the limits in "
                                         "the Limits panel still apply to each run."),
                                      this));
}

QString PolicyPreferencesPage::title() const
{
    return tr("Policy");
}

void PolicyPreferencesPage::load(const QSettings &settings)
{
    using namespace StudioSettings;
    m_preset->setCurrentIndex(
        qMax(0, m_preset->findData(settings.value(settingsKey(key::PolicyPreset), u"standard"_s))));
}

void PolicyPreferencesPage::save(QSettings &settings) const
{
    settings.setValue(settingsKey(StudioSettings::key::PolicyPreset),
                      m_preset->currentData().toString());
}

// ---------------------------------------------------------------------------------------
// MCP

McpPreferencesPage::McpPreferencesPage(QWidget *parent)
    : PreferencesPage(parent)
    , m_enabled(new QCheckBox(tr("Offer an MCP endpoint to language-model clients"), this))
    , m_port(new QSpinBox(this))
{
    setObjectName(u"mcpPage"_s);
    m_enabled->setObjectName(u"mcpEnabled"_s);
    m_port->setObjectName(u"mcpPort"_s);
    m_port->setRange(1024, 65535);
    m_port->setAccessibleName(tr("MCP port"));

    QFormLayout *form = formFor(this);
    form->addRow(QString(), m_enabled);
    addRow(form, tr("&Port on 127.0.0.1:"), m_port);
    form->addRow(QString(), noteLabel(tr("The endpoint listens on the loopback interface "
                                         "only. Stored for the MCP server."),
                                      this));
}

QString McpPreferencesPage::title() const
{
    return tr("MCP");
}

void McpPreferencesPage::load(const QSettings &settings)
{
    using namespace StudioSettings;
    m_enabled->setChecked(settings.value(settingsKey(key::McpEnabled), false).toBool());
    m_port->setValue(settings.value(settingsKey(key::McpPort), DefaultMcpPort).toInt());
}

void McpPreferencesPage::save(QSettings &settings) const
{
    using namespace StudioSettings;
    settings.setValue(settingsKey(key::McpEnabled), m_enabled->isChecked());
    settings.setValue(settingsKey(key::McpPort), m_port->value());
}
