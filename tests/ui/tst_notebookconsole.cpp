// SPDX-License-Identifier: GPL-3.0-or-later
// Widget tests of the notebook: cells run by keyboard against a real Python kernel
// (Docker at DOCKER_HOST or /var/run/docker.sock and the Python sandbox image), state that
// survives an interrupt, inline images, .ipynb export, restart, engine errors shown in the
// cell, and closing without blocking. A test that needs Docker fails saying what to start.
#include "celloutputs.h"
#include "codeeditor.h"
#include "mainwindow.h"
#include "notebookcell.h"
#include "notebookconsole.h"
#include "session/engine.h"
#include "testsupport.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLoggingCategory>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

using namespace Qt::StringLiterals;
using sandbox::CellOutput;

namespace {

constexpr int StartTimeoutMs = 120'000; // a cold start creates the sandbox
constexpr int CellTimeoutMs = 90'000;   // matplotlib's first import builds its font cache

/// Text of the cell's first output widget of type T whose objectName is name.
template <typename T> T *findOutput(const NotebookCell *cell, const QString &name = {})
{
    for (QWidget *widget : cell->outputWidgets())
        if (auto *typed = qobject_cast<T *>(widget))
            if (name.isEmpty() || typed->objectName() == name)
                return typed;
    return nullptr;
}

QString resultText(const NotebookCell *cell)
{
    const OutputText *result = findOutput<OutputText>(cell, u"resultOutput"_s);
    return result ? result->text() : QString();
}

QString stdoutText(const NotebookCell *cell)
{
    const OutputText *out = findOutput<OutputText>(cell, u"stdoutOutput"_s);
    return out ? out->text() : QString();
}

QString errorHeadline(const NotebookCell *cell)
{
    const OutputError *error = findOutput<OutputError>(cell);
    return error ? error->headline() : QString();
}

} // namespace

class TestNotebookConsole final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void runsCellsByKeyboardKeepsStateAcrossInterrupt();
    void restartClearsState();
    void cellTimeLimitInterrupts();
    void runsEachKernelLanguage_data();
    void runsEachKernelLanguage();
    void showsEngineErrorsInTheCell();
    void interruptWhileStartingCancelsTheStart();
    void closingRemovesTheSandboxWithoutBlocking();
    void outputTextRendersAndCollapses();
    void keyboardNavigatesAndEditsCells();
    void mainWindowSwitchesToNotebook();
    void mainWindowAsksBeforeSwitchingKernelLanguage();

    void cleanupTestCase();

private:
    /// The real engine with the Python image; fails the calling test with what to start.
    std::shared_ptr<sandbox::Engine> requireEngine();
    /// A shown notebook with limits that leave time for a cold matplotlib import.
    std::unique_ptr<NotebookConsole> makeNotebook();
    /// Types code into cell and presses keys (Shift+Return by default).
    void typeAndRun(NotebookCell *cell, const QString &code,
                    Qt::KeyboardModifiers modifiers = Qt::ShiftModifier);
    int sandboxesOfThisProcess();

    std::shared_ptr<sandbox::Engine> m_engine;
};

void TestNotebookConsole::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLoggingCategory::setFilterRules(u"sandbox.*.debug=false"_s);
    for (auto location : {QStandardPaths::AppDataLocation, QStandardPaths::AppConfigLocation}) {
        const QString dir = QStandardPaths::writableLocation(location);
        QVERIFY(dir.contains(u".qttest"_s));
        QDir(dir).removeRecursively();
    }
}

std::shared_ptr<sandbox::Engine> TestNotebookConsole::requireEngine()
{
    // The shared check: fails (never skips) with what to start or build.
    if (!m_engine)
        m_engine = sandbox::test::requireEngine(u"python"_s);
    return m_engine;
}

std::unique_ptr<NotebookConsole> TestNotebookConsole::makeNotebook()
{
    auto notebook = std::make_unique<NotebookConsole>(m_engine);
    sandbox::Limits limits;
    limits.timeoutMs = CellTimeoutMs;
    limits.memoryBytes = 1ll << 30;
    notebook->setLimits(limits, sandbox::NetworkMode::None);
    notebook->resize(900, 700);
    notebook->show();
    if (!QTest::qWaitForWindowExposed(notebook.get()))
        qWarning("the notebook window was not exposed");
    return notebook;
}

