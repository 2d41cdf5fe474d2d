// SPDX-License-Identifier: GPL-3.0-or-later
// The sandbox agent against the real dockerd: placed into a hardened sandbox through a
// hijacked attach stream, then runs, streams, limits, files and resets through it.
#include "agent/protocol.h"
#include "runtime/agentchannel.h"
#include "testsupport.h"
#include "util/tarball.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTest>
#include <atomic>
#include <csignal>
#include <mutex>
#include <thread>
#include <vector>

using namespace sandbox;

class TestAgent final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void framing();
    void initTestCase();
    void helloInHardenedSandbox();
    void printOne();
    void stderrSeparated();
    void exitCodePropagated();
    void killedBySignal();
    void execFailureIs127();
    void timeoutKillsProcessGroup();
    void outputLimitTruncates();
    void largeOutputStreams();
    void stdinDeliveredAndClosed();
    void sequentialRunsShareSandbox();
    void concurrentRuns();
    void cancelKillsRun();
    void signalReachesRun();
    void interactiveRunStreamsStdin();
    void interactiveRunSignalledAndDropped();
    void putTarThenRead();
    void getTarReturnsWrittenFile();
    void killAllRemovesLeftovers();
    void missingAgentBinaryIsClearError();
    void closeRemovesContainer();
    void cleanupTestCase();

private:
    struct Output
    {
        QByteArray out, err;
        AgentRunResult result;
    };
    /// Runs argv through the shared channel; fails the test on an error.
    std::optional<Output> run(const QStringList &argv, AgentRunSpec spec = {},
                              const CancelToken &cancel = {})
    {
        spec.argv = argv;
        Output o;
        ExecIo io;
        io.onStdout = [&](QByteArrayView d) {
            o.out += d;
            return true;
        };
        io.onStderr = [&](QByteArrayView d) {
            o.err += d;
            return true;
        };
        auto r = m_channel->run(spec, io, cancel, Deadline::in(std::chrono::seconds(60)));
        if (!r) {
            QTest::qFail(
                qPrintable(
                    QStringLiteral("run %1 failed: %2").arg(argv.join(u' '), r.error().toString())),
                __FILE__, __LINE__);
            return std::nullopt;
        }
        o.result = *r;
        return o;
    }
    /// Command lines of every process in the sandbox except PID 1 and the agent.
    QStringList processes()
    {
        auto o = run({QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral(R"(
import os
me = os.getpid()
for p in os.listdir("/proc"):
    if p.isdigit() and int(p) not in (1, me, os.getppid()):
        try:
            print(open(f"/proc/{p}/cmdline", "rb").read().replace(b"\0", b" ").decode().strip())
        except OSError:
            pass
)")});
        if (!o)
            return {QStringLiteral("<listing failed>")};
        return QString::fromUtf8(o->out).split(u'\n', Qt::SkipEmptyParts);
    }

    std::shared_ptr<Engine> m_engine;
    QString m_image;
    std::unique_ptr<AgentChannel> m_channel;
};

void TestAgent::framing()
{
    // agent/protocol.h on its own (no engine needed).
    using agent::FrameDecoder;
    std::string stream;
    QVERIFY(agent::appendFrame(stream, R"({"op":"hello"})"));
    QVERIFY(agent::appendFrame(stream, R"({"op":"stdin","id":1})", std::string(100000, '\0')));
    QVERIFY(agent::appendFrame(stream, "{}", "x"));
    QCOMPARE(stream.size(), size_t(8 + 14 + 8 + 21 + 100000 + 8 + 2 + 1));
    QVERIFY(!agent::appendFrame(stream, "{}", std::string(agent::MaxFrameBytes, 'x')));

    // Fed in odd pieces, the same frames come out.
    FrameDecoder dec;
    std::vector<std::pair<std::string, size_t>> got;
    for (size_t off = 0; off < stream.size(); off += 777) {
        dec.feed(stream.data() + off, std::min<size_t>(777, stream.size() - off));
        std::string_view h, p;
        while (dec.next(h, p) == FrameDecoder::Status::Frame)
            got.emplace_back(std::string(h), p.size());
    }
    QCOMPARE(got.size(), size_t(3));
    QCOMPARE(got[0].first, std::string(R"({"op":"hello"})"));
    QCOMPARE(got[1].second, size_t(100000));
    QCOMPARE(got[2].first, std::string("{}"));
    QCOMPARE(dec.pending(), size_t(0));

    // Lengths that break the rules: too large, shorter than its own header, header overflow.
    auto broken = [](std::uint32_t total, std::uint32_t header) {
        std::string bad;
        agent::putU32(bad, total);
        agent::putU32(bad, header);
        FrameDecoder d;
        d.feed(bad.data(), bad.size());
        std::string_view h, p;
        return d.next(h, p) == FrameDecoder::Status::Broken && !d.error().empty();
    };
    QVERIFY(broken(agent::MaxFrameBytes + 1, 2));
    QVERIFY(broken(7, 0));
    QVERIFY(broken(20, 13));
    QVERIFY(!broken(20, 12));
}

void TestAgent::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("SANDBOX_AGENT_PATH"))
        qputenv("SANDBOX_AGENT_PATH", QByteArray(SANDBOX_AGENT_BINARY));
    const QString agent = qEnvironmentVariable("SANDBOX_AGENT_PATH");
    QVERIFY2(QFileInfo(agent).isFile(),
             qPrintable(QStringLiteral("The agent binary %1 is missing: build the sandbox-agent "
                                       "target first")
                            .arg(agent)));
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
    auto image = Engine::defaultImageFor(QStringLiteral("python"));
    QVERIFY_RESULT(image);
    m_image = *image;

    QElapsedTimer t;
    t.start();
    auto ch = AgentChannel::open(m_engine->runtime(), AgentChannel::hardenedSpec(m_image));
    QVERIFY_RESULT(ch);
    m_channel = std::move(*ch);
    qInfo("agent placed and answering after %lld ms", t.elapsed());
}

