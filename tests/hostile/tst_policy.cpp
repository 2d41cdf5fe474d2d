// SPDX-License-Identifier: GPL-3.0-or-later
// The policy (engine/policy): lexers that keep comments and strings out of code rules,
// structural imports, presets, the file format, and enforcement through the real Engine
// (block never starts a sandbox, ask goes to the hook, warn runs with findings).
#include "languages/language.h"
#include "policy/policy.h"
#include "policy/preflight.h"
#include "session/runresultjson.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sandbox;
using namespace Qt::StringLiterals;

namespace {
Policy preset(const char *name)
{
    return Policy::preset(QLatin1String(name)).value();
}

QStringList rulesOf(const QList<PolicyFinding> &findings)
{
    QStringList out;
    for (const PolicyFinding &f : findings)
        out << QStringLiteral("%1@%2").arg(f.rule).arg(f.line);
    return out;
}
} // namespace

class TestPolicy final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lexerBlanksCommentsAndStrings();
    void findings_data();
    void findings();
    void presetsMapSeverities();
    void fileRoundTrip();
    void badFilesExplained_data();
    void badFilesExplained();
    void languageMinimumMemory();
    void engineBlockNeverStarts();
    void engineAskHook();
    void engineWarnRuns();
    void cleanupTestCase();

private:
    std::shared_ptr<Engine> m_engine;
    std::shared_ptr<Engine> engine()
    {
        if (!m_engine)
            m_engine = test::requireEngine();
        return m_engine;
    }
};

void TestPolicy::lexerBlanksCommentsAndStrings()
{
    const QString py = QStringLiteral("x = 'a#b'  # import os\ns = \"\"\"\nimport ctypes\n\"\"\"\n"
                                      "f\"{os.system('ls')}\"\n");
    const CodeView v = lexCode(QStringLiteral("python"), py);
    QCOMPARE(v.code.size(), py.size());
    QVERIFY(!v.code.contains(QStringLiteral("import os")));
    QVERIFY(!v.code.contains(QStringLiteral("ctypes")));
    QVERIFY2(v.code.contains(QStringLiteral("os.system(")), qPrintable(v.code)); // f-string field
    QVERIFY(!v.noComments.contains(QStringLiteral("import os")));
    QVERIFY(v.noComments.contains(QStringLiteral("a#b")));
    QCOMPARE(v.lineOf(py.indexOf(QStringLiteral("ctypes"))), 3);

    const QString cpp =
        QStringLiteral("int n = 1'000'000; // fork()\nconst char *s = R\"x(system(\"a\"))x\";"
                       "/* ptrace( */ char c = '\\'';\n");
    const CodeView cv = lexCode(QStringLiteral("cpp"), cpp);
    QVERIFY(!cv.code.contains(QStringLiteral("fork")));
    QVERIFY(!cv.code.contains(QStringLiteral("system")));
    QVERIFY(!cv.code.contains(QStringLiteral("ptrace")));
    QVERIFY(cv.code.contains(QStringLiteral("char c =")));

    const QString js = QStringLiteral("const re = /'/; const t = `${eval('1')} child_process`;\n"
                                      "// require('net')\n");
    const CodeView jv = lexCode(QStringLiteral("javascript"), js);
    QVERIFY(jv.code.contains(QStringLiteral("eval(")));
    QVERIFY(!jv.code.contains(QStringLiteral("child_process")));
    QVERIFY(jv.code.contains(QStringLiteral("const t"))); // the regex's quote opened no string

    const QString r = QStringLiteral("x <- r\"(system('ls'))\" # system('rm')\nsystem2('ls')\n");
    const CodeView rv = lexCode(QStringLiteral("r"), r);
    QVERIFY(!rv.code.contains(QStringLiteral("system(")));
    QVERIFY(rv.code.contains(QStringLiteral("system2(")));
}

