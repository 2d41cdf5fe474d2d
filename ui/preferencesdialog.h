// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

class QCheckBox;
class QComboBox;
class QCoreApplication;
class QDoubleSpinBox;
class QLineEdit;
class QSettings;
class QSpinBox;
class QTabWidget;

/// Where the application keeps its settings and the keys other parts share. One INI file,
/// sandbox-studio.conf under QStandardPaths::AppConfigLocation
/// (~/.config/sandbox-studio/sandbox-studio/).
namespace StudioSettings {

/// Absolute path of the settings file.
QString filePath();
/// The settings file opened as QSettings (INI format).
std::unique_ptr<QSettings> open();

namespace key {
inline constexpr char UiLanguage[] = "ui/language"; ///< "" = the system locale, or "en", "de"
inline constexpr char Theme[] = "ui/theme";         ///< "system" | "light" | "dark"
inline constexpr char FirstRunDone[] = "ui/firstRunDone";
inline constexpr char ShowFirstRun[] = "ui/checkSetupAtStart"; ///< first-run check every start
inline constexpr char RecentFiles[] = "recentFiles";
inline constexpr char BackendKind[] = "backend/kind";         ///< BackendProfile::kind
inline constexpr char BackendUri[] = "backend/uri";           ///< empty = DOCKER_HOST / socket
inline constexpr char BackendCertPath[] = "backend/certPath"; ///< DOCKER_CERT_PATH-style folder
inline constexpr char PolicyPreset[] = "policy/preset";       ///< "strict" | "standard" | "open"
inline constexpr char McpEnabled[] = "mcp/enabled";
inline constexpr char McpPort[] = "mcp/port"; ///< loopback port of the MCP endpoint
inline constexpr char NanoCpus[] = "limits/nanoCpus";
inline constexpr char MemoryBytes[] = "limits/memoryBytes";
inline constexpr char Pids[] = "limits/pids";
inline constexpr char TimeoutMs[] = "limits/timeoutMs";
inline constexpr char OutputBytes[] = "limits/outputBytes";
inline constexpr char PoolEnabled[] = "pool/enabled";
inline constexpr char PoolMax[] = "pool/maxPerKey";
} // namespace key

/// How many recent files are kept.
inline constexpr int MaxRecentFiles = 10;
/// The recent files, newest first.
QStringList recentFiles(const QSettings &settings);
/// Puts path (made absolute) first in the recent files, dropping duplicates and the oldest
/// beyond MaxRecentFiles.
void addRecentFile(QSettings &settings, const QString &path);

/// The UI languages offered: {code, native name}; code "" is the system's language.
QList<std::pair<QString, QString>> uiLanguages();
/// Loads the application's translation (and Qt's own) for languageCode ("" = the system
/// locale's UI languages) into app, replacing translators installed by an earlier call.
/// Looks in ../share/sandbox-studio/translations next to the binary, then in the embedded
/// copies (qrc :/i18n). Returns the code of the loaded language ("en" when none applies).
QString installTranslators(QCoreApplication *app, const QString &languageCode);

/// Applies theme ("system" follows the desktop's palette and colour scheme; "light" and
/// "dark" are Fusion with a fixed palette) to the running QApplication. In "system" mode a
/// dark colour scheme without a dark platform palette gets the Fusion dark palette, and
/// later scheme changes are followed.
void applyTheme(const QString &theme);
/// Whether the application's current palette is dark (window text lighter than window).
bool paletteIsDark();

} // namespace StudioSettings

/// One page of the Preferences dialog. load() fills the controls from the settings;
/// save() writes them back. Pages added by other parts derive from this.
class PreferencesPage : public QWidget
{
    Q_OBJECT

public:
    using QWidget::QWidget;
    /// Tab title, translated.
    virtual QString title() const = 0;
    virtual void load(const QSettings &settings) = 0;
    virtual void save(QSettings &settings) const = 0;
};

/// Preferences (Settings ▸ Preferences, Ctrl+,): pages in tabs, each loading from and
/// saving to the application's QSettings. Built-in pages: General (UI language, theme,
/// setup check), Sandbox (default limits and pool sizes), Backend, Policy and MCP. Other
/// features extend it with addPage(). OK/Apply save every page and emit settingsApplied().
class PreferencesDialog final : public QDialog
{
    Q_OBJECT

public:
    /// settings must outlive the dialog.
    explicit PreferencesDialog(QSettings *settings, QWidget *parent = nullptr);

    /// Adds page as a tab (the dialog owns it) and loads it from the settings.
    void addPage(PreferencesPage *page);
    /// The page whose objectName is name, or nullptr.
    PreferencesPage *page(const QString &name) const;
    QTabWidget *tabs() const { return m_tabs; }

    /// Saves every page and syncs the settings file.
    void apply();
    void accept() override;

Q_SIGNALS:
    /// After apply(): the main window re-reads what it shows.
    void settingsApplied();

private:
    QSettings *m_settings;
    QTabWidget *m_tabs;
};

/// General: UI language, theme, whether the setup check runs at every start.
class GeneralPreferencesPage final : public PreferencesPage
{
    Q_OBJECT

public:
    explicit GeneralPreferencesPage(QWidget *parent = nullptr);
    QString title() const override;
    void load(const QSettings &settings) override;
    void save(QSettings &settings) const override;

private:
    QComboBox *m_language;
    QComboBox *m_theme;
    QCheckBox *m_checkSetup;
};

/// Sandbox: default limits of new runs and the pool sizes (the same settings as the Limits
/// and Sandbox Pool docks).
class SandboxPreferencesPage final : public PreferencesPage
{
    Q_OBJECT

public:
    explicit SandboxPreferencesPage(QWidget *parent = nullptr);
    QString title() const override;
    void load(const QSettings &settings) override;
    void save(QSettings &settings) const override;

private:
    QDoubleSpinBox *m_cpus;
    QSpinBox *m_memoryMiB;
    QSpinBox *m_pids;
    QDoubleSpinBox *m_timeoutS;
    QSpinBox *m_outputKiB;
    QCheckBox *m_poolEnabled;
    QSpinBox *m_poolMax;
};

/// Backend: the engine endpoint used at start (empty: DOCKER_HOST or the local socket).
class BackendPreferencesPage final : public PreferencesPage
{
    Q_OBJECT

public:
    explicit BackendPreferencesPage(QWidget *parent = nullptr);
    QString title() const override;
    void load(const QSettings &settings) override;
    void save(QSettings &settings) const override;

private:
    QComboBox *m_kind;
    QLineEdit *m_uri;
    QLineEdit *m_certPath;
};

/// Policy: the preset new runs start from (stored for the policy feature).
class PolicyPreferencesPage final : public PreferencesPage
{
    Q_OBJECT

public:
    explicit PolicyPreferencesPage(QWidget *parent = nullptr);
    QString title() const override;
    void load(const QSettings &settings) override;
    void save(QSettings &settings) const override;

private:
    QComboBox *m_preset;
};

/// MCP: whether the MCP endpoint is offered and its loopback port (stored for the MCP
/// server feature).
class McpPreferencesPage final : public PreferencesPage
{
    Q_OBJECT

public:
    explicit McpPreferencesPage(QWidget *parent = nullptr);
    QString title() const override;
    void load(const QSettings &settings) override;
    void save(QSettings &settings) const override;

private:
    QCheckBox *m_enabled;
    QSpinBox *m_port;
};
