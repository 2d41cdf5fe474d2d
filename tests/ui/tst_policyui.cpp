// SPDX-License-Identifier: GPL-3.0-or-later
// The policy and limits in the GUI (offscreen): findings marked in the editor with tooltips,
// the policy editor (preset, severity mapping, adding a rule through its form, stored and
// used by the window), the limits panel refusing memory below the language's minimum, and
// a run the policy blocks, shown in the console without starting a sandbox.
#include "codeeditor.h"
#include "limitspanel.h"
#include "mainwindow.h"
#include "outputconsole.h"
#include "policydialog.h"
#include "testsupport.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

using namespace sandbox;
using namespace Qt::StringLiterals;

class TestPolicyUi final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void editorMarksFindings();
    void dialogEditsAndStores();
    void limitsPanelRefusesTooLittleMemory();
    void windowChecksLiveAndBlocksRuns();
    void windowAsksBeforeRunning();
};

void TestPolicyUi::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    if (!qEnvironmentVariableIsSet("SANDBOX_AGENT_PATH"))
        qputenv("SANDBOX_AGENT_PATH", SANDBOX_AGENT_BINARY);
}

void TestPolicyUi::init()
{
    for (auto location : {QStandardPaths::AppDataLocation, QStandardPaths::AppConfigLocation}) {
        const QString dir = QStandardPaths::writableLocation(location);
        QVERIFY(dir.contains(u".qttest"_s));
        QDir(dir).removeRecursively();
    }
}

void TestPolicyUi::editorMarksFindings()
{
    CodeEditor editor;
    editor.setPlainText(u"# import ctypes\nimport ctypes\nprint(1)\n"_s);
    const Policy standard = *Policy::preset(u"standard"_s);
    editor.setFindings(standard.check(u"python"_s, editor.toPlainText()));
    QCOMPARE(editor.findings().size(), 1);
    QCOMPARE(editor.findings()[0].line, 2); // not the comment on line 1
    int wavy = 0;
    for (const auto &sel : editor.extraSelections())
        if (sel.format.underlineStyle() == QTextCharFormat::WaveUnderline) {
            ++wavy;
            QCOMPARE(sel.cursor.block().blockNumber(), 1);
        }
    QCOMPARE(wavy, 1);
    QVERIFY(editor.findingsTooltip(2).contains(u"Policy ask (high, py-native)"_s));
    QVERIFY(editor.findingsTooltip(1).isEmpty());
    editor.setFindings({});
    for (const auto &sel : editor.extraSelections())
        QVERIFY(sel.format.underlineStyle() != QTextCharFormat::WaveUnderline);
}

void TestPolicyUi::dialogEditsAndStores()
{
    PolicyDialog dialog(*Policy::preset(u"standard"_s));
    auto *preset = dialog.findChild<QComboBox *>(u"policyPreset"_s);
    QVERIFY(preset);
    QCOMPARE(preset->currentText(), u"standard"_s);
    preset->setCurrentText(u"strict"_s);
    QCOMPARE(dialog.policy().base(), u"strict"_s);
    QCOMPARE(dialog.policy().actionFor(Severity::High), PolicyAction::Block);

    auto *medium = dialog.findChild<QComboBox *>(u"severityAction_medium"_s);
    QVERIFY(medium);
    medium->setCurrentIndex(medium->findText(u"block"_s));
    QCOMPARE(dialog.policy().actionFor(Severity::Medium), PolicyAction::Block);

    // Add a rule through the form (a modal dialog: filled in once it shows).
    bool filled = false;
    QTimer::singleShot(0, this, [&] {
        auto *form = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        QVERIFY(form);
        QCOMPARE(form->objectName(), u"ruleForm"_s);
        form->findChild<QLineEdit *>(u"ruleId"_s)->setText(u"no-pickle"_s);
        form->findChild<QLineEdit *>(u"ruleLanguages"_s)->setText(u"python"_s);
        form->findChild<QComboBox *>(u"ruleKind"_s)->setCurrentIndex(0);
        form->findChild<QLineEdit *>(u"ruleValue"_s)->setText(u"pickle, shelve"_s);
        auto *severity = form->findChild<QComboBox *>(u"ruleSeverity"_s);
        severity->setCurrentIndex(severity->findText(u"critical"_s));
        form->findChild<QLineEdit *>(u"ruleMessage"_s)->setText(u"untrusted deserialisation"_s);
        form->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        filled = true;
    });
    dialog.findChild<QPushButton *>(u"addRule"_s)->click();
    QVERIFY(filled);
    QVERIFY(dialog.policy().userRuleIds().contains(u"no-pickle"_s));
    const auto v = evaluatePolicy(dialog.policy(), u"python"_s, u"import shelve\n"_s);
    QCOMPARE(v.action, PolicyAction::Block);

    // A bad pattern is refused in the form, with the reason.
    QString formError;
    QTimer::singleShot(0, this, [&] {
        auto *form = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        QVERIFY(form);
        form->findChild<QComboBox *>(u"ruleKind"_s)->setCurrentIndex(1);
        form->findChild<QLineEdit *>(u"ruleValue"_s)->setText(u"(unclosed"_s);
        form->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        formError = form->findChild<QLabel *>(u"ruleError"_s)->text();
        form->reject();
    });
    dialog.findChild<QPushButton *>(u"addRule"_s)->click();
    QVERIFY2(formError.contains(u"bad pattern"_s), qPrintable(formError));

    QVERIFY_RESULT(PolicyDialog::store(dialog.policy()));
    QString error;
    const Policy stored = PolicyDialog::loadStored(&error);
    QVERIFY(error.isEmpty());
    QCOMPARE(stored.actionFor(Severity::Medium), PolicyAction::Block);
    QVERIFY(stored.userRuleIds().contains(u"no-pickle"_s));
}

