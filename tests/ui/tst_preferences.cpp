// SPDX-License-Identifier: GPL-3.0-or-later
// Settings round trip: what the window and the Preferences dialog write to the settings file
// comes back in a new window and a new dialog (limits, pool sizes, window layout, recent
// files, UI language, theme, backend endpoint, policy preset, MCP endpoint). No engine is
// needed: the window is created without one.
#include "limitspanel.h"
#include "mainwindow.h"
#include "poolpanel.h"
#include "preferencesdialog.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleHints>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;

class TestPreferences final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void windowSettingsSurviveARestart();
    void recentFilesAreCappedAndDeduplicated();
    void preferencesRoundTrip();
    void preferencesApplyToTheOpenWindow();
    void darkThemeIsDark();

private:
    QTemporaryDir m_dir;
};

void TestPreferences::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
}

void TestPreferences::init()
{
    QFile::remove(StudioSettings::filePath());
}

void TestPreferences::windowSettingsSurviveARestart()
{
    const QString code = m_dir.filePath(u"hello.js"_s);
    {
        QFile f(code);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("console.log('hi from a file')\n");
    }
    sandbox::Limits limits;
    limits.memoryBytes = 768ll << 20;
    limits.nanoCpus = 1'500'000'000;
    limits.pids = 96;
    limits.timeoutMs = 45'000;
    limits.outputBytes = 256ll << 10;
    {
        MainWindow window(nullptr);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.limitsPanel()->setLimits(limits);
        window.limitsPanel()->setNetworkEnabled(true);
        window.poolPanel()->setMaxPerKey(7);
        window.poolPanel()->setWarmFor(u"python"_s, 3);
        // Layout: the limits dock moves to the left, the pool dock is hidden.
        auto *limitsDock = window.findChild<QDockWidget *>(u"limitsDock"_s);
        QVERIFY(limitsDock);
        window.addDockWidget(Qt::LeftDockWidgetArea, limitsDock);
        window.poolDock()->hide();
        QVERIFY(window.openFile(code));
        QCOMPARE(window.language(), u"javascript"_s);
        QCOMPARE(window.editor()->toPlainText(), u"console.log('hi from a file')\n"_s);
        QVERIFY(window.close());
    }

    MainWindow again(nullptr);
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    const sandbox::Limits restored = again.limitsPanel()->limits();
    QCOMPARE(restored.memoryBytes, limits.memoryBytes);
    QCOMPARE(restored.nanoCpus, limits.nanoCpus);
    QCOMPARE(restored.pids, limits.pids);
    QCOMPARE(restored.timeoutMs, limits.timeoutMs);
    QCOMPARE(restored.outputBytes, limits.outputBytes);
    QVERIFY(again.limitsPanel()->networkEnabled());
    QCOMPARE(again.poolPanel()->maxPerKey(), 7);
    QCOMPARE(again.poolPanel()->warmCounts().value(u"python"_s), 3);
    auto *limitsDock = again.findChild<QDockWidget *>(u"limitsDock"_s);
    QCOMPARE(again.dockWidgetArea(limitsDock), Qt::LeftDockWidgetArea);
    QVERIFY(!again.poolDock()->isVisible());
    QCOMPARE(again.language(), u"javascript"_s);
    // The recent file is in File ▸ Open Recent and opens again.
    QMenu *recent = again.recentFilesMenu();
    QVERIFY(recent && recent->isEnabled());
    QCOMPARE(recent->actions().value(0)->text(), u"hello.js"_s);
    QCOMPARE(recent->actions().value(0)->toolTip(), QFileInfo(code).absoluteFilePath());
    again.editor()->clear();
    recent->actions().value(0)->trigger();
    QCOMPARE(again.editor()->toPlainText(), u"console.log('hi from a file')\n"_s);
}

void TestPreferences::recentFilesAreCappedAndDeduplicated()
{
    QSettings settings(StudioSettings::filePath(), QSettings::IniFormat);
    for (int i = 0; i < StudioSettings::MaxRecentFiles + 5; ++i)
        StudioSettings::addRecentFile(settings, m_dir.filePath(u"f%1.py"_s.arg(i)));
    StudioSettings::addRecentFile(settings, m_dir.filePath(u"f7.py"_s));
    const QStringList files = StudioSettings::recentFiles(settings);
    QCOMPARE(files.size(), StudioSettings::MaxRecentFiles);
    QCOMPARE(files.first(), m_dir.filePath(u"f7.py"_s));
    QCOMPARE(files.count(m_dir.filePath(u"f7.py"_s)), 1);
    QVERIFY(!files.contains(m_dir.filePath(u"f0.py"_s))); // the oldest fell off
}

