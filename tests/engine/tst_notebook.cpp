// SPDX-License-Identifier: GPL-3.0-or-later
// Notebook sessions against the real dockerd: kernels keep state, stream, interrupt,
// restart, survive errors; the shared interactive cases pass.
#include "session/notebook.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryFile>
#include <QTest>
#include <atomic>
#include <thread>

using namespace sandbox;

class TestNotebook final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sharedInteractiveCases_data();
    void sharedInteractiveCases();
    void lastExpressionAndCounts();
    void policyChecksCells();
    void errorKeepsEarlierState();
    void streamsWhileCellRuns();
    void interruptStopsCellKeepsState();
    void cellTimeoutInterrupts();
    void restartClearsState();
    void kernelDeathIsRecovered();
    void topLevelAwait();
    void closeRemovesSandbox();
    void everyKernel_data();
    void everyKernel();
    void rPlotsAreDisplayed();
    void filesWrittenByCellsComeBack_data();
    void filesWrittenByCellsComeBack();
    void unknownLanguageAndNoKernel();
    void agentTransportWhenAvailable();
    void interruptRacingCellEnd_data();
    void interruptRacingCellEnd();
    void execFallback_data();
    void execFallback();
    void cleanupTestCase();

private:
    std::shared_ptr<NotebookSession> startPython()
    {
        auto s = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("python"));
        if (!s) {
            qWarning("%s", qPrintable(s.error().toString()));
            return nullptr;
        }
        return *s;
    }
    std::shared_ptr<Engine> m_engine;
    std::shared_ptr<NotebookSession> m_shared; ///< one session for the quick checks
};

void TestNotebook::initTestCase()
{
    // The agent built with the tests (SANDBOX_AGENT_PATH in the environment overrides it).
    if (qEnvironmentVariableIsEmpty("SANDBOX_AGENT_PATH"))
        qputenv("SANDBOX_AGENT_PATH", QByteArray(SANDBOX_AGENT_BINARY));
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
    m_shared = startPython();
    QVERIFY(m_shared);
    QVERIFY(!m_shared->kernelVersion().isEmpty());
}

void TestNotebook::policyChecksCells()
{
    QVERIFY(m_shared);
    auto standard = Policy::preset(QStringLiteral("standard"));
    QVERIFY(standard);
    QVERIFY(m_shared->execute(QStringLiteral("kept = 41")).has_value());
    // block: the cell never reaches the kernel; the error output names the rule.
    CellObserver obs;
    obs.policy = *standard;
    QList<CellOutput> streamed;
    obs.onOutput = [&streamed](const CellOutput &o) { streamed << o; };
    auto blocked = m_shared->execute(QStringLiteral("open('/var/run/docker.sock')\nkept = 0"), obs);
    QVERIFY2(blocked, blocked ? "" : qPrintable(blocked.error().toString()));
    QVERIFY(blocked->policyBlocked);
    QCOMPARE(blocked->status, QStringLiteral("error"));
    QVERIFY2(blocked->policyReason.contains(QStringLiteral("engine-socket")),
             qPrintable(blocked->policyReason));
    QCOMPARE(blocked->outputs.size(), 1);
    QCOMPARE(blocked->outputs[0].kind, CellOutput::Kind::Error);
    QCOMPARE(blocked->outputs[0].ename, QStringLiteral("PolicyBlocked"));
    QCOMPARE(streamed.size(), 1); // the observer saw the error output too
    // ask without a hook: refused, saying nobody was asked.
    auto asked = m_shared->execute(QStringLiteral("import ctypes\nkept = 1"), obs);
    QVERIFY(asked);
    QVERIFY(asked->policyBlocked);
    QVERIFY2(asked->policyReason.contains(QStringLiteral("py-native")) &&
                 asked->policyReason.contains(QStringLiteral("not approved")),
             qPrintable(asked->policyReason));
    // ask with a hook that says yes: runs, findings reported.
    QList<PolicyFinding> seen;
    obs.onPolicyAsk = [&seen](const QList<PolicyFinding> &f) {
        seen = f;
        return true;
    };
    auto approved = m_shared->execute(QStringLiteral("import ctypes\nkept + 1"), obs);
    QVERIFY(approved);
    QVERIFY(!approved->policyBlocked);
    QCOMPARE(approved->resultText(), QStringLiteral("42")); // state survived the refusals
    QCOMPARE(seen.size(), 1);
    QCOMPARE(seen[0].rule, QStringLiteral("py-native"));
    QCOMPARE(approved->policyFindings.size(), 1);
    // warn: runs with the findings.
    auto warned = m_shared->execute(QStringLiteral("import subprocess\n7"), obs);
    QVERIFY(warned && warned->ok());
    QCOMPARE(warned->resultText(), QStringLiteral("7"));
    QCOMPARE(warned->policyFindings.size(), 1);
    QCOMPARE(warned->policyFindings[0].action, QStringLiteral("warn"));
    // No policy: not checked.
    auto unchecked = m_shared->execute(QStringLiteral("import subprocess\n8"));
    QVERIFY(unchecked && unchecked->policyFindings.isEmpty());
}

