// SPDX-License-Identifier: GPL-3.0-or-later
// Language semantics that LLM-written programs rely on, per language, on the real engine.
#include "testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace sandbox;

class TestLanguages final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void semantics_data();
    void semantics();
    void cppStandardIsConfigurable();
    void compileOutputIsKeptApart();
    void goStandardLibraryComesFromTheImage();
    void cleanupTestCase();

private:
    std::shared_ptr<Engine> m_engine;
};

void TestLanguages::initTestCase()
{
    m_engine = test::requireEngine(QStringLiteral("python"));
    QVERIFY(m_engine);
}

void TestLanguages::semantics_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("code");
    QTest::addColumn<int>("exitCode"); // -1: any non-zero
    QTest::addColumn<QString>("stdoutHas");
    QTest::addColumn<QString>("stderrHas");
    QTest::addColumn<bool>("compileFails");

    QTest::newRow("java package declaration")
        << QStringLiteral("java")
        << QStringLiteral("package com.example.reports;\n\nimport java.util.List;\n\n"
                          "public class QuarterlyReport {\n"
                          "    public static void main(String[] args) {\n"
                          "        System.out.println(\"sum \" + List.of(1, 2, "
                          "3).stream().mapToInt(i -> i).sum());\n"
                          "    }\n}\n")
        << 0 << QStringLiteral("sum 6") << QString() << false;
    QTest::newRow("java exception exits non-zero")
        << QStringLiteral("java")
        << QStringLiteral("public class Boom { public static void main(String[] a) { "
                          "throw new IllegalStateException(\"no data\"); } }")
        << -1 << QString() << QStringLiteral("IllegalStateException: no data") << false;
    QTest::newRow("go unused variable is a compile error")
        << QStringLiteral("go")
        << QStringLiteral("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tunused := "
                          "42\n\tfmt.Println(\"never\")\n}\n")
        << -1 << QString() << QStringLiteral("declared and not used") << true;
    QTest::newRow("go exit code") << QStringLiteral("go")
                                  << QStringLiteral(
                                         "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc "
                                         "main() {\n\tfmt.Println(\"bye\")\n\tos.Exit(4)\n}\n")
                                  << 4 << QStringLiteral("bye") << QString() << false;
    // net/http and encoding/json compile a large part of the standard library: its
    // intermediate files once filled the 64 MiB /tmp (GOTMPDIR now in the work directory).
    QTest::newRow("go net/http and encoding/json compile")
        << QStringLiteral("go")
        << QStringLiteral("package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t"
                          "\"net/http\"\n)\n\nfunc main() {\n\tb, _ := "
                          "json.Marshal(map[string]int{\"ok\": http.StatusOK})\n\t"
                          "fmt.Println(string(b))\n}\n")
        << 0 << QStringLiteral("{\"ok\":200}") << QString() << false;
    QTest::newRow("r stop gives non-zero exit with the message")
        << QStringLiteral("r")
        << QStringLiteral("cat('before\\n')\nstop('bad input: negative price')\ncat('after\\n')\n")
        << -1 << QStringLiteral("before") << QStringLiteral("bad input: negative price") << false;
    QTest::newRow("javascript commonjs require")
        << QStringLiteral("javascript")
        << QStringLiteral("const path = require('path');\nconsole.log(path.join('a', 'b'));\n") << 0
        << QStringLiteral("a/b") << QString() << false;
    QTest::newRow("javascript uncaught error exits 1")
        << QStringLiteral("javascript") << QStringLiteral("throw new RangeError('too big');\n") << 1
        << QString() << QStringLiteral("RangeError: too big") << false;
    QTest::newRow("cpp runtime exit code")
        << QStringLiteral("cpp")
        << QStringLiteral("#include <cstdio>\nint main() { std::puts(\"out\"); return 9; }\n") << 9
        << QStringLiteral("out") << QString() << false;
    QTest::newRow("python uncaught exception")
        << QStringLiteral("python") << QStringLiteral("raise ValueError('bad row 7')\n") << 1
        << QString() << QStringLiteral("ValueError: bad row 7") << false;
}

void TestLanguages::semantics()
{
    QFETCH(QString, language);
    QFETCH(QString, code);
    QFETCH(int, exitCode);
    QFETCH(QString, stdoutHas);
    QFETCH(QString, stderrHas);
    QFETCH(bool, compileFails);
    RunRequest req;
    req.language = language;
    req.code = code;
    req.origin = RunOrigin::Test;
    req.limits.timeoutMs = 120'000;
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    const QString out = QString::fromUtf8(r->stdoutData);
    const QString err = QString::fromUtf8(r->stderrData);
    const QString context =
        QStringLiteral("exit %1\n--- stdout:\n%2\n--- stderr:\n%3").arg(r->exitCode).arg(out, err);
    if (exitCode >= 0)
        QVERIFY2(r->exitCode == exitCode, qPrintable(context));
    else
        QVERIFY2(r->exitCode != 0, qPrintable(context));
    if (!stdoutHas.isEmpty())
        QVERIFY2(out.contains(stdoutHas), qPrintable(context));
    if (!stderrHas.isEmpty())
        QVERIFY2(err.contains(stderrHas), qPrintable(context));
    if (compileFails) {
        QVERIFY(r->compile.ran);
        QVERIFY(r->compile.exitCode != 0);
        QVERIFY2(QString::fromUtf8(r->compile.output).contains(stderrHas), qPrintable(context));
        QVERIFY(out.isEmpty());
    }
}