void TestPreferences::preferencesRoundTrip()
{
    QSettings settings(StudioSettings::filePath(), QSettings::IniFormat);
    {
        PreferencesDialog dialog(&settings);
        QStringList titles;
        for (int i = 0; i < dialog.tabs()->count(); ++i)
            titles << dialog.tabs()->tabText(i);
        QCOMPARE(titles,
                 (QStringList{u"General"_s, u"Sandbox"_s, u"Backend"_s, u"Policy"_s, u"MCP"_s}));
        auto *language = dialog.findChild<QComboBox *>(u"uiLanguage"_s);
        auto *theme = dialog.findChild<QComboBox *>(u"theme"_s);
        auto *memory = dialog.findChild<QSpinBox *>(u"defaultMemory"_s);
        auto *timeout = dialog.findChild<QDoubleSpinBox *>(u"defaultTimeout"_s);
        auto *poolMax = dialog.findChild<QSpinBox *>(u"poolMax"_s);
        auto *uri = dialog.findChild<QLineEdit *>(u"backendUri"_s);
        auto *preset = dialog.findChild<QComboBox *>(u"policyPreset"_s);
        auto *mcp = dialog.findChild<QCheckBox *>(u"mcpEnabled"_s);
        auto *port = dialog.findChild<QSpinBox *>(u"mcpPort"_s);
        QVERIFY(language && theme && memory && timeout && poolMax && uri && preset && mcp && port);
        // Defaults when nothing is stored.
        QCOMPARE(language->currentData().toString(), QString());
        QCOMPARE(theme->currentData().toString(), u"system"_s);
        QCOMPARE(memory->value(), 512);
        QCOMPARE(preset->currentData().toString(), u"standard"_s);

        language->setCurrentIndex(language->findData(u"de"_s));
        memory->setValue(1024);
        timeout->setValue(12);
        poolMax->setValue(3);
        uri->setText(u"  unix:///run/user/1000/podman/podman.sock "_s);
        preset->setCurrentIndex(preset->findData(u"strict"_s));
        mcp->setChecked(true);
        port->setValue(9123);
        QSignalSpy applied(&dialog, &PreferencesDialog::settingsApplied);
        dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QCOMPARE(applied.count(), 1);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    // In the file, under the keys the rest of the application reads.
    QSettings file(StudioSettings::filePath(), QSettings::IniFormat);
    QCOMPARE(file.value(u"ui/language"_s).toString(), u"de"_s);
    QCOMPARE(file.value(u"limits/memoryBytes"_s).toLongLong(), 1024ll << 20);
    QCOMPARE(file.value(u"limits/timeoutMs"_s).toLongLong(), 12'000);
    QCOMPARE(file.value(u"pool/maxPerKey"_s).toInt(), 3);
    QCOMPARE(file.value(u"backend/uri"_s).toString(),
             u"unix:///run/user/1000/podman/podman.sock"_s);
    QCOMPARE(file.value(u"policy/preset"_s).toString(), u"strict"_s);
    QCOMPARE(file.value(u"mcp/enabled"_s).toBool(), true);
    QCOMPARE(file.value(u"mcp/port"_s).toInt(), 9123);

    // A new dialog shows them again.
    PreferencesDialog again(&file);
    QCOMPARE(again.findChild<QComboBox *>(u"uiLanguage"_s)->currentData().toString(), u"de"_s);
    QCOMPARE(again.findChild<QSpinBox *>(u"defaultMemory"_s)->value(), 1024);
    QCOMPARE(again.findChild<QSpinBox *>(u"poolMax"_s)->value(), 3);
    QCOMPARE(again.findChild<QComboBox *>(u"policyPreset"_s)->currentData().toString(),
             u"strict"_s);
    QCOMPARE(again.findChild<QSpinBox *>(u"mcpPort"_s)->value(), 9123);
    QVERIFY(again.page(u"mcpPage"_s));
    QVERIFY(!again.page(u"noSuchPage"_s));
}

void TestPreferences::preferencesApplyToTheOpenWindow()
{
    MainWindow window(nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.limitsPanel()->limits().memoryBytes, sandbox::Limits().memoryBytes);

    // Edit -> Preferences is modal: change it from inside its event loop.
    bool seen = false;
    QTimer::singleShot(0, this, [&seen] {
        auto *dialog = qobject_cast<PreferencesDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        seen = true;
        dialog->findChild<QSpinBox *>(u"defaultMemory"_s)->setValue(2048);
        dialog->findChild<QSpinBox *>(u"defaultPids"_s)->setValue(128);
        dialog->findChild<QSpinBox *>(u"poolMax"_s)->setValue(5);
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
    });
    window.preferencesAction()->trigger();
    QVERIFY(seen);
    QCOMPARE(window.limitsPanel()->limits().memoryBytes, 2048ll << 20);
    QCOMPARE(window.limitsPanel()->limits().pids, 128);
    QCOMPARE(window.poolPanel()->maxPerKey(), 5);
}

void TestPreferences::darkThemeIsDark()
{
    StudioSettings::applyTheme(u"dark"_s);
    QVERIFY(StudioSettings::paletteIsDark());
    QCOMPARE(QApplication::style()->name().toLower(), u"fusion"_s);
    StudioSettings::applyTheme(u"light"_s);
    QVERIFY(!StudioSettings::paletteIsDark());
    StudioSettings::applyTheme(u"system"_s);
    // The offscreen platform reports no dark scheme: the system palette is light.
    QCOMPARE(StudioSettings::paletteIsDark(),
             QGuiApplication::styleHints()->colorScheme() == Qt::ColorScheme::Dark);
}

QTEST_MAIN(TestPreferences)
#include "tst_preferences.moc"