void TestPolicy::findings_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QStringList>("expected"); // rule@line under "strict"

    QTest::newRow("py comments and strings are not code")
        << u"python"_s
        << u"# import subprocess\nx = 'os.system(\"rm\")'\ns = \"\"\"import ctypes\"\"\"\nprint(x)\n"_s
        << QStringList{};
    QTest::newRow("py imports")
        << u"python"_s
        << u"import os, subprocess as sp\nfrom ctypes import CDLL\nm = __import__('socket')\n"_s
        << QStringList{u"py-subprocess@1"_s, u"py-native@2"_s, u"py-network@3"_s,
                       u"py-dynamic-code@3"_s};
    QTest::newRow("py calls")
        << u"python"_s << u"import os\nos.system('ls')\nif os.fork() == 0: pass\nos.setuid(0)\n"_s
        << QStringList{u"py-os-process@2"_s, u"py-fork@3"_s, u"py-privilege@4"_s};
    QTest::newRow("py fork bomb") << u"python"_s << u"import os\nwhile True:\n    os.fork()\n"_s
                                  << QStringList{u"py-fork-bomb@2"_s, u"py-fork@3"_s};
    QTest::newRow("py fork bomb with try")
        << u"python"_s
        << u"import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"_s
        << QStringList{u"py-fork-bomb@2"_s, u"py-fork@4"_s};
    QTest::newRow("cpp fork bomb")
        << u"cpp"_s << u"#include <unistd.h>\nint main() { for (;;) { pid_t p = fork(); } }\n"_s
        << QStringList{u"cpp-fork-bomb@2"_s, u"cpp-fork@2"_s};
    QTest::newRow("engine socket in a string, not in a comment")
        << u"python"_s << u"# /var/run/docker.sock\nopen('/var/run/docker.sock')\n"_s
        << QStringList{u"engine-socket@2"_s};
    QTest::newRow("js")
        << u"javascript"_s
        << u"// require('child_process')\nconst cp = require('node:child_process');\n"
           "import net from 'net';\nconst s = \"eval(1)\";\neval('2');\n"_s
        << QStringList{u"js-child-process@2"_s, u"js-network@3"_s, u"js-dynamic-code@5"_s};
    QTest::newRow("java")
        << u"java"_s
        << u"import java.net.Socket;\n// Runtime.getRuntime().exec(\"x\")\nclass A { void f() "
           "throws Exception { new ProcessBuilder(\"ls\"); String s = \"System.loadLibrary(\"; } }\n"_s
        << QStringList{u"java-network@1"_s, u"java-process@3"_s};
    QTest::newRow("cpp")
        << u"cpp"_s
        << u"#include <sys/ptrace.h>\n#include <unistd.h>\n/* fork(); */\nint main() { "
           "const char *s = \"system(1)\"; ptrace(PTRACE_TRACEME, 0, 0, 0); return fork(); }\n"_s
        << QStringList{u"cpp-ptrace@1"_s, u"cpp-fork@4"_s, u"cpp-privilege@4"_s};
    QTest::newRow("go") << u"go"_s
                        << u"package main\nimport (\n\t\"fmt\"\n\t// \"net\"\n\tx \"os/exec\"\n)\n"
                           "var s = `import \"syscall\"`\n"_s
                        << QStringList{u"go-process@5"_s};
    QTest::newRow("r")
        << u"r"_s
        << u"library(httr)\n# system('ls')\nx <- \"system('rm')\"\nsystem2('ls')\ncurl::curl('x')\n"_s
        << QStringList{u"r-network-packages@1"_s, u"r-process@4"_s, u"r-network-packages@5"_s};
}

void TestPolicy::findings()
{
    QFETCH(QString, language);
    QFETCH(QString, code);
    QFETCH(QStringList, expected);
    QStringList got = rulesOf(preset("strict").check(language, code));
    got.sort();
    expected.sort();
    QCOMPARE(got, expected);
}

void TestPolicy::presetsMapSeverities()
{
    const QString code = QStringLiteral("import ctypes\nimport subprocess\n");
    auto verdict = [&](const char *name) {
        return evaluatePolicy(preset(name), QStringLiteral("python"), code);
    };
    QCOMPARE(verdict("strict").action, PolicyAction::Block);
    QVERIFY(verdict("strict").reason.contains(QStringLiteral("line 1: py-native (high)")));
    QCOMPARE(verdict("standard").action, PolicyAction::Ask);
    QCOMPARE(verdict("permissive").action, PolicyAction::Warn);
    // permissive allows medium: only the high finding is reported.
    QCOMPARE(rulesOf(verdict("permissive").findings), QStringList{u"py-native@1"_s});
    QCOMPARE(Policy::presetNames(), (QStringList{u"strict"_s, u"standard"_s, u"permissive"_s}));
    QVERIFY(!Policy::preset(QStringLiteral("lax")));
}

