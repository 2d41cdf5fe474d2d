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
    const bool offline = !qEnvironmentVariable("SANDBOX_CASES_OFFLINE").isEmpty();
    const QStringList languages =
        qEnvironmentVariable("SANDBOX_CASE_LANGUAGES").split(u',', Qt::SkipEmptyParts);
    QTest::addColumn<QJsonObject>("testCase");
    QFile f(test::casesDir() + QStringLiteral("/cases.json"));
    if (!f.open(QIODevice::ReadOnly))
        return;
    const QJsonArray cases =
        QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("cases")).toArray();
    int rows = 0;
    for (const QJsonValue &v : cases) {
        const QJsonObject c = v.toObject();
        if (!languages.isEmpty() &&
            !languages.contains(c.value(QStringLiteral("language")).toString()))
            continue;
        if (offline && c.value(QStringLiteral("network")).toBool())
            continue;
        QTest::newRow(qPrintable(c.value(QStringLiteral("id")).toString())) << c;
        ++rows;
    }
    QVERIFY2(rows > 0, "no shared cases selected");
}

static QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out << s.toString();
    return out;
}

void TestCases::run()
{
    QFETCH(QJsonObject, testCase);
    QVERIFY(m_engine);
    const QString dir = test::casesDir();
    RunRequest req;
    req.origin = RunOrigin::Test;
    req.language = testCase.value(QStringLiteral("language")).toString();
    QFile code(dir + u'/' + testCase.value(QStringLiteral("file")).toString());
    QVERIFY(code.open(QIODevice::ReadOnly));
    req.code = QString::fromUtf8(code.readAll());
    for (const QString &path : strings(testCase.value(QStringLiteral("files")))) {
        QFile in(dir + u'/' + path);
        QVERIFY(in.open(QIODevice::ReadOnly));
        req.files.append({path.section(u'/', -1), in.readAll()});
    }
    req.libraries = strings(testCase.value(QStringLiteral("libraries")));
    req.limits.timeoutMs = 120'000;
    // The program itself runs with network off; "network" cases may reach registries in
    // the install step, which always has network.
    req.network = NetworkMode::None;
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
    const QJsonObject expect = testCase.value(QStringLiteral("expect")).toObject();
    if (throughZygote)
        QVERIFY2(statuses.contains(QStringLiteral("ran in a preloaded interpreter")),
                 qPrintable(QStringLiteral("the case did not fork from the zygote") + context));

    if (expect.contains(QStringLiteral("exit_code")))
        QVERIFY2(r.exitCode == expect.value(QStringLiteral("exit_code")).toInt(),
                 qPrintable(QStringLiteral("exit code %1, expected %2")
                                .arg(r.exitCode)
                                .arg(expect.value(QStringLiteral("exit_code")).toInt()) +
                            context));
    if (expect.value(QStringLiteral("exit_code_nonzero")).toBool())
        QVERIFY2(r.exitCode != 0,
                 qPrintable(QStringLiteral("exit code 0, expected non-zero") + context));

    // stdout_lines: exact lines, in this order, others may come between.
    const QStringList lines = out.split(u'\n');
    qsizetype at = 0;
    for (const QString &want : strings(expect.value(QStringLiteral("stdout_lines")))) {
        qsizetype found = -1;
        for (qsizetype i = at; i < lines.size(); ++i)
            if (lines[i] == want) {
                found = i;
                break;
            }
        QVERIFY2(
            found >= 0,
            qPrintable(QStringLiteral("line '%1' missing or out of order").arg(want) + context));
        at = found + 1;
    }
    for (const QString &want : strings(expect.value(QStringLiteral("stdout_contains"))))
        QVERIFY2(out.contains(want),
                 qPrintable(QStringLiteral("stdout lacks '%1'").arg(want) + context));
    for (const QString &want : strings(expect.value(QStringLiteral("stderr_contains"))))
        QVERIFY2(err.contains(want),
                 qPrintable(QStringLiteral("stderr lacks '%1'").arg(want) + context));
    for (const QString &bad : strings(expect.value(QStringLiteral("stdout_not_contains"))))
        QVERIFY2(!out.contains(bad),
                 qPrintable(QStringLiteral("stdout has '%1'").arg(bad) + context));

    const QJsonObject artifactsMin = expect.value(QStringLiteral("artifacts_min")).toObject();
    for (auto it = artifactsMin.begin(); it != artifactsMin.end(); ++it) {
        int count = 0;
        for (const Artifact &a : r.artifacts) {
            if (a.mimeType != it.key())
                continue;
            if (a.mimeType == QLatin1String("image/png")) {
                QVERIFY2(a.data.startsWith("\x89PNG\r\n\x1a\n"),
                         qPrintable(a.name + QStringLiteral(" is not a PNG")));
                QVERIFY2(a.size() > 1000, qPrintable(a.name + QStringLiteral(" is too small")));
            }
            ++count;
        }
        QVERIFY2(count >= it.value().toInt(),
                 qPrintable(QStringLiteral("%1 artifacts of type %2, expected at least %3")
                                .arg(count)
                                .arg(it.key())
                                .arg(it.value().toInt()) +
                            context));
    }
    const QJsonObject filesOut = expect.value(QStringLiteral("files_out")).toObject();
    for (auto it = filesOut.begin(); it != filesOut.end(); ++it) {
        const Artifact *found = nullptr;
        for (const Artifact &a : r.artifacts)
            if (a.name == it.key())
                found = &a;
        QVERIFY2(found,
                 qPrintable(QStringLiteral("file %1 not brought back").arg(it.key()) + context));
        QCOMPARE(QString::fromUtf8(found->data), it.value().toString());
    }
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
