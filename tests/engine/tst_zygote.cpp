// SPDX-License-Identifier: GPL-3.0-or-later
// Preloaded interpreters (zygotes) against the real dockerd: every probe runs through a
// pooled sandbox whose one-shot runs fork from the zygote and through the same kind of
// pooled sandbox with zygotes off (a fresh `python3 main.py`), and must give the same
// result; random streams must differ between runs; nothing one run does (environment,
// monkey-patched modules, signals to the zygote) reaches the next.
#include "policy/policy.h"
#include "session/pool.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

PoolOptions options(bool zygotes)
{
    PoolOptions o;
    o.agentPath = qEnvironmentVariable("SANDBOX_AGENT_PATH", QStringLiteral(SANDBOX_AGENT_BINARY));
    o.minWarm = 1;
    o.maxSize = 1;
    o.waitTimeout = 120s;
    o.zygotes = zygotes;
    return o;
}

struct Outcome
{
    RunResult result;
    QStringList statuses;
    bool viaZygote() const
    {
        return statuses.contains(QStringLiteral("ran in a preloaded interpreter"));
    }
    QString fresh() const
    {
        const QStringList f = statuses.filter(QStringLiteral("ran in a fresh interpreter"));
        return f.isEmpty() ? QString() : f.first();
    }
};

/// Replaces what legitimately differs from run to run (pids, addresses, timings).
QString normalized(QString s)
{
    static const QRegularExpression addr(QStringLiteral("0x[0-9a-f]{6,}"));
    static const QRegularExpression pid(QStringLiteral("pid=\\d+"));
    // Each pool has its own container: its hostname is its id.
    static const QRegularExpression host(QStringLiteral("\\('HOSTNAME', '[0-9a-f]+'\\)"));
    s.replace(host, QStringLiteral("('HOSTNAME', 'ID')"));
    s.replace(addr, QStringLiteral("0xADDR"));
    s.replace(pid, QStringLiteral("pid=N"));
    return s;
}

} // namespace

class TestZygote final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void sameAsPlainInterpreter_data();
    void sameAsPlainInterpreter();
    void sharedCasesThroughZygote_data();
    void sharedCasesThroughZygote();
    void randomStreamsDiffer();
    void nothingReachesTheNextRun();
    void zygoteCannotBeTamperedWith();
    void timeoutKillsTheRun();
    void zygoteOffExecs();
    void missingWorkDirFailsLikeExec();
    void cleanupTestCase();

private:
    Result<Outcome> run(Engine &engine, const QString &code, qint64 timeoutMs = 60'000,
                        QList<InputFile> files = {});

    std::shared_ptr<Engine> m_engine;
    std::shared_ptr<SandboxPool> m_zygotePool, m_plainPool;
    std::unique_ptr<Engine> m_zygote, m_plain;
    PoolKey m_key;
};

void TestZygote::initTestCase()
{
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
    auto image = Engine::defaultImageFor(QStringLiteral("python"));
    QVERIFY_RESULT(image);
    m_key = PoolKey::from(m_engine->runtime().backend(), QStringLiteral("python"), *image, Limits{},
                          NetworkMode::None);
    m_zygotePool = SandboxPool::create(m_engine->runtimePtr(), options(true));
    m_plainPool = SandboxPool::create(m_engine->runtimePtr(), options(false));
    m_zygote = std::make_unique<Engine>(m_engine->runtimePtr());
    m_zygote->setPool(m_zygotePool);
    m_plain = std::make_unique<Engine>(m_engine->runtimePtr());
    m_plain->setPool(m_plainPool);
    QVERIFY_RESULT(m_zygotePool->waitWarm(m_key, Deadline::in(180s)));
    QVERIFY_RESULT(m_plainPool->waitWarm(m_key, Deadline::in(180s)));
    const PoolStats st = m_zygotePool->stats().value(0);
    QVERIFY2(st.zygotesReady == 1,
             qPrintable(QStringLiteral("the warm sandbox has no ready zygote (%1 failed); see "
                                       "the sandbox.agent log above")
                            .arg(st.zygotesFailed)));
}

