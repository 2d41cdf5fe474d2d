// SPDX-License-Identifier: GPL-3.0-or-later
// Images against the real dockerd: a Dockerfile FROM the local Python image that adds a
// file and a package (a wheel made by the test, installed with network none) is built
// with a streamed log, and code uses both; a notebook session is saved as a template and
// new sessions and runs start from it with the file and the package; a root filesystem is
// imported; pulling without a registry fails clearly; a custom image without the
// language's toolchain says so; a backend without commit says so.
#include "images/imagetools.h"
#include "images/template.h"
#include "session/notebook.h"
#include "testsupport.h"
#include "util/tarball.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

using namespace sandbox;

namespace {

/// A pure-Python wheel (a zip with dist-info), written with libarchive's zip writer.
QByteArray makeWheel(const QString &module, const QByteArray &source)
{
    const QString dist = module + QStringLiteral("-1.0.dist-info");
    const QList<std::pair<QString, QByteArray>> files = {
        {module + QStringLiteral("/__init__.py"), source},
        {dist + QStringLiteral("/METADATA"),
         "Metadata-Version: 2.1\nName: " + module.toUtf8() + "\nVersion: 1.0\n"},
        {dist + QStringLiteral("/WHEEL"),
         "Wheel-Version: 1.0\nGenerator: tst_images\nRoot-Is-Purelib: true\nTag: py3-none-any\n"},
        {dist + QStringLiteral("/RECORD"), (module + "/__init__.py,,\n" + dist + "/METADATA,,\n" +
                                            dist + "/WHEEL,,\n" + dist + "/RECORD,,\n")
                                               .toUtf8()}};
    QByteArray out;
    archive *a = archive_write_new();
    archive_write_set_format_zip(a);
    archive_write_open(
        a, &out, nullptr,
        [](archive *, void *c, const void *b, size_t n) -> la_ssize_t {
            static_cast<QByteArray *>(c)->append(static_cast<const char *>(b), qsizetype(n));
            return la_ssize_t(n);
        },
        nullptr);
    for (const auto &[name, data] : files) {
        archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, name.toUtf8().constData());
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, data.size());
        archive_write_header(a, e);
        archive_write_data(a, data.constData(), size_t(data.size()));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    return out;
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

/// A runtime that has no image operations (what the Kubernetes backend inherits).
class NoCommitRuntime final : public Runtime
{
public:
    QString backend() const override { return QStringLiteral("kubernetes"); }
    QString endpointDisplay() const override { return QStringLiteral("stand-in"); }
    Result<RuntimeInfo> ping() override { return RuntimeInfo{}; }
    Result<bool> imageExists(const QString &) override { return true; }
    Result<QString> create(const SandboxSpec &) override
    {
        ++created;
        return fail(ErrorCode::Internal, QStringLiteral("must not be called"));
    }
    Result<void> start(const QString &) override { return {}; }
    Result<ExecResult> exec(const QString &, const ExecSpec &, const ExecIo &, const CancelToken &,
                            Deadline) override
    {
        return fail(ErrorCode::Internal, QStringLiteral("must not be called"));
    }
    Result<void> kill(const QString &) override { return {}; }
    Result<void> remove(const QString &) override { return {}; }
    Result<QList<SandboxInfo>> list(const QString &, const QString &) override { return {}; }
    Result<std::unique_ptr<ExecChannel>> execInteractive(const QString &, const ExecSpec &) override
    {
        return fail(ErrorCode::Internal, QStringLiteral("must not be called"));
    }
    Result<bool> networkExists(const QString &) override { return false; }
    Result<void> pullImage(const QString &, std::function<void(const QString &)>,
                           const CancelToken &) override
    {
        return {};
    }
    Result<QString> importImage(const QString &, const QString &, const QStringList &,
                                std::function<size_t(char *, size_t)>, std::function<void(qint64)>,
                                const CancelToken &) override
    {
        return QString();
    }
    int created = 0;
};

} // namespace

class TestImages final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void referencesAndPercent();
    void buildFromDockerfileOffline();
    void buildFailureIsReported();
    void customImageWithoutToolchain();
    void customImageOfAnotherLanguage();
    void templateFromSession();
    void importRootfs();
    void pullWithoutRegistryIsClear();
    void backendWithoutCommitSaysSo();
    void cleanupTestCase();

