// SPDX-License-Identifier: GPL-3.0-or-later
// The sandbox pool against the real dockerd: warm sandboxes through the agent, reset
// between borrowers, recycling, exhaustion policies, health checks, shutdown and reaping.
#include "languages/language.h"
#include "session/pool.h"
#include "testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <thread>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

PoolOptions baseOptions()
{
    PoolOptions o;
    o.agentPath = qEnvironmentVariable("SANDBOX_AGENT_PATH", QStringLiteral(SANDBOX_AGENT_BINARY));
    o.minWarm = 0;
    o.maxSize = 1;
    o.waitTimeout = 30s;
    // Pool mechanics and their timings; zygotes have their own suite (tst_zygote) and
    // nothingCarriesOverBetweenBorrowers runs with them.
    o.zygotes = false;
    return o;
}

PoolKey pythonKey(Engine &engine)
{
    return PoolKey::from(engine.runtime().backend(), QStringLiteral("python"),
                         Engine::defaultImageFor(QStringLiteral("python")).value_or(QString()),
                         Limits{}, NetworkMode::None);
}

/// This process's sandboxes of the pool key hash.
QList<SandboxInfo> listByPool(Engine &engine, const QString &hash)
{
    QList<SandboxInfo> mine;
    auto list = engine.runtime().list(QLatin1String(PoolLabel), hash);
    if (!list)
        return mine;
    for (const SandboxInfo &i : *list)
        if (i.labels.value(QLatin1String(labels::Owner)) == ownerLabel())
            mine.append(i);
    return mine;
}

/// How many; -1 when the engine cannot list.
int countByPool(Engine &engine, const QString &hash)
{
    auto list = engine.runtime().list(QLatin1String(PoolLabel), hash);
    return list ? int(listByPool(engine, hash).size()) : -1;
}

/// Waits until count(hash) == want (removal runs in the background).
bool waitCount(Engine &engine, const QString &hash, int want, std::chrono::milliseconds limit = 20s)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < limit.count()) {
        if (countByPool(engine, hash) == want)
            return true;
        std::this_thread::sleep_for(100ms);
    }
    return false;
}

} // namespace

class TestPool final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void nothingCarriesOverBetweenBorrowers();
    void pooledRunsMatchPlainRuns_data();
    void pooledRunsMatchPlainRuns();
    void timeoutInPooledRun();
    void waitPolicyTimesOut();
    void failFastFailsAtOnce();
    void temporaryIsRemovedAfterUse();
    void maxUsesRecycles();
    void maxLifetimeRecycles();
    void unhealthySandboxIsReplaced();
    void minWarmAndShutdownRemovesAll();
    void reaperRemovesPoolOfKilledProcess();
    void cleanupTestCase();

private:
    std::shared_ptr<Engine> m_engine;
};

void TestPool::initTestCase()
{
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
    QVERIFY2(QFile::exists(baseOptions().agentPath),
             qPrintable(QStringLiteral("the agent binary %1 is missing: build sandbox-agent")
                            .arg(baseOptions().agentPath)));
}

