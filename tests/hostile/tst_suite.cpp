// SPDX-License-Identifier: GPL-3.0-or-later
// The hostile-code suite: each program in programs/ runs through Engine::runBlocking in a
// fresh default sandbox (policy permissive, so the sandbox, not the policy, has to contain
// it) and must come back contained with the right flag; after each one the engine still
// answers and no sandbox of this process is left; after all of them no container, volume or
// process of the suite is left. Prints a table of attacks and outcomes.
#include "policy/policy.h"
#include "session/pool.h"
#include "session/runresultjson.h"
#include "testsupport.h"
#include "util/tarball.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QUuid>
#include <atomic>

using namespace sandbox;
using namespace Qt::StringLiterals;

namespace {

/// Host processes whose command line holds token (container processes are host processes).
int hostProcessesWith(const QByteArray &token)
{
    int n = 0;
    const QStringList pids =
        QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &pid : pids) {
        if (!pid.front().isDigit())
            continue;
        QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains(token))
            ++n;
    }
    return n;
}

QString flags(const RunResult &r)
{
    QStringList f;
    if (r.timedOut)
        f << QStringLiteral("timedOut");
    if (r.oomKilled)
        f << QStringLiteral("oomKilled");
    if (r.outputTruncated)
        f << QStringLiteral("outputTruncated");
    if (r.artifactsTruncated)
        f << QStringLiteral("artifactsTruncated");
    if (r.cancelled)
        f << QStringLiteral("cancelled");
    if (!r.refusedPaths.isEmpty())
        f << QStringLiteral("refusedPaths=%1").arg(r.refusedPaths.size());
    if (!r.limitsHit.isEmpty())
        f << QStringLiteral("hit=") + r.limitsHit.join(u'+');
    return f.join(QStringLiteral(" "));
}

bool anyRefused(const RunResult &r, const QString &prefix, const QString &reason)
{
    for (const QString &p : r.refusedPaths)
        if (p.startsWith(prefix) && p.contains(reason))
            return true;
    return false;
}

} // namespace

class TestHostileSuite final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void attack_data();
    void attack();
    void cleanupTestCase();

private:
    std::shared_ptr<Engine> m_engine;
    QByteArray m_token; // marks processes of this suite on the host
    QStringList m_table;
};

void TestHostileSuite::initTestCase()
{
    for (const char *lang : {"python", "javascript", "java", "cpp", "go", "r"}) {
        m_engine = test::requireEngine(QLatin1String(lang));
        QVERIFY(m_engine);
    }
    m_token =
        QByteArray("hostile-") + QUuid::createUuid().toString(QUuid::Id128).left(12).toLatin1();
    m_table << QStringLiteral("| attack | language | standard policy | outcome | flags |")
            << QStringLiteral("|---|---|---|---|---|");
}

void TestHostileSuite::attack_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("language");
    QTest::addColumn<bool>("pooled");
    const QList<std::pair<const char *, const char *>> cases = {
        {"fork_bomb.py", "python"},
        {"fork_bomb.cpp", "cpp"},
        {"thread_bomb.java", "java"},
        {"memory_bomb.py", "python"},
        {"memory_bomb.js", "javascript"},
        {"memory_bomb.R", "r"},
        {"cpu_spin.py", "python"},
        {"cpu_spin_threads.cpp", "cpp"},
        {"sigterm_trap.py", "python"},
        {"orphans.py", "python"},
        {"disk_fill.py", "python"},
        {"stdout_1gb.py", "python"},
        {"stderr_flood.js", "javascript"},
        {"long_line.py", "python"},
        {"tiny_writes.cpp", "cpp"},
        {"bytes.py", "python"},
        {"network.py", "python"},
        {"network.go", "go"},
        {"engine_socket.py", "python"},
        {"engine_socket.js", "javascript"},
        {"write_outside.py", "python"},
        {"ptrace.cpp", "cpp"},
        {"setuid.cpp", "cpp"},
        {"setuid_binaries.py", "python"},
        {"kill_all.py", "python"},
        {"symlinks.py", "python"},
        {"escape_names.py", "python"},
        {"tarslip.py", "python"},
        {"many_files.py", "python"},
        {"huge_artifact.py", "python"},
    };
    for (const auto &[file, lang] : cases)
        QTest::newRow(file) << QString::fromLatin1(file) << QString::fromLatin1(lang) << false;
    // The same attacks on the agent of a pooled (reused) sandbox.
    QTest::newRow("ptrace.cpp pooled") << u"ptrace.cpp"_s << u"cpp"_s << true;
    QTest::newRow("orphans.py pooled") << u"orphans.py"_s << u"python"_s << true;
    QTest::newRow("kill_all.py pooled") << u"kill_all.py"_s << u"python"_s << true;
}

