// SPDX-License-Identifier: GPL-3.0-or-later
// Dependencies installed for real through the engine: a network-on install step into a
// cached volume, then the program with network off. Real registries (through this
// machine's TLS-intercepting egress) and, for R, a CRAN-style repository the test builds.
#include "session/dependencies.h"
#include "testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbox;
using namespace Qt::StringLiterals;

class TestDepInstall final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void secondRunIsCachedAndProgramHasNoNetwork();
    void unknownPackageFailsAndLeavesNothing();
    void detectedDependenciesAreShownBeforeInstalling();
    void esModulesResolveInstalledPackages();
    void rPackageFromLocalRepository();
    void guardedImportRunsWithoutIt();
    void interruptedInstallIsNotUsed();
    void networkedProgramTrustsHostCa();
    void otherLanguagesTrustHostCa_data();
    void otherLanguagesTrustHostCa();
    void cleanupTestCase();

private:
    struct Run
    {
        Result<RunResult> result;
        QStringList statuses;
        qint64 ms = 0;
    };
    Run run(const RunRequest &req);
    /// Removes the volume req would use, so that the next run installs.
    void forget(const RunRequest &req);

    std::shared_ptr<Engine> m_engine;
    QStringList m_failedVolumes; ///< must not exist at the end
    QStringList m_testVolumes;   ///< removed at the end
};

static RunRequest request(const QString &language, const QString &code,
                          const QStringList &libraries = {})
{
    RunRequest req;
    req.origin = RunOrigin::Test;
    req.language = language;
    req.code = code;
    req.libraries = libraries;
    req.limits.timeoutMs = 60'000;
    return req;
}

TestDepInstall::Run TestDepInstall::run(const RunRequest &req)
{
    Run out;
    RunObserver obs;
    obs.onStatus = [&](const QString &s) { out.statuses.append(s); };
    QElapsedTimer t;
    t.start();
    out.result = m_engine->runBlocking(req, obs);
    out.ms = t.elapsed();
    return out;
}

void TestDepInstall::forget(const RunRequest &req)
{
    auto volume = Engine::dependencyVolumeFor(req);
    QVERIFY_RESULT(volume);
    QVERIFY(!volume->isEmpty());
    QVERIFY_RESULT(m_engine->runtime().removeVolume(*volume));
}

void TestDepInstall::initTestCase()
{
    m_engine = test::requireEngine(QStringLiteral("python"));
    QVERIFY(m_engine);
}

void TestDepInstall::secondRunIsCachedAndProgramHasNoNetwork()
{
    // The program reaches for the network while its library is importable: the install
    // step had network, the program (network none, the default) has none.
    const QString code =
        QStringLiteral("import socket\n"
                       "import tabulate\n"
                       "print('tabulate', tabulate.__version__)\n"
                       "try:\n"
                       "    socket.create_connection(('1.1.1.1', 443), timeout=5).close()\n"
                       "    print('network: open')\n"
                       "except OSError as e:\n"
                       "    print('network: blocked', type(e).__name__)\n");
    RunRequest req = request(QStringLiteral("python"), code, {QStringLiteral("tabulate==0.9.0")});
    QCOMPARE(req.network, NetworkMode::None);
    forget(req);
    m_testVolumes << *Engine::dependencyVolumeFor(req);

    const Run first = run(req);
    QVERIFY_RESULT(first.result);
    const QString out1 = QString::fromUtf8(first.result->stdoutData);
    QVERIFY2(first.result->exitCode == 0,
             qPrintable(out1 + QString::fromUtf8(first.result->stderrData)));
    QVERIFY2(out1.contains(QStringLiteral("tabulate 0.9.0\n")), qPrintable(out1));
    QVERIFY2(out1.contains(QStringLiteral("network: blocked")), qPrintable(out1));
    QVERIFY2(first.result->notes.contains(QStringLiteral("installed: tabulate 0.9.0")),
             qPrintable(first.result->notes.join(u'\n')));
    QVERIFY(!first.statuses.filter(QStringLiteral("installing tabulate==0.9.0: ")).isEmpty());

    const Run second = run(req);
    QVERIFY_RESULT(second.result);
    const QString out2 = QString::fromUtf8(second.result->stdoutData);
    QVERIFY2(out2.contains(QStringLiteral("tabulate 0.9.0\n")), qPrintable(out2));
    QVERIFY2(out2.contains(QStringLiteral("network: blocked")), qPrintable(out2));
    // Nothing installed: no installer ran, and the notes say where the packages came from.
    QVERIFY2(second.statuses.filter(QStringLiteral("installing")).isEmpty(),
             qPrintable(second.statuses.join(u'\n')));
    QVERIFY2(
        second.result->notes.contains(QStringLiteral("dependencies from cache: tabulate 0.9.0")),
        qPrintable(second.result->notes.join(u'\n')));
    qInfo("first run (install) %lld ms, second run (cached) %lld ms", first.ms, second.ms);
    QVERIFY2(second.ms < first.ms, "the cached run was not faster than the install");
}

