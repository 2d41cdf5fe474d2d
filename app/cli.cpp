// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "images/imagebuilder.h"
#include "images/imagerecipe.h"
#include "languages/language.h"
#include "session/engine.h"
#include "session/notebook.h"
#include "session/pool.h"
#include "session/runresultjson.h"
#include "util/latencystats.h"
#include "util/tarball.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTextStream>
#include <algorithm>
#include <cstdio>
#include <unistd.h>

using namespace sandbox;

namespace {

constexpr int ExitUsage = 2;
constexpr int ExitEngine = 125;

QTextStream &err()
{
    static QTextStream s(stderr);
    return s;
}

void writeOut(QByteArrayView bytes)
{
    fwrite(bytes.data(), 1, size_t(bytes.size()), stdout);
    fflush(stdout);
}
void writeErr(QByteArrayView bytes)
{
    fwrite(bytes.data(), 1, size_t(bytes.size()), stderr);
    fflush(stderr);
}

int reportError(const Error &e, bool json)
{
    if (json)
        writeOut(QByteArray(errorToJson(e) + '\n'));
    err() << "sandbox-studio: " << e.message << Qt::endl;
    if (!e.detail.isEmpty())
        err() << "  " << e.detail << Qt::endl;
    // Bad input from the user is a usage error (2); the engine failing is 125.
    switch (e.code) {
    case ErrorCode::InvalidArgument:
    case ErrorCode::UnknownLanguage:
    case ErrorCode::PathRefused:
        return ExitUsage;
    default:
        return ExitEngine;
    }
}

/// "512m", "2g", "1048576", "256k" -> bytes; -1 when malformed.
qint64 parseBytes(const QString &text)
{
    QString t = text.trimmed().toLower();
    if (t.endsWith(u'b'))
        t.chop(1);
    qint64 mult = 1;
    if (t.endsWith(u'k'))
        mult = 1ll << 10;
    else if (t.endsWith(u'm'))
        mult = 1ll << 20;
    else if (t.endsWith(u'g'))
        mult = 1ll << 30;
    if (mult != 1)
        t.chop(1);
    bool ok = false;
    const double v = t.toDouble(&ok);
    return ok && v >= 0 ? qint64(v * double(mult)) : -1;
}

QString languageFromExtension(const QString &file)
{
    const QString ext = QFileInfo(file).suffix().toLower();
    static const QList<std::pair<QStringList, QString>> table = {
        {{QStringLiteral("py")}, QStringLiteral("python")},
        {{QStringLiteral("js"), QStringLiteral("mjs"), QStringLiteral("cjs")},
         QStringLiteral("javascript")},
        {{QStringLiteral("java")}, QStringLiteral("java")},
        {{QStringLiteral("cpp"), QStringLiteral("cc"), QStringLiteral("cxx")},
         QStringLiteral("cpp")},
        {{QStringLiteral("go")}, QStringLiteral("go")},
        {{QStringLiteral("r")}, QStringLiteral("r")},
    };
    for (const auto &[exts, lang] : table)
        if (exts.contains(ext))
            return lang;
    return {};
}

Result<std::shared_ptr<Engine>> engineFrom(const QString &backend, const QString &host,
                                           const KubernetesSettings &kube = {})
{
    BackendProfile profile = BackendProfile::fromEnvironment();
    if (!backend.isEmpty())
        profile.kind = backend;
    if (!host.isEmpty())
        profile.uri = host;
    if (profile.kind == QLatin1String("kubernetes")) {
        profile.name = QStringLiteral("command line");
        profile.kubernetes = kube;
    }
    return Engine::create(profile);
}

int cmdRun(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Run a program once in a fresh sandbox."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("file"), QStringLiteral("Program file, or - for stdin"));
    p.addOptions({
        {{QStringLiteral("l"), QStringLiteral("language")},
         QStringLiteral("python, javascript, java, cpp, go or r (default: from the extension)"),
         QStringLiteral("lang")},
        {QStringLiteral("timeout"), QStringLiteral("Wall-time limit in seconds (default 30)"),
         QStringLiteral("seconds")},
        {QStringLiteral("memory"), QStringLiteral("Memory limit, e.g. 512m, 1g (default 512m)"),
         QStringLiteral("size")},
        {QStringLiteral("cpus"), QStringLiteral("CPU limit in cores, e.g. 1.5 (default 1)"),
         QStringLiteral("cores")},
        {QStringLiteral("pids"), QStringLiteral("Process limit (default 256)"),
         QStringLiteral("n")},
        {QStringLiteral("output-limit"), QStringLiteral("Cap on stdout+stderr kept (default 1m)"),
         QStringLiteral("size")},
        {QStringLiteral("network"), QStringLiteral("none (default) or host"),
         QStringLiteral("mode")},
        {QStringLiteral("file"), QStringLiteral("Copy PATH into the work directory (repeatable)"),
         QStringLiteral("path")},
        {QStringLiteral("image"), QStringLiteral("Use this image instead of the language's"),
         QStringLiteral("ref")},
        {QStringLiteral("library"),
         QStringLiteral("Install NAME first with the language's package manager (repeatable; "
                        "default: worked out from the code's imports). Installs have network "
                        "even when the program does not"),
         QStringLiteral("name")},
        {QStringLiteral("cran-repo"),
         QStringLiteral("CRAN-style repository for R installs (default: $SANDBOX_CRAN_REPO or "
                        "https://cloud.r-project.org)"),
         QStringLiteral("url")},
        {QStringLiteral("no-host-ca"),
         QStringLiteral("Do not give sandboxes with network the host's CA certificates")},
        {QStringLiteral("backend"), QStringLiteral("docker (default), docker-tls or kubernetes"),
         QStringLiteral("kind")},
        {QStringLiteral("kubeconfig"),
         QStringLiteral("Kubernetes: kubeconfig file (default: $KUBECONFIG, ~/.kube/config, "
                        "in-cluster)"),
         QStringLiteral("path")},
        {QStringLiteral("context"), QStringLiteral("Kubernetes: kubeconfig context"),
         QStringLiteral("name")},
        {QStringLiteral("namespace"), QStringLiteral("Kubernetes: namespace of the sandbox pods"),
         QStringLiteral("name")},
        {QStringLiteral("host"),
         QStringLiteral("Engine endpoint, e.g. unix:///var/run/docker.sock"),
         QStringLiteral("uri")},
        {QStringLiteral("std"),
         QStringLiteral("Language standard, e.g. c++17, c++20 (default), c++23"),
         QStringLiteral("standard")},
        {QStringLiteral("output-only"),
         QStringLiteral("Bring back files from output/ only, not other new files")},
        {QStringLiteral("json"), QStringLiteral("Print the result as JSON (artifacts base64)")},
        {QStringLiteral("artifacts-dir"), QStringLiteral("Write artifacts into DIR"),
         QStringLiteral("dir")},
    });
    p.process(QStringList{QStringLiteral("sandbox-studio run")} + args);
    const bool json = p.isSet(QStringLiteral("json"));
    if (p.positionalArguments().size() != 1) {
        err() << "usage: sandbox-studio run [options] FILE|-" << Qt::endl;
        return ExitUsage;
    }
    const QString file = p.positionalArguments().constFirst();
    RunRequest req;
    req.origin = RunOrigin::Cli;
    if (file == QLatin1String("-")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            return reportError(
                {ErrorCode::InvalidArgument, QStringLiteral("cannot read stdin"), {}}, json);
        req.code = QString::fromUtf8(in.readAll());
    } else {
        QFile in(file);
        if (!in.open(QIODevice::ReadOnly))
            return reportError({ErrorCode::InvalidArgument,
                                QStringLiteral("cannot read %1: %2").arg(file, in.errorString()),
                                {}},
                               json);
        req.code = QString::fromUtf8(in.readAll());
    }
    req.language = p.value(QStringLiteral("language"));
    if (req.language.isEmpty())
        req.language = languageFromExtension(file);
    if (req.language.isEmpty()) {
        err() << "sandbox-studio: cannot tell the language of " << file << "; pass --language"
              << Qt::endl;
        return ExitUsage;
    }
    auto numberOption = [&](const QString &name, double fallback, bool *ok) {
        if (!p.isSet(name))
            return fallback;
        return p.value(name).toDouble(ok);
    };
    bool ok = true;
    req.limits.timeoutMs = qint64(numberOption(QStringLiteral("timeout"), 30, &ok) * 1000);
    if (!ok)
        return reportError(
            {ErrorCode::InvalidArgument, QStringLiteral("--timeout takes seconds"), {}}, json);
    req.limits.nanoCpus = qint64(numberOption(QStringLiteral("cpus"), 1, &ok) * 1e9);
    if (!ok)
        return reportError(
            {ErrorCode::InvalidArgument, QStringLiteral("--cpus takes a number"), {}}, json);
    req.limits.pids = qint64(numberOption(QStringLiteral("pids"), 256, &ok));
    if (!ok)
        return reportError(
            {ErrorCode::InvalidArgument, QStringLiteral("--pids takes a number"), {}}, json);
    if (p.isSet(QStringLiteral("memory"))) {
        req.limits.memoryBytes = parseBytes(p.value(QStringLiteral("memory")));
        if (req.limits.memoryBytes < 0)
            return reportError({ErrorCode::InvalidArgument,
                                QStringLiteral("--memory takes a size such as 512m or 1g"),
                                {}},
                               json);
    }
    if (p.isSet(QStringLiteral("output-limit"))) {
        req.limits.outputBytes = parseBytes(p.value(QStringLiteral("output-limit")));
        if (req.limits.outputBytes < 0)
            return reportError({ErrorCode::InvalidArgument,
                                QStringLiteral("--output-limit takes a size such as 1m"),
                                {}},
                               json);
    }
    const QString net = p.value(QStringLiteral("network"));
    if (net.isEmpty() || net == QLatin1String("none"))
        req.network = NetworkMode::None;
    else if (net == QLatin1String("host"))
        req.network = NetworkMode::Host;
    else if (net == QLatin1String("bridge"))
        req.network = NetworkMode::Bridge;
    else
        return reportError(
            {ErrorCode::InvalidArgument, QStringLiteral("--network is none, host or bridge"), {}},
            json);
    for (const QString &path : p.values(QStringLiteral("file"))) {
        QFile in(path);
        if (!in.open(QIODevice::ReadOnly))
            return reportError({ErrorCode::InvalidArgument,
                                QStringLiteral("cannot read %1: %2").arg(path, in.errorString()),
                                {}},
                               json);
        req.files.append({QFileInfo(path).fileName(), in.readAll()});
    }
    req.image = p.value(QStringLiteral("image"));
    req.standard = p.value(QStringLiteral("std"));
    req.collectWorkDirFiles = !p.isSet(QStringLiteral("output-only"));
    req.libraries = p.values(QStringLiteral("library"));
    req.cranRepo = p.value(QStringLiteral("cran-repo"));
    req.trustHostCa = !p.isSet(QStringLiteral("no-host-ca"));

    KubernetesSettings kube;
    kube.kubeconfig = p.value(QStringLiteral("kubeconfig"));
    kube.context = p.value(QStringLiteral("context"));
    kube.namespaceName = p.value(QStringLiteral("namespace"));
    auto engine =
        engineFrom(p.value(QStringLiteral("backend")), p.value(QStringLiteral("host")), kube);
    if (!engine)
        return reportError(engine.error(), json);
    RunObserver obs;
    if (!json) {
        obs.onStdout = writeOut;
        obs.onStderr = writeErr;
        // What the dependency phase does, before the program's own output.
        obs.onStatus = [](const QString &s) {
            if (s.startsWith(QLatin1String("install")) || s.startsWith(QLatin1String("dependenc")))
                err() << "sandbox-studio: " << s << Qt::endl;
        };
    }
    CancelToken cancel;
    auto result = (*engine)->runBlocking(req, obs, cancel);
    if (!result)
        return reportError(result.error(), json);
    if (json)
        writeOut(QByteArray(runResultToJson(*result, true) + '\n'));
    if (p.isSet(QStringLiteral("artifacts-dir"))) {
        const QDir dir(p.value(QStringLiteral("artifacts-dir")));
        QDir().mkpath(dir.path());
        for (const Artifact &a : result->artifacts) {
            auto safe = safeRelativePath(a.name);
            if (!safe) {
                err() << "refused artifact " << a.name << ": " << safe.error().message << Qt::endl;
                continue;
            }
            const QString target = dir.filePath(*safe);
            QDir().mkpath(QFileInfo(target).path());
            QFile out(target);
            if (out.open(QIODevice::WriteOnly))
                out.write(a.data);
        }
    }
    if (!json) {
        if (result->timedOut)
            err() << "sandbox-studio: killed after the " << req.limits.timeoutMs / 1000.0
                  << " s time limit" << Qt::endl;
        if (result->oomKilled)
            err() << "sandbox-studio: killed: out of memory" << Qt::endl;
        if (result->outputTruncated)
            err() << "sandbox-studio: output truncated at " << req.limits.outputBytes << " bytes"
                  << Qt::endl;
    }
    return result->exitCode;
}

int cmdImages(const QStringList &args)
{
    const QString sub = args.value(0);
    if (sub == QLatin1String("list")) {
        auto engine = engineFrom({}, {});
        if (!engine)
            return reportError(engine.error(), false);
        for (const ImageRecipe &r : ImageCatalog::instance().all()) {
            auto exists = (*engine)->runtime().imageExists(r.reference());
            QTextStream(stdout) << r.name.leftJustified(12) << r.reference().leftJustified(40)
                                << (exists ? (*exists ? "present" : "missing") : "unknown")
                                << Qt::endl;
        }
        return 0;
    }
    if (sub == QLatin1String("ref")) {
        const ImageRecipe *r = ImageCatalog::instance().find(args.value(1));
        if (!r) {
            err() << "no image recipe named '" << args.value(1) << "'" << Qt::endl;
            return ExitUsage;
        }
        QTextStream(stdout) << r->reference() << Qt::endl;
        return 0;
    }
    if (sub == QLatin1String("prune")) {
        // Images of recipes that changed since: their tags no longer match any recipe.
        auto engine = engineFrom({}, {});
        if (!engine)
            return reportError(engine.error(), false);
        auto refs = (*engine)->runtime().listImages(QStringLiteral("sandbox-studio/"));
        if (!refs)
            return reportError(refs.error(), false);
        QStringList current;
        for (const ImageRecipe &r : ImageCatalog::instance().all())
            current << r.reference();
        int removed = 0;
        for (const QString &ref : std::as_const(*refs)) {
            if (current.contains(ref))
                continue;
            if (auto r = (*engine)->runtime().removeImage(ref); !r) {
                err() << "kept " << ref << ": " << r.error().message << Qt::endl;
                continue;
            }
            QTextStream(stdout) << "removed " << ref << Qt::endl;
            ++removed;
        }
        QTextStream(stdout) << removed << " outdated images removed" << Qt::endl;
        return 0;
    }
    if (sub == QLatin1String("pull")) {
        if (args.size() != 2) {
            err() << "usage: sandbox-studio images pull REF" << Qt::endl;
            return ExitUsage;
        }
        auto engine = engineFrom({}, {});
        if (!engine)
            return reportError(engine.error(), false);
        auto pulled = (*engine)->runtime().pullImage(
            args[1], [](const QString &line) { err() << line << Qt::endl; }, {});
        if (!pulled)
            return reportError(pulled.error(), false);
        QTextStream(stdout) << args[1] << Qt::endl;
        return 0;
    }
    if (sub == QLatin1String("build") || sub == QLatin1String("ensure")) {
        QStringList names = args.mid(1);
        const bool force =
            names.removeAll(QStringLiteral("--force")) > 0 && sub == QLatin1String("build");
        if (names.isEmpty()) {
            err() << "usage: sandbox-studio images build|ensure NAME... [--force]; names: ";
            for (const auto &r : ImageCatalog::instance().all())
                err() << r.name << ' ';
            err() << Qt::endl;
            return ExitUsage;
        }
        auto engine = engineFrom({}, {});
        if (!engine)
            return reportError(engine.error(), false);
        if (auto ping = (*engine)->ping(); !ping)
            return reportError(ping.error(), false);
        ImageBuilder builder((*engine)->runtime());
        const bool tty = ::isatty(fileno(stderr));
        for (const QString &name : names) {
            const ImageRecipe *r = ImageCatalog::instance().find(name);
            if (!r) {
                err() << "no image recipe named '" << name << "'" << Qt::endl;
                return ExitUsage;
            }
            int last = -1;
            auto built = builder.ensure(
                *r,
                [&](int pct, const QString &msg) {
                    if (tty) {
                        err() << "\r\033[K[" << r->name << "] "
                              << QString::number(pct).rightJustified(3) << "% " << msg.left(70)
                              << Qt::flush;
                    } else if (pct / 10 != last / 10 || pct == 100) {
                        err() << "[" << r->name << "] " << pct << "% " << msg << Qt::endl;
                    }
                    last = pct;
                },
                {}, force);
            if (tty)
                err() << Qt::endl;
            if (!built)
                return reportError(built.error(), false);
            QTextStream(stdout) << *built << Qt::endl;
        }
        return 0;
    }
    err()
        << "usage: sandbox-studio images list | ref NAME | build NAME... [--force] | ensure NAME..."
        << Qt::endl;
    return ExitUsage;
}

int cmdDoctor()
{
    auto engine = engineFrom({}, {});
    if (!engine)
        return reportError(engine.error(), false);
    auto info = (*engine)->ping();
    if (!info)
        return reportError(info.error(), false);
    QTextStream out(stdout);
    out << "engine: " << info->name << ' ' << info->version << " (API " << info->apiVersion
        << ") at " << (*engine)->runtime().endpointDisplay() << Qt::endl;
    int missing = 0;
    for (const ImageRecipe &r : ImageCatalog::instance().all()) {
        auto exists = (*engine)->runtime().imageExists(r.reference());
        const bool present = exists && *exists;
        missing += present ? 0 : 1;
        out << "image " << r.name << ": " << r.reference() << (present ? " present" : " missing")
            << Qt::endl;
    }
    return 0;
}

int cmdReap()
{
    auto engine = engineFrom({}, {});
    if (!engine)
        return reportError(engine.error(), false);
    auto n = (*engine)->reapOrphans();
    if (!n)
        return reportError(n.error(), false);
    QTextStream(stdout) << "removed " << *n << " orphaned sandboxes" << Qt::endl;
    return 0;
}

/// deps list | deps clear [--language L]: the cached dependency volumes.
int cmdDeps(const QStringList &args)
{
    const QString sub = args.value(0);
    QString language;
    if (args.value(1) == QLatin1String("--language"))
        language = args.value(2);
    if (sub != QLatin1String("list") && sub != QLatin1String("clear")) {
        err() << "usage: sandbox-studio deps list|clear [--language LANG]" << Qt::endl;
        return ExitUsage;
    }
    auto engine = engineFrom({}, {});
    if (!engine)
        return reportError(engine.error(), false);
    auto volumes =
        (*engine)->runtime().listVolumes(QLatin1String(labels::Kind), QStringLiteral("deps"));
    if (!volumes)
        return reportError(volumes.error(), false);
    int failed = 0;
    for (const VolumeInfo &v : *volumes) {
        const QString lang = v.labels.value(QStringLiteral("io.sandbox-studio.language"));
        if (!language.isEmpty() && lang != language)
            continue;
        if (sub == QLatin1String("list")) {
            QTextStream(stdout) << v.name.leftJustified(44) << lang.leftJustified(12) << v.createdAt
                                << Qt::endl;
        } else if (auto r = (*engine)->runtime().removeVolume(v.name); !r) {
            err() << "sandbox-studio: " << v.name << ": " << r.error().message << Qt::endl;
            ++failed;
        } else {
            QTextStream(stdout) << "removed " << v.name << Qt::endl;
        }
    }
    return failed ? ExitEngine : 0;
}

/// bench cold: engine one-shot print(1) (create, run, remove) against `docker run --rm`.
int cmdBench(const QStringList &args)
{
    const QString which = args.value(0, QStringLiteral("cold"));
    int n = 10;
    if (const qsizetype i = args.indexOf(QStringLiteral("--iterations")); i >= 0)
        n = qMax(1, args.value(i + 1).toInt());
    if (which != QLatin1String("cold") && which != QLatin1String("notebook") &&
        which != QLatin1String("pool")) {
        err() << "usage: sandbox-studio bench cold|notebook|pool [--iterations N] [--language L]"
              << Qt::endl;
        return ExitUsage;
    }
    auto engine = engineFrom({}, {});
    if (!engine)
        return reportError(engine.error(), false);
    if (auto ping = (*engine)->ping(); !ping)
        return reportError(ping.error(), false);
    if (which == QLatin1String("pool")) {
        PoolBenchOptions o;
        if (args.contains(QStringLiteral("--iterations")))
            o.iterations = n;
        auto json = benchmarkPool(**engine, o);
        if (!json)
            return reportError(json.error(), false);
        QTextStream(stdout) << *json;
        return 0;
    }
    if (which == QLatin1String("notebook")) {
        QString language = QStringLiteral("python");
        if (const qsizetype i = args.indexOf(QStringLiteral("--language")); i >= 0)
            language = args.value(i + 1);
        QElapsedTimer startTimer;
        startTimer.start();
        auto session = NotebookSession::start((*engine)->runtimePtr(), language);
        if (!session)
            return reportError(session.error(), false);
        const double startMs = double(startTimer.nsecsElapsed()) / 1e6;
        const QString setup = language == QLatin1String("r") ? QStringLiteral("x <- 1")
                              : language == QLatin1String("javascript")
                                  ? QStringLiteral("var x = 1")
                                  : QStringLiteral("x = 1");
        if (auto r = (*session)->execute(setup); !r)
            return reportError(r.error(), false);
        QList<double> cellMs;
        for (int i = 0; i < qMax(n, 20) * 5; ++i) {
            QElapsedTimer t;
            t.start();
            auto r = (*session)->execute(QStringLiteral("x + 1"));
            if (!r || !r->resultText().contains(u'2'))
                return reportError(r ? Error{ErrorCode::Internal,
                                             QStringLiteral("unexpected result"), r->resultText()}
                                     : r.error(),
                                   false);
            cellMs << double(t.nsecsElapsed()) / 1e6;
        }
        (*session)->close();
        QJsonObject out{{QStringLiteral("benchmark"), QStringLiteral("notebook_cell_round_trip")},
                        {QStringLiteral("language"), language},
                        {QStringLiteral("code"), QStringLiteral("x + 1")},
                        {QStringLiteral("session_start_ms"), startMs},
                        {QStringLiteral("cell"), latencyStats(cellMs)},
                        {QStringLiteral("goal_p50_ms"), 3}};
        QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Indented);
        return 0;
    }
    const QString image = *Engine::defaultImageFor(QStringLiteral("python"));
    RunRequest req;
    req.language = QStringLiteral("python");
    req.code = QStringLiteral("print(1)\n");
    QList<double> engineMs, dockerMs;
    // One warm-up of each so page cache effects are equal.
    (void)(*engine)->runBlocking(req);
    for (int i = 0; i < n; ++i) {
        QElapsedTimer t;
        t.start();
        auto r = (*engine)->runBlocking(req);
        if (!r || r->stdoutData.trimmed() != "1")
            return reportError(
                r ? Error{ErrorCode::Internal, QStringLiteral("unexpected output"), {}} : r.error(),
                false);
        engineMs << double(t.nsecsElapsed()) / 1e6;
    }
    const QString docker = QStandardPaths::findExecutable(QStringLiteral("docker"));
    QJsonObject dockerStats;
    if (!docker.isEmpty()) {
        const QStringList dockerArgs = {QStringLiteral("run"),
                                        QStringLiteral("--rm"),
                                        QStringLiteral("--network"),
                                        QStringLiteral("none"),
                                        image,
                                        QStringLiteral("python3"),
                                        QStringLiteral("-c"),
                                        QStringLiteral("print(1)")};
        {
            QProcess warmUp; // one warm-up, output discarded
            warmUp.start(docker, dockerArgs);
            warmUp.waitForFinished(60000);
        }
        for (int i = 0; i < n; ++i) {
            QElapsedTimer t;
            t.start();
            QProcess proc;
            proc.start(docker, dockerArgs);
            proc.waitForFinished(60000);
            if (proc.readAllStandardOutput().trimmed() != "1") {
                err() << "docker run failed: " << proc.readAllStandardError() << Qt::endl;
                return ExitEngine;
            }
            dockerMs << double(t.nsecsElapsed()) / 1e6;
        }
        dockerStats = latencyStats(dockerMs);
    } else {
        dockerStats =
            QJsonObject{{QStringLiteral("error"), QStringLiteral("docker CLI not found")}};
    }
    QJsonObject out{{QStringLiteral("benchmark"), QStringLiteral("cold_oneshot_print1")},
                    {QStringLiteral("image"), image},
                    {QStringLiteral("iterations"), n},
                    {QStringLiteral("engine_oneshot_hardened"), latencyStats(engineMs)},
                    {QStringLiteral("docker_run_rm"), dockerStats}};
    QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Indented);
    return 0;
}

} // namespace