void TestHostileSuite::attack()
{
    QFETCH(QString, file);
    QFETCH(QString, language);
    QFETCH(bool, pooled);
    QVERIFY(m_engine);
    QFile src(QStringLiteral(SANDBOX_HOSTILE_DIR "/") + file);
    QVERIFY2(src.open(QIODevice::ReadOnly), qPrintable(src.fileName()));

    RunRequest req;
    req.language = language;
    req.code = QString::fromUtf8(src.readAll());
    req.origin = RunOrigin::Test;
    req.policy = std::make_shared<Policy>(*Policy::preset(QStringLiteral("permissive")));
    req.limits.timeoutMs = 20'000;
    req.files.append({QStringLiteral("token.txt"), m_token + '\n'});
    const QString name = QFileInfo(file).completeBaseName();
    const auto standard =
        evaluatePolicy(*Policy::preset(QStringLiteral("standard")), language, req.code);

    // Per-attack limits.
    if (name == u"fork_bomb" || name == u"thread_bomb")
        req.limits.pids = 64;
    if (name == u"memory_bomb")
        req.limits.memoryBytes = (language == u"r" ? 256ll : 128ll) << 20;
    if (name == u"cpu_spin" || name == u"cpu_spin_threads" || name == u"sigterm_trap" ||
        (name == u"fork_bomb" && language == u"python"))
        req.limits.timeoutMs = 3'000;
    if (name == u"cpu_spin_threads")
        req.limits.nanoCpus = 500'000'000;
    if (name == u"disk_fill")
        req.limits.workDirBytes = 16ll << 20;
    if (name == u"stdout_1gb" || name == u"many_files")
        req.limits.timeoutMs = 120'000;
    if (name == u"huge_artifact")
        req.limits.artifactBytes = 32ll << 20;

    std::atomic<int> seenWhileRunning{-1};
    RunObserver obs;
    if (name == u"orphans")
        obs.onStdout = [&](QByteArrayView d) {
            if (QByteArray(d).contains("spawned"))
                seenWhileRunning = hostProcessesWith(m_token);
        };

    std::shared_ptr<SandboxPool> pool;
    if (pooled) {
        PoolOptions o;
        o.minWarm = 0;
        o.maxSize = 1; // the next borrower (below) waits for this very sandbox's reset
        o.agentPath =
            qEnvironmentVariable("SANDBOX_AGENT_PATH", QStringLiteral(SANDBOX_AGENT_BINARY));
        pool = SandboxPool::create(m_engine->runtimePtr(), o);
        m_engine->setPool(pool);
    }
    QElapsedTimer t;
    t.start();
    auto r = m_engine->runBlocking(req, obs);
    const qint64 ms = t.elapsed();
    // In a pooled sandbox, the next borrower: the same sandbox, reset, must hold nothing of
    // the attack (no process but PID 1, the agent, and its own; PID 1 still serving).
    Result<RunResult> next = std::unexpected(Error{});
    PoolStats poolAfter;
    if (pool) {
        QFile probe(QStringLiteral(SANDBOX_HOSTILE_DIR "/next_borrower.") +
                    (language == u"cpp" ? u"cpp"_s : u"py"_s));
        QVERIFY2(probe.open(QIODevice::ReadOnly), qPrintable(probe.fileName()));
        RunRequest nr;
        nr.language = language == u"cpp" ? language : u"python"_s;
        QCOMPARE(nr.language, language); // pooled rows are Python or C++
        nr.code = QString::fromUtf8(probe.readAll());
        nr.origin = RunOrigin::Test;
        nr.policy = req.policy;
        next = m_engine->runBlocking(nr, {});
        for (const PoolStats &st : pool->stats())
            if (st.language == language)
                poolAfter = st;
        m_engine->setPool(nullptr);
        pool->shutdown();
    }
    QVERIFY_RESULT(r);
    const QByteArray out = r->stdoutData;
    const QString outText = QString::fromUtf8(out);
    auto expect = [&](bool ok, const char *what) {
        if (!ok)
            QTest::qFail(qPrintable(QStringLiteral("%1: %2\nflags: %3\nexit %4\nstdout: %5\n"
                                                   "stderr: %6\nrefused: %7")
                                        .arg(file, QLatin1String(what), flags(*r))
                                        .arg(r->exitCode)
                                        .arg(QString::fromUtf8(out.left(600)),
                                             QString::fromUtf8(r->stderrData.left(600)),
                                             r->refusedPaths.mid(0, 8).join(u'\n'))),
                         __FILE__, __LINE__);
        return ok;
    };
#define EXPECT(cond)                                                                               \
    do {                                                                                           \
        if (!expect((cond), #cond))                                                                \
            return;                                                                                \
    } while (false)

    QString outcome;
    if (name == u"fork_bomb" && language == u"python") {
        EXPECT(r->timedOut && r->exitCode == 137);
        outcome = QStringLiteral("killed at the 3 s limit with the process limit holding");
    } else if (name == u"fork_bomb" || name == u"thread_bomb") {
        EXPECT(r->exitCode == 3);
        EXPECT(r->limitsHit.contains(QStringLiteral("pids")));
        EXPECT(outText.contains(QStringLiteral("refused after")));
        outcome = QStringLiteral("stopped by the pids limit (%1)").arg(outText.trimmed().left(60));
    } else if (name == u"memory_bomb") {
        EXPECT(r->oomKilled && r->exitCode == 137 && !r->timedOut);
        EXPECT(r->limitsHit.contains(QStringLiteral("memory")));
        outcome = QStringLiteral("OOM-killed at %1 MiB").arg(req.limits.memoryBytes >> 20);
    } else if (name == u"cpu_spin" || name == u"cpu_spin_threads" || name == u"sigterm_trap") {
        EXPECT(r->timedOut && r->exitCode == 137);
        EXPECT(r->limitsHit.contains(QStringLiteral("timeout")));
        EXPECT(out.startsWith(name == u"sigterm_trap" ? "trapping" : "spinning"));
        outcome = QStringLiteral("killed at the 3 s limit (SIGKILL of the sandbox)");
    } else if (name == u"orphans") {
        EXPECT(r->exitCode == 0 && !r->timedOut);
        EXPECT(outText.contains(QStringLiteral("main exits")));
        EXPECT(seenWhileRunning.load() >= 2); // the check sees them while they live
        EXPECT(hostProcessesWith(m_token) == 0);
        outcome = QStringLiteral("%1 orphans seen while running, none after")
                      .arg(seenWhileRunning.load());
    } else if (name == u"disk_fill") {
        EXPECT(r->exitCode != 0 && !r->timedOut);
        EXPECT(r->stderrData.contains("No space left on device"));
        EXPECT(r->limitsHit.contains(QStringLiteral("work_dir")));
        outcome = QStringLiteral("ENOSPC at the 16 MiB work directory");
    } else if (name == u"stdout_1gb" || name == u"long_line") {
        EXPECT(r->exitCode == 0 && !r->timedOut && r->outputTruncated);
        EXPECT(out.size() == req.limits.outputBytes);
        EXPECT(r->limitsHit.contains(QStringLiteral("output")));
        outcome = QStringLiteral("capped at 1 MiB, drained in %1 s")
                      .arg(double(r->durationMs) / 1000, 0, 'f', 1);
    } else if (name == u"stderr_flood") {
        EXPECT(r->exitCode == 0 && r->outputTruncated);
        EXPECT(r->stderrData.size() + out.size() == req.limits.outputBytes);
        outcome = QStringLiteral("capped at 1 MiB");
    } else if (name == u"tiny_writes") {
        EXPECT(r->exitCode == 0 && !r->outputTruncated);
        EXPECT(out.size() == 100'000 && out.count('\n') == 1000);
        outcome = QStringLiteral("all 100,000 bytes kept in order");
    } else if (name == u"bytes") {
        EXPECT(out == QByteArray("\x00start\xff\xfe\xc3(\x00\x1b[2Jend\x80\n", 20));
        EXPECT(r->stderrData == QByteArray("err\x00\xf0\x28\x8c\x28\n", 9));
        const QJsonObject j = QJsonDocument::fromJson(runResultToJson(*r, false)).object();
        EXPECT(QByteArray::fromBase64(
                   j.value(QStringLiteral("stdout_base64")).toString().toLatin1()) == out);
        outcome = QStringLiteral("bytes kept exactly; JSON has base64 copies");
    } else if (name == u"network") {
        EXPECT(!outText.contains(QStringLiteral("CONNECTED")));
        EXPECT(outText.count(QStringLiteral("blocked")) == (language == u"go" ? 2 : 6));
        outcome = QStringLiteral("every connection and lookup failed");
    } else if (name == u"engine_socket" && language == u"python") {
        EXPECT(!outText.contains(QStringLiteral("REACHED")) &&
               !outText.contains(QStringLiteral("READ")) &&
               !outText.contains(QStringLiteral("LISTED")));
        EXPECT(outText.count(QStringLiteral("refused")) >= 10);
        outcome = QStringLiteral("no socket, host path or secret reachable");
    } else if (name == u"engine_socket") {
        EXPECT(outText.contains(QStringLiteral("exists false")) &&
               outText.contains(QStringLiteral("refused ENOENT")));
        outcome = QStringLiteral("no socket");
    } else if (name == u"write_outside") {
        EXPECT(!outText.contains(QStringLiteral("WRITTEN")) ||
               outText.count(QStringLiteral("WRITTEN")) == 1);
        EXPECT(outText.contains(QStringLiteral("/tmp/escape WRITTEN"))); // private tmpfs
        EXPECT(!outText.contains(QStringLiteral("MADE")));
        EXPECT(anyRefused(*r, QStringLiteral("etc-link"), QStringLiteral("symbolic link")));
        for (const Artifact &a : r->artifacts)
            EXPECT(!a.name.contains(QStringLiteral("escape")));
        outcome = QStringLiteral("only the private /tmp took a write; nothing came back");
    } else if (name == u"kill_all" && pooled) {
        // PID 1 is the agent: SIGKILL from inside is dropped by the kernel, kill -1 leaves
        // it out, so the program ends normally and the sandbox goes back to the pool.
        EXPECT(outText.contains(QStringLiteral("pid1 alive after SIGKILL")));
        EXPECT(outText.contains(
            QStringLiteral("agent alive after SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSTOP")));
        EXPECT(outText.contains(QStringLiteral("still running after kill -1")));
        EXPECT(r->exitCode == 0 && !r->timedOut);
        outcome = QStringLiteral("SIGKILL, SIGTERM & co. to PID 1 and kill -1 leave the agent "
                                 "(PID 1) serving");
    } else if (name == u"ptrace") {
        // The program sees only its own sandbox (a PID namespace of a few processes). Its
        // init runs with the same uid, so tracing it gains nothing; the agent of a pooled
        // sandbox is not dumpable and must refuse all three.
        const QString self = outText.section(QStringLiteral("self uid "), 1).section(u'\n', 0, 0);
        EXPECT(!self.isEmpty() && outText.contains(QStringLiteral("uid ") + self + u'\n'));
        EXPECT(outText.section(QStringLiteral("visible processes "), 1).trimmed().toInt() <= 8);
        if (pooled) {
            // PID 1 is the agent, which serves the next borrower: nothing may get into it.
            EXPECT(outText.contains(QStringLiteral("pid1 .agent uid")));
            EXPECT(outText.contains(QStringLiteral("pid1 attach Operation not permitted")));
            EXPECT(outText.contains(QStringLiteral("pid1 vm-read Operation not permitted")));
            EXPECT(outText.contains(QStringLiteral("pid1 proc-mem Permission denied")));
            outcome = QStringLiteral("PID 1 is the agent: it refuses attach, process_vm_readv "
                                     "and /proc/PID/mem");
        } else {
            outcome =
                QStringLiteral("sees only its own sandbox; its init has the same uid (%1)")
                    .arg(outText.section(QStringLiteral("pid1 attach "), 1).section(u'\n', 0, 0));
        }
    } else if (name == u"setuid") {
        EXPECT(!outText.contains(QStringLiteral("SUCCEEDED")));
        EXPECT(outText.contains(QStringLiteral("euid 65534")));
        outcome = QStringLiteral("setuid, setgroups, unshare, mount, chroot: all refused");
    } else if (name == u"setuid_binaries") {
        EXPECT(outText.contains(QStringLiteral("euid-of-child 65534")) &&
               outText.contains(QStringLiteral("euid 65534")));
        outcome = QStringLiteral("set-user-ID programs run without privileges (%1)")
                      .arg(outText.section(u'\n', 0, 0));
    } else if (name == u"kill_all") {
        EXPECT(outText.contains(QStringLiteral("pid1 alive after SIGKILL")));
        EXPECT(
            outText.section(QStringLiteral("visible processes "), 1).section(u'\n', 0, 0).toInt() <=
            8);
        // kill -1 ends the sandbox's keeper (same uid), so the sandbox stops with the program.
        EXPECT(r->exitCode == 137 && !r->timedOut &&
               !outText.contains(QStringLiteral("still running")));
        EXPECT(!r->limitsHit.contains(QStringLiteral("pids")));
        EXPECT(!r->notes.filter(QStringLiteral("the sandbox stopped with the program")).isEmpty());
        outcome = QStringLiteral("reached only its own sandbox, which ended with it (exit 137)");
    } else if (name == u"symlinks") {
        EXPECT(anyRefused(*r, QStringLiteral("output/passwd"),
                          QStringLiteral("symbolic link to '/etc/passwd'")));
        EXPECT(anyRefused(*r, QStringLiteral("output/etc-dir"), QStringLiteral("symbolic link")));
        EXPECT(anyRefused(*r, QStringLiteral("output/sub/relative-escape"),
                          QStringLiteral("symbolic link")));
        EXPECT(anyRefused(*r, QStringLiteral("output/fifo"), QStringLiteral("not a regular file")));
        EXPECT(anyRefused(*r, QStringLiteral("output/hardlink.txt"), QStringLiteral("hard link")) ||
               anyRefused(*r, QStringLiteral("output/real.txt"), QStringLiteral("hard link")));
        for (const Artifact &a : r->artifacts)
            EXPECT(!a.data.contains("root:x:0:0"));
        outcome = QStringLiteral("links and the FIFO refused; only the regular file came back");
    } else if (name == u"escape_names") {
        EXPECT(r->refusedPaths.filter(QStringLiteral("backslash or a control character")).size() ==
               4);
        EXPECT(r->artifacts.size() == 1 && r->artifacts[0].name == u"output/ok.txt");
        outcome = QStringLiteral("backslash and control-character names refused");
    } else if (name == u"tarslip") {
        const Artifact *tar = nullptr;
        for (const Artifact &a : r->artifacts)
            if (a.name == u"output/slip.tar")
                tar = &a;
        EXPECT(tar);
        // It comes back as an opaque file; had it been a copy-out stream, every member
        // would have been refused.
        QStringList refused;
        bool truncated = false;
        auto members = readTar(tar->data, {}, &refused, &truncated);
        EXPECT(members && members->isEmpty() && refused.size() == 3);
        EXPECT(refused.filter(QStringLiteral("would leave the directory")).size() == 2);
        EXPECT(refused.filter(QStringLiteral("is absolute")).size() == 1);
        outcome =
            QStringLiteral("returned unopened; its ../ and absolute members refused by the reader");
    } else if (name == u"many_files") {
        EXPECT(r->exitCode == 0 && r->artifactsTruncated);
        EXPECT(r->artifacts.size() <= req.limits.artifactCount);
        EXPECT(r->refusedPaths.size() <= 201);
        EXPECT(r->limitsHit.contains(QStringLiteral("artifacts")));
        outcome = QStringLiteral("%1 artifacts kept, the rest refused").arg(r->artifacts.size());
    } else if (name == u"huge_artifact") {
        EXPECT(r->artifactsTruncated);
        for (const Artifact &a : r->artifacts)
            EXPECT(a.size() <= req.limits.artifactBytes);
        outcome = QStringLiteral("96 MiB file refused at the 32 MiB artifact limit");
    } else {
        QFAIL(qPrintable(QStringLiteral("no expectation for %1").arg(file)));
    }
#undef EXPECT

    if (pooled) {
        // The same sandbox served the next borrower (one created, lent twice, not recycled)
        // and it found only PID 1 (the agent) and, for Python, the agent's zygote.
        QVERIFY_RESULT(next);
        const QString nextOut = QString::fromUtf8(next->stdoutData);
        QVERIFY2(next->exitCode == 0, qPrintable(nextOut + QString::fromUtf8(next->stderrData)));
        QCOMPARE(poolAfter.created, 1);
        QCOMPARE(poolAfter.lends, 2);
        QCOMPARE(poolAfter.recycled, 0);
        QVERIFY2(nextOut.contains(QStringLiteral("pid1 .agent\n")), qPrintable(nextOut));
        const QStringList strangers = nextOut.section(QStringLiteral("strangers "), 1)
                                          .trimmed()
                                          .split(QStringLiteral("] "), Qt::SkipEmptyParts);
        for (const QString &p : strangers)
            QVERIFY2(p == u"none" || p.contains(QStringLiteral("sandbox_zygote")),
                     qPrintable(QStringLiteral("left for the next borrower: ") + p));
        outcome += QStringLiteral("; the next borrower of the sandbox found nothing of it");
    }

    // The host is unaffected: nothing of the run is left and the engine still runs code.
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
    QVERIFY_RESULT(m_engine->ping());
    m_table << QStringLiteral("| %1 | %2 | %3 | %4 | %5 (%6 s) |")
                   .arg(pooled ? file + QStringLiteral(" (pooled)") : file, language,
                        actionName(standard.action), outcome, flags(*r))
                   .arg(double(ms) / 1000, 0, 'f', 1);
}

void TestHostileSuite::cleanupTestCase()
{
    if (!m_engine)
        return;
    // Nothing left: containers and volumes labelled with this process as owner, processes
    // carrying the suite's token.
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
    auto volumes = m_engine->runtime().listVolumes(QLatin1String(labels::Owner), ownerLabel());
    QVERIFY_RESULT(volumes);
    QCOMPARE(volumes->size(), 0);
    QCOMPARE(hostProcessesWith(m_token), 0);
    qInfo().noquote() << QStringLiteral("\n") + m_table.join(u'\n');
    QFile report(QDir::current().filePath(QStringLiteral("hostile-report.md")));
    if (report.open(QIODevice::WriteOnly))
        report.write(m_table.join(u'\n').toUtf8() + '\n');
}

QTEST_GUILESS_MAIN(TestHostileSuite)
#include "tst_suite.moc"
