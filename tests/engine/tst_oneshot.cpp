// SPDX-License-Identifier: GPL-3.0-or-later
// One-shot runs against the real dockerd: limits enforced, bad input handled, nothing left.
#include "session/runresultjson.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QTest>

using namespace sandbox;

class TestOneShot final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void helloWorld();
    void streamsOutputAsItComes();
    void hardenedSandbox();
    void timeoutKillsProgram();
    void cancelStopsProgram();
    void memoryLimitReportsOom();
    void outputCapTruncates();
    void hundredMegabytesOfOutput();
    void nulAndInvalidUtf8();
    void unknownLanguage();
    void badLimitsRefused();
    void pathEscapeRefused();
    void missingImage();
    void engineSocketMissing();
    void pullWithoutRegistryFailsClearly();
    void networkOffByDefault();
    void threeFiguresInOrder();
    void savefigOnly();
    void cleanupTestCase();

private:
    RunRequest python(const QString &code) const
    {
        RunRequest r;
        r.language = QStringLiteral("python");
        r.code = code;
        r.origin = RunOrigin::Test;
        return r;
    }
    std::shared_ptr<Engine> m_engine;
};

void TestOneShot::initTestCase()
{
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
}

void TestOneShot::helloWorld()
{
    auto r = m_engine->runBlocking(python(QStringLiteral("print('hello', 6*7)")));
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QCOMPARE(r->stdoutData, QByteArray("hello 42\n"));
    QVERIFY(r->stderrData.isEmpty());
    QVERIFY(!r->timedOut);
    QVERIFY(!r->oomKilled);
    QVERIFY(!r->outputTruncated);
    QVERIFY(r->durationMs > 0);
    QVERIFY(!r->sandboxId.isEmpty());
}

void TestOneShot::streamsOutputAsItComes()
{
    // The first line must reach the observer while the program still sleeps.
    QElapsedTimer t;
    t.start();
    qint64 firstChunkAt = -1;
    RunObserver obs;
    obs.onStdout = [&](QByteArrayView) {
        if (firstChunkAt < 0)
            firstChunkAt = t.elapsed();
    };
    auto r = m_engine->runBlocking(
        python(QStringLiteral("import time\nprint('first')\ntime.sleep(1.5)\nprint('second')")),
        obs);
    QVERIFY_RESULT(r);
    QCOMPARE(r->stdoutData, QByteArray("first\nsecond\n"));
    QVERIFY(firstChunkAt >= 0);
    QVERIFY2(
        t.elapsed() - firstChunkAt >= 1200,
        qPrintable(
            QStringLiteral("first chunk at %1 ms of %2 ms").arg(firstChunkAt).arg(t.elapsed())));
}

void TestOneShot::hardenedSandbox()
{
    const QString probe = QStringLiteral(R"(
import os
print("uid", os.getuid())
status = open("/proc/self/status").read()
for line in status.splitlines():
    if line.startswith(("CapEff", "NoNewPrivs", "Seccomp:")):
        print(line.replace("\t", " "))
try:
    open("/etc/probe", "w")
    print("root writable")
except OSError as e:
    print("root read-only", e.errno)
open("/sandbox/ok.txt", "w").write("x")
print("workdir writable")
print("docker.sock", os.path.exists("/var/run/docker.sock"))
)");
    RunRequest req = python(probe);
    // The probe names the engine's socket on purpose: the policy would stop it.
    req.policy = std::make_shared<Policy>(*Policy::preset(QStringLiteral("permissive")));
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    const QString out = QString::fromUtf8(r->stdoutData);
    QVERIFY2(out.contains(QStringLiteral("uid 65534")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("CapEff: 0000000000000000")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("NoNewPrivs: 1")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("Seccomp: 2")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("root read-only 30")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("workdir writable")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("docker.sock False")), qPrintable(out));
}