private:
    QString tag(const QString &what) const
    {
        return QStringLiteral("sandbox-studio-test/%1-%2:1").arg(what).arg(::getpid());
    }
    std::shared_ptr<Engine> m_engine;
    QStringList m_created; ///< images this test made; removed at the end
};

void TestImages::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("SANDBOX_AGENT_PATH"))
        qputenv("SANDBOX_AGENT_PATH", QByteArray(SANDBOX_AGENT_BINARY));
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
}

void TestImages::referencesAndPercent()
{
    auto ok = splitImageReference(QStringLiteral("my/templates:v1"));
    QVERIFY_RESULT(ok);
    QCOMPARE(ok->first, QStringLiteral("my/templates"));
    QCOMPARE(ok->second, QStringLiteral("v1"));
    auto port = splitImageReference(QStringLiteral("localhost:5000/x"));
    QVERIFY_RESULT(port);
    QCOMPARE(port->first, QStringLiteral("localhost:5000/x"));
    QCOMPARE(port->second, QStringLiteral("latest"));
    for (const QString &bad : {QString(), QStringLiteral("Upper/Case"), QStringLiteral("a b"),
                               QStringLiteral("x:"), QStringLiteral("x@sha256:00")}) {
        auto r = splitImageReference(bad);
        QVERIFY2(!r, qPrintable(bad));
        QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
    }
    QCOMPARE(ImageTools::buildPercent(QStringLiteral("Step 1/4 : FROM x"), 0), 0);
    QCOMPARE(ImageTools::buildPercent(QStringLiteral("Step 3/4 : RUN y"), 0), 50);
    QCOMPARE(ImageTools::buildPercent(QStringLiteral(" ---> Running in abc"), 50), 50);
    QCOMPARE(ImageTools::buildPercent(QStringLiteral("Step 2/4 : COPY"), 50), 50); // never back
    QCOMPARE(ImageTools::buildPercent(QStringLiteral("STEP 4/5: RUN z"), 0), 60);  // Podman
    QCOMPARE(toolchainOf(*LanguageRegistry::instance().find("cpp")), QStringList{"g++"});
    QCOMPARE(toolchainOf(*LanguageRegistry::instance().find("python")), QStringList{"python3"});
    QCOMPARE(toolchainOf(*LanguageRegistry::instance().find("go")), QStringList{"go"});
}

void TestImages::buildFromDockerfileOffline()
{
    const QString base = *Engine::defaultImageFor(QStringLiteral("python"));
    QTemporaryDir ctx;
    const QString wheel = QStringLiteral("sbx_greeter-1.0-py3-none-any.whl");
    QVERIFY(writeFile(ctx.filePath(wheel),
                      makeWheel(QStringLiteral("sbx_greeter"),
                                "def greet(who):\n    return 'hello ' + who.strip() + '!'\n")));
    QVERIFY(writeFile(ctx.filePath(QStringLiteral("data/greeting.txt")), "from the image\n"));
    // The package comes from the context (network none: nothing is downloaded).
    QVERIFY(writeFile(ctx.filePath(QStringLiteral("Dockerfile")),
                      QStringLiteral("FROM %1\n"
                                     "COPY data/greeting.txt /opt/data/greeting.txt\n"
                                     "COPY %2 /tmp/\n"
                                     "RUN python3 -m pip install --no-index --no-deps "
                                     "--break-system-packages --no-cache-dir /tmp/%2 "
                                     "&& rm /tmp/%2\n")
                          .arg(base, wheel)
                          .toUtf8()));
    BuildOptions o;
    o.tag = tag(QStringLiteral("greeter"));
    o.labels = {{QStringLiteral("io.sandbox-studio.test"), QStringLiteral("tst_images")}};
    QStringList log;
    QList<int> percents;
    ImageTools tools(m_engine->runtime());
    auto built = tools.buildDockerfile(ctx.path(), o, [&](const QString &line, int pct) {
        log << line;
        percents << pct;
    });
    QVERIFY2(built,
             qPrintable(built ? QString() : built.error().toString() + "\n" + log.join('\n')));
    m_created << o.tag;
    QVERIFY2(built->startsWith(QLatin1String("sha256:")), qPrintable(*built));
    const QString text = log.join('\n');
    // Docker: "Step 1/5 : FROM x"; Podman (buildah): "STEP 1/5: FROM x". Five steps on both:
    // the labels are a step of their own.
    QVERIFY2(text.contains("Step 1/5 : FROM " + base) || text.contains("STEP 1/5: FROM " + base),
             qPrintable(text));
    QVERIFY2(text.contains("Step 4/5 : RUN python3 -m pip install") ||
                 text.contains("STEP 4/5: RUN python3 -m pip install"),
             qPrintable(text));
    QVERIFY2(text.contains("Successfully installed sbx_greeter-1.0") ||
                 text.contains("Successfully installed sbx-greeter-1.0"),
             qPrintable(text));
    QCOMPARE(percents.last(), 100);
    QVERIFY(std::is_sorted(percents.begin(), percents.end()));
    QVERIFY(percents.contains(60)); // step 4 of 5 started

    // Listed with its size and label.
    auto infos = m_engine->runtime().listImageInfos();
    QVERIFY_RESULT(infos);
    bool listed = false;
    for (const ImageInfo &i : *infos)
        if (i.tags.contains(o.tag)) {
            listed = i.sizeBytes > 100'000'000 &&
                     i.labels.value("io.sandbox-studio.test") == QLatin1String("tst_images");
        }
    QVERIFY(listed);

    // Code uses both the file and the package, in the hardened sandbox (network none).
    RunRequest req;
    req.language = QStringLiteral("python");
    req.image = o.tag;
    req.code = QStringLiteral("import sbx_greeter\n"
                              "print(sbx_greeter.greet(open('/opt/data/greeting.txt').read()))\n");
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QCOMPARE(r->stdoutData.trimmed(), QByteArray("hello from the image!"));
    QCOMPARE(r->image, o.tag);
    // And a notebook session on it.
    auto s = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("python"), {},
                                    NetworkMode::None, {}, o.tag);
    QVERIFY_RESULT(s);
    auto cell = (*s)->execute(QStringLiteral("import sbx_greeter; sbx_greeter.greet('cell')"));
    QVERIFY_RESULT(cell);
    QCOMPARE(cell->resultText(), QStringLiteral("'hello cell!'"));
}