void TestNotebook::sharedInteractiveCases_data()
{
    QTest::addColumn<QJsonObject>("notebook");
    const QStringList languages =
        qEnvironmentVariable("SANDBOX_NOTEBOOK_LANGUAGES", QStringLiteral("python,javascript,r"))
            .split(u',', Qt::SkipEmptyParts);
    QFile f(test::casesDir() + QStringLiteral("/cases.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    int rows = 0;
    for (const QJsonValue &v : QJsonDocument::fromJson(f.readAll())
                                   .object()
                                   .value(QStringLiteral("interactive"))
                                   .toArray()) {
        const QJsonObject nb = v.toObject();
        if (!languages.contains(nb.value(QStringLiteral("language")).toString()))
            continue;
        QTest::newRow(qPrintable(nb.value(QStringLiteral("id")).toString())) << nb;
        ++rows;
    }
    QVERIFY(rows > 0);
}

void TestNotebook::sharedInteractiveCases()
{
    QFETCH(QJsonObject, notebook);
    auto session = NotebookSession::start(m_engine->runtimePtr(),
                                          notebook.value(QStringLiteral("language")).toString());
    QVERIFY_RESULT(session);
    int n = 0;
    for (const QJsonValue &cv : notebook.value(QStringLiteral("cells")).toArray()) {
        const QJsonObject cell = cv.toObject();
        const QJsonObject expect = cell.value(QStringLiteral("expect")).toObject();
        auto r = (*session)->execute(cell.value(QStringLiteral("code")).toString());
        QVERIFY_RESULT(r);
        ++n;
        const QString context =
            QStringLiteral("cell %1: status %2 stdout '%3' stderr '%4' result '%5'")
                .arg(n)
                .arg(r->status, r->streamText(QStringLiteral("stdout")),
                     r->streamText(QStringLiteral("stderr")), r->resultText());
        QCOMPARE(r->ok(), expect.value(QStringLiteral("ok")).toBool(true));
        QCOMPARE(r->executionCount, n);
        for (const QJsonValue &want : expect.value(QStringLiteral("stdout_contains")).toArray())
            QVERIFY2(r->streamText(QStringLiteral("stdout")).contains(want.toString()),
                     qPrintable(context));
        if (expect.contains(QStringLiteral("result_contains")))
            QVERIFY2(r->resultText().contains(
                         expect.value(QStringLiteral("result_contains")).toString()),
                     qPrintable(context));
        const QJsonObject artifactsMin = expect.value(QStringLiteral("artifacts_min")).toObject();
        if (artifactsMin.contains(QStringLiteral("image/png"))) {
            const QList<Artifact> images = r->images();
            QVERIFY2(images.size() >= artifactsMin.value(QStringLiteral("image/png")).toInt(),
                     qPrintable(context));
            for (const Artifact &a : images) {
                QVERIFY(a.data.startsWith("\x89PNG\r\n\x1a\n"));
                QVERIFY(a.size() > 1000);
            }
        }
    }
}

void TestNotebook::lastExpressionAndCounts()
{
    const int before = m_shared->executionCount();
    auto a = m_shared->execute(QStringLiteral("x = 41"));
    QVERIFY_RESULT(a);
    QVERIFY(a->ok());
    QVERIFY(a->resultText().isEmpty());
    auto b = m_shared->execute(QStringLiteral("x + 1"));
    QVERIFY_RESULT(b);
    QCOMPARE(b->resultText(), QStringLiteral("42"));
    QCOMPARE(b->executionCount, before + 2);
    auto c = m_shared->execute(QStringLiteral("print('a'); None"));
    QVERIFY_RESULT(c);
    QVERIFY(c->resultText().isEmpty()); // None is not shown, like a REPL
    QCOMPARE(c->streamText(QStringLiteral("stdout")), QStringLiteral("a\n"));
}

void TestNotebook::errorKeepsEarlierState()
{
    QVERIFY_RESULT(m_shared->execute(QStringLiteral("kept = [1, 2, 3]")));
    auto bad = m_shared->execute(QStringLiteral("kept.append(4)\n1 / 0"));
    QVERIFY_RESULT(bad);
    QCOMPARE(bad->status, QStringLiteral("error"));
    const CellOutput *err = nullptr;
    for (const CellOutput &o : bad->outputs)
        if (o.kind == CellOutput::Kind::Error)
            err = &o;
    QVERIFY(err);
    QCOMPARE(err->ename, QStringLiteral("ZeroDivisionError"));
    QCOMPARE(err->evalue, QStringLiteral("division by zero"));
    QVERIFY(err->traceback.join(QString()).contains(QStringLiteral("<cell")));
    auto after = m_shared->execute(QStringLiteral("kept"));
    QVERIFY_RESULT(after);
    QCOMPARE(after->resultText(), QStringLiteral("[1, 2, 3, 4]"));
}

void TestNotebook::streamsWhileCellRuns()
{
    QElapsedTimer t;
    t.start();
    qint64 firstAt = -1;
    CellObserver obs;
    obs.onOutput = [&](const CellOutput &o) {
        if (o.kind == CellOutput::Kind::Stream && firstAt < 0)
            firstAt = t.elapsed();
    };
    auto r = m_shared->execute(
        QStringLiteral("import time\nprint('tick')\ntime.sleep(1.2)\nprint('tock')"), obs);
    QVERIFY_RESULT(r);
    QCOMPARE(r->streamText(QStringLiteral("stdout")), QStringLiteral("tick\ntock\n"));
    QVERIFY(firstAt >= 0);
    QVERIFY2(
        r->durationMs - firstAt >= 1000,
        qPrintable(QStringLiteral("first output at %1 of %2 ms").arg(firstAt).arg(r->durationMs)));
}

void TestNotebook::interruptStopsCellKeepsState()
{
    QVERIFY_RESULT(m_shared->execute(QStringLiteral("survivor = 'still here'\ncounter = 0")));
    std::thread interrupter([this] {
        QTest::qWait(0);
        for (int i = 0; i < 100 && !m_shared->isBusy(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        m_shared->interrupt();
    });
    QElapsedTimer t;
    t.start();
    auto r = m_shared->execute(
        QStringLiteral("import time\nwhile True:\n    counter += 1\n    time.sleep(0.01)"));
    interrupter.join();
    QVERIFY_RESULT(r);
    QCOMPARE(r->status, QStringLiteral("error"));
    QVERIFY(r->interrupted);
    QVERIFY(!r->kernelRestarted);
    QVERIFY(t.elapsed() < 5000);
    auto after = m_shared->execute(QStringLiteral("survivor, counter > 0"));
    QVERIFY_RESULT(after);
    QCOMPARE(after->resultText(), QStringLiteral("('still here', True)"));
}

void TestNotebook::cellTimeoutInterrupts()
{
    QVERIFY_RESULT(m_shared->execute(QStringLiteral("before_timeout = 7")));
    auto r = m_shared->execute(QStringLiteral("import time\ntime.sleep(30)"), {}, 800);
    QVERIFY_RESULT(r);
    QVERIFY(r->timedOut);
    QVERIFY(r->interrupted);
    QVERIFY(r->durationMs < 6000);
    auto after = m_shared->execute(QStringLiteral("before_timeout"));
    QVERIFY_RESULT(after);
    QCOMPARE(after->resultText(), QStringLiteral("7"));
}

void TestNotebook::restartClearsState()
{
    auto s = startPython();
    QVERIFY(s);
    QVERIFY_RESULT(s->execute(QStringLiteral("gone_after_restart = 1")));
    QVERIFY_RESULT(s->restart());
    QCOMPARE(s->executionCount(), 0);
    auto r = s->execute(QStringLiteral("gone_after_restart"));
    QVERIFY_RESULT(r);
    QCOMPARE(r->status, QStringLiteral("error"));
    QCOMPARE(r->executionCount, 1);
    QVERIFY(r->outputs.last().ename == QStringLiteral("NameError"));
}

void TestNotebook::kernelDeathIsRecovered()
{
    auto s = startPython();
    QVERIFY(s);
    QVERIFY_RESULT(s->execute(QStringLiteral("y = 5")));
    auto r = s->execute(QStringLiteral("import os\nos._exit(3)"));
    QVERIFY_RESULT(r);
    QCOMPARE(r->status, QStringLiteral("aborted"));
    QVERIFY(r->kernelRestarted);
    auto again = s->execute(QStringLiteral("1 + 1"));
    QVERIFY_RESULT(again);
    QCOMPARE(again->resultText(), QStringLiteral("2"));
}

void TestNotebook::topLevelAwait()
{
    auto r = m_shared->execute(QStringLiteral(
        "import asyncio\nasync def twice(v):\n    await asyncio.sleep(0.01)\n    return v * 2\n"
        "await twice(21)"));
    QVERIFY_RESULT(r);
    QVERIFY2(r->ok(), qPrintable(r->streamText(QStringLiteral("stderr"))));
    QCOMPARE(r->resultText(), QStringLiteral("42"));
}

void TestNotebook::closeRemovesSandbox()
{
    auto s = startPython();
    QVERIFY(s);
    const QString id = s->sandboxId();
    s->close();
    auto list = m_engine->runtime().list(QLatin1String(labels::Owner), ownerLabel());
    QVERIFY_RESULT(list);
    for (const SandboxInfo &info : *list)
        QVERIFY(info.id != id);
    QVERIFY(!s->execute(QStringLiteral("1")));
}

void TestNotebook::everyKernel_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("setState");  // defines kept = 10
    QTest::addColumn<QString>("failing");   // raises an error
    QTest::addColumn<QString>("endless");   // prints "started" then loops forever
    QTest::addColumn<QString>("readState"); // shows kept * 2
    QTest::newRow("python")
        << QStringLiteral("python") << QStringLiteral("kept = 10")
        << QStringLiteral("undefined_name")
        << QStringLiteral(
               "import time\nprint('started', flush=True)\nwhile True:\n    time.sleep(0.05)")
        << QStringLiteral("kept * 2");
    QTest::newRow("javascript")
        << QStringLiteral("javascript") << QStringLiteral("const kept = 10;")
        << QStringLiteral("undefinedName + 1")
        << QStringLiteral("console.log('started'); let spin = 0; while (true) { spin++; }")
        << QStringLiteral("kept * 2");
    QTest::newRow("r") << QStringLiteral("r") << QStringLiteral("kept <- 10")
                       << QStringLiteral("stop('deliberate failure')")
                       << QStringLiteral(
                              "cat('started\n'); flush(stdout()); repeat { Sys.sleep(0.05) }")
                       << QStringLiteral("kept * 2");
}

void TestNotebook::everyKernel()
{
    QFETCH(QString, language);
    QFETCH(QString, setState);
    QFETCH(QString, failing);
    QFETCH(QString, endless);
    QFETCH(QString, readState);
    auto session = NotebookSession::start(m_engine->runtimePtr(), language);
    QVERIFY_RESULT(session);
    auto &s = **session;
    QCOMPARE(s.transport(), QStringLiteral("agent")); // interrupts are agent signals
    auto a = s.execute(setState);
    QVERIFY_RESULT(a);
    QVERIFY2(a->ok(), qPrintable(a->streamText(QStringLiteral("stderr"))));

    // An error: status error, an Error output with a name and message, state intact.
    auto b = s.execute(failing);
    QVERIFY_RESULT(b);
    QCOMPARE(b->status, QStringLiteral("error"));
    bool sawError = false;
    for (const CellOutput &o : b->outputs)
        if (o.kind == CellOutput::Kind::Error && !o.ename.isEmpty() && !o.evalue.isEmpty())
            sawError = true;
    QVERIFY(sawError);

    // Interrupt a running cell after its first output arrived.
    std::atomic<bool> started{false};
    CellObserver obs;
    obs.onOutput = [&](const CellOutput &o) {
        if (o.kind == CellOutput::Kind::Stream && o.text.contains(QStringLiteral("started")))
            started = true;
    };
    std::thread interrupter([&] {
        for (int i = 0; i < 500 && !started; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        s.interrupt();
    });
    QElapsedTimer t;
    t.start();
    auto c = s.execute(endless, obs);
    interrupter.join();
    QVERIFY_RESULT(c);
    QVERIFY(started);
    QVERIFY2(c->interrupted, qPrintable(c->status));
    QVERIFY(!c->kernelRestarted);
    QVERIFY(t.elapsed() < 8000);

    auto d = s.execute(readState);
    QVERIFY_RESULT(d);
    QVERIFY2(d->resultText().contains(QStringLiteral("20")), qPrintable(d->resultText()));
    QCOMPARE(d->executionCount, 4);
}

void TestNotebook::rPlotsAreDisplayed()
{
    auto session = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("r"));
    QVERIFY_RESULT(session);
    auto r = (*session)->execute(QStringLiteral("hist(c(1, 2, 2, 3, 3, 3))\nplot(1:10)"));
    QVERIFY_RESULT(r);
    QVERIFY(r->ok());
    const QList<Artifact> images = r->images();
    QCOMPARE(images.size(), 2);
    for (const Artifact &a : images)
        QVERIFY(a.data.startsWith("\x89PNG\r\n\x1a\n"));
    auto gg = (*session)->execute(QStringLiteral(
        "library(ggplot2)\nggplot(data.frame(x = 1:3, y = c(2, 4, 3)), aes(x, y)) + geom_line()"));
    QVERIFY_RESULT(gg);
    QVERIFY2(gg->ok(), qPrintable(gg->streamText(QStringLiteral("stderr"))));
    QCOMPARE(gg->images().size(), 1);
}

void TestNotebook::filesWrittenByCellsComeBack_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("write");
    QTest::newRow("python") << QStringLiteral("python")
                            << QStringLiteral(
                                   "open('output/table.csv', 'w').write('a,b\\n1,2\\n')");
    QTest::newRow("javascript")
        << QStringLiteral("javascript")
        << QStringLiteral("require('fs').writeFileSync('output/table.csv', 'a,b\\n1,2\\n')");
    QTest::newRow("r") << QStringLiteral("r")
                       << QStringLiteral("writeLines(c('a,b', '1,2'), 'output/table.csv')");
}

void TestNotebook::filesWrittenByCellsComeBack()
{
    QFETCH(QString, language);
    QFETCH(QString, write);
    auto session = NotebookSession::start(m_engine->runtimePtr(), language);
    QVERIFY_RESULT(session);
    auto r = (*session)->execute(write);
    QVERIFY_RESULT(r);
    QVERIFY2(r->ok(), qPrintable(r->streamText(QStringLiteral("stderr"))));
    const QList<Artifact> files = r->files();
    QCOMPARE(files.size(), 1);
    QCOMPARE(files[0].name, QStringLiteral("output/table.csv"));
    QCOMPARE(files[0].mimeType, QStringLiteral("text/csv"));
    QCOMPARE(files[0].data, QByteArray("a,b\n1,2\n"));
    // A later cell that writes nothing brings nothing back: only new or changed files.
    auto quiet = (*session)->execute(language == QLatin1String("r") ? QStringLiteral("1 + 1")
                                                                    : QStringLiteral("1 + 1"));
    QVERIFY_RESULT(quiet);
    QVERIFY(quiet->files().isEmpty());
}

void TestNotebook::unknownLanguageAndNoKernel()
{
    auto a = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("cobol"));
    QVERIFY(!a);
    QCOMPARE(a.error().code, ErrorCode::UnknownLanguage);
    auto b = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("go"));
    QVERIFY(!b);
    QCOMPARE(b.error().code, ErrorCode::InvalidArgument);
}

