// SPDX-License-Identifier: GPL-3.0-or-later
// Fault injection (issue 11): the engine socket closed mid-stream, a truncated multiplexed
// frame (both through FaultProxy in front of the real dockerd), the application SIGKILLed
// during a run (then the reaper), and a notebook sandbox killed from outside during a cell.
// Each fault must end the affected run with a clear error, leave the engine working (the
// next run succeeds) and leave no container or volume behind once the reaper ran.
#include "faultproxy.h"
#include "session/notebook.h"
#include "session/pool.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QHostInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>
#include <QtTest>
#include <csignal>
#include <sys/wait.h>

using namespace sandbox;
using sandbox::test::FaultProxy;
using namespace std::chrono_literals;

namespace {

/// The socket the real dockerd listens on (DOCKER_HOST unix://... or the default).
QString dockerSocket()
{
    const QString host = qEnvironmentVariable("DOCKER_HOST");
    if (host.startsWith(QLatin1String("unix://")))
        return host.mid(7);
    return QStringLiteral("/var/run/docker.sock");
}

RunRequest pythonRequest(const QString &code, qint64 timeoutMs = 30'000)
{
    RunRequest r;
    r.language = QStringLiteral("python");
    r.code = code;
    r.limits.timeoutMs = timeoutMs;
    return r;
}

/// Sandboxes (any state) and volumes labelled with owner.
int leftoversOf(Runtime &rt, const QString &owner)
{
    auto list = rt.list(QLatin1String(labels::Owner), owner);
    if (!list)
        return -1;
    int n = int(list->size());
    auto vols = rt.listVolumes(QLatin1String(labels::Owner), owner);
    if (vols)
        n += int(vols->size());
    return n;
}

} // namespace

class TestFaults : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<Engine> m_engine; // straight to dockerd
    QTemporaryDir m_dir{QStringLiteral("/tmp/sandbox-studio-faults-XXXXXX")};

    /// A run that must succeed after a fault: the engine still works.
    void expectHealthyRun(Engine &engine)
    {
        auto r = engine.runBlocking(pythonRequest(QStringLiteral("print(6*7)")));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        QCOMPARE(r->exitCode, 0);
        QCOMPARE(r->stdoutData.trimmed(), QByteArray("42"));
    }