void TestLanguages::cppStandardIsConfigurable()
{
    const QString cxx23 =
        QStringLiteral("#include <algorithm>\n#include <print>\n#include <vector>\n"
                       "int main() {\n    std::vector<int> v{3, 1, 2};\n    std::ranges::sort(v);\n"
                       "    std::println(\"first={} std={}\", v.front(), __cplusplus);\n}\n");
    RunRequest req;
    req.language = QStringLiteral("cpp");
    req.code = cxx23;
    req.standard = QStringLiteral("c++23");
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QVERIFY2(r->exitCode == 0, r->stderrData.constData());
    QVERIFY(r->stdoutData.startsWith("first=1 std=2023"));

    // The same program under C++17 is the user's compile error, not an engine error.
    req.standard = QStringLiteral("c++17");
    auto old = m_engine->runBlocking(req);
    QVERIFY_RESULT(old);
    QVERIFY(old->compile.ran);
    QVERIFY(old->compile.exitCode != 0);
    QVERIFY(old->exitCode != 0);

    req.standard = QStringLiteral("c++99");
    auto bad = m_engine->runBlocking(req);
    QVERIFY(!bad);
    QCOMPARE(bad.error().code, ErrorCode::InvalidArgument);
    QVERIFY(bad.error().message.contains(QStringLiteral("c++23")));
}

void TestLanguages::compileOutputIsKeptApart()
{
    RunRequest req;
    req.language = QStringLiteral("cpp");
    req.code = QStringLiteral(
        "#include <cstdio>\nint main() { int unused_value = 1; std::puts(\"ran\"); }\n");
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QCOMPARE(r->stdoutData, QByteArray("ran\n"));
    QVERIFY(r->compile.ran);
    QCOMPARE(r->compile.exitCode, 0);
    QVERIFY(r->compile.durationMs > 0);
}

void TestLanguages::goStandardLibraryComesFromTheImage()
{
    // The Go image's cache program (resources/images/go/gocacheprog.go) counts where the
    // compile step's build cache answers came from; the program reads the counts, checks
    // that the image's layer cannot be written and prints both.
    RunRequest req;
    req.language = QStringLiteral("go");
    req.code = QStringLiteral(
        "package main\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n\t\"os\"\n"
        "\t\"path/filepath\"\n)\n\n"
        "func main() {\n"
        "\tdata, err := os.ReadFile(filepath.Join(os.Getenv(\"GOCACHE\"), \"gocacheprog\", "
        "\"stats.json\"))\n"
        "\tif err != nil {\n\t\tfmt.Println(\"no stats:\", err)\n\t\tos.Exit(3)\n\t}\n"
        "\tfmt.Print(string(data))\n"
        "\tfmt.Fprintln(os.Stderr, \"GOCACHEPROG=\"+os.Getenv(\"GOCACHEPROG\"), http.StatusOK)\n"
        "\terr = os.WriteFile(\"/usr/lib/sandbox-studio/go/build-cache/00/poison-a\", "
        "[]byte(\"v1\"), "
        "0o644)\n"
        "\tfmt.Fprintln(os.Stderr, \"image layer write refused:\", err != nil)\n"
        "}\n");
    req.limits.timeoutMs = 120'000;
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    const QString context =
        QStringLiteral("exit %1\n--- stdout:\n%2\n--- stderr:\n%3\n--- compile:\n%4")
            .arg(r->exitCode)
            .arg(QString::fromUtf8(r->stdoutData), QString::fromUtf8(r->stderrData),
                 QString::fromUtf8(r->compile.output));
    QVERIFY2(r->exitCode == 0, qPrintable(context));
    const QJsonObject stats = QJsonDocument::fromJson(r->stdoutData).object();
    QVERIFY2(!stats.isEmpty(), qPrintable(context));
    // net/http alone is some 150 standard packages; without the image's layer every one of
    // them is a miss compiled in this run.
    QVERIFY2(stats.value(QStringLiteral("imageHits")).toInt() >= 100, qPrintable(context));
    // What this run compiles itself: its own package and the link, put in its writable layer.
    QVERIFY2(stats.value(QStringLiteral("misses")).toInt() < 10, qPrintable(context));
    QVERIFY2(stats.value(QStringLiteral("puts")).toInt() >= 1, qPrintable(context));
    QVERIFY2(r->stderrData.contains("GOCACHEPROG=/usr/lib/sandbox-studio/go/gocacheprog 200\n"),
             qPrintable(context));
    QVERIFY2(r->stderrData.contains("image layer write refused: true"), qPrintable(context));
}

void TestLanguages::cleanupTestCase()
{
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestLanguages)
#include "tst_languages.moc"