void TestPolicy::fileRoundTrip()
{
    Policy p = preset("standard");
    p.setName(QStringLiteral("team"));
    PolicyRule r;
    r.id = QStringLiteral("no-requests");
    r.languages = {QStringLiteral("python")};
    r.imports = {QStringLiteral("requests")};
    r.severity = Severity::High;
    r.action = PolicyAction::Block;
    r.message = QStringLiteral("talks to the internet");
    QVERIFY_RESULT(p.setRule(r));
    QVERIFY(p.removeRule(QStringLiteral("py-native")));
    p.setActionFor(Severity::Medium, PolicyAction::Ask);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("team.json"));
    QVERIFY_RESULT(p.save(path));
    auto loaded = Policy::load(path);
    QVERIFY_RESULT(loaded);
    QCOMPARE(loaded->name(), QStringLiteral("team"));
    QCOMPARE(loaded->base(), QStringLiteral("standard"));
    QCOMPARE(loaded->actionFor(Severity::Medium), PolicyAction::Ask);
    QCOMPARE(loaded->rules().size(), p.rules().size());
    QCOMPARE(loaded->disabledRuleIds(), QStringList{u"py-native"_s});
    const auto v = evaluatePolicy(*loaded, QStringLiteral("python"),
                                  QStringLiteral("import requests\nimport ctypes\n"));
    QCOMPARE(v.action, PolicyAction::Block);
    QCOMPARE(rulesOf(v.findings), QStringList{u"no-requests@1"_s}); // py-native is gone

    // A hand-written file: strings-scope pattern, "*" languages, a base-rule override.
    const QByteArray text = R"({"format": 1, "name": "hand", "base": "permissive",
        "rules": [{"id": "secrets", "languages": "*", "match": "strings",
                   "pattern": "API_KEY", "severity": "low", "action": "block"},
                  {"id": "py-subprocess", "languages": ["python"], "import": "subprocess",
                   "severity": "medium", "action": "ask"}]})";
    auto hand = Policy::fromJson(text);
    QVERIFY_RESULT(hand);
    QCOMPARE(evaluatePolicy(*hand, QStringLiteral("go"), QStringLiteral("// API_KEY\n")).action,
             PolicyAction::Allow);
    QCOMPARE(
        evaluatePolicy(*hand, QStringLiteral("go"), QStringLiteral("var k = \"API_KEY\"\n")).action,
        PolicyAction::Block);
    QCOMPARE(
        evaluatePolicy(*hand, QStringLiteral("python"), QStringLiteral("import subprocess")).action,
        PolicyAction::Ask);
}

void TestPolicy::badFilesExplained_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << QByteArray("{") << u"not a JSON object"_s;
    QTest::newRow("format") << QByteArray(R"({"format": 2})") << u"format 2"_s;
    QTest::newRow("base") << QByteArray(R"({"base": "lax"})") << u"unknown policy preset 'lax'"_s;
    QTest::newRow("severity")
        << QByteArray(R"({"rules": [{"id": "a", "pattern": "x", "severity": "huge"}]})")
        << u"unknown severity 'huge'"_s;
    QTest::newRow("action")
        << QByteArray(
               R"({"rules": [{"id": "a", "pattern": "x", "severity": "low", "action": "maybe"}]})")
        << u"unknown action 'maybe'"_s;
    QTest::newRow("both")
        << QByteArray(
               R"({"rules": [{"id": "a", "pattern": "x", "import": "y", "severity": "low"}]})")
        << u"exactly one of"_s;
    QTest::newRow("regex") << QByteArray(
                                  R"({"rules": [{"id": "a", "pattern": "(", "severity": "low"}]})")
                           << u"bad pattern"_s;
    QTest::newRow("no id") << QByteArray(R"({"rules": [{"pattern": "x", "severity": "low"}]})")
                           << u"needs an \"id\""_s;
}

void TestPolicy::badFilesExplained()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    auto p = Policy::fromJson(text);
    QVERIFY(!p);
    QCOMPARE(p.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(p.error().message.contains(message), qPrintable(p.error().message));
    auto missing = Policy::load(QStringLiteral("/nonexistent/policy.json"));
    QVERIFY(!missing);
    QVERIFY(missing.error().message.contains(QStringLiteral("strict, standard, permissive")));
}

void TestPolicy::languageMinimumMemory()
{
    Limits l;
    l.memoryBytes = 64ll << 20;
    auto java = validateLimitsFor(l, QStringLiteral("java"));
    QVERIFY(!java);
    QCOMPARE(java.error().message,
             QStringLiteral("memory limit 64 MiB is below what Java needs (at least 128 MiB)"));
    QVERIFY_RESULT(validateLimitsFor(l, QStringLiteral("python")));
    for (const LanguageDescriptor &d : LanguageRegistry::instance().all())
        QVERIFY2(d.minMemoryBytes >= (32ll << 20), qPrintable(d.id));
}