    /// One run through the proxy with fault armed once the program runs.
    void runWithProxyFault(FaultProxy::Fault fault, ErrorCode expected, const QString &phrase)
    {
        QVERIFY(m_engine);
        QVERIFY(m_dir.isValid());
        FaultProxy proxy(m_dir.filePath(QStringLiteral("proxy.sock")), dockerSocket());
        QVERIFY2(proxy.isListening(), qPrintable(proxy.errorString()));
        BackendProfile profile;
        profile.uri = proxy.uri();
        auto engine = Engine::create(profile);
        QVERIFY_RESULT(engine);
        QVERIFY_RESULT((*engine)->ping());

        RunObserver obs;
        // The fault hits the program's own exec, not the copy-in exec before it.
        obs.onStatus = [&](const QString &s) {
            if (s == QLatin1String("running"))
                proxy.arm(fault, "/exec/", "/start");
        };
        QElapsedTimer t;
        t.start();
        auto r = (*engine)->runBlocking(
            pythonRequest(QStringLiteral("import time\nprint('started', flush=True)\n"
                                         "time.sleep(25)\nprint('never')\n")),
            obs);
        const qint64 took = t.elapsed();
        QCOMPARE(proxy.fired(), 1);
        QVERIFY2(!r, "the run must fail when the stream breaks, not report a result");
        qInfo().noquote() << "error after" << took << "ms:" << r.error().toString();
        QVERIFY2(r.error().code == expected,
                 qPrintable(QStringLiteral("unexpected error kind: ") + r.error().toString()));
        QVERIFY2(r.error().message.contains(phrase, Qt::CaseInsensitive),
                 qPrintable(r.error().message));
        QVERIFY2(took < 20'000, "the broken stream must be noticed, not waited out");
        // Nothing left: the engine removed the sandbox on the error path (through the proxy).
        QCOMPARE(test::leftoverSandboxes(**engine), 0);
        expectHealthyRun(**engine);
        QCOMPARE(test::leftoverSandboxes(**engine), 0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_engine = test::requireEngine(QStringLiteral("python"));
        QVERIFY(m_engine);
    }

    /// (b) dockerd's hijacked exec stream closes while the program still runs.
    void socketClosedMidStream()
    {
        runWithProxyFault(FaultProxy::Fault::CutAfterFirstFrame, ErrorCode::IoError,
                          QStringLiteral("connection"));
    }

    /// (c) The stream ends inside an 8-byte frame header.
    void truncatedFrame()
    {
        runWithProxyFault(FaultProxy::Fault::TruncateFrameHeader, ErrorCode::ProtocolError,
                          QStringLiteral("middle of a frame"));
    }

    /// (b') The same cut on a pooled run: the agent's attach stream (one long connection)
    /// closes mid-run. The run fails, the pool drops that sandbox, the next run gets another.
    void pooledStreamClosed()
    {
        QVERIFY(m_engine);
        FaultProxy proxy(m_dir.filePath(QStringLiteral("proxy2.sock")), dockerSocket());
        QVERIFY2(proxy.isListening(), qPrintable(proxy.errorString()));
        BackendProfile profile;
        profile.uri = proxy.uri();
        auto engine = Engine::create(profile);
        QVERIFY_RESULT(engine);
        PoolOptions opts;
        opts.minWarm = 0;
        opts.maxSize = 2;
        opts.agentPath = QStringLiteral(SANDBOX_AGENT_BINARY);
        auto pool = SandboxPool::create((*engine)->runtimePtr(), opts);
        (*engine)->setPool(pool);
        auto shutdown = qScopeGuard([&] { pool->shutdown(); });
        expectHealthyRun(**engine);

        RunObserver obs;
        std::atomic<bool> started{false};
        obs.onStdout = [&](QByteArrayView) { started = true; };
        QElapsedTimer t;
        t.start();
        auto future = (*engine)->run(
            pythonRequest(QStringLiteral("import time\nprint('up', flush=True)\ntime.sleep(25)\n")),
            obs);
        QTRY_VERIFY_WITH_TIMEOUT(started.load(), 30'000);
        proxy.cutAll();
        future.waitForFinished();
        const auto r = future.result();
        QVERIFY2(!r, "the run must fail when the agent's stream breaks");
        qInfo().noquote() << "error after" << t.elapsed() << "ms:" << r.error().toString();
        QVERIFY2(r.error().code == ErrorCode::IoError || r.error().code == ErrorCode::ProtocolError,
                 qPrintable(r.error().toString()));
        QVERIFY2(t.elapsed() < 20'000, "the broken stream must be noticed, not waited out");
        expectHealthyRun(**engine);
        pool->shutdown();
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
    }

    /// (d) The application is SIGKILLed during a run: its sandbox stays behind (nobody could
    /// remove it) until the reaper of another process removes it.
    void sigkillDuringRun()
    {
        QVERIFY(m_engine);
        QVERIFY(m_dir.isValid());
        const QString file = m_dir.filePath(QStringLiteral("long.py"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("import time\nprint('running', flush=True)\ntime.sleep(60)\n");
        }
        QProcess app;
        app.setProgram(QStringLiteral(SANDBOX_STUDIO_BINARY));
        app.setArguments(
            {QStringLiteral("run"), QStringLiteral("--timeout"), QStringLiteral("120"), file});
        app.setProcessChannelMode(QProcess::MergedChannels);
        app.start();
        QVERIFY2(app.waitForStarted(), qPrintable(app.errorString()));
        const qint64 pid = app.processId();
        const QString owner = QHostInfo::localHostName() + u'/' + QString::number(pid);
        // The CLI prints at the end: wait for its sandbox to run, then give the program time
        // to start.
        auto sandboxRunning = [&] {
            auto list = m_engine->runtime().list(QLatin1String(labels::Owner), owner);
            return list && list->size() == 1 && list->first().state == QLatin1String("running");
        };
        QTRY_VERIFY_WITH_TIMEOUT(sandboxRunning() || app.state() == QProcess::NotRunning, 60'000);
        QTest::qWait(1500);
        QCOMPARE(app.state(), QProcess::Running);
        QCOMPARE(leftoversOf(m_engine->runtime(), owner), 1);
        // SIGKILL exactly that process (our child), nothing else.
        QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
        QVERIFY(app.waitForFinished(10'000));
        QCOMPARE(app.exitStatus(), QProcess::CrashExit);
        // Its sandbox is an orphan now.
        QCOMPARE(leftoversOf(m_engine->runtime(), owner), 1);
        // The reaper path of the application (`sandbox-studio reap`) removes it.
        QProcess reap;
        reap.start(QStringLiteral(SANDBOX_STUDIO_BINARY), {QStringLiteral("reap")});
        QVERIFY(reap.waitForFinished(60'000));
        const QByteArray out = reap.readAllStandardOutput() + reap.readAllStandardError();
        QVERIFY2(reap.exitCode() == 0, out.constData());
        QCOMPARE(leftoversOf(m_engine->runtime(), owner), 0);
        // The application works again.
        QProcess again;
        again.setProcessChannelMode(QProcess::MergedChannels);
        again.start(QStringLiteral(SANDBOX_STUDIO_BINARY),
                    {QStringLiteral("run"), QStringLiteral("-l"), QStringLiteral("python"),
                     QStringLiteral("-")});
        QVERIFY(again.waitForStarted());
        again.write("print(6*7)\n");
        again.closeWriteChannel();
        QVERIFY(again.waitForFinished(120'000));
        const QByteArray out2 = again.readAll();
        QVERIFY2(again.exitCode() == 0 && out2.contains("42"), out2.constData());
    }

    /// (f) The notebook's sandbox is killed from outside (Docker API) while a cell runs.
    void sandboxDiesDuringCell()
    {
        QVERIFY(m_engine);
        Limits limits;
        limits.timeoutMs = 60'000;
        auto nb = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("python"), limits);
        QVERIFY_RESULT(nb);
        auto session = *nb;
        auto first = session->execute(QStringLiteral("x = 41\nprint(x + 1)"));
        QVERIFY_RESULT(first);
        QCOMPARE(first->status, QStringLiteral("ok"));

        std::atomic<bool> started{false};
        CellObserver obs;
        obs.onOutput = [&](const CellOutput &) { started = true; };
        QElapsedTimer t;
        t.start();
        auto future = QtConcurrent::run([&] {
            return session->execute(
                QStringLiteral("import time\nprint('in cell', flush=True)\ntime.sleep(40)"), obs);
        });
        QTRY_VERIFY_WITH_TIMEOUT(started.load(), 30'000);
        // From outside, through the Docker API, as another tool or an OOM kill would.
        QVERIFY_RESULT(m_engine->runtime().kill(session->sandboxId()));
        future.waitForFinished();
        const auto r = future.result();
        const qint64 took = t.elapsed();
        if (r)
            qInfo() << "cell status" << r->status << "restarted" << r->kernelRestarted;
        else
            qInfo().noquote() << "cell error after" << took << "ms:" << r.error().toString();
        QVERIFY2(!r || r->status != QLatin1String("ok"), "a killed cell cannot be ok");
        QVERIFY2(took < 30'000, "the dead sandbox must be noticed, not waited out");
        if (!r)
            QVERIFY2(r.error().message.size() > 10, qPrintable(r.error().toString()));
        // A later cell of that session fails clearly (its sandbox is gone), quickly.
        QElapsedTimer t2;
        t2.start();
        auto later = session->execute(QStringLiteral("print(1)"));
        QVERIFY2(!later || later->status != QLatin1String("ok") || later->kernelRestarted,
                 "a dead sandbox cannot run a cell silently");
        QVERIFY(t2.elapsed() < 30'000);
        session->close();
        // The engine still works: a new session runs a cell.
        auto nb2 = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("python"), limits);
        QVERIFY_RESULT(nb2);
        auto ok = (*nb2)->execute(QStringLiteral("print(6*7)"));
        QVERIFY_RESULT(ok);
        QCOMPARE(ok->status, QStringLiteral("ok"));
        (*nb2)->close();
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
    }

    void cleanupTestCase()
    {
        if (m_engine)
            QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