void TestNotebook::agentTransportWhenAvailable()
{
    if (!QFileInfo(qEnvironmentVariable("SANDBOX_AGENT_PATH")).isFile())
        QSKIP("no sandbox agent binary");
    QCOMPARE(m_shared->transport(), QStringLiteral("agent"));
    QVERIFY(m_shared->transportNote().isEmpty());
    // The kernel is a run of the agent (its parent), not a Docker exec, and leads its own
    // process group (the agent's setsid), which the interrupt signal goes to.
    auto r = m_shared->execute(QStringLiteral(
        "import os\nparent = open('/proc/%d/cmdline' % os.getppid()).read().split('\\0')[0]\n"
        "parent, os.getpgid(0) == os.getpid()"));
    QVERIFY_RESULT(r);
    QCOMPARE(r->resultText(), QStringLiteral("('/sandbox/.agent', True)"));
}

void TestNotebook::interruptRacingCellEnd_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("cell"); // short; %1 = a few milliseconds of work
    QTest::newRow("python") << QStringLiteral("python")
                            << QStringLiteral("import time\ntime.sleep(%1 / 1000)");
    QTest::newRow("javascript")
        << QStringLiteral("javascript")
        << QStringLiteral("{ const end = Date.now() + %1; while (Date.now() < end) {} }");
    // Not R: an interrupt that R takes while reading its next request can end the kernel
    // or lose that request (R has no way to ignore SIGINT while idle).
}

