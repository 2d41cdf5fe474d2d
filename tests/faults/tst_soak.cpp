// SPDX-License-Identifier: GPL-3.0-or-later
// Soak (issue 11): many runs across languages through Engine with a SandboxPool (as the GUI
// uses it), 8 at a time, with random cancellations and timeouts. Afterwards: every run has
// a result, no sandbox or volume of this process is left, and the process's RSS grew less
// than RssBoundKiB between the end of the warm-up and the end.
//
// Runs: SANDBOX_STUDIO_SOAK=full -> 1000; SANDBOX_STUDIO_SOAK_RUNS=N -> N; else 80 (the
// reduced form in the normal suite). Figures are printed as JSON and written to
// test-output/soak.json (or soak-full.json). Seed: SANDBOX_STUDIO_SOAK_SEED (default 11).
#include "session/pool.h"
#include "testsupport.h"
#include "util/latencystats.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QtTest>
#include <atomic>
#include <mutex>
#include <thread>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

constexpr int Concurrency = 8;
/// Stated bound on RSS growth from the end of the warm-up to the end of the soak.
constexpr qint64 RssBoundKiB = 64 * 1024;

qint64 rssKiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

enum class Kind
{
    Ok,      ///< prints and exits 0
    Fails,   ///< exits 3
    Timeout, ///< sleeps past its 1.5 s limit
    Cancel   ///< sleeps; cancelled after a random 20-900 ms
};

struct Planned
{
    QString language;
    Kind kind = Kind::Ok;
    int cancelAfterMs = 0;
    int n = 0;
};

QString codeFor(const Planned &p)
{
    const QString n = QString::number(p.n);
    const bool sleeps = p.kind == Kind::Timeout || p.kind == Kind::Cancel;
    if (p.language == QLatin1String("python")) {
        if (sleeps)
            return QStringLiteral("import time\nprint('start', flush=True)\ntime.sleep(20)\n");
        if (p.kind == Kind::Fails)
            return QStringLiteral("import sys\nprint('fail %1')\nsys.exit(3)\n").arg(n);
        return QStringLiteral("print('ok %1', sum(range(1000)))\n").arg(n);
    }
    if (p.language == QLatin1String("javascript")) {
        if (sleeps)
            return QStringLiteral("console.log('start'); setTimeout(() => {}, 20000);\n");
        if (p.kind == Kind::Fails)
            return QStringLiteral("console.log('fail %1'); process.exit(3);\n").arg(n);
        return QStringLiteral("console.log('ok %1', [...Array(1000).keys()].reduce((a, b) => a + "
                              "b, 0));\n")
            .arg(n);
    }
    if (p.language == QLatin1String("cpp"))
        return QStringLiteral(
                   "#include <cstdio>\nint main() { std::printf(\"ok %1 499500\\n\"); }\n")
            .arg(n);
    if (p.language == QLatin1String("go"))
        return QStringLiteral(
                   "package main\nimport \"fmt\"\nfunc main() { fmt.Println(\"ok %1 499500\") }\n")
            .arg(n);
    if (p.language == QLatin1String("java"))
        return QStringLiteral("public class Main { public static void main(String[] a) { "
                              "System.out.println(\"ok %1 499500\"); } }\n")
            .arg(n);
    return QStringLiteral("cat('ok %1', sum(0:999), '\\n')\n").arg(n); // r
}

struct Outcome
{
    enum class Status
    {
        Pending,
        Ok,
        Failed, ///< exit code != 0, as planned
        Cancelled,
        TimedOut,
        Error
    } status = Status::Pending;
    qint64 ms = 0;
    QString detail;
};

} // namespace

