// SPDX-License-Identifier: GPL-3.0-or-later
// Fault injection (issue 11), case (e): a Kubernetes API that answers 500 and drops
// WebSockets. The Kubernetes API stand-in (tests/fixtures/k8s-standin, pods are real
// containers on the local dockerd) sits behind k8s-faultproxy.py, which presents the
// stand-in's own certificate and injects the faults. Each fault ends the affected run with
// a clear error, the next run succeeds, and no pod is left once the reaper ran.
#include "runtime/kubernetesruntime.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace sandbox;

class TestK8sFaults : public QObject
{
    Q_OBJECT

    QTemporaryDir m_state;
    QProcess m_standin;
    QProcess m_proxy;
    QByteArray m_proxyLog;
    std::shared_ptr<KubernetesRuntime> m_runtime;
    std::shared_ptr<Engine> m_engine;

    /// Reads one JSON line from process (waits up to 60 s).
    static QJsonObject readyLine(QProcess &process)
    {
        QByteArray line;
        for (int i = 0; i < 600 && !line.contains('\n'); ++i) {
            if (process.state() == QProcess::NotRunning)
                break;
            process.waitForReadyRead(100);
            line += process.readAllStandardOutput();
        }
        return QJsonDocument::fromJson(line.left(line.indexOf('\n'))).object();
    }

    /// Arms a fault in the proxy and waits for its acknowledgement.
    bool arm(const QByteArray &command)
    {
        m_proxy.write(command + '\n');
        for (int i = 0; i < 50; ++i) {
            m_proxy.waitForReadyRead(100);
            m_proxyLog += m_proxy.readAllStandardOutput();
            if (m_proxyLog.contains(QByteArray("armed " + command))) {
                m_proxyLog.clear();
                return true;
            }
        }
        return false;
    }

    bool fired(const QByteArray &what)
    {
        for (int i = 0; i < 30; ++i) {
            m_proxyLog += m_proxy.readAllStandardOutput();
            if (m_proxyLog.contains(QByteArray("fired " + what)))
                return true;
            m_proxy.waitForReadyRead(100);
        }
        qWarning() << "proxy said:" << m_proxyLog;
        return false;
    }

    int podsLeft()
    {
        auto list = m_runtime->list(QLatin1String(labels::Owner), ownerLabel());
        return list ? int(list->size()) : -1;
    }

    void expectHealthyRun()
    {
        RunRequest ok;
        ok.language = QStringLiteral("python");
        ok.code = QStringLiteral("print(6*7)");
        auto r = m_engine->runBlocking(ok);
        QVERIFY_RESULT(r);
        QCOMPARE(r->exitCode, 0);
        QCOMPARE(r->stdoutData.trimmed(), QByteArray("42"));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(test::requireEngine(QStringLiteral("python"))); // the stand-in's dockerd
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        QVERIFY2(!python.isEmpty(), "python3 is required for the Kubernetes API stand-in and "
                                    "the fault proxy: install python3");
        QVERIFY(m_state.isValid());
        m_standin.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_standin.start(python, {QStringLiteral(SANDBOX_K8S_STANDIN), QStringLiteral("--state-dir"),
                                 m_state.path()});
        const QJsonObject ready = readyLine(m_standin);
        QVERIFY2(!ready.isEmpty(), "the Kubernetes API stand-in did not come up");

        m_proxy.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_proxy.start(python, {QStringLiteral(SANDBOX_FAULTS_DIR "/k8s-faultproxy.py"),
                               QStringLiteral("--state-dir"), m_state.path(),
                               QStringLiteral("--upstream-port"),
                               QString::number(ready.value(QStringLiteral("port")).toInt())});
        const QJsonObject proxy = readyLine(m_proxy);
        QVERIFY2(!proxy.isEmpty(), "tests/faults/k8s-faultproxy.py did not come up");

        KubernetesSettings settings;
        settings.kubeconfig = ready.value(QStringLiteral("kubeconfig")).toString();
        settings.context = QStringLiteral("standin");
        auto direct = KubernetesRuntime::create(settings, QStringLiteral("stand-in"));
        QVERIFY_RESULT(direct);
        KubernetesConnection c = (*direct)->connection();
        c.server =
            QStringLiteral("https://127.0.0.1:%1").arg(proxy.value(QStringLiteral("port")).toInt());
        m_runtime = std::make_shared<KubernetesRuntime>(c, (*direct)->settings(),
                                                        QStringLiteral("Faulty cluster"));
        m_engine = std::make_shared<Engine>(m_runtime);
        QVERIFY_RESULT(m_engine->ping());
        expectHealthyRun();
    }

