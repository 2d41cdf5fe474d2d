// SPDX-License-Identifier: GPL-3.0-or-later
// Keyboard and accessibility: every frequent action has a shortcut and no two share one;
// every focusable control has an accessible name (or a label buddy that names it); the Help
// page lists the shortcuts; the About page names version and engine.
#include "aboutdialog.h"
#include "firstrundialog.h"
#include "mainwindow.h"
#include "preferencesdialog.h"

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>

using namespace Qt::StringLiterals;

namespace {

/// Controls that take focus but nobody can name: "objectName (class)".
QStringList unnamedControls(QWidget *root)
{
    QHash<QWidget *, QString> buddies;
    for (QLabel *label : root->findChildren<QLabel *>())
        if (label->buddy())
            buddies.insert(label->buddy(), label->text());
    QStringList out;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (w->focusPolicy() == Qt::NoFocus || !w->isVisibleTo(root) || w->isWindow())
            continue;
        // Internal parts of composite widgets (a spin box's line edit, a scroll area's
        // viewport, a combo's popup) are named through their owner.
        if (w->focusProxy() || qobject_cast<QAbstractSpinBox *>(w->parentWidget()) ||
            qobject_cast<QComboBox *>(w->parentWidget()) || w->objectName().startsWith(u"qt_"_s))
            continue;
        if (!w->accessibleName().isEmpty() || buddies.contains(w))
            continue;
        if (auto *b = qobject_cast<QAbstractButton *>(w); b && !b->text().isEmpty())
            continue;
        if (auto *l = qobject_cast<QLabel *>(w); l && !l->text().isEmpty())
            continue; // a label's text is its accessible name
        // The tabs of tabified docks are Qt's own; each tab reads its dock's title.
        if (qstrcmp(w->metaObject()->className(), "QMainWindowTabBar") == 0)
            continue;
        out << u"%1 (%2)"_s.arg(w->objectName(), QString::fromLatin1(w->metaObject()->className()));
    }
    return out;
}

} // namespace

class TestDesktop final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void frequentActionsHaveUniqueShortcuts();
    void languageShortcutsSwitchTheLanguage();
    void controlsHaveAccessibleNames();
    void helpListsShortcutsCliAndMcp();
    void aboutNamesVersionAndEngine();
    void dialogsArePhotographed();
};

void TestDesktop::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QFile::remove(StudioSettings::filePath());
}

void TestDesktop::frequentActionsHaveUniqueShortcuts()
{
    MainWindow window(nullptr);
    const QStringList frequent{u"runAction"_s,          u"stopAction"_s, u"clearAction"_s,
                               u"notebookModeAction"_s, u"openAction"_s, u"saveAsAction"_s,
                               u"preferencesAction"_s,  u"helpAction"_s, u"retryAction"_s,
                               u"fullScreenAction"_s};
    for (const QString &name : frequent) {
        auto *action = window.findChild<QAction *>(name);
        QVERIFY2(action, qPrintable(name));
        QVERIFY2(!action->shortcut().isEmpty(), qPrintable(name + u" has no shortcut"_s));
    }
    QHash<QString, QString> owner;
    QStringList clashes;
    for (QAction *a : window.shortcutActions()) {
        for (const QKeySequence &k : a->shortcuts()) {
            const QString key = k.toString(QKeySequence::PortableText);
            // The notebook's actions live in notebook mode, the script's in script mode.
            const QString scope = a->parent() == &window ? u"window"_s : u"notebook"_s;
            const QString id = scope + u':' + key;
            if (owner.contains(id) && owner[id] != a->text())
                clashes << u"%1: %2 / %3"_s.arg(key, owner[id], a->text());
            owner.insert(id, a->text());
        }
    }
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(u'\n')));
}