void TestPolicy::engineBlockNeverStarts()
{
    auto e = engine();
    QVERIFY(e);
    RunRequest req;
    req.language = QStringLiteral("python");
    req.origin = RunOrigin::Test;
    req.code = QStringLiteral("open('/var/run/docker.sock')\n"); // critical: blocked by standard
    QStringList statuses;
    RunObserver obs;
    obs.onStatus = [&](const QString &s) { statuses << s; };
    auto r = e->runBlocking(req, obs);
    QVERIFY_RESULT(r);
    QVERIFY(r->policyBlocked);
    QVERIFY(r->sandboxId.isEmpty()); // nothing was created
    QVERIFY(!statuses.contains(QStringLiteral("creating sandbox")));
    QVERIFY2(r->policyReason.contains(QStringLiteral("blocked by policy 'standard': line 1: "
                                                     "engine-socket (critical)")),
             qPrintable(r->policyReason));
    QCOMPARE(r->policyFindings.size(), 1);
    QCOMPARE(r->policyFindings[0].action, QStringLiteral("block"));
    const QByteArray json = runResultToJson(*r, false);
    QVERIFY(json.contains("\"blocked\": true"));

    // Memory below the language's minimum is refused before the policy, with a message.
    req.language = QStringLiteral("java");
    req.code = QStringLiteral("class A { public static void main(String[] a) {} }");
    req.limits.memoryBytes = 64ll << 20;
    auto small = e->runBlocking(req);
    QVERIFY(!small);
    QCOMPARE(small.error().code, ErrorCode::InvalidArgument);
    QVERIFY(small.error().message.contains(QStringLiteral("Java needs (at least 128 MiB)")));
}

void TestPolicy::engineAskHook()
{
    auto e = engine();
    QVERIFY(e);
    RunRequest req;
    req.language = QStringLiteral("python");
    req.origin = RunOrigin::Test;
    req.code = QStringLiteral("import ctypes\nprint('ran')\n"); // high: ask under standard

    // Nobody to ask: refused.
    auto refused = e->runBlocking(req);
    QVERIFY_RESULT(refused);
    QVERIFY(refused->policyBlocked);
    QVERIFY2(refused->policyReason.contains(QStringLiteral("no approval hook")),
             qPrintable(refused->policyReason));

    // The engine's hook says no, then yes.
    int asked = 0;
    bool answer = false;
    e->setAskHandler([&](const RunRequest &r, const QList<PolicyFinding> &findings) {
        ++asked;
        return r.code == req.code && findings.size() == 1 &&
               findings[0].rule == QLatin1String("py-native") && answer;
    });
    auto no = e->runBlocking(req);
    QVERIFY_RESULT(no);
    QVERIFY(no->policyBlocked);
    QVERIFY(no->policyReason.contains(QStringLiteral("not approved")));
    answer = true;
    auto yes = e->runBlocking(req);
    QVERIFY_RESULT(yes);
    QVERIFY(!yes->policyBlocked);
    QCOMPARE(yes->stdoutData, QByteArray("ran\n"));
    QCOMPARE(yes->policyFindings.size(), 1);
    QCOMPARE(asked, 2);

    // The observer's callback takes precedence over the engine's hook.
    RunObserver obs;
    int observerAsked = 0;
    obs.onPolicyAsk = [&](const QList<PolicyFinding> &) {
        ++observerAsked;
        return false;
    };
    auto viaObserver = e->runBlocking(req, obs);
    QVERIFY_RESULT(viaObserver);
    QVERIFY(viaObserver->policyBlocked);
    QCOMPARE(observerAsked, 1);
    QCOMPARE(asked, 2);
    e->setAskHandler({});
}

void TestPolicy::engineWarnRuns()
{
    auto e = engine();
    QVERIFY(e);
    RunRequest req;
    req.language = QStringLiteral("python");
    req.origin = RunOrigin::Test;
    req.code = QStringLiteral("import subprocess  # medium: warn under standard\nprint(7)\n");
    req.limits.timeoutMs = 20'000;
    auto r = e->runBlocking(req);
    QVERIFY_RESULT(r);
    QVERIFY(!r->policyBlocked);
    QCOMPARE(r->stdoutData, QByteArray("7\n"));
    QCOMPARE(rulesOf(r->policyFindings), QStringList{u"py-subprocess@1"_s});
    QCOMPARE(r->policyName, QStringLiteral("standard"));
    QCOMPARE(r->appliedLimits.timeoutMs, 20'000);
    QVERIFY(r->limitsHit.isEmpty());

    // A request's own policy replaces the engine's: strict asks for medium, nobody answers.
    req.policy = std::make_shared<Policy>(preset("strict"));
    auto strict = e->runBlocking(req);
    QVERIFY_RESULT(strict);
    QVERIFY(strict->policyBlocked);
    QCOMPARE(strict->policyName, QStringLiteral("strict"));
}

void TestPolicy::cleanupTestCase()
{
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestPolicy)
#include "tst_policy.moc"