    /// Pod creation answered with 500: the run fails saying so; nothing is left.
    void createAnswers500()
    {
        QVERIFY(m_engine);
        QVERIFY(arm("fail500 1 POST /pods"));
        RunRequest req;
        req.language = QStringLiteral("python");
        req.code = QStringLiteral("print(1)");
        auto r = m_engine->runBlocking(req);
        QVERIFY(fired("500 POST"));
        QVERIFY2(!r, "a run whose pod could not be created cannot succeed");
        qInfo().noquote() << "error:" << r.error().toString();
        QVERIFY2(r.error().toString().contains(QLatin1String("500")) ||
                     r.error().toString().contains(QLatin1String("injected fault")),
                 qPrintable(r.error().toString()));
        expectHealthyRun();
        QCOMPARE(podsLeft(), 0);
    }

    /// Every GET of the pod (the wait for Running) answered 500 a few times.
    void statusPollsAnswer500()
    {
        QVERIFY(m_engine);
        QVERIFY(arm("fail500 3 GET /pods/"));
        RunRequest req;
        req.language = QStringLiteral("python");
        req.code = QStringLiteral("print(2)");
        auto r = m_engine->runBlocking(req);
        if (r)
            qInfo() << "run went through (GETs retried):" << r->stdoutData;
        else
            qInfo().noquote() << "error:" << r.error().toString();
        QVERIFY2(!r || r->stdoutData.trimmed() == "2", "a result must be the program's");
        // Whatever the 500s hit, the next run works and the reaper leaves no pod.
        QVERIFY(arm("clear")); // the 500s not used up
        expectHealthyRun();
        QVERIFY_RESULT(m_engine->reapOrphans());
        QCOMPARE(podsLeft(), 0);
    }

    /// The pod's deletion answered 500: the run still has its result, the pod is removed
    /// later (next run or reaper).
    void deleteAnswers500()
    {
        QVERIFY(m_engine);
        QVERIFY(arm("fail500 1 DELETE /pods/"));
        RunRequest req;
        req.language = QStringLiteral("python");
        req.code = QStringLiteral("print(3)");
        auto r = m_engine->runBlocking(req);
        QVERIFY(fired("500 DELETE"));
        QVERIFY_RESULT(r);
        QCOMPARE(r->stdoutData.trimmed(), QByteArray("3"));
        QCOMPARE(m_engine->pendingRemovals().size(), 1);
        QCOMPARE(podsLeft(), 1);
        auto reaped = m_engine->reapOrphans();
        QVERIFY_RESULT(reaped);
        QCOMPARE(m_engine->pendingRemovals().size(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(podsLeft(), 0, 30'000);
    }

    /// The exec WebSocket of the running program is dropped mid-stream.
    void execWebSocketDropped()
    {
        QVERIFY(m_engine);
        RunRequest req;
        req.language = QStringLiteral("python");
        req.code = QStringLiteral("import time\nprint('started', flush=True)\ntime.sleep(25)\n");
        req.limits.timeoutMs = 60'000;
        // The program's exec only (the copy-in exec before it runs tar): its URL carries
        // the command, "python".
        RunObserver obs;
        QVERIFY(arm("dropws 1 python"));
        QElapsedTimer t;
        t.start();
        auto r = m_engine->runBlocking(req, obs);
        const qint64 took = t.elapsed();
        QVERIFY(fired("dropws"));
        QVERIFY2(!r, "the run must fail when its stream is dropped");
        qInfo().noquote() << "error after" << took << "ms:" << r.error().toString();
        QVERIFY2(r.error().code == ErrorCode::IoError ||
                     r.error().code == ErrorCode::ProtocolError ||
                     r.error().code == ErrorCode::EngineError,
                 qPrintable(r.error().toString()));
        QVERIFY2(took < 20'000, "the dropped stream must be noticed, not waited out");
        expectHealthyRun();
        QVERIFY_RESULT(m_engine->reapOrphans());
        QCOMPARE(podsLeft(), 0);
    }

    void cleanupTestCase()
    {
        if (m_runtime)
            QCOMPARE(podsLeft(), 0);
        m_proxy.kill();
        m_proxy.waitForFinished();
        m_standin.terminate(); // the stand-in removes its containers on SIGTERM
        if (!m_standin.waitForFinished(30'000))
            m_standin.kill();
    }
};

QTEST_GUILESS_MAIN(TestK8sFaults)
#include "tst_k8sfaults.moc"