Result<Outcome> TestZygote::run(Engine &engine, const QString &code, qint64 timeoutMs,
                                QList<InputFile> files)
{
    RunRequest req;
    req.origin = RunOrigin::Test;
    req.language = QStringLiteral("python");
    req.code = code;
    req.files = std::move(files);
    req.limits.timeoutMs = timeoutMs;
    // These probes read /proc of other processes and signal the zygote on purpose: the
    // sandbox must contain them, so the policy check (tested in tests/hostile) stays out.
    req.policy = std::make_shared<Policy>(*Policy::preset(QStringLiteral("permissive")));
    Outcome o;
    RunObserver obs;
    obs.onStatus = [&](const QString &s) { o.statuses.append(s); };
    auto r = engine.runBlocking(req, obs);
    if (!r)
        return std::unexpected(r.error());
    o.result = *r;
    // The pool resets the sandbox in the background: wait until it is warm again, so
    // the next run borrows it with its zygote ready.
    if (auto pool = engine.pool())
        if (auto w = pool->waitWarm(m_key, Deadline::in(120s)); !w)
            return std::unexpected(w.error());
    return o;
}

void TestZygote::sameAsPlainInterpreter_data()
{
    QTest::addColumn<QString>("code");
    QTest::newRow("argv-file-name-cwd-path") << QStringLiteral(
        "import sys, os, __main__\n"
        "print(sys.argv, sys.orig_argv, __file__, __name__, os.getcwd(), sys.path[0])\n"
        "print(sorted((k, type(v).__name__) for k, v in vars(__main__).items()))\n"
        "print(__main__.__loader__.name, __main__.__loader__.path, __spec__, __package__, "
        "__cached__)\n"
        "print(sys.flags)\n"
        "if __name__ == '__main__':\n"
        "    print('main guard ran')\n");
    QTest::newRow("signals-streams-fds") << QStringLiteral(
        "import signal, sys, os, threading\n"
        "print({s.name: str(signal.getsignal(s)) for s in signal.valid_signals() "
        "if s not in (signal.SIGKILL, signal.SIGSTOP)})\n"
        "print(signal.pthread_sigmask(signal.SIG_BLOCK, []))\n"
        "for f in (sys.stdin, sys.stdout, sys.stderr):\n"
        "    print(f.name, f.mode, f.encoding, f.errors, f.line_buffering, f.write_through, "
        "f.seekable(), f.isatty())\n"
        "print(sys.stdin.read() == '')\n"
        "print(sorted(os.listdir('/proc/self/fd')))\n"
        "print(threading.active_count(), len(os.listdir('/proc/self/task')))\n"
        "print(os.getpgid(0) == os.getpid(), os.getsid(0) == os.getpid())\n"
        "print(open('/proc/self/status').read().count('\\n') > 5)\n");
    QTest::newRow("environment") << QStringLiteral(
        "import os\nprint(sorted(os.environ.items()))\n"
        "import subprocess\nprint(subprocess.run(['env'], capture_output=True, "
        "text=True).stdout.count('\\n'), len(os.environ))\n");
    QTest::newRow("exit-code") << QStringLiteral("import sys\nprint('out')\nsys.exit(3)\n");
    QTest::newRow("exit-message") << QStringLiteral("import sys\nsys.exit('fatal: no data')\n");
    QTest::newRow("exit-none") << QStringLiteral("raise SystemExit\n");
    QTest::newRow("exit-large") << QStringLiteral("import sys\nsys.exit(300)\n");
    QTest::newRow("os-exit") << QStringLiteral("import os\nprint('x', flush=True)\nos._exit(7)\n");
    QTest::newRow("uncaught-exception")
        << QStringLiteral("def f(x):\n    return 1 / x\n\nprint('before')\nf(0)\n");
    QTest::newRow("chained-exception") << QStringLiteral(
        "try:\n    {}['k']\nexcept KeyError as e:\n    raise ValueError('bad') from e\n");
    QTest::newRow("keyboard-interrupt") << QStringLiteral("raise KeyboardInterrupt\n");
    QTest::newRow("syntax-error") << QStringLiteral("print('never'\nx = (\n");
    QTest::newRow("custom-excepthook") << QStringLiteral(
        "import sys\nsys.excepthook = lambda t, v, tb: print('hook', t.__name__, "
        "tb.tb_frame.f_code.co_filename, tb.tb_lineno, tb.tb_next)\nraise RuntimeError('x')\n");
    QTest::newRow("sigterm-self") << QStringLiteral(
        "import os, signal\nprint('bye', flush=True)\nos.kill(os.getpid(), signal.SIGTERM)\n");
    QTest::newRow("atexit-thread-unclosed-file")
        << QStringLiteral("import atexit, threading, time\n"
                          "atexit.register(lambda: print('atexit ran'))\n"
                          "def late():\n    time.sleep(0.2)\n    print('thread finished')\n"
                          "threading.Thread(target=late).start()\n"
                          "f = open('unclosed.txt', 'w')\nf.write('buffered data')\n"
                          "class D:\n    def __del__(self):\n        print('finalizer ran')\n"
                          "d = D()\nprint('main done')\n");
    QTest::newRow("not-preloaded-imports") << QStringLiteral(
        "import json, sqlite3, decimal, csv\nimport scipy.stats as st\nimport seaborn\n"
        "print(json.dumps({'a': 1}), sqlite3.sqlite_version_info >= (3,), "
        "round(st.norm.cdf(0), 3), seaborn.__name__)\n");
    QTest::newRow("local-module-and-warning") << QStringLiteral(
        "import warnings\nwarnings.warn('careful')\nimport helper\nprint(helper.VALUE)\n");
    QTest::newRow("plot") << QStringLiteral(
        "import matplotlib.pyplot as plt\nimport pandas as pd\n"
        "df = pd.DataFrame({'x': [1, 2, 3], 'y': [3, 1, 2]})\n"
        "df.plot(x='x', y='y')\nplt.title('t')\nplt.show()\n"
        "plt.figure(); plt.bar(['a', 'b'], [1, 2])\nprint(plt.get_backend())\n");
    QTest::newRow("output-limit") << QStringLiteral(
        "import sys\nfor i in range(200000):\n    sys.stdout.write('%06d line of output\\n' % "
        "i)\n");
}

