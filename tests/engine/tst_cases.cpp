// SPDX-License-Identifier: GPL-3.0-or-later
// Every shared case (../shared/cases/cases.json), in all six languages and network ones
// included, runs through the real engine, and every expectation in it is checked.
#include "session/pool.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace sandbox;

class TestCases final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void run_data();
    void run();
    void cleanupTestCase();

private:
    std::shared_ptr<Engine> m_engine;
    std::shared_ptr<SandboxPool> m_pool; ///< SANDBOX_CASES_ZYGOTE=1 only
    QJsonArray m_cases;
    QStringList m_failedVolumes; ///< volumes of failed installs: must not be left behind
};

void TestCases::initTestCase()
{
    QFile f(test::casesDir() + QStringLiteral("/cases.json"));
    QVERIFY2(f.open(QIODevice::ReadOnly),
             qPrintable(QStringLiteral("cannot open %1").arg(f.fileName())));
    m_cases =
        QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("cases")).toArray();
    QVERIFY(!m_cases.isEmpty());
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
#ifdef SANDBOX_AGENT_BINARY
    // engine_cases_zygote: the same cases through a pool whose one-shot runs fork from
    // preloaded interpreters (the GUI's and MCP's default path).
    if (qEnvironmentVariableIntValue("SANDBOX_CASES_ZYGOTE") == 1) {
        PoolOptions o;
        o.agentPath =
            qEnvironmentVariable("SANDBOX_AGENT_PATH", QStringLiteral(SANDBOX_AGENT_BINARY));
        o.minWarm = 1;
        o.maxSize = 2;
        o.zygotes = true;
        m_pool = SandboxPool::create(m_engine->runtimePtr(), o);
        auto image = Engine::defaultImageFor(QStringLiteral("python"));
        QVERIFY_RESULT(image);
        const PoolKey key = PoolKey::from(m_engine->runtime().backend(), QStringLiteral("python"),
                                          *image, Limits{}, NetworkMode::None);
        QVERIFY_RESULT(m_pool->waitWarm(key, Deadline::in(std::chrono::seconds(180))));
        QVERIFY2(m_pool->stats().value(0).zygotesReady >= 1, "no zygote came up");
        m_engine->setPool(m_pool);
    }
#endif
}

void TestCases::run_data()
{
    // Every case, network ones included (they install their dependencies for real).
    // SANDBOX_CASE_LANGUAGES ("python,go") narrows the run while working on one language;
    // SANDBOX_CASES_OFFLINE=1 keeps the cases that need no network (the per-backend runs:
    // SANDBOX_TEST_BACKEND picks the backend, see testsupport.h).
    QTest::addColumn<QJsonObject>("testCase");
    const QList<QJsonObject> cases =
        test::sharedCases(!qEnvironmentVariable("SANDBOX_CASES_OFFLINE").isEmpty());
    for (const QJsonObject &c : cases)
        QTest::newRow(qPrintable(c.value(QStringLiteral("id")).toString())) << c;
    QVERIFY2(!cases.isEmpty(), "no shared cases selected");
}

void TestCases::run()
{
    QFETCH(QJsonObject, testCase);
    QVERIFY(m_engine);
    auto request = test::sharedCaseRequest(testCase);
    QVERIFY_RESULT(request);
    RunRequest &req = *request;
    if (testCase.value(QStringLiteral("network")).toBool()) {
        // Install for real: drop a cached volume from an earlier run (best effort: another
        // run may be using it, and then it simply serves from the cache).
        auto volume = Engine::dependencyVolumeFor(req);
        QVERIFY_RESULT(volume);
        QVERIFY2(!volume->isEmpty(), "a network case with nothing to install");
        m_engine->runtime().removeVolume(*volume);
    }

    const bool throughZygote = m_pool && req.language == QLatin1String("python") &&
                               !testCase.value(QStringLiteral("network")).toBool();
    if (throughZygote) {
        // The sandbox of the previous case is reset in the background: let it come back
        // with its zygote, so this case forks from it.
        const PoolKey key = PoolKey::from(m_engine->runtime().backend(), req.language,
                                          Engine::defaultImageFor(req.language).value_or(QString()),
                                          req.limits, NetworkMode::None);
        QVERIFY_RESULT(m_pool->waitWarm(key, Deadline::in(std::chrono::seconds(120))));
    }
    QStringList statuses;
    RunObserver observer;
    observer.onStatus = [&](const QString &s) { statuses.append(s); };
    auto result = m_engine->runBlocking(req, observer);
    if (!result && result.error().code == ErrorCode::DependencyFailed)
        if (auto volume = Engine::dependencyVolumeFor(req); volume && !volume->isEmpty())
            m_failedVolumes.append(*volume);
    QVERIFY_RESULT(result);
    const RunResult &r = *result;
    const QString out = QString::fromUtf8(r.stdoutData);
    const QString err = QString::fromUtf8(r.stderrData);
    const QString context =
        QStringLiteral("\n--- stdout:\n%1\n--- stderr:\n%2\n--- notes:\n%3\n--- status:\n%4")
            .arg(out, err, r.notes.join(u'\n'),
                 statuses.mid(qMax(0, int(statuses.size()) - 20)).join(u'\n'));
    if (testCase.value(QStringLiteral("network")).toBool())
        QVERIFY2(!r.notes.filter(QStringLiteral("installed: ")).isEmpty() ||
                     !r.notes.filter(QStringLiteral("dependencies from cache: ")).isEmpty(),
                 qPrintable(QStringLiteral("no dependencies were installed") + context));
    if (throughZygote)
        QVERIFY2(statuses.contains(QStringLiteral("ran in a preloaded interpreter")),
                 qPrintable(QStringLiteral("the case did not fork from the zygote") + context));
    const QString mismatch = test::sharedCaseMismatch(testCase, r, context);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
}

void TestCases::cleanupTestCase()
{
    if (!m_engine)
        return;
    if (m_pool)
        m_pool->shutdown();
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
    for (const QString &v : std::as_const(m_failedVolumes)) {
        auto exists = m_engine->runtime().volumeExists(v);
        QVERIFY_RESULT(exists);
        QVERIFY2(!*exists, qPrintable(v + QStringLiteral(" (a failed install) was left behind")));
    }
}

QTEST_GUILESS_MAIN(TestCases)
#include "tst_cases.moc"
