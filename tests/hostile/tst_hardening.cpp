// SPDX-License-Identifier: GPL-3.0-or-later
// Hardening proven from inside: programs/hardening_probe.py runs in a default sandbox (a
// fresh one and a pooled one that runs through the agent) and reports each check; every
// check must hold. The probe fails each check on an ordinary host (run it there to see).
#include "session/pool.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace sandbox;

class TestHardening final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void probe_data();
    void probe();
    void cleanupTestCase();

private:
    QJsonObject runProbe(bool pooled);
    std::shared_ptr<Engine> m_engine;
    QHash<bool, QJsonObject> m_results; // pooled -> checks
    QString m_code;
};

void TestHardening::initTestCase()
{
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
    QFile f(QStringLiteral(SANDBOX_HOSTILE_DIR "/hardening_probe.py"));
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    m_code = QString::fromUtf8(f.readAll());
}

QJsonObject TestHardening::runProbe(bool pooled)
{
    if (m_results.contains(pooled))
        return m_results.value(pooled);
    std::shared_ptr<SandboxPool> pool;
    if (pooled) {
        PoolOptions o;
        o.minWarm = 0;
        o.agentPath =
            qEnvironmentVariable("SANDBOX_AGENT_PATH", QStringLiteral(SANDBOX_AGENT_BINARY));
        pool = SandboxPool::create(m_engine->runtimePtr(), o);
        m_engine->setPool(pool);
    }
    RunRequest req;
    req.language = QStringLiteral("python");
    req.code = m_code;
    req.origin = RunOrigin::Test;
    // The probe names engine sockets on purpose; the policy would (rightly) stop it.
    req.policy = std::make_shared<Policy>(*Policy::preset(QStringLiteral("permissive")));
    auto r = m_engine->runBlocking(req);
    if (pooled) {
        m_engine->setPool(nullptr);
        pool->shutdown();
    }
    if (!r) {
        qWarning() << r.error().toString();
        return {};
    }
    if (r->exitCode != 0)
        qWarning().noquote() << r->stderrData;
    if (pooled && !r->notes.isEmpty())
        qInfo() << r->notes;
    const QJsonObject checks = QJsonDocument::fromJson(r->stdoutData).object();
    m_results.insert(pooled, checks);
    return checks;
}

void TestHardening::probe_data()
{
    QTest::addColumn<bool>("pooled");
    QTest::addColumn<QString>("check");
    const QStringList checks = {QStringLiteral("non_root_uid"),
                                QStringLiteral("no_effective_capabilities"),
                                QStringLiteral("no_permitted_capabilities"),
                                QStringLiteral("no_new_privs"),
                                QStringLiteral("seccomp_filter"),
                                QStringLiteral("root_fs_read_only"),
                                QStringLiteral("usr_read_only"),
                                QStringLiteral("work_dir_writable"),
                                QStringLiteral("no_engine_socket"),
                                QStringLiteral("no_host_mounts"),
                                QStringLiteral("no_host_paths"),
                                QStringLiteral("only_loopback"),
                                QStringLiteral("connect_fails"),
                                QStringLiteral("dns_fails")};
    for (bool pooled : {false, true})
        for (const QString &c : checks)
            QTest::newRow(
                qPrintable((pooled ? QStringLiteral("pooled ") : QStringLiteral("fresh ")) + c))
                << pooled << c;
}

void TestHardening::probe()
{
    QFETCH(bool, pooled);
    QFETCH(QString, check);
    const QJsonObject checks = runProbe(pooled);
    QVERIFY2(!checks.isEmpty(), "the probe printed no JSON (see the warning above)");
    QVERIFY2(checks.contains(check), qPrintable(QStringLiteral("probe lacks %1").arg(check)));
    const QJsonObject c = checks.value(check).toObject();
    QVERIFY2(
        c.value(QStringLiteral("ok")).toBool(),
        qPrintable(check + QStringLiteral(": ") + c.value(QStringLiteral("detail")).toString()));
}

void TestHardening::cleanupTestCase()
{
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestHardening)
#include "tst_hardening.moc"
