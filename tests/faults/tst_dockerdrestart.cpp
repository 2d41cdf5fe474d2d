// SPDX-License-Identifier: GPL-3.0-or-later
// Fault injection (issue 11), case (a): the Docker daemon dies (SIGKILL) or is stopped
// (SIGTERM) mid-run and comes back. Uses a SECOND dockerd of its own (faults-dockerd.sh,
// socket /run/sandbox-studio-faults/docker.sock), never the shared main one. The run in
// flight ends with a clear error, the engine object keeps working once the daemon is back,
// and after reapOrphans() no container of this process is left on that daemon.
#include "session/pool.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QtTest>

using namespace sandbox;

namespace {

const QString Script = QStringLiteral(SANDBOX_FAULTS_DIR "/faults-dockerd.sh");

/// Runs faults-dockerd.sh with args; returns its output, fails the test when it fails.
bool daemonCtl(const QStringList &args, QByteArray *output = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("bash"), QStringList{Script} + args);
    if (!p.waitForFinished(600'000)) {
        p.kill();
        p.waitForFinished();
    }
    const QByteArray out = p.readAll();
    if (output)
        *output = out;
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning().noquote() << "faults-dockerd.sh" << args.join(u' ') << "failed:" << out;
        return false;
    }
    return true;
}

} // namespace

class TestDockerdRestart : public QObject
{
    Q_OBJECT

    std::shared_ptr<Engine> m_engine;
    QString m_uri = QStringLiteral("unix:///run/sandbox-studio-faults/docker.sock");

private Q_SLOTS:
    void initTestCase()
    {
        auto image = Engine::defaultImageFor(QStringLiteral("python"));
        QVERIFY_RESULT(image);
        QVERIFY2(daemonCtl({QStringLiteral("start"), *image}),
                 "the test's own dockerd (tests/faults/faults-dockerd.sh start) did not come up; "
                 "see /var/log/sandbox-studio-faults-dockerd.log");
        BackendProfile profile;
        profile.uri = m_uri;
        auto engine = Engine::create(profile);
        QVERIFY_RESULT(engine);
        m_engine = *engine;
        QVERIFY_RESULT(m_engine->ping());
    }

    void daemonGoesAway_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<bool>("pooled");
        QTest::newRow("sigkill") << QStringLiteral("kill") << false;
        QTest::newRow("stop") << QStringLiteral("stop") << false;
        QTest::newRow("sigkill-pooled") << QStringLiteral("kill") << true;
    }

    void daemonGoesAway()
    {
        QFETCH(QString, how);
        QFETCH(bool, pooled);
        QVERIFY(m_engine);
        std::shared_ptr<SandboxPool> pool;
        if (pooled) {
            PoolOptions opts;
            opts.minWarm = 1;
            opts.maxSize = 2;
            opts.agentPath = QStringLiteral(SANDBOX_AGENT_BINARY);
            pool = SandboxPool::create(m_engine->runtimePtr(), opts);
        }
        m_engine->setPool(pool);
        auto unsetPool = qScopeGuard([&] {
            m_engine->setPool(nullptr);
            if (pool)
                pool->shutdown();
        });

        RunRequest req;
        req.language = QStringLiteral("python");
        req.code = QStringLiteral("import time\nprint('started', flush=True)\ntime.sleep(40)\n");
        req.limits.timeoutMs = 90'000;
        std::atomic<bool> started{false};
        RunObserver obs;
        obs.onStdout = [&](QByteArrayView) { started = true; };
        QElapsedTimer t;
        t.start();
        auto future = m_engine->run(req, obs);
        QTRY_VERIFY_WITH_TIMEOUT(started.load(), 60'000);
        const qint64 killedAt = t.elapsed();
        QVERIFY(daemonCtl({how}));
        // Bring it back while the run is still failing or already failed.
        QVERIFY(daemonCtl({QStringLiteral("start")}));
        future.waitForFinished();
        const auto r = future.result();
        const qint64 took = t.elapsed() - killedAt;
        if (r)
            qInfo() << "result after the daemon went away: exit" << r->exitCode << "stdout"
                    << r->stdoutData;
        else
            qInfo().noquote() << "error" << took
                              << "ms after the daemon went away:" << r.error().toString();
        QVERIFY2(!r || r->exitCode != 0, "a run whose daemon died cannot succeed");
        if (!r)
            QVERIFY2(r.error().code == ErrorCode::EngineUnreachable ||
                         r.error().code == ErrorCode::IoError ||
                         r.error().code == ErrorCode::ProtocolError ||
                         r.error().code == ErrorCode::EngineError,
                     qPrintable(r.error().toString()));
        QVERIFY2(took < 40'000, "the lost daemon must be noticed before the program would end");

        // The same Engine works again once the daemon is back.
        QVERIFY_RESULT(m_engine->ping());
        RunRequest ok;
        ok.language = QStringLiteral("python");
        ok.code = QStringLiteral("print(6*7)");
        auto again = m_engine->runBlocking(ok);
        QVERIFY_RESULT(again);
        QCOMPARE(again->exitCode, 0);
        QCOMPARE(again->stdoutData.trimmed(), QByteArray("42"));

        if (pool)
            pool->shutdown();
        auto reaped = m_engine->reapOrphans();
        QVERIFY_RESULT(reaped);
        qInfo() << "reaper removed" << *reaped;
        QCOMPARE(m_engine->pendingRemovals(), QStringList());
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
        auto vols = m_engine->runtime().listVolumes(QLatin1String(labels::Owner), ownerLabel());
        QVERIFY_RESULT(vols);
        QCOMPARE(vols->size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestDockerdRestart)
#include "tst_dockerdrestart.moc"