void TestImages::buildFailureIsReported()
{
    QTemporaryDir ctx;
    QVERIFY(writeFile(ctx.filePath("Dockerfile"),
                      QStringLiteral("FROM %1\nRUN echo about to fail && exit 3\n")
                          .arg(*Engine::defaultImageFor("python"))
                          .toUtf8()));
    BuildOptions o;
    o.tag = tag(QStringLiteral("fails"));
    ImageTools tools(m_engine->runtime());
    QStringList log;
    auto built =
        tools.buildDockerfile(ctx.path(), o, [&](const QString &line, int) { log << line; });
    QVERIFY(!built);
    QCOMPARE(built.error().code, ErrorCode::EngineError);
    // The same sentence on Docker and Podman: the failing step and its exit code; the
    // engine's own words in the detail.
    const QRegularExpression sentence(
        QStringLiteral(R"(^Building %1 failed: step 2/[23] \(RUN echo about to fail && exit 3\) )"
                       "exited with code 3$")
            .arg(QRegularExpression::escape(o.tag)));
    QVERIFY2(sentence.match(built.error().message).hasMatch(), qPrintable(built.error().message));
    QVERIFY2(built.error().detail.contains(QLatin1String("3")), qPrintable(built.error().detail));
    QVERIFY2(log.join('\n').contains("about to fail"), qPrintable(log.join('\n')));
    // No Dockerfile, and a FROM that is neither local nor pullable (no registry here).
    auto none = tools.buildDockerfile(QDir::tempPath() + "/no-such-context-dir", o, {});
    QVERIFY(!none);
    QVERIFY2(none.error().message.contains("does not exist"), qPrintable(none.error().message));
    QVERIFY(writeFile(ctx.filePath("Dockerfile"), "FROM sandbox-studio-test/absent:never\n"));
    auto absent = tools.buildDockerfile(ctx.path(), o, {});
    QVERIFY(!absent);
    QCOMPARE(absent.error().code, ErrorCode::ImageMissing);
    QVERIFY2(absent.error().message.contains("sandbox-studio-test/absent"),
             qPrintable(absent.error().message));
    // Bridge builds are not made here.
    o.network = NetworkMode::Bridge;
    auto bridge = tools.buildDockerfile(ctx.path(), o, {});
    QVERIFY(!bridge);
    QCOMPARE(bridge.error().code, ErrorCode::InvalidArgument);
}