void TestNotebook::interruptRacingCellEnd()
{
    // Interrupts that arrive as a cell ends (or just after) must never kill the kernel: an
    // interrupt of an idle kernel is a no-op.
    QFETCH(QString, language);
    QFETCH(QString, cell);
    auto session = NotebookSession::start(m_engine->runtimePtr(), language);
    QVERIFY_RESULT(session);
    auto &s = **session;
    for (int i = 0; i < 40; ++i) {
        std::atomic<bool> stop{false};
        std::thread interrupter([&] {
            while (!stop && !s.isBusy())
                std::this_thread::yield();
            std::this_thread::sleep_for(std::chrono::microseconds(200 * (i % 10)));
            s.interrupt();
        });
        auto r = s.execute(cell.arg(i % 5));
        stop = true;
        interrupter.join();
        QVERIFY_RESULT(r);
        QVERIFY2(!r->kernelRestarted,
                 qPrintable(QStringLiteral("round %1: %2 %3")
                                .arg(i)
                                .arg(r->outputs.isEmpty() ? QString() : r->outputs.last().evalue,
                                     r->streamText(QStringLiteral("stderr")))));
    }
    // The kernel that took all this still answers, with its count intact.
    auto last = s.execute(cell.arg(0));
    QVERIFY_RESULT(last);
    QVERIFY(!last->kernelRestarted);
    QCOMPARE(last->executionCount, 41);
}