void TestPool::nothingCarriesOverBetweenBorrowers()
{
    PoolOptions o = baseOptions();
    o.zygotes = true;
    auto pool = SandboxPool::create(m_engine->runtimePtr(), o);
    Engine engine(m_engine->runtimePtr());
    engine.setPool(pool);
    RunRequest first;
    first.language = QStringLiteral("python");
    first.code = QStringLiteral(
        "import subprocess, os\n"
        "open('/sandbox/secret.txt', 'w').write('s')\n"
        "open('/tmp/secret.txt', 'w').write('s')\n"
        "os.makedirs('/sandbox/output/deep', exist_ok=True)\n"
        "open('/sandbox/.sandbox/python/sitecustomize.py', 'a').write('\\nprint(\"HIJACK\")\\n')\n"
        "subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
        "subprocess.Popen(['sh', '-c', 'sleep 301 &'], start_new_session=True)\n"
        "print('planted')\n");
    auto r1 = engine.runBlocking(first);
    QVERIFY_RESULT(r1);
    QCOMPARE(r1->exitCode, 0);
    QVERIFY(r1->stdoutData.contains("planted"));

    RunRequest second;
    second.language = QStringLiteral("python");
    second.code = QStringLiteral(
        "import os\n"
        "me = {os.getpid(), os.getppid(), 1}\n"
        "procs = [p for p in os.listdir('/proc') if p.isdigit() and int(p) not in me]\n"
        "cmds = [open('/proc/%s/cmdline' % p).read() for p in procs]\n"
        "# The preloaded interpreter and its spare ran no program (tst_zygote covers them).\n"
        "print('procs', [c for c in cmds if 'sandbox_zygote.py' not in c])\n"
        "print('files', sorted(os.listdir('/sandbox')), sorted(os.listdir('/tmp')))\n"
        "print('output', os.listdir('/sandbox/output'))\n");
    auto r2 = engine.runBlocking(second);
    QVERIFY_RESULT(r2);
    QCOMPARE(r2->sandboxId, r1->sandboxId); // the same sandbox, reset
    const QString out = QString::fromUtf8(r2->stdoutData);
    QVERIFY2(out.contains(QStringLiteral("procs []")), qPrintable(out));
    QVERIFY2(!out.contains(QStringLiteral("secret")), qPrintable(out));
    QVERIFY2(!out.contains(QStringLiteral("HIJACK")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("output []")), qPrintable(out));

    // A directory the reset cannot empty (no permissions): that sandbox is replaced.
    RunRequest locked;
    locked.language = QStringLiteral("python");
    locked.code = QStringLiteral("import os\n"
                                 "os.makedirs('/sandbox/locked/inner')\n"
                                 "open('/sandbox/locked/inner/f', 'w').write('x')\n"
                                 "os.chmod('/sandbox/locked/inner', 0)\n"
                                 "os.chmod('/sandbox/locked', 0)\n");
    auto r3 = engine.runBlocking(locked);
    QVERIFY_RESULT(r3);
    QCOMPARE(r3->exitCode, 0);
    QCOMPARE(r3->sandboxId, r1->sandboxId);
    auto r4 = engine.runBlocking(second);
    QVERIFY_RESULT(r4);
    QVERIFY(r4->sandboxId != r3->sandboxId);
    const QString out4 = QString::fromUtf8(r4->stdoutData);
    QVERIFY2(!out4.contains(QStringLiteral("locked")), qPrintable(out4));
    QVERIFY(pool->stats().value(0).recycled >= 1);
    pool->shutdown();
    QCOMPARE(countByPool(engine, pythonKey(engine).hash()), 0);
}

void TestPool::pooledRunsMatchPlainRuns_data()
{
    QTest::addColumn<QString>("id");
    for (const char *id : {"py-primes", "py-exit-code-and-stderr", "py-orders-report-with-upload",
                           "py-sales-summary"})
        QTest::newRow(id) << QString::fromLatin1(id);
}