void TestOneShot::timeoutKillsProgram()
{
    RunRequest req = python(QStringLiteral("import time\nprint('start', flush=True)\n"
                                           "while True:\n    time.sleep(0.1)"));
    req.limits.timeoutMs = 1500;
    QElapsedTimer t;
    t.start();
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QVERIFY(r->timedOut);
    QCOMPARE(r->exitCode, 137);
    QVERIFY(r->stdoutData.startsWith("start"));
    QVERIFY2(t.elapsed() < 10'000, "the run was not stopped at its limit");
    // Killed, not abandoned: the sandbox is gone.
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

void TestOneShot::cancelStopsProgram()
{
    CancelToken cancel;
    RunObserver obs;
    obs.onStdout = [&](QByteArrayView) { cancel.cancel(); };
    QElapsedTimer t;
    t.start();
    auto r = m_engine->runBlocking(
        python(QStringLiteral("import time\nprint('go', flush=True)\ntime.sleep(60)")), obs,
        cancel);
    QVERIFY_RESULT(r);
    QVERIFY(r->cancelled);
    QVERIFY(!r->timedOut);
    QVERIFY(t.elapsed() < 15'000);
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

void TestOneShot::memoryLimitReportsOom()
{
    RunRequest req =
        python(QStringLiteral("blocks = []\nwhile True:\n    blocks.append(bytearray(16 << 20))"));
    req.limits.memoryBytes = 128ll << 20;
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 137);
    QVERIFY(r->oomKilled);
    QVERIFY(!r->timedOut);
}

void TestOneShot::outputCapTruncates()
{
    RunRequest req =
        python(QStringLiteral("for i in range(100000):\n    print('line', i)\nprint('done')"));
    req.limits.outputBytes = 10'000;
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0); // the program ran to its end
    QVERIFY(r->outputTruncated);
    QCOMPARE(r->stdoutData.size(), 10'000);
    QVERIFY(r->stdoutData.startsWith("line 0\nline 1\n"));
}

void TestOneShot::hundredMegabytesOfOutput()
{
    RunRequest req = python(QStringLiteral("import sys\nchunk = b'x' * (1 << 20)\nfor _ in "
                                           "range(100):\n    sys.stdout.buffer.write(chunk)\n"
                                           "sys.stdout.flush()\nprint('end', file=sys.stderr)"));
    req.limits.timeoutMs = 60'000;
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QVERIFY(r->outputTruncated);
    QCOMPARE(r->stdoutData.size(), req.limits.outputBytes);
    QVERIFY(!r->timedOut);
}

void TestOneShot::nulAndInvalidUtf8()
{
    auto r = m_engine->runBlocking(
        python(QStringLiteral("import sys\nsys.stdout.buffer.write(b'a\\x00b\\xff\\xfe "
                              "c\\n')\nprint('\\u00e9t\\u00e9')")));
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QCOMPARE(r->stdoutData, QByteArray("a\0b\xff\xfe c\n\xc3\xa9t\xc3\xa9\n", 14));
    // The JSON form stays valid: replacement characters plus the exact bytes in base64.
    const QByteArray json = runResultToJson(*r, false);
    QVERIFY(isValidUtf8(json));
    QVERIFY(json.contains("\"stdout_base64\""));
    QVERIFY(json.contains("\\u0000"));
}

void TestOneShot::unknownLanguage()
{
    RunRequest req = python(QStringLiteral("print(1)"));
    req.language = QStringLiteral("cobol");
    auto r = m_engine->runBlocking(req);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::UnknownLanguage);
    QVERIFY(r.error().message.contains(QStringLiteral("cobol")));
    QVERIFY(r.error().message.contains(QStringLiteral("python")));
}

void TestOneShot::badLimitsRefused()
{
    RunRequest req = python(QStringLiteral("print(1)"));
    req.limits.memoryBytes = 4 << 20;
    auto r = m_engine->runBlocking(req);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
    QVERIFY(r.error().message.contains(QStringLiteral("memory")));
}

void TestOneShot::pathEscapeRefused()
{
    for (const QString &bad : {QStringLiteral("../escape.txt"), QStringLiteral("/etc/passwd"),
                               QStringLiteral("a/../../b")}) {
        RunRequest req = python(QStringLiteral("print(1)"));
        req.files.append({bad, "x"});
        auto r = m_engine->runBlocking(req);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::PathRefused);
    }
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

void TestOneShot::missingImage()
{
    RunRequest req = python(QStringLiteral("print(1)"));
    req.image = QStringLiteral("sandbox-studio/does-not-exist:r000");
    auto r = m_engine->runBlocking(req);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::ImageMissing);
    QVERIFY(r.error().message.contains(QStringLiteral("does-not-exist")));
}

void TestOneShot::engineSocketMissing()
{
    BackendProfile profile;
    profile.uri = QStringLiteral("unix:///nonexistent/docker.sock");
    auto engine = Engine::create(profile);
    QVERIFY_RESULT(engine);
    auto ping = (*engine)->ping();
    QVERIFY(!ping);
    QCOMPARE(ping.error().code, ErrorCode::EngineUnreachable);
    QVERIFY(ping.error().message.contains(QStringLiteral("/nonexistent/docker.sock")));
    auto r = (*engine)->runBlocking(python(QStringLiteral("print(1)")));
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::EngineUnreachable);
}