void TestImages::customImageWithoutToolchain()
{
    // The Python image has no node: a clear error, no container left behind.
    RunRequest req;
    req.language = QStringLiteral("javascript");
    req.image = *Engine::defaultImageFor(QStringLiteral("python"));
    req.code = QStringLiteral("console.log(1)");
    auto r = m_engine->runBlocking(req);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
    QCOMPARE(r.error().message,
             QStringLiteral("node not found in image %1: pick an image that has the JavaScript "
                            "toolchain")
                 .arg(req.image));
    auto s = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("r"), {},
                                    NetworkMode::None, {}, req.image);
    QVERIFY(!s);
    QVERIFY2(s.error().message.startsWith("Rscript not found in image"),
             qPrintable(s.error().message));
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

void TestImages::customImageOfAnotherLanguage()
{
    // Any image with the toolchain runs the language: the JavaScript image, named explicitly.
    RunRequest req;
    req.language = QStringLiteral("javascript");
    req.image = *Engine::defaultImageFor(QStringLiteral("javascript"));
    req.code = QStringLiteral("console.log(6 * 7)");
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->stdoutData.trimmed(), QByteArray("42"));
}

void TestImages::templateFromSession()
{
    auto s = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("python"));
    QVERIFY_RESULT(s);
    auto &session = **s;
    // A file uploaded into the session, and a package installed there (pip --user into the
    // work directory; the wheel is made in the sandbox, network none).
    QVERIFY_RESULT(session.uploadFiles({{QStringLiteral("data/notes.txt"),
                                         TarMember::Type::File,
                                         "kept in the template",
                                         0644,
                                         {}}}));
    auto cell = session.execute(QStringLiteral(
        "import zipfile, subprocess, sys\n"
        "w = 'tpl_pkg-1.0-py3-none-any.whl'\n"
        "with zipfile.ZipFile(w, 'w') as z:\n"
        "    z.writestr('tpl_pkg/__init__.py', 'ANSWER = 42\\n')\n"
        "    z.writestr('tpl_pkg-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: tpl_pkg\\n"
        "Version: 1.0\\n')\n"
        "    z.writestr('tpl_pkg-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nRoot-Is-Purelib: "
        "true\\nTag: py3-none-any\\n')\n"
        "    z.writestr('tpl_pkg-1.0.dist-info/RECORD', '')\n"
        "p = subprocess.run([sys.executable, '-m', 'pip', 'install', '--user', '--no-index', "
        "'--no-deps', '--no-cache-dir', '--break-system-packages', w], capture_output=True, "
        "text=True)\n"
        "print(p.returncode, p.stdout[-300:], p.stderr[-800:])\n"));
    QVERIFY_RESULT(cell);
    QVERIFY2(cell->streamText("stdout").startsWith("0 "), qPrintable(cell->streamText("stdout")));

    const QString ref = tag(QStringLiteral("template"));
    auto id = saveTemplate(m_engine->runtime(), session, ref);
    QVERIFY_RESULT(id);
    m_created << ref;
    session.close();
    auto infos = m_engine->runtime().listImageInfos();
    QVERIFY_RESULT(infos);
    bool labelled = false;
    for (const ImageInfo &i : *infos)
        if (i.tags.contains(ref))
            labelled = i.labels.value(templatelabels::Template) == QLatin1String("true") &&
                       i.labels.value(templatelabels::Language) == QLatin1String("python");
    QVERIFY(labelled);

    // A new session from the template: the file and the package are there.
    auto again = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("python"), {},
                                        NetworkMode::None, {}, ref);
    QVERIFY_RESULT(again);
    auto check = (*again)->execute(
        QStringLiteral("import tpl_pkg; print(tpl_pkg.ANSWER, open('data/notes.txt').read())"));
    QVERIFY_RESULT(check);
    QVERIFY2(check->ok(), qPrintable(check->streamText("stderr")));
    QCOMPARE(check->streamText("stdout").trimmed(), QStringLiteral("42 kept in the template"));
    auto files = (*again)->listFiles(QStringLiteral("data"));
    QVERIFY_RESULT(files);
    QCOMPARE(files->size(), 1);
    (*again)->close();

    // A one-shot run from it too; restored files are not reported as the run's artifacts.
    RunRequest req;
    req.language = QStringLiteral("python");
    req.image = ref;
    req.code = QStringLiteral("import tpl_pkg\nprint(tpl_pkg.ANSWER)\n"
                              "open('made.txt','w').write(open('data/notes.txt').read())\n");
    auto r = m_engine->runBlocking(req);
    QVERIFY_RESULT(r);
    QCOMPARE(r->stdoutData.trimmed(), QByteArray("42"));
    QStringList names;
    for (const Artifact &a : r->artifacts)
        names << a.name;
    QCOMPARE(names, QStringList{"made.txt"});
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