void TestPool::pooledRunsMatchPlainRuns()
{
    QFETCH(QString, id);
    QFile f(test::casesDir() + QStringLiteral("/cases.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject testCase;
    for (const QJsonValue &v :
         QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("cases")).toArray())
        if (v.toObject().value(QStringLiteral("id")).toString() == id)
            testCase = v.toObject();
    QVERIFY2(!testCase.isEmpty(), qPrintable(id));
    RunRequest req;
    req.language = testCase.value(QStringLiteral("language")).toString();
    QFile code(test::casesDir() + u'/' + testCase.value(QStringLiteral("file")).toString());
    QVERIFY(code.open(QIODevice::ReadOnly));
    req.code = QString::fromUtf8(code.readAll());
    for (const QJsonValue &p : testCase.value(QStringLiteral("files")).toArray()) {
        QFile in(test::casesDir() + u'/' + p.toString());
        QVERIFY(in.open(QIODevice::ReadOnly));
        req.files.append({p.toString().section(u'/', -1), in.readAll()});
    }
    req.limits.timeoutMs = 120'000;

    auto plain = m_engine->runBlocking(req);
    QVERIFY_RESULT(plain);
    PoolOptions o = baseOptions();
    o.minWarm = 1;
    auto pool = SandboxPool::create(m_engine->runtimePtr(), o);
    Engine pooledEngine(m_engine->runtimePtr());
    pooledEngine.setPool(pool);
    QVERIFY_RESULT(pool->waitWarm(pythonKey(*m_engine), Deadline::in(60s)));
    QStringList statuses;
    RunObserver obs;
    obs.onStatus = [&](const QString &s) { statuses << s; };
    auto pooled = pooledEngine.runBlocking(req, obs);
    QVERIFY_RESULT(pooled);
    QVERIFY2(statuses.contains(QStringLiteral("borrowing a warm sandbox")),
             qPrintable(statuses.join(u'|')));
    QCOMPARE(pooled->exitCode, plain->exitCode);
    QCOMPARE(pooled->stdoutData, plain->stdoutData);
    QCOMPARE(pooled->stderrData, plain->stderrData);
    QCOMPARE(pooled->timedOut, plain->timedOut);
    QCOMPARE(pooled->outputTruncated, plain->outputTruncated);
    QStringList a, b;
    for (const Artifact &x : plain->artifacts)
        a << x.name + u' ' + x.mimeType;
    for (const Artifact &x : pooled->artifacts)
        b << x.name + u' ' + x.mimeType;
    QCOMPARE(b, a);
    if (id == QLatin1String("py-orders-report-with-upload")) {
        bool found = false;
        for (const Artifact &x : pooled->artifacts)
            if (x.name == QLatin1String("summary.txt")) {
                QCOMPARE(x.data, QByteArray("top_customer=Bob\n"));
                found = true;
            }
        QVERIFY(found);
    }
    if (id == QLatin1String("py-sales-summary")) {
        bool png = false;
        for (const Artifact &x : pooled->artifacts)
            png = png || x.mimeType == QLatin1String("image/png");
        QVERIFY(png);
    }
    pool->shutdown();
}

void TestPool::timeoutInPooledRun()
{
    PoolOptions o = baseOptions();
    auto pool = SandboxPool::create(m_engine->runtimePtr(), o);
    Engine engine(m_engine->runtimePtr());
    engine.setPool(pool);
    RunRequest req;
    req.language = QStringLiteral("python");
    req.code = QStringLiteral("import time\nprint('x', flush=True)\ntime.sleep(60)\n");
    req.limits.timeoutMs = 1000;
    QElapsedTimer t;
    t.start();
    auto r = engine.runBlocking(req);
    QVERIFY_RESULT(r);
    QVERIFY(r->timedOut);
    QCOMPARE(r->exitCode, 137);
    QVERIFY2(t.elapsed() < 10'000, qPrintable(QString::number(t.elapsed())));
    req.code = QStringLiteral("print('y' * 100000)\n");
    req.limits.timeoutMs = 30'000;
    req.limits.outputBytes = 4096;
    auto big = engine.runBlocking(req);
    QVERIFY_RESULT(big);
    QVERIFY(big->outputTruncated);
    QCOMPARE(big->stdoutData.size(), 4096);
    pool->shutdown();
}

void TestPool::waitPolicyTimesOut()
{
    PoolOptions o = baseOptions();
    o.waitTimeout = 800ms;
    auto pool = SandboxPool::create(m_engine->runtimePtr(), o);
    const PoolKey key = pythonKey(*m_engine);
    auto held = pool->acquire(key);
    QVERIFY_RESULT(held);
    QElapsedTimer t;
    t.start();
    auto second = pool->acquire(key);
    QVERIFY(!second);
    QCOMPARE(second.error().code, ErrorCode::Timeout);
    QVERIFY2(second.error().message.contains(QStringLiteral("became free")),
             qPrintable(second.error().message));
    QVERIFY2(t.elapsed() >= 700 && t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
    held->reset();
    auto third = pool->acquire(key); // the returned one, after its reset
    QVERIFY_RESULT(third);
    third->reset();
    pool->shutdown();
    QCOMPARE(countByPool(*m_engine, key.hash()), 0);
}

void TestPool::failFastFailsAtOnce()
{
    PoolOptions o = baseOptions();
    o.exhaustion = PoolExhaustion::FailFast;
    auto pool = SandboxPool::create(m_engine->runtimePtr(), o);
    const PoolKey key = pythonKey(*m_engine);
    auto held = pool->acquire(key);
    QVERIFY_RESULT(held);
    QElapsedTimer t;
    t.start();
    auto second = pool->acquire(key);
    QVERIFY(!second);
    QVERIFY2(second.error().message.contains(QStringLiteral("exhausted")),
             qPrintable(second.error().message));
    QVERIFY2(t.elapsed() < 100, qPrintable(QString::number(t.elapsed())));
    held->reset();
    pool->shutdown();
}

void TestPool::temporaryIsRemovedAfterUse()
{
    PoolOptions o = baseOptions();
    o.exhaustion = PoolExhaustion::Temporary;
    auto pool = SandboxPool::create(m_engine->runtimePtr(), o);
    const PoolKey key = pythonKey(*m_engine);
    auto held = pool->acquire(key);
    QVERIFY_RESULT(held);
    auto temp = pool->acquire(key);
    QVERIFY_RESULT(temp);
    QVERIFY((*temp)->temporary());
    QVERIFY((*temp)->sandboxId() != (*held)->sandboxId());
    QCOMPARE(pool->stats().value(0).temporary, 1);
    QCOMPARE(countByPool(*m_engine, key.hash()), 2);
    temp->reset();
    QVERIFY2(waitCount(*m_engine, key.hash(), 1), "the temporary sandbox was not removed");
    held->reset();
    pool->shutdown();
}

void TestPool::maxUsesRecycles()
{
    PoolOptions o = baseOptions();
    o.maxUses = 2;
    auto pool = SandboxPool::create(m_engine->runtimePtr(), o);
    const PoolKey key = pythonKey(*m_engine);
    QStringList ids;
    for (int i = 0; i < 3; ++i) {
        auto l = pool->acquire(key);
        QVERIFY_RESULT(l);
        ids << (*l)->sandboxId();
    }
    QCOMPARE(ids[0], ids[1]);
    QVERIFY(ids[2] != ids[1]);
    QVERIFY(pool->stats().value(0).recycled >= 1);
    pool->shutdown();
}

void TestPool::maxLifetimeRecycles()
{
    PoolOptions o = baseOptions();
    o.maxLifetime = 3s;
    auto pool = SandboxPool::create(m_engine->runtimePtr(), o);
    const PoolKey key = pythonKey(*m_engine);
    QString first;
    {
        auto l = pool->acquire(key);
        QVERIFY_RESULT(l);
        first = (*l)->sandboxId();
    }
    std::this_thread::sleep_for(3500ms);
    auto l = pool->acquire(key);
    QVERIFY_RESULT(l);
    QVERIFY((*l)->sandboxId() != first);
    l->reset();
    pool->shutdown();
    QCOMPARE(countByPool(*m_engine, key.hash()), 0);
}

void TestPool::unhealthySandboxIsReplaced()
{
    PoolOptions o = baseOptions();
    o.minWarm = 1;
    auto pool = SandboxPool::create(m_engine->runtimePtr(), o);
    const PoolKey key = pythonKey(*m_engine);
    QVERIFY_RESULT(pool->waitWarm(key, Deadline::in(60s)));
    const QList<SandboxInfo> list = listByPool(*m_engine, key.hash());
    QCOMPARE(list.size(), 1);
    const QString victim = list.first().id;
    QVERIFY_RESULT(m_engine->runtime().kill(victim)); // the agent dies with its container
    auto l = pool->acquire(key);
    QVERIFY_RESULT(l);
    QVERIFY((*l)->sandboxId() != victim);
    auto hello = (*l)->channel().hello();
    QVERIFY_RESULT(hello);
    QVERIFY(pool->stats().value(0).recycled >= 1);
    l->reset();
    pool->shutdown();
    QCOMPARE(countByPool(*m_engine, key.hash()), 0);
}

void TestPool::minWarmAndShutdownRemovesAll()
{
    PoolOptions o = baseOptions();
    o.minWarm = 2;
    o.maxSize = 3;
    auto pool = SandboxPool::create(m_engine->runtimePtr(), o);
    const PoolKey key = pythonKey(*m_engine);
    QVERIFY_RESULT(pool->waitWarm(key, Deadline::in(60s)));
    PoolStats s = pool->stats().value(0);
    QCOMPARE(s.warm, 2);
    QCOMPARE(s.busy, 0);
    QCOMPARE(countByPool(*m_engine, key.hash()), 2);
    for (const SandboxInfo &i : listByPool(*m_engine, key.hash())) {
        QCOMPARE(i.labels.value(QLatin1String(labels::Kind)), QStringLiteral("pool"));
        QCOMPARE(i.labels.value(QLatin1String(labels::Owner)), ownerLabel());
        QVERIFY(!i.labels.value(QLatin1String(labels::Created)).isEmpty());
    }
    pool->shutdown();
    QCOMPARE(countByPool(*m_engine, key.hash()), 0);
}

void TestPool::reaperRemovesPoolOfKilledProcess()
{
    QProcess child;
    child.setProgram(QCoreApplication::applicationFilePath());
    child.setArguments({QStringLiteral("--child-pool")});
    child.start();
    QVERIFY(child.waitForStarted());
    QByteArray said;
    QElapsedTimer t;
    t.start();
    while (!said.contains("ready") && t.elapsed() < 90'000 && child.state() == QProcess::Running) {
        child.waitForReadyRead(500);
        said += child.readAllStandardOutput();
    }
    QVERIFY2(said.contains("ready"),
             qPrintable(QString::fromUtf8(said + child.readAllStandardError())));
    const QString owner = QString::fromUtf8(said.mid(said.indexOf("ready ") + 6).trimmed());
    auto before = m_engine->runtime().list(QLatin1String(labels::Owner), owner);
    QVERIFY_RESULT(before);
    QVERIFY2(before->size() >= 2, qPrintable(owner));
    child.kill(); // SIGKILL, mid-run: the pool cannot clean up
    QVERIFY(child.waitForFinished(10'000));
    // A create the child had in flight may still complete in the daemon: reap until none.
    int reaped = 0;
    qsizetype left = -1;
    for (t.restart(); t.elapsed() < 20'000;) {
        auto n = m_engine->reapOrphans();
        QVERIFY_RESULT(n);
        reaped += *n;
        auto after = m_engine->runtime().list(QLatin1String(labels::Owner), owner);
        QVERIFY_RESULT(after);
        left = after->size();
        if (left == 0)
            break;
        std::this_thread::sleep_for(500ms);
    }
    QVERIFY2(reaped >= 2, qPrintable(QString::number(reaped)));
    QCOMPARE(left, 0);
}

void TestPool::cleanupTestCase()
{
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

/// The child of reaperRemovesPoolOfKilledProcess: makes a warm pool, says so, then hangs.
static int childPool()
{
    auto engine = Engine::create(test::profileUnderTest()); // the parent's backend
    if (!engine)
        return 2;
    PoolOptions o = baseOptions();
    o.minWarm = 2;
    o.maxSize = 3;
    auto pool = SandboxPool::create((*engine)->runtimePtr(), o);
    const PoolKey key = pythonKey(**engine);
    if (auto w = pool->waitWarm(key, Deadline::in(60s)); !w) {
        fprintf(stderr, "%s\n", qPrintable(w.error().toString()));
        return 3;
    }
    auto lease = pool->acquire(key); // one busy, mid-run
    printf("ready %s\n", qPrintable(ownerLabel()));
    fflush(stdout);
    std::this_thread::sleep_for(600s);
    return 0;
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc > 1 && qstrcmp(argv[1], "--child-pool") == 0)
        return childPool();
    TestPool t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}

#include "tst_pool.moc"