void TestDepInstall::unknownPackageFailsAndLeavesNothing()
{
    const QString name = QStringLiteral("nosuchpkg-sandbox-xyz");
    RunRequest req = request(QStringLiteral("python"), QStringLiteral("print('never')\n"), {name});
    auto volume = Engine::dependencyVolumeFor(req);
    QVERIFY_RESULT(volume);
    m_failedVolumes << *volume;
    const Run r = run(req);
    QVERIFY2(!r.result, "a run with a package that does not exist succeeded");
    const Error &e = r.result.error();
    QCOMPARE(e.code, ErrorCode::DependencyFailed);
    QVERIFY2(e.message.contains(name), qPrintable(e.toString()));
    QVERIFY2(e.message.contains(QStringLiteral("No matching distribution found for ") + name),
             qPrintable(e.toString()));
    auto exists = m_engine->runtime().volumeExists(*volume);
    QVERIFY_RESULT(exists);
    QVERIFY2(!*exists, qPrintable(*volume + QStringLiteral(" was left behind")));
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

void TestDepInstall::detectedDependenciesAreShownBeforeInstalling()
{
    // No library named: python-slugify is worked out from "import slugify".
    RunRequest req = request(QStringLiteral("python"),
                             QStringLiteral("from slugify import slugify\n"
                                            "print(slugify('Hello, Sandbox World!'))\n"));
    forget(req);
    m_testVolumes << *Engine::dependencyVolumeFor(req);
    const Run r = run(req);
    QVERIFY_RESULT(r.result);
    QCOMPARE(QString::fromUtf8(r.result->stdoutData), QStringLiteral("hello-sandbox-world\n"));
    const QString detected = QStringLiteral("dependencies detected from the code: slugify");
    QVERIFY2(r.result->notes.contains(detected), qPrintable(r.result->notes.join(u'\n')));
    const qsizetype shown = r.statuses.indexOf(detected);
    qsizetype installing = -1;
    for (qsizetype i = 0; i < r.statuses.size() && installing < 0; ++i)
        if (r.statuses[i].startsWith(QStringLiteral("installing")))
            installing = i;
    QVERIFY2(shown >= 0 && installing > shown, qPrintable(r.statuses.join(u'\n')));
    QVERIFY2(r.statuses.contains(QStringLiteral("installing python-slugify with pip")),
             qPrintable(r.statuses.join(u'\n')));
    QVERIFY2(!r.result->notes.filter(QStringLiteral("installed: ")).isEmpty(),
             qPrintable(r.result->notes.join(u'\n')));
}

void TestDepInstall::esModulesResolveInstalledPackages()
{
    auto image = Engine::defaultImageFor(QStringLiteral("javascript"));
    QVERIFY_RESULT(image);
    // ES modules do not read NODE_PATH: the node_modules link in the work directory serves.
    RunRequest req =
        request(QStringLiteral("javascript"),
                QStringLiteral("import _ from 'lodash';\n"
                               "console.log(JSON.stringify(_.chunk([1, 2, 3], 2)));\n"),
                {QStringLiteral("lodash@4")});
    m_testVolumes << *Engine::dependencyVolumeFor(req);
    const Run r = run(req);
    QVERIFY_RESULT(r.result);
    QVERIFY2(r.result->exitCode == 0, r.result->stderrData.constData());
    QCOMPARE(QString::fromUtf8(r.result->stdoutData), QStringLiteral("[[1,2],[3]]\n"));
    // The link is not an artifact, and nothing was refused because of it.
    QVERIFY2(r.result->refusedPaths.isEmpty(), qPrintable(r.result->refusedPaths.join(u'\n')));
    QVERIFY(r.result->artifacts.isEmpty());
}

void TestDepInstall::rPackageFromLocalRepository()
{
    auto rImage = Engine::defaultImageFor(QStringLiteral("r"));
    QVERIFY_RESULT(rImage);
    auto present = m_engine->runtime().imageExists(*rImage);
    QVERIFY2(present && *present, "the r image is missing: sandbox-studio images ensure r");

    // 1. A tiny pure-R package, built with R CMD build inside a sandbox, and a CRAN-style
    //    index (src/contrib/PACKAGES) written by tools::write_PACKAGES.
    const QString build = QStringLiteral(
        "pkg <- file.path('build', 'sandboxhello')\n"
        "dir.create(file.path(pkg, 'R'), recursive = TRUE)\n"
        "writeLines(c('Package: sandboxhello', 'Version: 0.1.0', 'Title: Says Hello',\n"
        "  'Description: Says hello from a local repository.', 'License: GPL-3',\n"
        "  'Authors@R: person(\"Sandbox\", \"Studio\", email = \"dev@example.com\",\n"
        "    role = c(\"aut\", \"cre\"))', 'Encoding: UTF-8'), file.path(pkg, 'DESCRIPTION'))\n"
        "writeLines('export(hello)', file.path(pkg, 'NAMESPACE'))\n"
        "writeLines('hello <- function(who) paste0(\"hello, \", who, \"!\")',\n"
        "  file.path(pkg, 'R', 'hello.R'))\n"
        "dir.create('src/contrib', recursive = TRUE)\n"
        "setwd('src/contrib')\n"
        "status <- system2(file.path(R.home('bin'), 'R'),\n"
        "  c('CMD', 'build', '--no-build-vignettes', '--no-manual', '../../build/sandboxhello'))\n"
        "stopifnot(status == 0)\n"
        "tools::write_PACKAGES('.', type = 'source')\n"
        "setwd('../..')\n"
        "unlink('build', recursive = TRUE)\n"
        "cat(list.files('src/contrib'), sep = '\\n')\n");
    RunRequest make = request(QStringLiteral("r"), build);
    auto made = m_engine->runBlocking(make);
    QVERIFY_RESULT(made);
    QVERIFY2(made->exitCode == 0, made->stderrData.constData());

    // The repository lives where the engine's host sees it (the build tree, not /tmp of a
    // build root), readable by the sandbox user.
    QTemporaryDir repo(QStringLiteral(SANDBOX_TEST_BINARY_DIR "/cran-repo-XXXXXX"));
    QVERIFY(repo.isValid());
    int written = 0;
    for (const Artifact &a : made->artifacts) {
        if (!a.name.startsWith(QStringLiteral("src/contrib/")))
            continue;
        const QString path = repo.filePath(a.name);
        QVERIFY(QDir().mkpath(QFileInfo(path).path()));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(a.data);
        ++written;
    }
    QVERIFY2(written >= 2, qPrintable(QString::fromUtf8(made->stdoutData)));
    const auto readable = QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                          QFileDevice::ReadGroup | QFileDevice::ReadOther;
    const auto walkable =
        readable | QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther;
    QFile::setPermissions(repo.path(), walkable);
    QDirIterator it(repo.path(), QDir::AllEntries | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info = it.nextFileInfo();
        QFile::setPermissions(info.filePath(), info.isDir() ? walkable : readable);
    }

    // 2. A program that only says library(sandboxhello): detected, installed from the
    //    repository (mounted into the install sandbox), run with network off.
    RunRequest req =
        request(QStringLiteral("r"),
                QStringLiteral("library(sandboxhello)\ncat(hello('sandbox'), '\\n')\n"));
    req.cranRepo = QStringLiteral("file:///repo");
    req.installMounts = {{VolumeMount::Type::Bind, repo.path(), QStringLiteral("/repo"), true}};
    forget(req);
    m_testVolumes << *Engine::dependencyVolumeFor(req);
    const Run r = run(req);
    QVERIFY_RESULT(r.result);
    QVERIFY2(r.result->exitCode == 0, r.result->stderrData.constData());
    QCOMPARE(QString::fromUtf8(r.result->stdoutData), QStringLiteral("hello, sandbox! \n"));
    QVERIFY2(r.result->notes.contains(
                 QStringLiteral("dependencies detected from the code: sandboxhello")),
             qPrintable(r.result->notes.join(u'\n')));
    QVERIFY2(r.result->notes.contains(QStringLiteral("installed: sandboxhello 0.1.0")),
             qPrintable(r.result->notes.join(u'\n')));

    // A package the repository does not have, worked out from the code: the installer's
    // words in a note, the program runs without it (R's own error), nothing left behind.
    RunRequest missing = req;
    missing.code = QStringLiteral("library(nosuchrpkg)\n");
    auto missingVolume = Engine::dependencyVolumeFor(missing);
    QVERIFY_RESULT(missingVolume);
    m_failedVolumes << *missingVolume;
    const Run bad = run(missing);
    QVERIFY_RESULT(bad.result);
    QVERIFY(bad.result->exitCode != 0);
    QVERIFY2(bad.result->stderrData.contains("nosuchrpkg"), bad.result->stderrData.constData());
    const QStringList said = bad.result->notes.filter(QStringLiteral("runs without them"));
    QVERIFY2(said.size() == 1 && said.first().contains(QStringLiteral("nosuchrpkg")),
             qPrintable(bad.result->notes.join(u'\n')));
}

void TestDepInstall::guardedImportRunsWithoutIt()
{
    // LLM code often guards an optional import; a guess the registry does not know must not
    // stop the program (a named library still does: unknownPackageFailsAndLeavesNothing).
    RunRequest req = request(QStringLiteral("python"),
                             QStringLiteral("try:\n    import nosuchpkg_sandbox_guarded as fast\n"
                                            "except ImportError:\n    import json as fast\n"
                                            "print(fast.dumps({'ok': 1}))\n"));
    auto volume = Engine::dependencyVolumeFor(req);
    QVERIFY_RESULT(volume);
    m_failedVolumes << *volume;
    const Run r = run(req);
    QVERIFY_RESULT(r.result);
    QCOMPARE(r.result->exitCode, 0);
    QCOMPARE(QString::fromUtf8(r.result->stdoutData), QStringLiteral("{\"ok\": 1}\n"));
    const QStringList said = r.result->notes.filter(QStringLiteral("runs without them"));
    QVERIFY2(said.size() == 1 && said.first().contains(QStringLiteral("nosuchpkg")),
             qPrintable(r.result->notes.join(u'\n')));
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

void TestDepInstall::interruptedInstallIsNotUsed()
{
    // A volume without the install's completion marker (as a crash mid-install leaves it,
    // or as the engine creates when a volume vanished) is never used: it is dropped and
    // the packages are installed again.
    RunRequest req = request(QStringLiteral("python"),
                             QStringLiteral("import tabulate\nprint(tabulate.__version__)\n"),
                             {QStringLiteral("tabulate==0.8.10")});
    auto volume = Engine::dependencyVolumeFor(req);
    QVERIFY_RESULT(volume);
    m_testVolumes << *volume;
    forget(req);
    QVERIFY_RESULT(m_engine->runtime().createVolume(
        *volume, {{QLatin1String(labels::Managed), QStringLiteral("true")},
                  {QLatin1String(labels::Kind), QStringLiteral("deps")}}));
    const Run r = run(req);
    QVERIFY_RESULT(r.result);
    QCOMPARE(QString::fromUtf8(r.result->stdoutData), QStringLiteral("0.8.10\n"));
    QVERIFY2(!r.result->notes.filter(QStringLiteral("was incomplete")).isEmpty(),
             qPrintable(r.result->notes.join(u'\n')));
    QVERIFY2(r.result->notes.contains(QStringLiteral("installed: tabulate 0.8.10")),
             qPrintable(r.result->notes.join(u'\n')));
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

void TestDepInstall::networkedProgramTrustsHostCa()
{
    // A program given network (host here: no bridge) reaches HTTPS through this machine's
    // TLS-intercepting egress because it trusts the host's CA bundle (the default).
    const QString code = QStringLiteral(
        "import os, urllib.request\n"
        "print('bundle', os.environ.get('SSL_CERT_FILE'))\n"
        "try:\n"
        "    with urllib.request.urlopen('https://pypi.org/simple/tabulate/', timeout=20) as r:\n"
        "        print('status', r.status)\n"
        "except Exception as e:\n"
        "    print('failed', e)\n");
    RunRequest req = request(QStringLiteral("python"), code);
    req.network = NetworkMode::Host;
    const Run trusted = run(req);
    QVERIFY_RESULT(trusted.result);
    const QString out = QString::fromUtf8(trusted.result->stdoutData);
    QVERIFY2(out.contains(QStringLiteral("bundle /sandbox/.sandbox/ca-certificates.crt")),
             qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("status 200")), qPrintable(out));

    // Without it, the image's own store decides (on this machine: an untrusted chain).
    req.trustHostCa = false;
    const Run untrusted = run(req);
    QVERIFY_RESULT(untrusted.result);
    qInfo("without the host's CA: %s",
          qPrintable(QString::fromUtf8(untrusted.result->stdoutData).simplified()));
}

void TestDepInstall::otherLanguagesTrustHostCa_data()
{
    // Each language's own HTTPS client through the egress (registries this machine reaches).
    // A handshake that fails prints "failed"; any HTTP status means TLS was trusted.
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("code");
    QTest::newRow("java (its own trust store)")
        << u"java"_s
        << u"import java.net.URI;\nimport java.net.http.*;\n"
           "public class Fetch {\n  public static void main(String[] a) {\n    try {\n"
           "      var r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("
           "\"https://repo1.maven.org/maven2/junit/junit/maven-metadata.xml\")).build(), "
           "HttpResponse.BodyHandlers.discarding());\n"
           "      System.out.println(\"status \" + r.statusCode());\n"
           "    } catch (Exception e) { System.out.println(\"failed \" + e); }\n  }\n}\n"_s;
    QTest::newRow("javascript fetch")
        << u"javascript"_s
        << u"fetch('https://registry.npmjs.org/').then(r => console.log('status', r.status))"
           ".catch(e => console.log('failed', e.cause ? e.cause.code : e.message));\n"_s;
    QTest::newRow("go net/http")
        << u"go"_s
        << u"package main\n\nimport (\n\t\"fmt\"\n\t\"net/http\"\n)\n\nfunc main() {\n"
           "\tr, err := http.Get(\"https://proxy.golang.org/\")\n\tif err != nil {\n"
           "\t\tfmt.Println(\"failed\", err)\n\t\treturn\n\t}\n"
           "\tfmt.Println(\"status\", r.StatusCode)\n}\n"_s;
    QTest::newRow("r url()")
        << u"r"_s
        << u"con <- url('https://repo1.maven.org/maven2/junit/junit/maven-metadata.xml')\n"
           "x <- tryCatch({ l <- readLines(con, n = 1, warn = FALSE); close(con); 'status 200' },"
           " error = function(e) paste('failed', conditionMessage(e)))\ncat(x, '\\n')\n"_s;
}

void TestDepInstall::otherLanguagesTrustHostCa()
{
    QFETCH(QString, language);
    QFETCH(QString, code);
    RunRequest req = request(language, code);
    req.network = NetworkMode::Host;
    req.limits.timeoutMs = 120'000;
    const Run trusted = run(req);
    QVERIFY_RESULT(trusted.result);
    const QString out = QString::fromUtf8(trusted.result->stdoutData + trusted.result->stderrData);
    QVERIFY2(out.contains(u"status "_s) && !out.contains(u"failed"_s), qPrintable(out));
    if (language == u"java") {
        // Without the host's CA the JVM's own store decides: on this machine (a
        // TLS-intercepting egress) the handshake fails, so the trust store above did it.
        req.trustHostCa = false;
        const Run untrusted = run(req);
        QVERIFY_RESULT(untrusted.result);
        const QString plain = QString::fromUtf8(untrusted.result->stdoutData);
        QVERIFY2(plain.contains(u"failed"_s) && plain.contains(u"PKIX"_s), qPrintable(plain));
    }
}

void TestDepInstall::cleanupTestCase()
{
    if (!m_engine)
        return;
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
    for (const QString &v : std::as_const(m_failedVolumes)) {
        auto exists = m_engine->runtime().volumeExists(v);
        QVERIFY_RESULT(exists);
        QVERIFY2(!*exists, qPrintable(v + QStringLiteral(" (a failed install) was left behind")));
    }
    for (const QString &v : std::as_const(m_testVolumes))
        m_engine->runtime().removeVolume(v);
}

QTEST_GUILESS_MAIN(TestDepInstall)
#include "tst_depinstall.moc"