void TestImages::importRootfs()
{
    // A tiny root filesystem: one file, no shell. It imports and lists; a run on it says
    // the image lacks the toolchain (command -v needs /bin/sh, so: no shell).
    QTemporaryDir tmp;
    auto tar =
        makeTar({{QStringLiteral("etc"), TarMember::Type::Directory, {}, 0755, {}},
                 {QStringLiteral("etc/motd"), TarMember::Type::File, "tiny rootfs\n", 0644, {}}});
    QVERIFY_RESULT(tar);
    QVERIFY(writeFile(tmp.filePath("rootfs.tar"), *tar));
    const QString ref = tag(QStringLiteral("rootfs"));
    ImageTools tools(m_engine->runtime());
    QList<int> percents;
    auto imported =
        tools.importRootfs(tmp.filePath("rootfs.tar"), ref, {QStringLiteral("ENV TINY=1")},
                           [&](const QString &, int pct) { percents << pct; });
    QVERIFY_RESULT(imported);
    m_created << ref;
    QCOMPARE(percents.last(), 100);
    auto exists = m_engine->runtime().imageExists(ref);
    QVERIFY(exists && *exists);
    RunRequest req;
    req.language = QStringLiteral("python");
    req.image = ref;
    req.code = QStringLiteral("print(1)");
    auto r = m_engine->runBlocking(req);
    QVERIFY(!r);
    QVERIFY2(r.error().code == ErrorCode::InvalidArgument, qPrintable(r.error().toString()));
    QCOMPARE(r.error().message, QStringLiteral("Image %1 cannot be used as a sandbox: it needs "
                                               "/bin/sh, sleep and tar")
                                    .arg(ref));
    auto bad = tools.importRootfs(tmp.filePath("absent.tar"), ref, {}, {});
    QVERIFY(!bad);
    QCOMPARE(bad.error().code, ErrorCode::IoError);
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

void TestImages::pullWithoutRegistryIsClear()
{
    ImageTools tools(m_engine->runtime());
    QStringList lines;
    auto pulled = tools.pull(QStringLiteral("docker.io/library/alpine:3.20"),
                             [&](const QString &l, int) { lines << l; });
    QVERIFY2(!pulled, "a registry answered: this test expects none (see PLATFORM.md)");
    QCOMPARE(pulled.error().code, ErrorCode::ImageMissing);
    QVERIFY2(pulled.error().message.startsWith("Pulling docker.io/library/alpine:3.20 failed"),
             qPrintable(pulled.error().message));
    QVERIFY2(pulled.error().message.contains("No registry may be reachable"),
             qPrintable(pulled.error().message));
    auto empty = tools.pull(QStringLiteral("  "), {});
    QVERIFY(!empty);
    QCOMPARE(empty.error().code, ErrorCode::InvalidArgument);
}

void TestImages::backendWithoutCommitSaysSo()
{
    NoCommitRuntime k8s;
    auto c = k8s.commit(QStringLiteral("pod"), QStringLiteral("x"), QStringLiteral("1"), {});
    QVERIFY(!c);
    QCOMPARE(c.error().code, ErrorCode::NotSupported);
    QVERIFY2(c.error().message.contains("kubernetes backend cannot save a sandbox as an image"),
             qPrintable(c.error().message));
    auto b = k8s.buildImage({}, {}, {}, {});
    QVERIFY(!b);
    QCOMPARE(b.error().code, ErrorCode::NotSupported);
    // saveTemplate asks the backend before touching the session.
    auto s = NotebookSession::start(m_engine->runtimePtr(), QStringLiteral("python"));
    QVERIFY_RESULT(s);
    auto t = saveTemplate(k8s, **s, QStringLiteral("x/y:1"));
    QVERIFY(!t);
    QCOMPARE(t.error().code, ErrorCode::NotSupported);
    QCOMPARE(k8s.created, 0);
}

void TestImages::cleanupTestCase()
{
    if (!m_engine)
        return;
    for (const QString &ref : std::as_const(m_created))
        if (auto r = m_engine->runtime().removeImage(ref); !r)
            qWarning("could not remove %s: %s", qPrintable(ref), qPrintable(r.error().toString()));
    QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestImages)
#include "tst_images.moc"