void TestNotebook::execFallback_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("setState");
    QTest::addColumn<QString>("endless");
    QTest::addColumn<QString>("readState");
    QTest::addColumn<bool>("brokenAgent"); // else: no agent binary at all
    const QString pyEndless = QStringLiteral(
        "import time\nprint('started', flush=True)\nwhile True:\n    time.sleep(0.05)");
    const QString rEndless =
        QStringLiteral("cat('started\n'); flush(stdout()); repeat { Sys.sleep(0.05) }");
    QTest::newRow("python") << QStringLiteral("python") << QStringLiteral("kept = 10") << pyEndless
                            << QStringLiteral("kept * 2") << false;
    QTest::newRow("r") << QStringLiteral("r") << QStringLiteral("kept <- 10") << rEndless
                       << QStringLiteral("kept * 2") << false;
    QTest::newRow("python-agent-does-not-start")
        << QStringLiteral("python") << QStringLiteral("kept = 10") << pyEndless
        << QStringLiteral("kept * 2") << true;
}

void TestNotebook::execFallback()
{
    // Without an agent binary the kernel runs over a held-open exec and still works,
    // interrupts included (stdin request for Python, a kill exec for R).
    QFETCH(QString, language);
    QFETCH(QString, setState);
    QFETCH(QString, endless);
    QFETCH(QString, readState);
    QFETCH(bool, brokenAgent);
    // A broken agent: a file that is not a program, so placing it fails in the sandbox
    // (it never runs on the host).
    QTemporaryFile notAnAgent;
    QVERIFY(notAnAgent.open());
    notAnAgent.write("this is not a sandbox agent\n");
    notAnAgent.flush();
    const QByteArray saved = qgetenv("SANDBOX_AGENT_PATH");
    qputenv("SANDBOX_AGENT_PATH", brokenAgent ? QFile::encodeName(notAnAgent.fileName())
                                              : QByteArray("/nonexistent/sandbox-agent"));
    const int before = test::leftoverSandboxes(*m_engine);
    auto session = NotebookSession::start(m_engine->runtimePtr(), language);
    qputenv("SANDBOX_AGENT_PATH", saved);
    QVERIFY_RESULT(session);
    auto &s = **session;
    QCOMPARE(s.transport(), QStringLiteral("exec"));
    QVERIFY2(s.transportNote().contains(brokenAgent ? QStringLiteral("could not be placed")
                                                    : QStringLiteral("/nonexistent/sandbox-agent")),
             qPrintable(s.transportNote()));
    QCOMPARE(test::leftoverSandboxes(*m_engine), before + 1); // the failed one was removed
    auto a = s.execute(setState);
    QVERIFY_RESULT(a);
    QVERIFY(a->ok());

    std::atomic<bool> started{false};
    CellObserver obs;
    obs.onOutput = [&](const CellOutput &o) {
        if (o.kind == CellOutput::Kind::Stream && o.text.contains(QStringLiteral("started")))
            started = true;
    };
    std::thread interrupter([&] {
        for (int i = 0; i < 500 && !started; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        s.interrupt();
    });
    auto b = s.execute(endless, obs);
    interrupter.join();
    QVERIFY_RESULT(b);
    QVERIFY(started);
    QVERIFY(b->interrupted);
    QVERIFY(!b->kernelRestarted);

    auto c = s.execute(readState);
    QVERIFY_RESULT(c);
    QVERIFY2(c->resultText().contains(QStringLiteral("20")), qPrintable(c->resultText()));
    QVERIFY_RESULT(s.restart());
    auto d = s.execute(setState);
    QVERIFY_RESULT(d);
    QCOMPARE(d->executionCount, 1);
    const QString id = s.sandboxId();
    s.close();
    auto list = m_engine->runtime().list(QLatin1String(labels::Owner), ownerLabel());
    QVERIFY_RESULT(list);
    for (const SandboxInfo &info : *list)
        QVERIFY(info.id != id);
}

void TestNotebook::cleanupTestCase()
{
    if (m_shared)
        m_shared->close();
    m_shared.reset();
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestNotebook)
#include "tst_notebook.moc"