void TestZygote::sameAsPlainInterpreter()
{
    QFETCH(QString, code);
    const QList<InputFile> files{{QStringLiteral("helper.py"), QByteArray("VALUE = 42\n")}};
    auto z = run(*m_zygote, code, 60'000, files);
    QVERIFY_RESULT(z);
    auto p = run(*m_plain, code, 60'000, files);
    QVERIFY_RESULT(p);
    QVERIFY2(z->viaZygote(), qPrintable(QStringLiteral("the run did not fork from the zygote: ") +
                                        z->statuses.join(QStringLiteral(" | "))));
    QVERIFY2(!p->viaZygote(), "the plain pool forked from a zygote");
    const QString context = QStringLiteral("\n--- zygote stdout:\n%1\n--- zygote stderr:\n%2\n"
                                           "--- plain stdout:\n%3\n--- plain stderr:\n%4")
                                .arg(QString::fromUtf8(z->result.stdoutData.left(3000)),
                                     QString::fromUtf8(z->result.stderrData.left(3000)),
                                     QString::fromUtf8(p->result.stdoutData.left(3000)),
                                     QString::fromUtf8(p->result.stderrData.left(3000)));
    QVERIFY2(z->result.exitCode == p->result.exitCode,
             qPrintable(QStringLiteral("exit code %1 through the zygote, %2 plain")
                            .arg(z->result.exitCode)
                            .arg(p->result.exitCode) +
                        context));
    QVERIFY2(normalized(QString::fromUtf8(z->result.stdoutData)) ==
                 normalized(QString::fromUtf8(p->result.stdoutData)),
             qPrintable(QStringLiteral("stdout differs") + context));
    QVERIFY2(normalized(QString::fromUtf8(z->result.stderrData)) ==
                 normalized(QString::fromUtf8(p->result.stderrData)),
             qPrintable(QStringLiteral("stderr differs") + context));
    QCOMPARE(z->result.outputTruncated, p->result.outputTruncated);
    QCOMPARE(z->result.timedOut, p->result.timedOut);
    QStringList za, pa;
    for (const Artifact &a : z->result.artifacts)
        za << a.name + u' ' + a.mimeType + u' ' +
                  (a.name.endsWith(QLatin1String(".png")) ? QString() : QString::fromUtf8(a.data));
    for (const Artifact &a : p->result.artifacts)
        pa << a.name + u' ' + a.mimeType + u' ' +
                  (a.name.endsWith(QLatin1String(".png")) ? QString() : QString::fromUtf8(a.data));
    QCOMPARE(za, pa);
}

void TestZygote::sharedCasesThroughZygote_data()
{
    QTest::addColumn<QString>("id");
    for (const char *id : {"py-primes", "py-exit-code-and-stderr", "py-orders-report-with-upload",
                           "py-sales-summary"})
        QTest::newRow(id) << QString::fromLatin1(id);
}

void TestZygote::sharedCasesThroughZygote()
{
    // All shared cases run with zygotes on in engine_cases_zygote (tst_cases with a
    // zygote pool); here the offline Python ones are compared with a plain interpreter.
    QFETCH(QString, id);
    QFile f(test::casesDir() + QStringLiteral("/cases.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject testCase;
    for (const QJsonValue &v :
         QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("cases")).toArray())
        if (v.toObject().value(QStringLiteral("id")).toString() == id)
            testCase = v.toObject();
    QVERIFY2(!testCase.isEmpty(), qPrintable(id));
    QFile code(test::casesDir() + u'/' + testCase.value(QStringLiteral("file")).toString());
    QVERIFY(code.open(QIODevice::ReadOnly));
    QList<InputFile> files;
    for (const QJsonValue &p : testCase.value(QStringLiteral("files")).toArray()) {
        QFile in(test::casesDir() + u'/' + p.toString());
        QVERIFY(in.open(QIODevice::ReadOnly));
        files.append({p.toString().section(u'/', -1), in.readAll()});
    }
    const QString source = QString::fromUtf8(code.readAll());
    auto z = run(*m_zygote, source, 120'000, files);
    QVERIFY_RESULT(z);
    auto p = run(*m_plain, source, 120'000, files);
    QVERIFY_RESULT(p);
    QVERIFY2(z->viaZygote(), qPrintable(z->statuses.join(QStringLiteral(" | "))));
    QCOMPARE(z->result.exitCode, p->result.exitCode);
    QCOMPARE(z->result.stdoutData, p->result.stdoutData);
    QCOMPARE(z->result.stderrData, p->result.stderrData);
    QCOMPARE(z->result.artifacts.size(), p->result.artifacts.size());
    for (qsizetype i = 0; i < z->result.artifacts.size(); ++i)
        QCOMPARE(z->result.artifacts[i].name, p->result.artifacts[i].name);
}

void TestZygote::randomStreamsDiffer()
{
    const QString code = QStringLiteral("import random, os, uuid, tempfile\nimport numpy as np\n"
                                        "print(random.random(), random.getrandbits(64))\n"
                                        "print(np.random.rand(), np.random.randint(0, 2**31))\n"
                                        "print(np.random.default_rng().random(), uuid.uuid4())\n"
                                        "print(next(tempfile._get_candidate_names()))\n");
    auto a = run(*m_zygote, code);
    QVERIFY_RESULT(a);
    auto b = run(*m_zygote, code);
    QVERIFY_RESULT(b);
    QVERIFY(a->viaZygote() && b->viaZygote());
    QCOMPARE(a->result.exitCode, 0);
    const QStringList la = QString::fromUtf8(a->result.stdoutData).split(u'\n');
    const QStringList lb = QString::fromUtf8(b->result.stdoutData).split(u'\n');
    QCOMPARE(la.size(), 5);
    for (int i = 0; i < 4; ++i) {
        // Every value of every generator differs between the two runs.
        const QStringList va = la[i].split(u' '), vb = lb[i].split(u' ');
        QCOMPARE(va.size(), vb.size());
        for (qsizetype k = 0; k < va.size(); ++k)
            QVERIFY2(va[k] != vb[k], qPrintable(QStringLiteral("run 1 and run 2 share a random "
                                                               "stream: line %1: %2")
                                                    .arg(i)
                                                    .arg(la[i])));
    }
}

void TestZygote::nothingReachesTheNextRun()
{
    // One run changes the environment, patches preloaded and other modules, changes
    // process-wide settings; the next run (same sandbox, same zygote) sees none of it.
    auto a =
        run(*m_zygote, QStringLiteral("import os, sys, json, numpy, pandas, matplotlib, socket\n"
                                      "os.environ['LEAK'] = '1'\nos.putenv('LEAK2', '1')\n"
                                      "json.dumps = lambda *a, **k: 'PATCHED'\n"
                                      "numpy.mean = lambda *a, **k: 'PATCHED'\n"
                                      "pandas.DataFrame.sum = lambda *a, **k: 'PATCHED'\n"
                                      "matplotlib.rcParams['lines.linewidth'] = 99\n"
                                      "sys.modules['collections'].PATCH = 1\n"
                                      "sys.path.insert(0, '/tmp/evil')\n"
                                      "os.umask(0o777)\nos.chdir('/tmp')\n"
                                      "import decimal; decimal.getcontext().prec = 3\n"
                                      "print('patched', json.dumps([1]), os.getpid())\n"));
    QVERIFY_RESULT(a);
    QVERIFY(a->viaZygote());
    QVERIFY2(a->result.stdoutData.startsWith("patched PATCHED"), a->result.stdoutData.constData());
    auto b = run(*m_zygote,
                 QStringLiteral("import os, sys, json, numpy, pandas, matplotlib, collections\n"
                                "print(os.environ.get('LEAK'), os.environ.get('LEAK2'))\n"
                                "print(json.dumps([1]), numpy.mean([1, 3]), "
                                "pandas.DataFrame({'a': [1, 2]}).sum().tolist())\n"
                                "print(matplotlib.rcParams['lines.linewidth'], "
                                "hasattr(collections, 'PATCH'), '/tmp/evil' in sys.path)\n"
                                "print(oct(os.umask(0o022)), os.getcwd())\n"
                                "import decimal; print(decimal.getcontext().prec)\n"));
    QVERIFY_RESULT(b);
    QVERIFY(b->viaZygote());
    QCOMPARE(b->result.exitCode, 0);
    QCOMPARE(QString::fromUtf8(b->result.stdoutData),
             QStringLiteral("None None\n[1] 2.0 [3]\n1.5 False False\n0o22 /sandbox\n28\n"));
}

void TestZygote::zygoteCannotBeTamperedWith()
{
    // A run finds the zygote (same uid): it cannot read its memory or environment
    // (non-dumpable); what it can do (stop it, renice it, lower its limits) gets the
    // zygote replaced at the reset, and the next run is still right.
    const QString find = QStringLiteral(
        "import os\n"
        "def zygotes():\n"
        "    out = []\n"
        "    for p in os.listdir('/proc'):\n"
        "        if p.isdigit() and int(p) != os.getpid():\n"
        "            try:\n"
        "                if b'sandbox_zygote' in open('/proc/%s/cmdline' % p, 'rb').read():\n"
        "                    out.append(int(p))\n"
        "            except OSError:\n"
        "                pass\n"
        "    return out\n");
    auto a =
        run(*m_zygote,
            find + QStringLiteral("import signal, resource\n"
                                  "z = zygotes()\nprint('found', len(z) >= 1)\n"
                                  "for p in z:\n"
                                  "    for what in ('mem', 'environ', 'maps'):\n"
                                  "        try:\n"
                                  "            open('/proc/%d/%s' % (p, what), 'rb').read(16)\n"
                                  "            print('READ', what)\n"
                                  "        except OSError as e:\n"
                                  "            print('denied', what, e.errno)\n"
                                  "    os.kill(p, signal.SIGTERM)\n"
                                  "    os.kill(p, signal.SIGINT)\n"
                                  "    resource.prlimit(p, resource.RLIMIT_NOFILE, (64, 64))\n"
                                  "    os.setpriority(os.PRIO_PROCESS, p, 10)\n"
                                  "    os.kill(p, signal.SIGSTOP)\n"
                                  "print('done')\n"));
    QVERIFY_RESULT(a);
    QVERIFY2(a->viaZygote(), qPrintable(a->statuses.join(QStringLiteral(" | "))));
    const QString out = QString::fromUtf8(a->result.stdoutData);
    QVERIFY2(out.contains(QStringLiteral("found True")) && out.contains(QStringLiteral("done")),
             qPrintable(out + QString::fromUtf8(a->result.stderrData)));
    QVERIFY2(!out.contains(QStringLiteral("READ")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("denied mem")), qPrintable(out));

    auto b = run(*m_zygote,
                 find + QStringLiteral("import resource\n"
                                       "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0] > "
                                       "64, os.getpriority(os.PRIO_PROCESS, 0))\n"
                                       "print([open('/proc/%d/stat' % p).read().split(') ')[1][0]"
                                       " for p in zygotes()])\n"));
    QVERIFY_RESULT(b);
    QCOMPARE(b->result.exitCode, 0);
    QVERIFY2(b->viaZygote(), qPrintable(b->statuses.join(QStringLiteral(" | "))));
    const QString outB = QString::fromUtf8(b->result.stdoutData);
    QVERIFY2(outB.startsWith(QStringLiteral("True 0\n")), qPrintable(outB));
    QVERIFY2(!outB.section(u'\n', 1).contains(u'T'), qPrintable(outB)); // none stopped
}

void TestZygote::timeoutKillsTheRun()
{
    const QString code = QStringLiteral(
        "import subprocess, time\nsubprocess.Popen(['sleep', '100'])\nprint('spinning', "
        "flush=True)\nwhile True:\n    time.sleep(0.01)\n");
    auto z = run(*m_zygote, code, 2000);
    QVERIFY_RESULT(z);
    auto p = run(*m_plain, code, 2000);
    QVERIFY_RESULT(p);
    QVERIFY(z->viaZygote());
    QVERIFY(z->result.timedOut);
    QCOMPARE(z->result.timedOut, p->result.timedOut);
    QCOMPARE(z->result.exitCode, p->result.exitCode);
    QCOMPARE(z->result.stdoutData, p->result.stdoutData);
    // And the sandbox serves the next run through its zygote.
    auto next = run(*m_zygote, QStringLiteral("print(6 * 7)\n"));
    QVERIFY_RESULT(next);
    QVERIFY(next->viaZygote());
    QCOMPARE(next->result.stdoutData, QByteArray("42\n"));
}

void TestZygote::zygoteOffExecs()
{
    auto p = run(*m_plain, QStringLiteral("print(1)\n"));
    QVERIFY_RESULT(p);
    QVERIFY(!p->viaZygote());
    QVERIFY(p->fresh().isEmpty()); // no zygote was asked for at all
    QCOMPARE(m_plainPool->stats().value(0).zygotesReady, 0);
}

void TestZygote::missingWorkDirFailsLikeExec()
{
    // Through the agent directly: a run whose working directory is missing fails the same
    // way whether it forks from the zygote or is exec'd (exit 127, "cannot enter ...").
    auto lease = m_zygotePool->acquire(m_key);
    QVERIFY_RESULT(lease);
    QCOMPARE((*lease)->zygoteLanguage(), QStringLiteral("python"));
    AgentChannel &ch = (*lease)->channel();
    AgentRunResult results[2];
    for (int i = 0; i < 2; ++i) {
        AgentRunSpec spec;
        spec.argv = {QStringLiteral("python3"), QStringLiteral("main.py")};
        spec.workDir = QStringLiteral("/nonexistent");
        spec.timeoutMs = 30'000;
        if (i == 0)
            spec.zygote = QStringLiteral("python");
        auto r = ch.run(spec, {}, {}, Deadline::in(60s));
        QVERIFY_RESULT(r);
        results[i] = *r;
    }
    QVERIFY2(results[0].viaZygote, qPrintable(results[0].zygoteWhy));
    QVERIFY(!results[1].viaZygote);
    QCOMPARE(results[0].exitCode, 127);
    QCOMPARE(results[0].exitCode, results[1].exitCode);
    QVERIFY2(results[0].error.startsWith(QStringLiteral("cannot enter /nonexistent")),
             qPrintable(results[0].error));
    QCOMPARE(results[0].error, results[1].error);
}

void TestZygote::cleanupTestCase()
{
    m_zygote.reset();
    m_plain.reset();
    if (m_zygotePool)
        m_zygotePool->shutdown();
    if (m_plainPool)
        m_plainPool->shutdown();
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestZygote)
#include "tst_zygote.moc"