void TestNotebookConsole::typeAndRun(NotebookCell *cell, const QString &code,
                                     Qt::KeyboardModifiers modifiers)
{
    cell->editor()->setFocus();
    QTest::keyClicks(cell->editor(), code);
    QCOMPARE(cell->source(), code);
    QTest::keyClick(cell->editor(), Qt::Key_Return, modifiers);
}

int TestNotebookConsole::sandboxesOfThisProcess()
{
    auto list =
        m_engine->runtime().list(QLatin1String(sandbox::labels::Owner), sandbox::ownerLabel());
    return list ? int(list->size()) : -1;
}

void TestNotebookConsole::runsCellsByKeyboardKeepsStateAcrossInterrupt()
{
    if (!requireEngine())
        return;
    auto notebook = makeNotebook();
    QCOMPARE(notebook->cellCount(), 1);
    QCOMPARE(notebook->kernelState(), NotebookConsole::KernelState::None);

    // Cell 1: the first run starts the kernel, visibly.
    NotebookCell *c1 = notebook->cell(0);
    QCOMPARE(c1->editor()->highlightingDefinition(), u"Python"_s);
    typeAndRun(c1, u"x = 20"_s);
    QCOMPARE(notebook->kernelState(), NotebookConsole::KernelState::Starting);
    QVERIFY(notebook->statusText().contains(u"Starting"_s));
    QCOMPARE(c1->promptText(), u"[*]"_s);
    QCOMPARE(notebook->cellCount(), 2); // Shift+Return created the next cell
    QCOMPARE(notebook->currentCell(), notebook->cell(1));
    QTRY_COMPARE_WITH_TIMEOUT(c1->promptText(), u"[1]"_s, StartTimeoutMs);
    QVERIFY2(c1->outputWidgets().isEmpty(), qPrintable(errorHeadline(c1)));
    QTRY_COMPARE(notebook->kernelState(), NotebookConsole::KernelState::Idle);
    QVERIFY2(notebook->statusText().contains(u"Python 3."_s), qPrintable(notebook->statusText()));
    QVERIFY(notebook->statusText().contains(u"idle"_s));

    // Cell 2: the value of the last expression, as "Out[2]:".
    NotebookCell *c2 = notebook->cell(1);
    typeAndRun(c2, u"x + 1"_s);
    QTRY_COMPARE_WITH_TIMEOUT(c2->promptText(), u"[2]"_s, CellTimeoutMs);
    QCOMPARE(resultText(c2), u"21"_s);
    QCOMPARE(c2->executionCount(), 2);

    // Cell 3: prints forever; interrupt it once it has printed.
    NotebookCell *c3 = notebook->cell(2);
    typeAndRun(c3, u"while True: print('tick', flush=True); __import__('time').sleep(0.2)"_s);
    QTRY_VERIFY_WITH_TIMEOUT(stdoutText(c3).contains(u"tick"_s), CellTimeoutMs);
    QCOMPARE(c3->promptText(), u"[*]"_s);
    QCOMPARE(notebook->kernelState(), NotebookConsole::KernelState::Busy);
    QVERIFY(notebook->interruptAction()->isEnabled());
    auto *interrupt = notebook->findChild<QToolButton *>(u"interruptButton"_s);
    QVERIFY(interrupt);
    QTest::mouseClick(interrupt, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(errorHeadline(c3).startsWith(u"KeyboardInterrupt"_s), 20'000);
    QTRY_COMPARE(notebook->kernelState(), NotebookConsole::KernelState::Idle);
    QVERIFY(notebook->statusText().contains(u"idle"_s));
    QCOMPARE(c3->promptText(), u"[3]"_s);
    QVERIFY(c3->footer().contains(u"interrupted"_s));

    // Cell 4: the state survived the interrupt.
    NotebookCell *c4 = notebook->cell(3);
    QVERIFY(c4);
    typeAndRun(c4, u"x * 2"_s);
    QTRY_COMPARE_WITH_TIMEOUT(resultText(c4), u"40"_s, CellTimeoutMs);
    QCOMPARE(c4->promptText(), u"[4]"_s);

    // Cell 5: a matplotlib figure shows inline.
    NotebookCell *c5 = notebook->cell(4);
    QSignalSpy displayed(notebook.get(), &NotebookConsole::imageDisplayed);
    typeAndRun(c5, u"import matplotlib.pyplot as plt; plt.plot([1,2,3]); plt.show()"_s,
               Qt::ControlModifier); // in place: no sixth cell
    QTRY_COMPARE_WITH_TIMEOUT(c5->state(), NotebookCell::State::Idle, CellTimeoutMs);
    QVERIFY2(!errorHeadline(c5).size(), qPrintable(errorHeadline(c5)));
    const auto *image = findOutput<OutputImage>(c5);
    QVERIFY(image);
    QVERIFY(image->isValid());
    QVERIFY(!image->pixmap().isNull());
    QVERIFY(image->pixmap().width() <= image->width() || image->width() == 0);
    QVERIFY(image->data().startsWith("\x89PNG"));
    // ... and is reported (for the window's artifact gallery).
    QCOMPARE(displayed.count(), 1);
    QCOMPARE(displayed.first().at(0).value<NotebookCell *>(), c5);
    QCOMPARE(displayed.first().at(1).toString(), u"image/png"_s);
    QCOMPARE(displayed.first().at(2).toByteArray(), image->data());
    // Scaled down to a narrow notebook, aspect kept; a click opens it full size.
    const QSize natural = image->image().size();
    notebook->resize(420, 700);
    QTRY_VERIFY(image->pixmap().width() < natural.width());
    QVERIFY(image->pixmap().width() <= image->width());
    QVERIFY(qAbs(image->pixmap().height() -
                 image->pixmap().width() * natural.height() / natural.width()) <= 1);
    QTest::mouseClick(const_cast<OutputImage *>(image), Qt::LeftButton, {}, QPoint(10, 10));
    auto *dialog = notebook->findChild<QDialog *>(u"imageDialog"_s);
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    auto *full = dialog->findChild<QLabel *>();
    QVERIFY(full);
    QCOMPARE(full->pixmap().size(), natural);
    dialog->close();
    notebook->resize(900, 700);
    QCOMPARE(notebook->cellCount(), 5);

    // Export: nbformat 4.5, one code cell per cell, counts, the image as base64 PNG.
    const QJsonObject nb = notebook->toIpynb();
    QCOMPARE(nb.value(u"nbformat"_s).toInt(), 4);
    QCOMPARE(nb.value(u"nbformat_minor"_s).toInt(), 5);
    const QJsonObject spec = nb.value(u"metadata"_s).toObject().value(u"kernelspec"_s).toObject();
    QCOMPARE(spec.value(u"name"_s).toString(), u"python3"_s);
    QCOMPARE(spec.value(u"language"_s).toString(), u"python"_s);
    QCOMPARE(nb.value(u"metadata"_s)
                 .toObject()
                 .value(u"language_info"_s)
                 .toObject()
                 .value(u"name"_s)
                 .toString(),
             u"python"_s);
    const QJsonArray cells = nb.value(u"cells"_s).toArray();
    QCOMPARE(cells.size(), 5);
    for (int i = 0; i < cells.size(); ++i) {
        const QJsonObject cell = cells.at(i).toObject();
        QCOMPARE(cell.value(u"cell_type"_s).toString(), u"code"_s);
        QCOMPARE(cell.value(u"execution_count"_s).toInt(), i + 1);
        QVERIFY(!cell.value(u"id"_s).toString().isEmpty());
        QVERIFY(cell.value(u"source"_s).isArray());
    }
    QCOMPARE(cells.at(0).toObject().value(u"source"_s).toArray(), QJsonArray{u"x = 20"_s});
    const QJsonObject result =
        cells.at(1).toObject().value(u"outputs"_s).toArray().at(0).toObject();
    QCOMPARE(result.value(u"output_type"_s).toString(), u"execute_result"_s);
    QCOMPARE(result.value(u"execution_count"_s).toInt(), 2);
    QCOMPARE(result.value(u"data"_s).toObject().value(u"text/plain"_s).toArray(),
             QJsonArray{u"21"_s});
    const QJsonArray interrupted = cells.at(2).toObject().value(u"outputs"_s).toArray();
    QCOMPARE(interrupted.first().toObject().value(u"output_type"_s).toString(), u"stream"_s);
    QCOMPARE(interrupted.first().toObject().value(u"name"_s).toString(), u"stdout"_s);
    QCOMPARE(interrupted.last().toObject().value(u"output_type"_s).toString(), u"error"_s);
    QCOMPARE(interrupted.last().toObject().value(u"ename"_s).toString(), u"KeyboardInterrupt"_s);
    QVERIFY(interrupted.last().toObject().value(u"traceback"_s).isArray());
    bool foundImage = false;
    for (const QJsonValue &v : cells.at(4).toObject().value(u"outputs"_s).toArray()) {
        const QJsonObject output = v.toObject();
        if (output.value(u"output_type"_s).toString() != u"display_data")
            continue;
        const QByteArray png = QByteArray::fromBase64(
            output.value(u"data"_s).toObject().value(u"image/png"_s).toString().toLatin1());
        foundImage = png.startsWith("\x89PNG\r\n\x1a\n");
        QVERIFY(output.value(u"metadata"_s).isObject());
    }
    QVERIFY(foundImage);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    QVERIFY2(notebook->saveIpynb(dir.filePath(u"test.ipynb"_s), &error), qPrintable(error));
    QFile saved(dir.filePath(u"test.ipynb"_s));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(saved.readAll()).object(), nb);
}

void TestNotebookConsole::restartClearsState()
{
    if (!requireEngine())
        return;
    auto notebook = makeNotebook();
    NotebookCell *c1 = notebook->cell(0);
    typeAndRun(c1, u"gone_after_restart = 1"_s);
    QTRY_COMPARE_WITH_TIMEOUT(c1->promptText(), u"[1]"_s, StartTimeoutMs);
    QVERIFY(notebook->restartAction()->isEnabled());

    QSignalSpy states(notebook.get(), &NotebookConsole::kernelStateChanged);
    notebook->restartKernel();
    QCOMPARE(notebook->kernelState(), NotebookConsole::KernelState::Restarting);
    QTRY_COMPARE_WITH_TIMEOUT(notebook->kernelState(), NotebookConsole::KernelState::Idle,
                              StartTimeoutMs);
    QVERIFY(states.count() >= 2);

    NotebookCell *c2 = notebook->cell(1);
    typeAndRun(c2, u"gone_after_restart"_s, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(c2->state(), NotebookCell::State::Idle, CellTimeoutMs);
    QVERIFY2(errorHeadline(c2).startsWith(u"NameError"_s), qPrintable(errorHeadline(c2)));
    QCOMPARE(c2->executionCount(), 1); // counting starts over
    const OutputError *error = findOutput<OutputError>(c2);
    QVERIFY(error->isTracebackVisible());
    QVERIFY(error->traceback()->text().contains(u"NameError"_s));
}

void TestNotebookConsole::cellTimeLimitInterrupts()
{
    if (!requireEngine())
        return;
    auto notebook = makeNotebook();
    sandbox::Limits limits;
    limits.timeoutMs = 1500;
    notebook->setLimits(limits, sandbox::NetworkMode::None);
    NotebookCell *slow = notebook->cell(0);
    typeAndRun(slow, u"kept = 5; import time; time.sleep(30)"_s);
    QTRY_COMPARE_WITH_TIMEOUT(slow->state(), NotebookCell::State::Idle, StartTimeoutMs);
    QVERIFY2(slow->footer().contains(u"time limit"_s), qPrintable(slow->footer()));
    QVERIFY2(errorHeadline(slow).startsWith(u"KeyboardInterrupt"_s),
             qPrintable(errorHeadline(slow)));
    NotebookCell *next = notebook->cell(1);
    typeAndRun(next, u"kept + 1"_s);
    QTRY_COMPARE_WITH_TIMEOUT(resultText(next), u"6"_s, CellTimeoutMs);
}

void TestNotebookConsole::runsEachKernelLanguage_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("highlighting");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("loop");
    // The languages whose kernels are ready, as for the engine's notebook tests.
    const QStringList languages = qEnvironmentVariable("SANDBOX_NOTEBOOK_LANGUAGES", u"python"_s)
                                      .split(u',', Qt::SkipEmptyParts);
    const struct
    {
        QString language, highlighting, code, loop;
    } rows[] = {
        {u"python"_s, u"Python"_s, u"print('hi'); 1 + 2"_s,
         u"while True: print('tick', flush=True); __import__('time').sleep(0.2)"_s},
        {u"javascript"_s, u"JavaScript"_s, u"console.log('hi'); 1 + 2"_s,
         u"while (true) { console.log('tick'); const t = Date.now(); while (Date.now() - t < "
         u"200) {} }"_s},
        {u"r"_s, u"R Script"_s, u"cat('hi\\n'); 1 + 2"_s,
         u"repeat { cat('tick\\n'); Sys.sleep(0.2) }"_s},
    };
    for (const auto &row : rows)
        if (languages.contains(row.language))
            QTest::newRow(qPrintable(row.language))
                << row.language << row.highlighting << row.code << row.loop;
}

void TestNotebookConsole::runsEachKernelLanguage()
{
    QFETCH(QString, language);
    QFETCH(QString, highlighting);
    QFETCH(QString, code);
    QFETCH(QString, loop);
    if (!requireEngine())
        return;
    auto notebook = makeNotebook();
    notebook->setLanguage(language);
    NotebookCell *cell = notebook->cell(0);
    QCOMPARE(cell->editor()->highlightingDefinition(), highlighting);
    typeAndRun(cell, code);
    QTRY_COMPARE_WITH_TIMEOUT(cell->state(), NotebookCell::State::Idle, StartTimeoutMs);
    QVERIFY2(findOutput<OutputError>(cell) == nullptr, qPrintable(errorHeadline(cell)));
    QCOMPARE(stdoutText(cell), u"hi"_s);
    QVERIFY2(resultText(cell).contains(u"3"_s), qPrintable(resultText(cell)));
    QCOMPARE(cell->promptText(), u"[1]"_s);
    // "Python 3.13.5", "JavaScript 22.12.0", "R 4.5.0".
    QVERIFY2(
        QRegularExpression(u"^[A-Za-z]+ \\d+\\.\\d+"_s).match(notebook->kernelDisplay()).hasMatch(),
        qPrintable(notebook->kernelDisplay()));

    NotebookCell *looping = notebook->cell(1);
    typeAndRun(looping, loop);
    QTRY_VERIFY_WITH_TIMEOUT(stdoutText(looping).contains(u"tick"_s), CellTimeoutMs);
    notebook->interruptAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(errorHeadline(looping).startsWith(u"KeyboardInterrupt"_s), 20'000);
    QTRY_COMPARE(notebook->kernelState(), NotebookConsole::KernelState::Idle);
}

void TestNotebookConsole::showsEngineErrorsInTheCell()
{
    if (!requireEngine())
        return;
    // A language without a kernel: the engine's error shows in the cell.
    {
        auto notebook = makeNotebook();
        notebook->setLanguage(u"go"_s);
        NotebookCell *cell = notebook->cell(0);
        QCOMPARE(cell->editor()->highlightingDefinition(), u"Go"_s);
        typeAndRun(cell, u"fmt.Println(1)"_s, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(cell->state(), NotebookCell::State::Idle, StartTimeoutMs);
        const auto *notice = findOutput<OutputError>(cell, u"noticeError"_s);
        QVERIFY(notice);
        QVERIFY2(notice->headline().contains(u"no notebook kernel"_s),
                 qPrintable(notice->headline()));
        QCOMPARE(notebook->kernelState(), NotebookConsole::KernelState::None);
        QVERIFY(
            notebook->toIpynb().value(u"cells"_s).toArray().at(0).toObject().value(u"outputs"_s) ==
            QJsonArray()); // notices are not exported
        QCOMPARE(notebook->toIpynb()
                     .value(u"metadata"_s)
                     .toObject()
                     .value(u"kernelspec"_s)
                     .toObject()
                     .value(u"language"_s)
                     .toString(),
                 u"go"_s);
    }
    // No engine at all.
    {
        NotebookConsole notebook(nullptr);
        NotebookCell *cell = notebook.cell(0);
        cell->setSource(u"1"_s);
        notebook.runCell(cell);
        QCOMPARE(cell->state(), NotebookCell::State::Idle);
        const auto *notice = findOutput<OutputError>(cell, u"noticeError"_s);
        QVERIFY(notice);
        QVERIFY(notice->headline().contains(u"Docker"_s));
    }
}

void TestNotebookConsole::interruptWhileStartingCancelsTheStart()
{
    if (!requireEngine())
        return;
    auto notebook = makeNotebook();
    NotebookCell *cell = notebook->cell(0);
    typeAndRun(cell, u"started = True"_s, Qt::ControlModifier);
    QCOMPARE(notebook->kernelState(), NotebookConsole::KernelState::Starting);
    QVERIFY(notebook->interruptAction()->isEnabled());
    notebook->interrupt();
    QTRY_COMPARE_WITH_TIMEOUT(notebook->kernelState(), NotebookConsole::KernelState::None,
                              StartTimeoutMs);
    QCOMPARE(cell->state(), NotebookCell::State::Idle);
    QCOMPARE(cell->promptText(), u"[ ]"_s);
    const auto *notice = findOutput<OutputText>(cell, u"notice"_s);
    QVERIFY(notice);
    QVERIFY2(notice->text().contains(u"cancelled"_s), qPrintable(notice->text()));
    QVERIFY(notebook->statusText().contains(u"cancelled"_s));
    QTRY_COMPARE_WITH_TIMEOUT(sandboxesOfThisProcess(), 0, 30'000);

    // The next run starts a kernel again.
    notebook->runCell(cell);
    QTRY_COMPARE_WITH_TIMEOUT(cell->promptText(), u"[1]"_s, StartTimeoutMs);
    QVERIFY(cell->outputWidgets().isEmpty());
}

void TestNotebookConsole::closingRemovesTheSandboxWithoutBlocking()
{
    if (!requireEngine())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(sandboxesOfThisProcess(), 0, 30'000); // earlier tests' closes
    auto notebook = makeNotebook();
    NotebookCell *cell = notebook->cell(0);
    // A cell that ignores interrupts: closing must not wait for it.
    typeAndRun(cell,
               u"import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); "
               u"print('started', flush=True); time.sleep(3600)"_s,
               Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(stdoutText(cell).contains(u"started"_s), StartTimeoutMs);
    QCOMPARE(sandboxesOfThisProcess(), 1);

    QElapsedTimer timer;
    timer.start();
    notebook.reset();
    QVERIFY2(timer.elapsed() < 500, qPrintable(u"closing took %1 ms"_s.arg(timer.elapsed())));
    QTRY_COMPARE_WITH_TIMEOUT(sandboxesOfThisProcess(), 0, 30'000);
}

void TestNotebookConsole::outputTextRendersAndCollapses()
{
    QCOMPARE(OutputText::render(u"50%\r100%\n"_s), u"100%\n"_s);
    QCOMPARE(OutputText::render(u"a\r\nb"_s), u"a\nb"_s);
    QCOMPARE(OutputText::render(u"\x1b[31mred\x1b[0m"_s), u"red"_s);

    QWidget host;
    host.resize(600, 400);
    auto *text = new OutputText(OutputText::Style::Stdout, &host);
    text->resize(600, 100);
    host.show();
    QString lines;
    for (int i = 1; i <= 200; ++i)
        lines += u"line %1\n"_s.arg(i);
    text->appendText(lines.left(20));
    text->appendText(lines.mid(20));
    QCOMPARE(text->text(), lines.chopped(1));
    QCOMPARE(text->lineCount(), 200);
    QVERIFY(text->isCollapsible());
    QVERIFY(text->isCollapsed());
    const int lineHeight = QFontMetrics(text->view()->font()).lineSpacing();
    QTRY_VERIFY(text->view()->height() <= (OutputText::CollapsedLines + 1) * lineHeight + 12);
    auto *showAll = text->findChild<QToolButton *>(u"showAllButton"_s);
    QVERIFY(showAll && showAll->isVisible());
    QVERIFY(showAll->text().contains(u"200"_s));
    QTest::mouseClick(showAll, Qt::LeftButton);
    QVERIFY(!text->isCollapsed());
    QTRY_VERIFY(text->view()->height() >= 200 * lineHeight);
}

void TestNotebookConsole::keyboardNavigatesAndEditsCells()
{
    NotebookConsole notebook(nullptr);
    notebook.show();
    QVERIFY(QTest::qWaitForWindowExposed(&notebook));
    NotebookCell *first = notebook.cell(0);
    first->setSource(u"a = 1\nb = 2"_s);
    // Alt+Return inserts below; Ctrl+Shift+Return too, without running.
    QTest::keyClick(first->editor(), Qt::Key_Return, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(notebook.cellCount(), 2);
    NotebookCell *second = notebook.cell(1);
    QCOMPARE(notebook.currentCell(), second);
    second->setSource(u"c = 3"_s);
    // Up on the first line goes to the cell above, Down on the last line back.
    QTest::keyClick(second->editor(), Qt::Key_Up);
    QCOMPARE(notebook.currentCell(), first);
    QCOMPARE(first->editor()->textCursor().blockNumber(), 1);
    QTest::keyClick(first->editor(), Qt::Key_Down);
    QCOMPARE(notebook.currentCell(), second);
    // Move up, then delete.
    QTest::keyClick(second->editor(), Qt::Key_Up, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(notebook.cell(0), second);
    QTest::keyClick(second->editor(), Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(notebook.cellCount(), 1);
    QCOMPARE(notebook.cell(0), first);
    // The editor grows with its code.
    const int before = first->editor()->height();
    first->setSource(u"1\n2\n3\n4\n5\n6"_s);
    QVERIFY(first->editor()->height() > before);
}

void TestNotebookConsole::mainWindowSwitchesToNotebook()
{
    MainWindow window(nullptr);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.notebook());
    QVERIFY(!window.isNotebookMode());
    QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(window.isNotebookMode());
    QVERIFY(window.notebook()->isVisible());
    QVERIFY(!window.editor()->isVisible());
    window.setLanguage(u"javascript"_s);
    QCOMPARE(window.notebook()->language(), u"javascript"_s);
    QCOMPARE(window.notebook()->cell(0)->editor()->highlightingDefinition(), u"JavaScript"_s);
    window.notebookModeAction()->trigger();
    QVERIFY(!window.isNotebookMode());
    QVERIFY(window.editor()->isVisible());
}

void TestNotebookConsole::mainWindowAsksBeforeSwitchingKernelLanguage()
{
    if (!requireEngine())
        return;
    MainWindow window(m_engine);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.setLanguage(u"python"_s);
    window.setNotebookMode(true);
    NotebookConsole *notebook = window.notebook();
    NotebookCell *cell = notebook->cell(0);
    typeAndRun(cell, u"kept = 1"_s, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(cell->promptText(), u"[1]"_s, StartTimeoutMs);
    QVERIFY(notebook->hasSession());

    // Answers the question the window asks with button, once it is shown.
    const auto answer = [&window](QMessageBox::StandardButton button) {
        auto *timer = new QTimer(&window);
        timer->setInterval(20);
        QObject::connect(timer, &QTimer::timeout, timer, [timer, button] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                box->button(button)->click();
                timer->stop();
                timer->deleteLater();
            }
        });
        timer->start();
    };

    answer(QMessageBox::Cancel);
    window.setLanguage(u"javascript"_s);
    QCOMPARE(window.language(), u"python"_s);
    QCOMPARE(notebook->language(), u"python"_s);
    QVERIFY(notebook->hasSession());
    auto *picker = window.findChild<QComboBox *>(u"languagePicker"_s);
    QVERIFY(picker);
    QCOMPARE(picker->currentData().toString(), u"python"_s);

    answer(QMessageBox::Yes);
    window.setLanguage(u"javascript"_s);
    QCOMPARE(window.language(), u"javascript"_s);
    QCOMPARE(notebook->language(), u"javascript"_s);
    QVERIFY(!notebook->hasSession());
    QCOMPARE(notebook->kernelState(), NotebookConsole::KernelState::None);
    QVERIFY2(notebook->statusText().contains(u"closed"_s), qPrintable(notebook->statusText()));
    QCOMPARE(cell->editor()->highlightingDefinition(), u"JavaScript"_s);
}

void TestNotebookConsole::cleanupTestCase()
{
    if (m_engine)
        QTRY_COMPARE_WITH_TIMEOUT(sandboxesOfThisProcess(), 0, 30'000);
}

QTEST_MAIN(TestNotebookConsole)
#include "tst_notebookconsole.moc"