void TestPolicyUi::limitsPanelRefusesTooLittleMemory()
{
    LimitsPanel panel;
    Limits l;
    l.memoryBytes = 64ll << 20;
    panel.setLimits(l);
    panel.setLanguage(u"python"_s);
    QVERIFY(panel.validationError().isEmpty());
    auto *error = panel.findChild<QLabel *>(u"limitsError"_s);
    QVERIFY(error);
    QVERIFY(error->isHidden());
    panel.setLanguage(u"java"_s);
    QCOMPARE(panel.validationError(),
             u"memory limit 64 MiB is below what Java needs (at least 128 MiB)"_s);
    QVERIFY(!error->isHidden());
    QCOMPARE(error->text(), panel.validationError());
    l.workDirBytes = 32ll << 20;
    l.memoryBytes = 256ll << 20;
    panel.setLimits(l);
    QVERIFY(panel.validationError().isEmpty());
    QCOMPARE(panel.limits().workDirBytes, 32ll << 20);
}

void TestPolicyUi::windowChecksLiveAndBlocksRuns()
{
    auto engine = test::requireEngine();
    QVERIFY(engine);
    MainWindow window(engine);
    window.show();
    auto *editor = window.findChild<CodeEditor *>(u"editor"_s);
    QVERIFY(editor);
    // Live check while typing (the active policy: standard).
    editor->setPlainText(u"print('/var/run/docker.sock')\n"_s);
    QTRY_COMPARE(editor->findings().size(), 1);
    QCOMPARE(editor->findings()[0].rule, u"engine-socket"_s);
    QCOMPARE(editor->findings()[0].action, u"block"_s);

    // Running it: the engine refuses before any sandbox, and the console says why.
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runCode();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60'000);
    auto *console = window.findChild<OutputConsole *>(u"console"_s);
    QVERIFY(console);
    QTRY_VERIFY(console->toPlainText().contains(u"not run: blocked by policy 'standard'"_s));
    QVERIFY(!console->toPlainText().contains(u"exit "_s));
    // No one-shot sandbox was made (the window's pool keeps its own warm ones).
    auto oneshots = engine->runtime().list(QString::fromLatin1(labels::Kind), u"oneshot"_s);
    QVERIFY_RESULT(oneshots);
    for (const SandboxInfo &s : *oneshots)
        QVERIFY(s.labels.value(QString::fromLatin1(labels::Owner)) != ownerLabel());
}

void TestPolicyUi::windowAsksBeforeRunning()
{
    auto engine = test::requireEngine();
    QVERIFY(engine);
    MainWindow window(engine);
    window.show();
    auto *editor = window.findChild<CodeEditor *>(u"editor"_s);
    auto *console = window.findChild<OutputConsole *>(u"console"_s);
    QVERIFY(editor && console);
    editor->setPlainText(u"import ctypes\nprint('approved ' + 'run')\n"_s); // high: ask

    // The question comes as a modal box on the GUI thread while the run's worker waits.
    int asked = 0;
    QMessageBox::StandardButton answer = QMessageBox::No;
    QTimer answerer;
    answerer.setInterval(50);
    connect(&answerer, &QTimer::timeout, this, [&] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
            ++asked;
            QVERIFY(box->text().contains(u"py-native"_s));
            box->button(answer)->click();
        }
    });
    answerer.start();

    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runCode();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60'000);
    QCOMPARE(asked, 1);
    QVERIFY(console->toPlainText().contains(u"not run: not approved under policy 'standard'"_s));

    answer = QMessageBox::Yes;
    window.runCode();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 90'000);
    QCOMPARE(asked, 2);
    QTRY_VERIFY(console->toPlainText().contains(u"approved run"_s));
    QVERIFY(console->toPlainText().contains(u"policy py-native (high, ask)"_s));
}

QTEST_MAIN(TestPolicyUi)
#include "tst_policyui.moc"