void TestOneShot::pullWithoutRegistryFailsClearly()
{
    // No registry is reachable from these machines: the pull must fail with a clear error
    // (the engine streams 200 and reports the failure inside the JSON stream).
    QStringList lines;
    auto r = m_engine->runtime().pullImage(QStringLiteral("sandbox-studio-test/not-a-real-image:1"),
                                           [&](const QString &l) { lines << l; }, {});
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::ImageMissing);
    QVERIFY2(r.error().message.contains(QStringLiteral("not-a-real-image")),
             qPrintable(r.error().toString()));
}

void TestOneShot::networkOffByDefault()
{
    auto r = m_engine->runBlocking(python(QStringLiteral(
        "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 53), timeout=2)\n"
        "    print('connected')\nexcept OSError as e:\n    print('no network', e.errno)\n"
        "print(sorted(n for _, n in socket.if_nameindex()))")));
    QVERIFY_RESULT(r);
    QVERIFY2(r->stdoutData.contains("no network"), r->stdoutData.constData());
    QVERIFY2(r->stdoutData.contains("['lo']"), r->stdoutData.constData());
}

void TestOneShot::threeFiguresInOrder()
{
    auto r = m_engine->runBlocking(python(QStringLiteral(
        "import matplotlib.pyplot as plt\n"
        "for n in (1, 2, 3):\n    plt.figure(figsize=(2 + n, 2))\n    plt.plot(range(n + 1))\n"
        "    plt.title(f'fig {n}')\nplt.show()\n")));
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QStringList names;
    QList<int> widths;
    for (const Artifact &a : r->artifacts) {
        QCOMPARE(a.mimeType, QStringLiteral("image/png"));
        QVERIFY(a.data.startsWith("\x89PNG"));
        names << a.name;
        // PNG IHDR width: bytes 16-19, big-endian.
        const auto *d = reinterpret_cast<const unsigned char *>(a.data.constData());
        widths << ((d[16] << 24) | (d[17] << 16) | (d[18] << 8) | d[19]);
    }
    QCOMPARE(names, QStringList({QStringLiteral("output/figure-001.png"),
                                 QStringLiteral("output/figure-002.png"),
                                 QStringLiteral("output/figure-003.png")}));
    QVERIFY2(widths[0] < widths[1] && widths[1] < widths[2], "figures out of order");
}

void TestOneShot::savefigOnly()
{
    auto r = m_engine->runBlocking(python(QStringLiteral(
        "import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.savefig('chart.png')\n")));
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QCOMPARE(r->artifacts.size(), 1);
    QCOMPARE(r->artifacts[0].name, QStringLiteral("chart.png"));
    QVERIFY(r->artifacts[0].data.startsWith("\x89PNG"));
}

void TestOneShot::cleanupTestCase()
{
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestOneShot)
#include "tst_oneshot.moc"