void TestAgent::helloInHardenedSandbox()
{
    QCOMPARE(m_channel->helloInfo().uid, 65534);
    QCOMPARE(m_channel->helloInfo().version, 1);
    auto hi = m_channel->hello();
    QVERIFY_RESULT(hi);
    QCOMPARE(hi->uid, 65534);
    QCOMPARE(hi->pid, m_channel->helloInfo().pid);

    auto o = run({QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral(R"(
import os
print("uid", os.getuid())
for line in open("/proc/self/status").read().splitlines():
    if line.startswith(("CapEff", "NoNewPrivs")):
        print(line.replace("\t", " "))
try:
    open("/etc/probe", "w")
    print("root writable")
except OSError as e:
    print("root read-only", e.errno)
print("pgid==pid", os.getpgid(0) == os.getpid())
for fd in (0, 1):
    try:
        open(f"/proc/{os.getppid()}/fd/{fd}", "rb" if fd == 0 else "wb")
        print("agent fd", fd, "reachable")
    except OSError as e:
        print("agent fd", fd, "refused")
)")});
    QVERIFY(o);
    const QString out = QString::fromUtf8(o->out);
    QVERIFY2(out.contains(QStringLiteral("uid 65534")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("CapEff: 0000000000000000")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("NoNewPrivs: 1")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("root read-only 30")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("pgid==pid True")), qPrintable(out));
    // A program cannot reach the agent's own stream through /proc.
    QVERIFY2(out.contains(QStringLiteral("agent fd 0 refused")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("agent fd 1 refused")), qPrintable(out));
}

void TestAgent::printOne()
{
    auto o = run({QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral("print(1)")});
    QVERIFY(o);
    QCOMPARE(o->out, QByteArray("1\n"));
    QCOMPARE(o->err, QByteArray());
    QCOMPARE(o->result.exitCode, 0);
    QCOMPARE(o->result.signal, 0);
    QVERIFY(!o->result.timedOut);
    QVERIFY(!o->result.outputTruncated);
    QVERIFY(o->result.pid > 1);
    QVERIFY(o->result.maxRssKb > 0);
}

void TestAgent::stderrSeparated()
{
    auto o = run({QStringLiteral("sh"), QStringLiteral("-c"),
                  QStringLiteral("echo out; echo err >&2; echo out2")});
    QVERIFY(o);
    QCOMPARE(o->out, QByteArray("out\nout2\n"));
    QCOMPARE(o->err, QByteArray("err\n"));
}

void TestAgent::exitCodePropagated()
{
    auto o = run({QStringLiteral("python3"), QStringLiteral("-c"),
                  QStringLiteral("import sys; sys.exit(3)")});
    QVERIFY(o);
    QCOMPARE(o->result.exitCode, 3);
    QCOMPARE(o->result.signal, 0);
}

void TestAgent::killedBySignal()
{
    auto o = run({QStringLiteral("python3"), QStringLiteral("-c"),
                  QStringLiteral("import os, signal; os.kill(os.getpid(), signal.SIGKILL)")});
    QVERIFY(o);
    QCOMPARE(o->result.signal, 9);
    QCOMPARE(o->result.exitCode, 137);
    QVERIFY(!o->result.timedOut);
}

void TestAgent::execFailureIs127()
{
    auto o = run({QStringLiteral("/no/such/program")});
    QVERIFY(o);
    QCOMPARE(o->result.exitCode, 127);
    QVERIFY2(o->result.error.contains(QStringLiteral("No such file")), qPrintable(o->result.error));
    AgentRunSpec spec;
    spec.workDir = QStringLiteral("/no/such/dir");
    auto c = run({QStringLiteral("true")}, spec);
    QVERIFY(c);
    QCOMPARE(c->result.exitCode, 127);
    QVERIFY2(c->result.error.contains(QStringLiteral("/no/such/dir")), qPrintable(c->result.error));
}

void TestAgent::timeoutKillsProcessGroup()
{
    // A child and grandchildren (one in a nested shell) must all die at the deadline.
    AgentRunSpec spec;
    spec.timeoutMs = 700;
    QElapsedTimer t;
    t.start();
    auto o = run({QStringLiteral("sh"), QStringLiteral("-c"),
                  QStringLiteral("sleep 60 & sh -c 'sleep 61 & sleep 62' & echo started; wait")},
                 spec);
    QVERIFY(o);
    QVERIFY(t.elapsed() < 5000);
    QVERIFY(o->result.timedOut);
    QCOMPARE(o->result.signal, 9);
    QCOMPARE(o->result.exitCode, 137);
    QCOMPARE(o->out, QByteArray("started\n"));
    QVERIFY(o->result.durationMs >= 700);
    const QStringList left = processes();
    for (const QString &p : left)
        QVERIFY2(!p.contains(QStringLiteral("sleep")),
                 qPrintable(QStringLiteral("survivor: ") + left.join(QStringLiteral(" | "))));
}

void TestAgent::outputLimitTruncates()
{
    AgentRunSpec spec;
    spec.outputLimit = 1000;
    auto o = run({QStringLiteral("python3"), QStringLiteral("-c"),
                  QStringLiteral("import sys\nfor i in range(100): print('x' * 999)\n"
                                 "sys.stderr.write('late')")},
                 spec);
    QVERIFY(o);
    QCOMPARE(o->out.size() + o->err.size(), 1000);
    QVERIFY(o->result.outputTruncated);
    QCOMPARE(o->result.exitCode, 0); // kept draining: the program was never blocked
}

void TestAgent::largeOutputStreams()
{
    // 24 MiB on stdout and 1 MiB on stderr: more than the agent buffers (backpressure) and
    // more than one frame; nothing lost, nothing reordered within a stream.
    qint64 outBytes = 0, errBytes = 0;
    bool ordered = true;
    char expect = 'a';
    AgentRunSpec spec;
    spec.argv = {QStringLiteral("python3"), QStringLiteral("-c"), QStringLiteral(R"(
import sys
for i in range(24):
    sys.stdout.buffer.write(bytes([97 + i]) * (1 << 20))
    if i % 4 == 0:
        sys.stderr.buffer.write(b"e" * (1 << 18))
)")};
    ExecIo io;
    io.onStdout = [&](QByteArrayView d) {
        for (char c : d) {
            if (c != expect) {
                if (c != expect + 1)
                    ordered = false;
                expect = c;
            }
        }
        outBytes += d.size();
        return true;
    };
    io.onStderr = [&](QByteArrayView d) {
        errBytes += d.size();
        return true;
    };
    auto r = m_channel->run(spec, io, {}, Deadline::in(std::chrono::seconds(60)));
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QCOMPARE(outBytes, qint64(24) << 20);
    QCOMPARE(errBytes, qint64(6) << 18);
    QVERIFY(ordered);
    QCOMPARE(expect, char('a' + 23));
}

void TestAgent::stdinDeliveredAndClosed()
{
    AgentRunSpec spec;
    spec.attachStdin = true;
    spec.stdinData = QByteArray("hello\nworld\n");
    auto o = run({QStringLiteral("cat")}, spec);
    QVERIFY(o);
    QCOMPARE(o->out, spec.stdinData);
    QCOMPARE(o->result.exitCode, 0);

    // A larger input in several frames; reading to EOF proves stdin was closed.
    spec.stdinData = QByteArray(3 * 1024 * 1024 + 17, 'z');
    auto big = run({QStringLiteral("python3"), QStringLiteral("-c"),
                    QStringLiteral("import sys; print(len(sys.stdin.buffer.read()))")},
                   spec);
    QVERIFY(big);
    QCOMPARE(big->out, QByteArray::number(spec.stdinData.size()) + '\n');

    // Without stdin the program reads /dev/null (EOF at once), never blocks.
    auto none = run({QStringLiteral("cat")});
    QVERIFY(none);
    QCOMPARE(none->out, QByteArray());
}

void TestAgent::sequentialRunsShareSandbox()
{
    auto a = run({QStringLiteral("sh"), QStringLiteral("-c"),
                  QStringLiteral("echo first > /sandbox/seq.txt")});
    QVERIFY(a);
    QCOMPARE(a->result.exitCode, 0);
    AgentRunSpec spec;
    spec.env = {QStringLiteral("GREETING=hi there")};
    auto b = run({QStringLiteral("sh"), QStringLiteral("-c"),
                  QStringLiteral("cat seq.txt; echo \"$GREETING $HOME\"")},
                 spec);
    QVERIFY(b);
    QCOMPARE(b->out, QByteArray("first\nhi there /sandbox\n"));
}

void TestAgent::concurrentRuns()
{
    // Two runs in flight from two threads on one stream.
    QElapsedTimer t;
    t.start();
    Result<AgentRunResult> results[2];
    QByteArray outs[2];
    std::thread threads[2];
    for (int i = 0; i < 2; ++i) {
        threads[i] = std::thread([&, i] {
            AgentRunSpec spec;
            spec.argv = {QStringLiteral("sh"), QStringLiteral("-c"),
                         QStringLiteral("sleep 1; echo run%1").arg(i)};
            ExecIo io;
            io.onStdout = [&outs, i](QByteArrayView d) {
                outs[i] += d;
                return true;
            };
            results[i] = m_channel->run(spec, io, {}, Deadline::in(std::chrono::seconds(30)));
        });
    }
    for (auto &th : threads)
        th.join();
    for (int i = 0; i < 2; ++i) {
        QVERIFY_RESULT(results[i]);
        QCOMPARE(results[i]->exitCode, 0);
        QCOMPARE(outs[i], QByteArray("run") + QByteArray::number(i) + '\n');
    }
    QVERIFY2(t.elapsed() < 1900, qPrintable(QString::number(t.elapsed())));

    // Many short runs from several threads: every output reaches its own caller.
    constexpr int Threads = 6, Runs = 20;
    std::atomic<int> good{0};
    std::vector<std::thread> pool;
    QStringList problems;
    std::mutex problemsMutex;
    for (int th = 0; th < Threads; ++th) {
        pool.emplace_back([&, th] {
            for (int i = 0; i < Runs; ++i) {
                const QByteArray tag = QByteArray::number(th * 1000 + i);
                AgentRunSpec spec;
                spec.argv = {QStringLiteral("echo"), QString::fromLatin1(tag)};
                QByteArray out;
                ExecIo io;
                io.onStdout = [&](QByteArrayView d) {
                    out += d;
                    return true;
                };
                auto r = m_channel->run(spec, io, {}, Deadline::in(std::chrono::seconds(30)));
                if (r && r->exitCode == 0 && out == tag + '\n') {
                    ++good;
                } else {
                    std::lock_guard lock(problemsMutex);
                    problems << (r ? QString::fromLatin1(tag + " got " + out)
                                   : r.error().toString());
                }
            }
        });
    }
    for (auto &th : pool)
        th.join();
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
    QCOMPARE(good.load(), Threads * Runs);
}

void TestAgent::cancelKillsRun()
{
    CancelToken cancel;
    std::thread canceller([cancel] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        CancelToken(cancel).cancel();
    });
    QElapsedTimer t;
    t.start();
    auto o = run({QStringLiteral("sleep"), QStringLiteral("30")}, {}, cancel);
    canceller.join();
    QVERIFY(o);
    QVERIFY(t.elapsed() < 5000);
    QVERIFY(o->result.cancelled);
    QCOMPARE(o->result.signal, 9);
}

void TestAgent::signalReachesRun()
{
    // SIGTERM once the program says it is ready; the default action ends it (128+15).
    qint64 runId = 0;
    AgentRunSpec spec;
    spec.argv = {QStringLiteral("python3"), QStringLiteral("-u"), QStringLiteral("-c"),
                 QStringLiteral("import time; print('ready'); time.sleep(30)")};
    spec.onStarted = [&](qint64 id, qint64 pid) {
        runId = id;
        QVERIFY(pid > 1);
    };
    QByteArray out;
    ExecIo io;
    io.onStdout = [&](QByteArrayView d) {
        out += d;
        if (out.contains("ready"))
            if (auto s = m_channel->signal(runId, SIGTERM); !s)
                qWarning("signal failed: %s", qPrintable(s.error().toString()));
        return true;
    };
    QElapsedTimer t;
    t.start();
    auto r = m_channel->run(spec, io, {}, Deadline::in(std::chrono::seconds(20)));
    QVERIFY_RESULT(r);
    QVERIFY(t.elapsed() < 10000);
    QVERIFY(runId > 0);
    QCOMPARE(r->signal, 15);
    QCOMPARE(r->exitCode, 143);
    QVERIFY(!r->cancelled);
}

void TestAgent::interactiveRunStreamsStdin()
{
    // A line-by-line echo: each line written is answered before stdin closes (the agent
    // streams stdin, it does not wait for the end).
    AgentRunSpec spec;
    spec.argv = {QStringLiteral("python3"), QStringLiteral("-u"), QStringLiteral("-c"),
                 QStringLiteral("import sys\nfor line in sys.stdin: print('echo:' + line.strip())\n"
                                "sys.stderr.write('bye')")};
    spec.stdinData = "first\n";
    auto started = m_channel->startInteractive(spec);
    QVERIFY_RESULT(started);
    AgentInteractiveRun &run = **started;
    QVERIFY(run.pid() > 1);
    QVERIFY(run.runId() > 0);
    auto readUntil = [&](const QByteArray &want, QByteArray &out, QByteArray &err) {
        for (int i = 0; i < 200 && !out.contains(want); ++i) {
            auto more = run.read(50, &out, &err);
            if (!more || !*more)
                return false;
        }
        return out.contains(want);
    };
    QByteArray out, err;
    QVERIFY(readUntil("echo:first\n", out, err));
    QVERIFY_RESULT(run.write("second\n"));
    QVERIFY(readUntil("echo:second\n", out, err));
    QCOMPARE(run.exitCode().value(), -1); // still running
    QVERIFY(!run.finished());
    QVERIFY_RESULT(run.closeStdin());
    for (int i = 0; i < 200; ++i) {
        auto more = run.read(50, &out, &err);
        QVERIFY_RESULT(more);
        if (!*more)
            break;
    }
    QVERIFY(run.finished());
    QCOMPARE(run.exitCode().value(), 0);
    QCOMPARE(out, QByteArray("echo:first\necho:second\n"));
    QCOMPARE(err, QByteArray("bye"));
    QVERIFY(!run.write("late\n")); // the program is gone
}

void TestAgent::interactiveRunSignalledAndDropped()
{
    // SIGINT through the agent reaches the program (KeyboardInterrupt in Python, caught).
    AgentRunSpec spec;
    spec.argv = {QStringLiteral("python3"), QStringLiteral("-u"), QStringLiteral("-c"),
                 QStringLiteral("import time\ntry:\n    print('ready')\n    time.sleep(30)\n"
                                "except KeyboardInterrupt:\n    print('interrupted')\n"
                                "time.sleep(30)")};
    auto started = m_channel->startInteractive(spec);
    QVERIFY_RESULT(started);
    QByteArray out, err;
    for (int i = 0; i < 200 && !out.contains("ready"); ++i)
        QVERIFY_RESULT((*started)->read(50, &out, &err));
    QVERIFY_RESULT((*started)->signal(SIGINT));
    for (int i = 0; i < 200 && !out.contains("interrupted"); ++i)
        QVERIFY_RESULT((*started)->read(50, &out, &err));
    QVERIFY2(out.contains("interrupted"), out.constData());
    QVERIFY(!(*started)->finished());
    // Dropping the handle of a running program stops it.
    started->reset();
    QElapsedTimer t;
    t.start();
    QStringList left;
    do {
        left = processes();
        left.removeIf([](const QString &cmd) { return !cmd.contains(QStringLiteral("python3")); });
        if (left.isEmpty())
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    } while (t.elapsed() < 5000);
    QVERIFY2(left.isEmpty(), qPrintable(left.join(u'|')));
    QVERIFY_RESULT(m_channel->hello()); // the channel is still fine
}

void TestAgent::putTarThenRead()
{
    auto tar = makeTar({{QStringLiteral("in"), TarMember::Type::Directory, {}, 0755, {}},
                        {QStringLiteral("in/data.txt"),
                         TarMember::Type::File,
                         QByteArray("payload from the host\n"),
                         0644,
                         {}}});
    QVERIFY_RESULT(tar);
    QVERIFY_RESULT(m_channel->putTar(QStringLiteral("/sandbox"), *tar));
    auto o = run({QStringLiteral("python3"), QStringLiteral("-c"),
                  QStringLiteral("print(open('/sandbox/in/data.txt').read(), end='')")});
    QVERIFY(o);
    QCOMPARE(o->out, QByteArray("payload from the host\n"));

    // tar's failure is reported with its message.
    auto bad = m_channel->putTar(QStringLiteral("/no/such/dir"), *tar);
    QVERIFY(!bad);
    QCOMPARE(bad.error().code, ErrorCode::IoError);
}

void TestAgent::getTarReturnsWrittenFile()
{
    auto w = run({QStringLiteral("python3"), QStringLiteral("-c"),
                  QStringLiteral("import os; os.makedirs('/sandbox/out', exist_ok=True); "
                                 "open('/sandbox/out/result.txt', 'w').write('42\\n')")});
    QVERIFY(w);
    QCOMPARE(w->result.exitCode, 0);
    auto tar = m_channel->getTar(QStringLiteral("/sandbox/out"));
    QVERIFY_RESULT(tar);
    QStringList refused;
    bool truncated = false;
    auto members = readTar(*tar, {}, &refused, &truncated);
    QVERIFY_RESULT(members);
    bool found = false;
    for (const TarMember &m : *members)
        if (m.path == QLatin1String("result.txt")) {
            found = true;
            QCOMPARE(m.data, QByteArray("42\n"));
        }
    QVERIFY2(found, qPrintable(QString::number(members->size())));

    auto tooBig = m_channel->getTar(QStringLiteral("/sandbox/out"), 100);
    QVERIFY(!tooBig);
}

void TestAgent::killAllRemovesLeftovers()
{
    // One leftover stays in the run's group, one leaves it with setsid.
    auto o = run({QStringLiteral("sh"), QStringLiteral("-c"),
                  QStringLiteral("sleep 100 >/dev/null 2>&1 & "
                                 "setsid sleep 101 >/dev/null 2>&1 < /dev/null & echo ok")});
    QVERIFY(o);
    QCOMPARE(o->result.exitCode, 0);
    QTest::qWait(100);
    QStringList before = processes();
    QVERIFY2(before.join(u'|').contains(QStringLiteral("sleep 100")),
             qPrintable(before.join(u'|')));
    QVERIFY2(before.join(u'|').contains(QStringLiteral("sleep 101")),
             qPrintable(before.join(u'|')));
    QVERIFY_RESULT(m_channel->killAll());
    const QStringList after = processes();
    QVERIFY2(after.isEmpty(), qPrintable(after.join(u'|')));
    // The agent itself survived the reset.
    QVERIFY_RESULT(m_channel->hello());
}

void TestAgent::missingAgentBinaryIsClearError()
{
    const int before = test::leftoverSandboxes(*m_engine);
    auto ch = AgentChannel::open(m_engine->runtime(), AgentChannel::hardenedSpec(m_image),
                                 QStringLiteral("/no/such/sandbox-agent"));
    QVERIFY(!ch);
    QCOMPARE(ch.error().code, ErrorCode::NotFound);
    QVERIFY2(ch.error().message.contains(QStringLiteral("sandbox-agent")),
             qPrintable(ch.error().toString()));

    const QByteArray saved = qgetenv("SANDBOX_AGENT_PATH");
    qputenv("SANDBOX_AGENT_PATH", "/no/such/sandbox-agent");
    auto found = AgentChannel::findAgentBinary();
    qputenv("SANDBOX_AGENT_PATH", saved);
    QVERIFY(!found);
    QCOMPARE(found.error().code, ErrorCode::NotFound);
    QCOMPARE(test::leftoverSandboxes(*m_engine), before);
}

void TestAgent::closeRemovesContainer()
{
    auto ch = AgentChannel::open(m_engine->runtime(), AgentChannel::hardenedSpec(m_image));
    QVERIFY_RESULT(ch);
    const QString id = (*ch)->sandboxId();
    auto listed = [&] {
        auto list = m_engine->runtime().list(QLatin1String(labels::Owner), ownerLabel());
        QStringList ids;
        if (list)
            for (const SandboxInfo &s : *list)
                ids << s.id;
        return ids;
    };
    QVERIFY(listed().contains(id));
    QVERIFY_RESULT((*ch)->close());
    QVERIFY(!listed().contains(id));
    // Calls after close fail cleanly.
    AgentRunSpec spec;
    spec.argv = {QStringLiteral("true")};
    auto r = (*ch)->run(spec, {});
    QVERIFY(!r);
}

void TestAgent::cleanupTestCase()
{
    if (m_channel)
        QVERIFY_RESULT(m_channel->close());
    m_channel.reset();
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestAgent)
#include "tst_agent.moc"