QString cliUsage()
{
    return QStringLiteral(
        "Usage: sandbox-studio [COMMAND] [OPTIONS]\n"
        "\n"
        "Runs code written by language models inside isolated containers.\n"
        "Without a command, opens the desktop application.\n"
        "\n"
        "Commands:\n"
        "  run [options] FILE|-       run a program once in a fresh sandbox\n"
        "                             (run --help lists the options)\n"
        "  images list                list the sandbox images and whether they are present\n"
        "  images build NAME...       build images from their recipes (needs root, debootstrap)\n"
        "  images ensure NAME...      build images that are missing\n"
        "  images ref NAME            print the image reference of a recipe\n"
        "  images pull REF            pull an image from its registry (with progress)\n"
        "  images prune               remove images of recipes that changed since\n"
        "  doctor                     check the container engine and the images\n"
        "  reap                       remove sandboxes left by crashed processes\n"
        "  deps list|clear [--language L]  cached dependency volumes (clear removes them)\n"
        "  bench cold [--iterations N]  benchmark a cold one-shot run (JSON)\n"
        "  bench notebook [--language L]  benchmark a notebook cell round trip (JSON)\n"
        "  bench pool [--iterations N]  benchmark warm pooled runs, throughput (JSON)\n"
        "\n"
        "Options:\n"
        "  -h, --help                 show this help\n"
        "  -v, --version              show the version\n");
}

int runCli(const QStringList &args)
{
    const QString cmd = args.value(0);
    const QStringList rest = args.mid(1);
    if (cmd == QLatin1String("run"))
        return cmdRun(rest);
    if (cmd == QLatin1String("images"))
        return cmdImages(rest);
    if (cmd == QLatin1String("doctor"))
        return cmdDoctor();
    if (cmd == QLatin1String("reap"))
        return cmdReap();
    if (cmd == QLatin1String("bench"))
        return cmdBench(rest);
    if (cmd == QLatin1String("deps"))
        return cmdDeps(rest);
    err() << "sandbox-studio: unknown command '" << cmd << "'\n\n" << cliUsage();
    return ExitUsage;
}
