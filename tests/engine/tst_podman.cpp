// SPDX-License-Identifier: GPL-3.0-or-later
// Podman through its API socket (PROTOCOLS.md "Podman"): detection by /_ping's Libpod
// headers, the tmpfs work directory a non-root user can write and execute in, limits that
// really apply (read back from the sandbox's cgroup), OOM and time-limit reporting.
// Runs on the podman service `./studio.sh services` starts (SANDBOX_TEST_BACKEND=podman).
#include "runtime/dockerruntime.h"
#include "testsupport.h"

#include <QTest>

using namespace sandbox;

class TestPodman final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void detectedAsPodman();
    void tmpfsWorkDirOwnedByTheSandboxUser();
    void limitsApply();
    void oomKillReported();
    void timeLimitKillsAndRemoves();
    void exitCodeAndStderr();
    void cleanupTestCase();

private:
    Result<RunResult> runPython(const QString &code, const Limits &limits = {});
    std::shared_ptr<Engine> m_engine;
};

void TestPodman::initTestCase()
{
    QCOMPARE(test::backendUnderTest(), QStringLiteral("podman"));
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
}

Result<RunResult> TestPodman::runPython(const QString &code, const Limits &limits)
{
    RunRequest req;
    req.origin = RunOrigin::Test;
    req.language = QStringLiteral("python");
    req.code = code;
    req.limits = limits;
    return m_engine->runBlocking(req);
}

void TestPodman::detectedAsPodman()
{
    auto info = m_engine->ping();
    QVERIFY_RESULT(info);
    QVERIFY(info->isPodman);
    QCOMPARE(info->name, QStringLiteral("Podman"));
    QVERIFY(!info->version.isEmpty());
    QCOMPARE(m_engine->runtime().backend(), QStringLiteral("podman"));
    auto *docker = dynamic_cast<DockerRuntime *>(&m_engine->runtime());
    QVERIFY(docker);
    QVERIFY(docker->isPodman());
    // Podman rejects uid=/gid= tmpfs options: the body asks for the user's ownership.
    const QByteArray body = docker->createBody(SandboxSpec{});
    QVERIFY2(body.contains("mode=0700,U"), body.constData());
    QVERIFY2(!body.contains("uid="), body.constData());
}

void TestPodman::tmpfsWorkDirOwnedByTheSandboxUser()
{
    auto r = runPython(QStringLiteral(
        "import os, subprocess\n"
        "st = os.stat('/sandbox')\n"
        "print('uid', os.getuid(), 'owner', st.st_uid)\n"
        "open('/sandbox/run.sh', 'w').write('#!/bin/sh\\necho exec-ok\\n')\n"
        "os.chmod('/sandbox/run.sh', 0o755)\n"
        "print(subprocess.run(['/sandbox/run.sh'], capture_output=True, text=True).stdout, "
        "end='')\n"
        "open('/tmp/t', 'w').write('x'); print('tmp-ok')\n"
        "try:\n    open('/etc/x', 'w')\nexcept OSError as e:\n    print('root read-only', "
        "e.errno)\n"));
    QVERIFY_RESULT(r);
    const QString out = QString::fromUtf8(r->stdoutData);
    QVERIFY2(r->exitCode == 0, qPrintable(out + QString::fromUtf8(r->stderrData)));
    QVERIFY2(out.contains(QLatin1String("uid 65534 owner 65534")), qPrintable(out));
    QVERIFY2(out.contains(QLatin1String("exec-ok")), qPrintable(out));
    QVERIFY2(out.contains(QLatin1String("tmp-ok")), qPrintable(out));
    QVERIFY2(out.contains(QLatin1String("root read-only 30")), qPrintable(out)); // EROFS
}

void TestPodman::limitsApply()
{
    Limits limits;
    limits.memoryBytes = 96ll << 20;
    limits.nanoCpus = 500'000'000;
    limits.pids = 64;
    // cgroup v1 here (memory, cpu, pids hierarchies); v2 files as a fallback.
    auto r = runPython(
        QStringLiteral("def first(*paths):\n"
                       "    for p in paths:\n"
                       "        try:\n"
                       "            return open(p).read().strip()\n"
                       "        except OSError:\n"
                       "            pass\n"
                       "    return 'missing'\n"
                       "print('mem', first('/sys/fs/cgroup/memory/memory.limit_in_bytes', "
                       "'/sys/fs/cgroup/memory.max'))\n"
                       "print('quota', first('/sys/fs/cgroup/cpu/cpu.cfs_quota_us', "
                       "'/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us', "
                       "'/sys/fs/cgroup/cpu.max'))\n"
                       "print('pids', first('/sys/fs/cgroup/pids/pids.max', "
                       "'/sys/fs/cgroup/pids.max'))\n"),
        limits);
    QVERIFY_RESULT(r);
    const QString out = QString::fromUtf8(r->stdoutData);
    QVERIFY2(out.contains(QLatin1String("mem 100663296")), qPrintable(out));
    QVERIFY2(out.contains(QLatin1String("quota 50000")), qPrintable(out));
    QVERIFY2(out.contains(QLatin1String("pids 64")), qPrintable(out));
    // This host's podman is rootful: every limit applies, and no note says otherwise.
    QVERIFY2(r->notes.filter(QStringLiteral("not applied")).isEmpty(),
             qPrintable(r->notes.join(u'\n')));
}

void TestPodman::oomKillReported()
{
    Limits limits;
    limits.memoryBytes = 64ll << 20;
    auto r = runPython(QStringLiteral("x = bytearray(400 * 1024 * 1024)\nprint(len(x))\n"), limits);
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 137);
    QVERIFY(r->oomKilled);
    QVERIFY(!r->timedOut);
}

void TestPodman::timeLimitKillsAndRemoves()
{
    Limits limits;
    limits.timeoutMs = 1500;
    auto r =
        runPython(QStringLiteral("print('start', flush=True)\nwhile True:\n    pass\n"), limits);
    QVERIFY_RESULT(r);
    QVERIFY(r->timedOut);
    QCOMPARE(r->exitCode, 137);
    QVERIFY(r->stdoutData.contains("start"));
    auto gone = m_engine->runtime().list(QLatin1String(labels::Owner), ownerLabel());
    QVERIFY_RESULT(gone);
    QCOMPARE(gone->size(), 0);
}

void TestPodman::exitCodeAndStderr()
{
    auto r =
        runPython(QStringLiteral("import sys\nprint('to err', file=sys.stderr)\nsys.exit(3)\n"));
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 3);
    QVERIFY(r->stderrData.contains("to err"));
}

void TestPodman::cleanupTestCase()
{
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestPodman)
#include "tst_podman.moc"