void TestDesktop::languageShortcutsSwitchTheLanguage()
{
    MainWindow window(nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
    QTRY_COMPARE(window.language(), u"javascript"_s);
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    QTRY_COMPARE(window.language(), u"python"_s);
}

void TestDesktop::controlsHaveAccessibleNames()
{
    MainWindow window(nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QStringList unnamed = unnamedControls(&window);
    QVERIFY2(unnamed.isEmpty(), qPrintable(u"main window: "_s + unnamed.join(u", "_s)));
    window.setNotebookMode(true);
    unnamed = unnamedControls(&window);
    QVERIFY2(unnamed.isEmpty(), qPrintable(u"notebook: "_s + unnamed.join(u", "_s)));
    window.setNotebookMode(false);

    QSettings settings(StudioSettings::filePath(), QSettings::IniFormat);
    PreferencesDialog prefs(&settings);
    prefs.show();
    for (int i = 0; i < prefs.tabs()->count(); ++i) {
        prefs.tabs()->setCurrentIndex(i);
        unnamed = unnamedControls(prefs.tabs()->widget(i));
        QVERIFY2(unnamed.isEmpty(),
                 qPrintable(prefs.tabs()->tabText(i) + u": "_s + unnamed.join(u", "_s)));
    }
    FirstRunDialog firstRun(nullptr);
    firstRun.show();
    unnamed = unnamedControls(&firstRun);
    QVERIFY2(unnamed.isEmpty(), qPrintable(u"first run: "_s + unnamed.join(u", "_s)));
}

void TestDesktop::helpListsShortcutsCliAndMcp()
{
    MainWindow window(nullptr);
    AboutDialog dialog(window.shortcutActions(), u"Docker 26 at unix:///var/run/docker.sock"_s);
    dialog.showPage(AboutDialog::Page::Help);
    const QString help = dialog.helpText()->toPlainText();
    QVERIFY2(help.contains(u"Keyboard shortcuts"_s), qPrintable(help));
    const QString run = QKeySequence(Qt::CTRL | Qt::Key_Return).toString(QKeySequence::NativeText);
    QVERIFY2(help.contains(run), qPrintable(help));
    QVERIFY(help.contains(u"F1"_s));
    QVERIFY(help.contains(u"sandbox-studio run --language python -"_s));
    QVERIFY(help.contains(u"MCP"_s));
    QVERIFY(help.contains(u"127.0.0.1"_s));
}

void TestDesktop::aboutNamesVersionAndEngine()
{
    AboutDialog dialog({}, u"Docker 26.1 at unix:///var/run/docker.sock"_s);
    const QString about = dialog.aboutText()->toPlainText();
    QVERIFY(about.contains(QStringLiteral(SANDBOX_STUDIO_VERSION)));
    QVERIFY(about.contains(u"Docker 26.1 at unix:///var/run/docker.sock"_s));
    QVERIFY(about.contains(QString::fromLatin1(qVersion())));
}

void TestDesktop::dialogsArePhotographed()
{
    // Pictures of the dialogs for people reviewing the UI (test-output/dialog-*.png).
    const QString out = QStringLiteral(SANDBOX_TEST_OUTPUT_DIR);
    MainWindow window(nullptr);
    QSettings settings(StudioSettings::filePath(), QSettings::IniFormat);
    PreferencesDialog prefs(&settings);
    prefs.show();
    for (int i = 0; i < prefs.tabs()->count(); ++i) {
        prefs.tabs()->setCurrentIndex(i);
        const QString file = out + u"/dialog-preferences-%1.png"_s.arg(i);
        QVERIFY2(prefs.grab().save(file), qPrintable(file));
    }
    AboutDialog help(window.shortcutActions(), u"Docker 26.1 at unix:///var/run/docker.sock"_s);
    help.showPage(AboutDialog::Page::Help);
    help.show();
    QVERIFY(help.grab().save(out + u"/dialog-help.png"_s));
    FirstRunDialog firstRun(nullptr);
    firstRun.setCandidates({{u"Docker"_s, u"unix:///var/run/docker.sock"_s},
                            {u"Podman"_s, u"unix:///nonexistent/podman.sock"_s}});
    QSignalSpy done(&firstRun, &FirstRunDialog::detectionFinished);
    firstRun.show();
    firstRun.startDetection();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30'000);
    QVERIFY(firstRun.grab().save(out + u"/dialog-firstrun.png"_s));
}

QTEST_MAIN(TestDesktop)
#include "tst_desktop.moc"