class TestSoak : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void soak()
    {
        const bool full = qEnvironmentVariable("SANDBOX_STUDIO_SOAK") == QLatin1String("full");
        int runs = full ? 1000 : 80;
        if (qEnvironmentVariableIsSet("SANDBOX_STUDIO_SOAK_RUNS"))
            runs = qEnvironmentVariableIntValue("SANDBOX_STUDIO_SOAK_RUNS");
        QVERIFY2(runs >= 20, "SANDBOX_STUDIO_SOAK_RUNS must be at least 20");
        const quint32 seed = qEnvironmentVariableIsSet("SANDBOX_STUDIO_SOAK_SEED")
                                 ? quint32(qEnvironmentVariableIntValue("SANDBOX_STUDIO_SOAK_SEED"))
                                 : 11u;

        auto engine = test::requireEngine(QStringLiteral("python"));
        QVERIFY(engine);
        const QStringList languages = {QStringLiteral("python"), QStringLiteral("javascript"),
                                       QStringLiteral("cpp"),    QStringLiteral("go"),
                                       QStringLiteral("r"),      QStringLiteral("java")};
        for (const QString &l : languages) {
            auto image = Engine::defaultImageFor(l);
            QVERIFY_RESULT(image);
            auto exists = engine->runtime().imageExists(*image);
            QVERIFY2(exists && *exists,
                     qPrintable(QStringLiteral("image %1 is missing: build it with "
                                               "`sandbox-studio images build %2`")
                                    .arg(*image, l)));
        }

        // The GUI's pool settings: warm sandboxes per language, 4 per key, waiting borrowers.
        PoolOptions opts;
        opts.minWarm = 1;
        opts.maxSize = 4;
        opts.agentPath = QStringLiteral(SANDBOX_AGENT_BINARY);
        auto pool = SandboxPool::create(engine->runtimePtr(), opts);
        engine->setPool(pool);
        auto shutdown = qScopeGuard([&] { pool->shutdown(); });

        // The plan: python and javascript mostly; the slow compiled languages rarely.
        QRandomGenerator rng(seed);
        QList<Planned> plan;
        for (int i = 0; i < runs; ++i) {
            Planned p;
            p.n = i;
            const int l = int(rng.bounded(1000));
            p.language = l < 500   ? QStringLiteral("python")
                         : l < 900 ? QStringLiteral("javascript")
                         : l < 925 ? QStringLiteral("cpp")
                         : l < 950 ? QStringLiteral("go")
                         : l < 975 ? QStringLiteral("r")
                                   : QStringLiteral("java");
            const int k = int(rng.bounded(100));
            if (p.language == QLatin1String("python") || p.language == QLatin1String("javascript"))
                p.kind = k < 70   ? Kind::Ok
                         : k < 80 ? Kind::Fails
                         : k < 90 ? Kind::Timeout
                                  : Kind::Cancel;
            p.cancelAfterMs = 20 + int(rng.bounded(880));
            plan.append(p);
        }
        // Warm-up: the first runs (and the pool's first sandboxes) settle allocations.
        const int warmup = qMax(Concurrency * 2, runs / 20);

        QList<Outcome> outcomes(runs);
        std::atomic<int> next{0};
        std::atomic<int> done{0};
        std::atomic<qint64> rssAfterWarmup{-1};
        std::mutex rssMutex;
        auto worker = [&] {
            for (;;) {
                const int i = next.fetch_add(1);
                if (i >= runs)
                    return;
                const Planned &p = plan[i];
                RunRequest req;
                req.language = p.language;
                req.code = codeFor(p);
                req.limits.timeoutMs = p.kind == Kind::Timeout ? 1'500 : 60'000;
                CancelToken cancel;
                std::thread canceller;
                if (p.kind == Kind::Cancel)
                    canceller = std::thread([cancel, ms = p.cancelAfterMs]() mutable {
                        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
                        cancel.cancel();
                    });
                QElapsedTimer t;
                t.start();
                auto r = engine->runBlocking(req, {}, cancel);
                Outcome &o = outcomes[i];
                o.ms = t.elapsed();
                if (canceller.joinable())
                    canceller.join();
                if (!r) {
                    o.status = r.error().code == ErrorCode::Cancelled && p.kind == Kind::Cancel
                                   ? Outcome::Status::Cancelled
                                   : Outcome::Status::Error;
                    o.detail = r.error().toString();
                } else if (r->cancelled) {
                    o.status = Outcome::Status::Cancelled;
                } else if (r->timedOut) {
                    o.status = Outcome::Status::TimedOut;
                } else if (r->exitCode == 0 && r->stdoutData.startsWith("ok ")) {
                    o.status = Outcome::Status::Ok;
                } else if (r->exitCode == 3 && p.kind == Kind::Fails) {
                    o.status = Outcome::Status::Failed;
                } else {
                    o.status = Outcome::Status::Error;
                    o.detail = QStringLiteral("exit %1, stdout '%2', stderr '%3'")
                                   .arg(r->exitCode)
                                   .arg(QString::fromUtf8(r->stdoutData.left(200)),
                                        QString::fromUtf8(r->stderrData.left(300)));
                }
                if (done.fetch_add(1) + 1 == warmup) {
                    std::lock_guard lock(rssMutex);
                    rssAfterWarmup = rssKiB();
                }
            }
        };
        QElapsedTimer wall;
        wall.start();
        std::vector<std::thread> threads;
        for (int i = 0; i < Concurrency; ++i)
            threads.emplace_back(worker);
        for (std::thread &t : threads)
            t.join();
        const qint64 wallMs = wall.elapsed();
        const qint64 rssEnd = rssKiB();

        pool->shutdown();
        const int leftover = test::leftoverSandboxes(*engine);
        auto vols = engine->runtime().listVolumes(QLatin1String(labels::Owner), ownerLabel());

        int ok = 0, failed = 0, cancelled = 0, timedOut = 0, errors = 0, pending = 0;
        QList<double> okMs;
        QMap<QString, int> perLanguage;
        QStringList errorSamples;
        for (int i = 0; i < runs; ++i) {
            const Outcome &o = outcomes[i];
            perLanguage[plan[i].language]++;
            switch (o.status) {
            case Outcome::Status::Pending:
                ++pending;
                break;
            case Outcome::Status::Ok:
                ++ok;
                okMs.append(double(o.ms));
                break;
            case Outcome::Status::Failed:
                ++failed;
                break;
            case Outcome::Status::Cancelled:
                ++cancelled;
                break;
            case Outcome::Status::TimedOut:
                ++timedOut;
                break;
            case Outcome::Status::Error:
                ++errors;
                if (errorSamples.size() < 10)
                    errorSamples.append(QStringLiteral("#%1 %2 %3: %4")
                                            .arg(i)
                                            .arg(plan[i].language)
                                            .arg(int(plan[i].kind))
                                            .arg(o.detail));
                break;
            }
        }
        QJsonObject langs;
        for (auto it = perLanguage.cbegin(); it != perLanguage.cend(); ++it)
            langs[it.key()] = it.value();
        QJsonObject figures{
            {QStringLiteral("benchmark"), QStringLiteral("soak")},
            {QStringLiteral("runs"), runs},
            {QStringLiteral("concurrency"), Concurrency},
            {QStringLiteral("seed"), qint64(seed)},
            {QStringLiteral("languages"), langs},
            {QStringLiteral("ok"), ok},
            {QStringLiteral("failed_as_planned"), failed},
            {QStringLiteral("cancelled"), cancelled},
            {QStringLiteral("timed_out"), timedOut},
            {QStringLiteral("errors"), errors},
            {QStringLiteral("unaccounted"), pending},
            {QStringLiteral("latency_ok_runs"), latencyStats(okMs)},
            {QStringLiteral("wall_ms"), wallMs},
            {QStringLiteral("rss_kib_after_warmup"), rssAfterWarmup.load()},
            {QStringLiteral("rss_kib_end"), rssEnd},
            {QStringLiteral("rss_growth_bound_kib"), RssBoundKiB},
            {QStringLiteral("leaked_sandboxes"), leftover},
            {QStringLiteral("leaked_volumes"), vols ? int(vols->size()) : -1},
        };
        const QByteArray json = QJsonDocument(figures).toJson(QJsonDocument::Indented);
        std::fputs(json.constData(), stdout);
        for (const QString &e : errorSamples)
            qWarning().noquote() << "run error:" << e;
        QFile out(QStringLiteral(SANDBOX_TEST_OUTPUT_DIR) + (runs >= 1000
                                                                 ? QStringLiteral("/soak-full.json")
                                                                 : QStringLiteral("/soak.json")));
        if (out.open(QIODevice::WriteOnly))
            out.write(json);

        QCOMPARE(pending, 0);
        QCOMPARE(ok + failed + cancelled + timedOut + errors, runs);
        QVERIFY2(errors == 0, qPrintable(errorSamples.join(u'\n')));
        QCOMPARE(leftover, 0);
        QVERIFY(vols);
        QCOMPARE(int(vols->size()), 0);
        QVERIFY(rssAfterWarmup.load() > 0 && rssEnd > 0);
        QVERIFY2(rssEnd - rssAfterWarmup.load() < RssBoundKiB,
                 qPrintable(QStringLiteral("RSS grew by %1 KiB (bound %2 KiB)")
                                .arg(rssEnd - rssAfterWarmup.load())
                                .arg(RssBoundKiB)));
        // Every kind happened (the plan is seeded; a reduced run still has each).
        QVERIFY(ok > 0 && failed > 0 && timedOut > 0 && cancelled > 0);
    }
};

int main(int argc, char **argv)
{
    // The full soak runs for many minutes: past Qt Test's default 5-minute watchdog.
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "7200000");
    QCoreApplication app(argc, argv);
    TestSoak test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_soak.moc"
