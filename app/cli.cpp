// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "images/imagebuilder.h"
#include "images/imagerecipe.h"
#include "images/imagetools.h"
#include "languages/language.h"
#include "mcp/mcpbridge.h"
#include "mcp/mcphttpserver.h"
#include "mcp/mcpserver.h"
#include "mcp/mcpstdio.h"
#include "policy/policy.h"
#include "policy/preflight.h"
#include "session/backendprofiles.h"
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
#include <QLocalSocket>
#include <QProcess>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QTextStream>
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <thread>
#include <unistd.h>

using namespace sandbox;

namespace {

constexpr int ExitUsage = 2;
constexpr int ExitEngine = 125;
constexpr int ExitPolicy = 126; // the policy stopped the run (block, or ask not allowed)

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

/// The engine of a backend profile: --backend NAME (a stored profile, or a kind: docker,
/// podman, docker-tls, kubernetes), else $SANDBOX_STUDIO_BACKEND, else the Docker
/// environment (DOCKER_HOST, DOCKER_CERT_PATH, DOCKER_TLS_VERIFY). --host and
/// --tls-cert-path override the profile's endpoint and certificate folder; the kubeconfig
/// options given override a Kubernetes profile's.
Result<std::shared_ptr<Engine>> engineFrom(const QString &backend, const QString &host,
                                           const QString &certPath = {},
                                           const KubernetesSettings &kube = {})
{
    QString name = backend;
    if (name.isEmpty())
        name = qEnvironmentVariable("SANDBOX_STUDIO_BACKEND");
    BackendProfile profile = BackendProfile::fromEnvironment();
    if (!name.isEmpty()) {
        auto found = BackendProfileStore().find(name);
        if (!found) {
            Error e = found.error();
            e.code = ErrorCode::InvalidArgument; // a usage error: exit 2
            return std::unexpected(e);
        }
        profile = *found;
    }
    if (!host.isEmpty())
        profile.uri = host;
    if (!certPath.isEmpty()) {
        profile.certPath = certPath;
        profile.caFile.clear();
        profile.certFile.clear();
        profile.keyFile.clear();
        if (profile.kind == QLatin1String("docker"))
            profile.kind = QStringLiteral("docker-tls");
    }
    if (profile.kind == QLatin1String("kubernetes")) {
        if (!kube.kubeconfig.isEmpty())
            profile.kubernetes.kubeconfig = kube.kubeconfig;
        if (!kube.context.isEmpty())
            profile.kubernetes.context = kube.context;
        if (!kube.namespaceName.isEmpty())
            profile.kubernetes.namespaceName = kube.namespaceName;
    }
    return Engine::create(profile);
}

/// QCommandLineParser::process(), except that a bad option exits with ExitUsage (2), like
/// every other bad input, not 1. --help prints the parser's help and exits 0.
void processOrExit(QCommandLineParser &p, const QStringList &argv)
{
    if (!p.parse(argv)) {
        err() << argv.value(0) << ": " << p.errorText() << Qt::endl;
        std::exit(ExitUsage);
    }
    if (p.isSet(QStringLiteral("help")))
        p.showHelp(0);
}

int g_signalPipe[2] = {-1, -1};

void onTerminationSignal(int sig)
{
    const char c = char(sig);
    [[maybe_unused]] const ssize_t n = ::write(g_signalPipe[1], &c, 1);
}

void installTerminationHandlers()
{
    struct sigaction sa = {};
    sa.sa_handler = onTerminationSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);
    // A client that closes its end of a pipe must not kill us mid-cleanup.
    signal(SIGPIPE, SIG_IGN);
}

/// Ctrl+C, SIGTERM and SIGHUP during `run`: the run in flight is cancelled, so its sandbox
/// is removed as on every other path (killed with the CLI, it ran on past its limit until
/// `reap`). A second signal ends the process at once (exit 130).
class RunSignalGuard
{
public:
    explicit RunSignalGuard(CancelToken cancel)
    {
        // Without both pipes the signals keep their default action (the thread could not
        // be told to stop, and joining it would hang).
        if (::pipe2(g_signalPipe, O_CLOEXEC) != 0 || ::pipe2(m_stop, O_CLOEXEC) != 0)
            return;
        installTerminationHandlers();
        m_thread = std::thread([this, cancel]() mutable {
            int signals = 0;
            for (;;) {
                pollfd fds[2] = {{g_signalPipe[0], POLLIN, 0}, {m_stop[0], POLLIN, 0}};
                if (::poll(fds, 2, -1) < 0 && errno != EINTR)
                    return;
                if (fds[1].revents)
                    return;
                char c = 0;
                if (!(fds[0].revents & POLLIN) || ::read(g_signalPipe[0], &c, 1) != 1)
                    continue;
                if (++signals > 1)
                    ::_exit(130);
                m_fired = true;
                std::fprintf(stderr,
                             "sandbox-studio: %s: stopping the run and removing its sandbox "
                             "(again to quit at once)\n",
                             strsignal(c));
                cancel.cancel();
            }
        });
    }
    ~RunSignalGuard()
    {
        if (m_thread.joinable()) {
            [[maybe_unused]] const ssize_t n = ::write(m_stop[1], "x", 1);
            m_thread.join();
        }
    }
    RunSignalGuard(const RunSignalGuard &) = delete;
    RunSignalGuard &operator=(const RunSignalGuard &) = delete;
    bool fired() const { return m_fired; }

private:
    int m_stop[2] = {-1, -1};
    std::atomic<bool> m_fired{false};
    std::thread m_thread;
};

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
        {QStringLiteral("network"),
         QStringLiteral(
             "none (default), host, or bridge (the host's network where the engine has no bridge)"),
         QStringLiteral("mode")},
        {QStringLiteral("file"),
         QStringLiteral("Copy the file or folder PATH into the work directory (repeatable)"),
         QStringLiteral("path")},
        {QStringLiteral("get"),
         QStringLiteral("After the run, bring back PATH (a file or folder of the work directory, "
                        "recursively) into --get-dir (repeatable)"),
         QStringLiteral("path")},
        {QStringLiteral("get-dir"),
         QStringLiteral("Where --get writes (default: the current directory)"),
         QStringLiteral("dir")},
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
        {QStringLiteral("backend"),
         QStringLiteral("Backend profile name, or docker, podman, docker-tls, kubernetes "
                        "(default: $SANDBOX_STUDIO_BACKEND, else DOCKER_HOST or the local "
                        "Docker)"),
         QStringLiteral("name")},
        {QStringLiteral("kubeconfig"),
         QStringLiteral("Kubernetes: kubeconfig file (default: $KUBECONFIG, ~/.kube/config, "
                        "in-cluster)"),
         QStringLiteral("path")},
        {QStringLiteral("context"), QStringLiteral("Kubernetes: kubeconfig context"),
         QStringLiteral("name")},
        {QStringLiteral("namespace"), QStringLiteral("Kubernetes: namespace of the sandbox pods"),
         QStringLiteral("name")},
        {QStringLiteral("host"),
         QStringLiteral("Engine endpoint, e.g. unix:///run/podman/podman.sock, "
                        "tcp://HOST:2376"),
         QStringLiteral("uri")},
        {QStringLiteral("tls-cert-path"),
         QStringLiteral("Folder with ca.pem, cert.pem, key.pem for mutual TLS"),
         QStringLiteral("dir")},
        {QStringLiteral("std"),
         QStringLiteral("Language standard, e.g. c++17, c++20 (default), c++23"),
         QStringLiteral("standard")},
        {QStringLiteral("output-only"),
         QStringLiteral("Bring back files from output/ only, not other new files")},
        {QStringLiteral("json"), QStringLiteral("Print the result as JSON (artifacts base64)")},
        {QStringLiteral("artifacts-dir"), QStringLiteral("Write artifacts into DIR"),
         QStringLiteral("dir")},
        {QStringLiteral("policy"),
         QStringLiteral("strict, standard (default), permissive, or a policy file (JSON; "
                        "docs/policy.md)"),
         QStringLiteral("policy")},
        {QStringLiteral("allow-ask"),
         QStringLiteral("Run code whose policy findings ask for approval (default: refuse)")},
        {QStringLiteral("work-dir-size"),
         QStringLiteral("Size of the work directory, e.g. 256m (default 256m)"),
         QStringLiteral("size")},
    });
    processOrExit(p, QStringList{QStringLiteral("sandbox-studio run")} + args);
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
    // Sizes: --memory 512m, --output-limit 1m, --work-dir-size 256m (bytes with k/m/g).
    for (const auto &[option, field, example] :
         {std::tuple{"memory", &Limits::memoryBytes, "512m or 1g"},
          std::tuple{"output-limit", &Limits::outputBytes, "1m"},
          std::tuple{"work-dir-size", &Limits::workDirBytes, "256m"}}) {
        const QString name = QLatin1String(option);
        if (!p.isSet(name))
            continue;
        req.limits.*field = parseBytes(p.value(name));
        if (req.limits.*field < 0)
            return reportError(
                {ErrorCode::InvalidArgument,
                 QStringLiteral("--%1 takes a size such as %2").arg(name, QLatin1String(example)),
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
        if (!QFileInfo::exists(path))
            return reportError({ErrorCode::InvalidArgument,
                                QStringLiteral("cannot read %1: no such file or folder").arg(path),
                                {}},
                               json);
        auto members = collectLocalPath(path, {}, TransferLimits{req.limits.workDirBytes, 10000});
        if (!members)
            return reportError(members.error(), json);
        for (const TarMember &m : std::as_const(*members)) {
            if (m.type == TarMember::Type::File)
                req.files.append({m.path, m.data});
            else if (m.type == TarMember::Type::Symlink)
                err() << "sandbox-studio: --file " << path << ": link " << m.path
                      << " not copied (run copies files only)" << Qt::endl;
        }
    }
    for (const QString &g : p.values(QStringLiteral("get"))) {
        if (g == QLatin1String(".") || g == QLatin1String("./")) {
            req.fetchPaths << QStringLiteral(".");
            continue;
        }
        auto safe = safeRelativePath(g);
        if (!safe)
            return reportError(Error{ErrorCode::PathRefused,
                                     QStringLiteral("--get %1: %2").arg(g, safe.error().message),
                                     {}},
                               json);
        req.fetchPaths << *safe;
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
    // Limits and policy are checked before any engine is contacted.
    if (auto v = validateLimitsFor(req.limits, req.language); !v)
        return reportError(v.error(), json);
    auto policy = Policy::load(p.isSet(QStringLiteral("policy")) ? p.value(QStringLiteral("policy"))
                                                                 : QStringLiteral("standard"));
    if (!policy)
        return reportError(policy.error(), json);
    req.policy = std::make_shared<Policy>(*policy);

    auto engine = engineFrom(p.value(QStringLiteral("backend")), p.value(QStringLiteral("host")),
                             p.value(QStringLiteral("tls-cert-path")), kube);
    if (!engine)
        return reportError(engine.error(), json);
    RunObserver obs;
    const bool allowAsk = p.isSet(QStringLiteral("allow-ask"));
    obs.onPolicyAsk = [allowAsk, json](const QList<PolicyFinding> &findings) {
        if (!json)
            for (const PolicyFinding &f : findings)
                err() << "sandbox-studio: policy asks (line " << f.line << ", " << f.rule << ", "
                      << f.severity << "): " << f.message
                      << (allowAsk ? " - allowed by --allow-ask" : "") << Qt::endl;
        return allowAsk;
    };
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
    RunSignalGuard signals(cancel);
    auto result = (*engine)->runBlocking(req, obs, cancel);
    if (signals.fired())
        return 130; // the shell's code for an interrupted command; the sandbox is gone
    if (!result)
        return reportError(result.error(), json);
    if (json)
        writeOut(QByteArray(runResultToJson(*result, true) + '\n'));
    if (result->policyBlocked) {
        if (!json) {
            err() << "sandbox-studio: the run did not start: " << result->policyReason << Qt::endl;
            if (result->policyReason.contains(QLatin1String("approv")))
                err() << "  (pass --allow-ask to run it anyway, or --policy to choose another "
                         "policy)"
                      << Qt::endl;
        }
        return ExitPolicy;
    }
    if (!json)
        for (const PolicyFinding &f : result->policyFindings)
            err() << "sandbox-studio: policy " << f.action << " (line " << f.line << ", " << f.rule
                  << ", " << f.severity << "): " << f.message << Qt::endl;
    if (p.isSet(QStringLiteral("artifacts-dir"))) {
        const QDir dir(p.value(QStringLiteral("artifacts-dir")));
        QDir().mkpath(dir.path());
        int saved = 0;
        for (const Artifact &a : result->artifacts) {
            auto safe = safeRelativePath(a.name);
            if (!safe) {
                err() << "refused artifact " << a.name << ": " << safe.error().message << Qt::endl;
                continue;
            }
            const QString target = dir.filePath(*safe);
            QDir().mkpath(QFileInfo(target).path());
            QFile out(target);
            if (out.open(QIODevice::WriteOnly) && out.write(a.data) == a.data.size())
                ++saved;
            else
                err() << "sandbox-studio: cannot write " << target << ": " << out.errorString()
                      << Qt::endl;
        }
        if (!json && saved > 0)
            err() << "sandbox-studio: saved " << saved << (saved == 1 ? " artifact" : " artifacts")
                  << " under " << dir.path() << " (e.g. "
                  << dir.filePath(result->artifacts.constFirst().name) << ")" << Qt::endl;
    } else if (!json && !result->artifacts.isEmpty()) {
        // Plots and written files are not lost without a word.
        QStringList names;
        for (const Artifact &a :
             std::as_const(result->artifacts).first(qMin<qsizetype>(3, result->artifacts.size())))
            names << a.name;
        err() << "sandbox-studio: " << result->artifacts.size()
              << (result->artifacts.size() == 1 ? " artifact" : " artifacts") << " ("
              << names.join(QStringLiteral(", ")) << (result->artifacts.size() > 3 ? ", ..." : "")
              << ") not saved: pass --artifacts-dir DIR to keep them" << Qt::endl;
    }
    if (!json)
        for (const QString &n : std::as_const(result->notes))
            if (n.contains(QLatin1String("host's network")) ||
                n.contains(QLatin1String("runs without them")))
                err() << "sandbox-studio: note: " << n << Qt::endl; // more than asked for
    bool getFailed = false;
    if (!req.fetchPaths.isEmpty()) {
        const QString dir = p.isSet(QStringLiteral("get-dir")) ? p.value(QStringLiteral("get-dir"))
                                                               : QStringLiteral(".");
        QList<TarMember> members;
        for (const Artifact &a : std::as_const(result->fetched))
            members.append({a.name, TarMember::Type::File, a.data, 0644, {}});
        QStringList refused;
        auto tar = makeTar(members);
        auto written = tar ? extractTarToDirectory(*tar, dir, TransferLimits{}, &refused)
                           : Result<QStringList>(std::unexpected(tar.error()));
        if (!written)
            return reportError(written.error(), json);
        for (const QString &r : std::as_const(refused))
            err() << "sandbox-studio: --get: refused " << r << Qt::endl;
        // Refusals of --get paths come back in refusedPaths alongside artifact refusals.
        for (const QString &r : std::as_const(result->refusedPaths)) {
            const QString path = r.section(QStringLiteral(": "), 0, 0);
            for (const QString &g : std::as_const(req.fetchPaths))
                if (path == g || r.startsWith(QLatin1String("--get"))) {
                    err() << "sandbox-studio: --get " << r << Qt::endl;
                    getFailed = true;
                    break;
                }
        }
        if (!json)
            for (const QString &w : std::as_const(*written))
                err() << "sandbox-studio: got " << QDir(dir).filePath(w) << Qt::endl;
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
        for (const QString &hit : result->limitsHit)
            if (hit == QLatin1String("pids") || hit == QLatin1String("work_dir") ||
                hit == QLatin1String("artifacts"))
                err() << "sandbox-studio: limit reached: "
                      << (hit == QLatin1String("pids")
                              ? QStringLiteral("processes (%1)").arg(req.limits.pids)
                          : hit == QLatin1String("work_dir")
                              ? QStringLiteral("work directory size (%1 MiB)")
                                    .arg(req.limits.workDirBytes >> 20)
                              : QStringLiteral("artifacts (%1 files, %2 MiB)")
                                    .arg(req.limits.artifactCount)
                                    .arg(req.limits.artifactBytes >> 20))
                      << Qt::endl;
    }
    // A --get that could not be honoured fails a run that otherwise succeeded.
    return result->exitCode == 0 && getFailed ? 1 : result->exitCode;
}

/// images build --tag REF [--file F] [--network none|host] [--no-cache] DIR
int cmdImagesBuildDockerfile(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Build an image from a Dockerfile."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("context"), QStringLiteral("Build context folder"));
    p.addOptions(
        {{{QStringLiteral("t"), QStringLiteral("tag")},
          QStringLiteral("Name of the image, e.g. my/python-extra:1"),
          QStringLiteral("ref")},
         {{QStringLiteral("f"), QStringLiteral("file")},
          QStringLiteral("Dockerfile inside the context (default Dockerfile)"),
          QStringLiteral("path")},
         {QStringLiteral("network"), QStringLiteral("Network of RUN steps: none (default) or host"),
          QStringLiteral("mode")},
         {QStringLiteral("no-cache"), QStringLiteral("Do not reuse cached steps")}});
    processOrExit(p, QStringList{QStringLiteral("sandbox-studio images build")} + args);
    if (p.positionalArguments().size() != 1 || !p.isSet(QStringLiteral("tag"))) {
        err() << "usage: sandbox-studio images build --tag REF [--file Dockerfile] "
                 "[--network none|host] [--no-cache] CONTEXT_DIR"
              << Qt::endl;
        return ExitUsage;
    }
    BuildOptions o;
    o.tag = p.value(QStringLiteral("tag"));
    if (p.isSet(QStringLiteral("file")))
        o.dockerfile = p.value(QStringLiteral("file"));
    const QString net = p.value(QStringLiteral("network"));
    if (net == QLatin1String("host"))
        o.network = NetworkMode::Host;
    else if (!net.isEmpty() && net != QLatin1String("none")) {
        err() << "sandbox-studio: --network is none or host for builds" << Qt::endl;
        return ExitUsage;
    }
    o.noCache = p.isSet(QStringLiteral("no-cache"));
    auto engine = engineFrom({}, {});
    if (!engine)
        return reportError(engine.error(), false);
    ImageTools tools((*engine)->runtime());
    auto built = tools.buildDockerfile(
        p.positionalArguments().constFirst(), o, [](const QString &line, int pct) {
            err() << "[" << QString::number(pct).rightJustified(3) << "%] " << line << Qt::endl;
        });
    if (!built)
        return reportError(built.error(), false);
    QTextStream(stdout) << o.tag << ' ' << *built << Qt::endl;
    return 0;
}

/// images import TARBALL REF [--change INSTRUCTION]...
int cmdImagesImport(const QStringList &args)
{
    QStringList rest = args;
    QStringList changes;
    for (qsizetype i = rest.indexOf(QStringLiteral("--change")); i >= 0;
         i = rest.indexOf(QStringLiteral("--change"))) {
        changes << rest.value(i + 1);
        rest.remove(i, qMin<qsizetype>(2, rest.size() - i));
    }
    if (rest.size() != 2) {
        err() << "usage: sandbox-studio images import ROOTFS.tar REF [--change 'ENV A=b']..."
              << Qt::endl;
        return ExitUsage;
    }
    if (!QFileInfo(rest[0]).isFile()) {
        err() << "sandbox-studio: cannot read " << rest[0] << ": no such file" << Qt::endl;
        return ExitUsage;
    }
    auto engine = engineFrom({}, {});
    if (!engine)
        return reportError(engine.error(), false);
    ImageTools tools((*engine)->runtime());
    int last = -10;
    auto imported =
        tools.importRootfs(rest[0], rest[1], changes, [&](const QString &line, int pct) {
            if (pct / 10 != last / 10 || pct == 100)
                err() << line << Qt::endl;
            last = pct;
        });
    if (!imported)
        return reportError(imported.error(), false);
    QTextStream(stdout) << rest[1] << ' ' << *imported << Qt::endl;
    return 0;
}

/// policy check FILE [--language L] [--policy P] [--json] | policy show [P]
int cmdPolicy(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Check code against a policy, or print a policy."));
    p.addHelpOption();
    p.addPositionalArgument(QStringLiteral("action"), QStringLiteral("check FILE | show"));
    p.addOptions({
        {{QStringLiteral("l"), QStringLiteral("language")},
         QStringLiteral("Language of FILE (default: from the extension)"),
         QStringLiteral("lang")},
        {QStringLiteral("policy"),
         QStringLiteral("strict, standard (default), permissive, or a policy file"),
         QStringLiteral("policy")},
        {QStringLiteral("json"), QStringLiteral("Print the findings as JSON")},
    });
    processOrExit(p, QStringList{QStringLiteral("sandbox-studio policy")} + args);
    const QStringList pos = p.positionalArguments();
    const bool json = p.isSet(QStringLiteral("json"));
    auto policy = Policy::load(p.isSet(QStringLiteral("policy")) ? p.value(QStringLiteral("policy"))
                                                                 : QStringLiteral("standard"));
    if (!policy)
        return reportError(policy.error(), json);
    if (pos.value(0) == QLatin1String("show") && pos.size() == 1) {
        writeOut(policy->toJson());
        return 0;
    }
    if (pos.value(0) != QLatin1String("check") || pos.size() != 2) {
        err() << "usage: sandbox-studio policy check [--policy P] [--language L] [--json] FILE|-\n"
                 "       sandbox-studio policy show [--policy P]"
              << Qt::endl;
        return ExitUsage;
    }
    const QString file = pos[1];
    QFile in;
    if (file == QLatin1String("-") ? !in.open(stdin, QIODevice::ReadOnly)
                                   : (in.setFileName(file), !in.open(QIODevice::ReadOnly)))
        return reportError({ErrorCode::InvalidArgument,
                            QStringLiteral("cannot read %1: %2").arg(file, in.errorString()),
                            {}},
                           json);
    const QString code = QString::fromUtf8(in.readAll());
    QString language = p.value(QStringLiteral("language"));
    if (language.isEmpty())
        language = languageFromExtension(file);
    const LanguageDescriptor *lang = LanguageRegistry::instance().find(language);
    if (!lang)
        return reportError(
            {ErrorCode::UnknownLanguage,
             language.isEmpty()
                 ? QStringLiteral("cannot tell the language of %1; pass --language").arg(file)
                 : QStringLiteral("Unknown language '%1'").arg(language),
             {}},
            json);
    const PolicyVerdict v = evaluatePolicy(*policy, lang->id, code);
    if (json) {
        QJsonArray findings;
        for (const PolicyFinding &f : v.findings)
            findings.append(QJsonObject{{QStringLiteral("rule"), f.rule},
                                        {QStringLiteral("severity"), f.severity},
                                        {QStringLiteral("action"), f.action},
                                        {QStringLiteral("line"), f.line},
                                        {QStringLiteral("message"), f.message}});
        QJsonObject o{{QStringLiteral("policy"), policy->name()},
                      {QStringLiteral("language"), lang->id},
                      {QStringLiteral("verdict"), actionName(v.action)},
                      {QStringLiteral("reason"), v.reason},
                      {QStringLiteral("findings"), QJsonValue(findings)}};
        writeOut(QJsonDocument(o).toJson(QJsonDocument::Indented));
    } else {
        QTextStream out(stdout);
        for (const PolicyFinding &f : v.findings)
            out << file << ':' << f.line << ": " << f.action << " [" << f.severity << ", " << f.rule
                << "] " << f.message << Qt::endl;
        out << "verdict: " << actionName(v.action) << " (policy " << policy->name() << ", "
            << v.findings.size() << " findings)" << Qt::endl;
    }
    // Exit status: 0 allow/warn, 1 ask, 126 block, like the run would be treated.
    return v.action == PolicyAction::Block ? ExitPolicy : v.action == PolicyAction::Ask ? 1 : 0;
}

int cmdImages(const QStringList &args)
{
    const QString sub = args.value(0);
    if (sub == QLatin1String("list") && args.value(1) == QLatin1String("--all")) {
        auto engine = engineFrom({}, {});
        if (!engine)
            return reportError(engine.error(), false);
        auto infos = (*engine)->runtime().listImageInfos();
        if (!infos)
            return reportError(infos.error(), false);
        for (const ImageInfo &i : std::as_const(*infos))
            for (const QString &tag :
                 i.tags.isEmpty() ? QStringList{QStringLiteral("<none>")} : i.tags)
                QTextStream(stdout)
                    << tag.leftJustified(48) << ' ' << humanSize(i.sizeBytes).rightJustified(9)
                    << "  " << i.id.mid(7, 12)
                    << (i.labels.value(QStringLiteral("io.sandbox-studio.template")) ==
                                QLatin1String("true")
                            ? "  template"
                            : "")
                    << Qt::endl;
        return 0;
    }
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
    if (sub == QLatin1String("build") &&
        (args.contains(QStringLiteral("--tag")) || args.contains(QStringLiteral("-t")) ||
         std::any_of(args.begin() + 1, args.end(),
                     [](const QString &a) { return a.startsWith(QLatin1String("--tag=")); })))
        return cmdImagesBuildDockerfile(args.mid(1));
    if (sub == QLatin1String("import"))
        return cmdImagesImport(args.mid(1));
    if (sub == QLatin1String("remove") || sub == QLatin1String("rm")) {
        if (args.size() < 2) {
            err() << "usage: sandbox-studio images remove REF..." << Qt::endl;
            return ExitUsage;
        }
        auto engine = engineFrom({}, {});
        if (!engine)
            return reportError(engine.error(), false);
        for (const QString &ref : args.mid(1)) {
            if (auto r = (*engine)->runtime().removeImage(ref); !r)
                return reportError(r.error(), false);
            QTextStream(stdout) << "removed " << ref << Qt::endl;
        }
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
    err() << "usage: sandbox-studio images list [--all] | ref NAME | build NAME... [--force] | "
             "build --tag REF DIR | import ROOTFS.tar REF | remove REF | ensure NAME... | pull REF"
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
    QTextStream(stdout) << "removed " << *n
                        << (*n == 1 ? " orphaned sandbox" : " orphaned sandboxes") << Qt::endl;
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

/// bench languages: one-shot runs (fresh sandbox each: create, compile, run, remove) of
/// each language's sample program, and for Go also a program importing encoding/json and
/// net/http (the standard library it compiles is the slow part of a Go run). JSON with
/// per-program total and compile latency stats over `iterations` runs after one warm-up.
int benchLanguages(Engine &engine, int iterations, const QStringList &only)
{
    struct Program
    {
        QString name, language, code, expect;
    };
    QList<Program> programs;
    for (const LanguageDescriptor &lang : LanguageRegistry::instance().all())
        programs.append({lang.id + QStringLiteral("_hello"), lang.id, lang.sampleCode,
                         QStringLiteral("Hello")});
    programs.append({QStringLiteral("go_net_http"), QStringLiteral("go"),
                     QStringLiteral("package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n"
                                    "\t\"net/http\"\n)\n\nfunc main() {\n\tb, _ := "
                                    "json.Marshal(map[string]int{\"ok\": http.StatusOK})\n"
                                    "\tfmt.Println(string(b))\n}\n"),
                     QStringLiteral("{\"ok\":200}")});
    QJsonObject results;
    QJsonObject images;
    for (const Program &p : programs) {
        if (!only.isEmpty() && !only.contains(p.language))
            continue;
        if (auto image = Engine::defaultImageFor(p.language))
            images.insert(p.language, *image);
        RunRequest req;
        req.language = p.language;
        req.code = p.code;
        req.limits.timeoutMs = 120'000;
        QList<double> totalMs, compileMs;
        for (int i = -1; i < iterations; ++i) { // i == -1: warm-up, not counted
            QElapsedTimer t;
            t.start();
            auto r = engine.runBlocking(req);
            if (!r)
                return reportError(r.error(), false);
            if (r->exitCode != 0 || !r->stdoutData.contains(p.expect.toUtf8()))
                return reportError(
                    Error{ErrorCode::Internal,
                          QStringLiteral("%1: unexpected result (exit %2)")
                              .arg(p.name)
                              .arg(r->exitCode),
                          QString::fromUtf8(r->stdoutData + r->stderrData + r->compile.output)},
                    false);
            if (i < 0)
                continue;
            totalMs << double(t.nsecsElapsed()) / 1e6;
            if (r->compile.ran)
                compileMs << double(r->compile.durationMs);
        }
        QJsonObject entry{{QStringLiteral("language"), p.language},
                          {QStringLiteral("total"), latencyStats(totalMs)}};
        if (!compileMs.isEmpty())
            entry.insert(QStringLiteral("compile"), latencyStats(compileMs));
        results.insert(p.name, entry);
    }
    QJsonObject out{{QStringLiteral("benchmark"), QStringLiteral("languages_oneshot")},
                    {QStringLiteral("iterations"), iterations},
                    {QStringLiteral("images"), images},
                    {QStringLiteral("programs"), results}};
    QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Indented);
    return 0;
}

/// bench cold: engine one-shot print(1) (create, run, remove) against `docker run --rm`.
int cmdBench(const QStringList &args)
{
    const QString which = args.value(0, QStringLiteral("cold"));
    int n = 10;
    if (const qsizetype i = args.indexOf(QStringLiteral("--iterations")); i >= 0)
        n = qMax(1, args.value(i + 1).toInt());
    if (which != QLatin1String("cold") && which != QLatin1String("notebook") &&
        which != QLatin1String("pool") && which != QLatin1String("zygote") &&
        which != QLatin1String("languages")) {
        err() << "usage: sandbox-studio bench cold|notebook|pool|zygote|languages [--iterations N] "
                 "[--language L] [--cases DIR]"
              << Qt::endl;
        return ExitUsage;
    }
    QStringList languages; // bench languages: --language L (repeatable) narrows the set
    for (qsizetype i = args.indexOf(QStringLiteral("--language")); i >= 0;
         i = args.indexOf(QStringLiteral("--language"), i + 1)) {
        const LanguageDescriptor *lang = LanguageRegistry::instance().find(args.value(i + 1));
        if (!lang) {
            err() << "sandbox-studio: unknown language '" << args.value(i + 1) << "'" << Qt::endl;
            return ExitUsage;
        }
        languages << lang->id;
    }
    auto engine = engineFrom({}, {});
    if (!engine)
        return reportError(engine.error(), false);
    if (auto ping = (*engine)->ping(); !ping)
        return reportError(ping.error(), false);
    if (which == QLatin1String("languages"))
        return benchLanguages(**engine, args.contains(QStringLiteral("--iterations")) ? n : 3,
                              languages);
    if (which == QLatin1String("zygote")) {
        ZygoteBenchOptions o;
        if (args.contains(QStringLiteral("--iterations")))
            o.iterations = n;
        if (const qsizetype i = args.indexOf(QStringLiteral("--cases")); i >= 0)
            o.casesDir = args.value(i + 1);
        else
            o.casesDir = qEnvironmentVariable("SANDBOX_CASES_DIR");
        auto json = benchmarkZygote(**engine, o);
        if (!json)
            return reportError(json.error(), false);
        QTextStream(stdout) << *json;
        return 0;
    }
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

// --- mcp ------------------------------------------------------------------------------

/// `sandbox-studio mcp` when a window answers on its bridge socket: relays stdin/stdout
/// to it until stdin EOF or SIGTERM (exit 0) or until the window goes away (exit 1).
int relayToGui(std::unique_ptr<QLocalSocket> socket)
{
    err() << "sandbox-studio mcp: relaying to the Sandbox Studio window at "
          << socket->fullServerName() << " (stdio bridge; --standalone serves headless)"
          << Qt::endl;
    if (::pipe(g_signalPipe) != 0) {
        err() << "sandbox-studio: pipe: " << strerror(errno) << Qt::endl;
        return ExitEngine;
    }
    installTerminationHandlers();
    McpBridgeRelay relay(std::move(socket));
    QSocketNotifier signalNotifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&signalNotifier, &QSocketNotifier::activated, &relay, [&] {
        char c = 0;
        [[maybe_unused]] const ssize_t n = ::read(g_signalPipe[0], &c, 1);
        err() << "sandbox-studio mcp: " << (c == SIGINT ? "SIGINT" : "SIGTERM")
              << ": closing the bridge (the window ends this client's runs)" << Qt::endl;
        relay.stop();
    });
    int code = 0;
    QObject::connect(&relay, &McpBridgeRelay::finished, &relay, [&](bool guiClosed) {
        if (guiClosed) {
            err() << "sandbox-studio mcp: the Sandbox Studio window closed the bridge" << Qt::endl;
            code = 1;
        }
        QCoreApplication::quit();
    });
    relay.start();
    QCoreApplication::exec();
    err() << "sandbox-studio mcp: stopped" << Qt::endl;
    return code;
}

/// `sandbox-studio mcp`: the MCP server, over stdio (default; what Claude Desktop
/// launches) or Streamable HTTP on 127.0.0.1 (--http PORT). Protocol on stdout only,
/// everything else on stderr. Exits 0 at stdin EOF (stdio) or SIGTERM/SIGINT, after every
/// run was cancelled and every sandbox removed.
int cmdMcp(const QStringList &args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Serve the Model Context Protocol: over stdio (default), or Streamable HTTP on "
        "127.0.0.1 with --http."));
    p.addHelpOption();
    p.addOptions({
        {QStringLiteral("http"),
         QStringLiteral("Serve Streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio "
                        "(0 = any free port)"),
         QStringLiteral("port")},
        {QStringLiteral("token"),
         QStringLiteral("Bearer token HTTP clients must send (default: generated, printed to "
                        "stderr)"),
         QStringLiteral("token")},
        {QStringLiteral("no-auth"),
         QStringLiteral("TESTING ONLY: serve HTTP without a bearer token (any local process "
                        "can then run code)")},
        {QStringLiteral("allow-origin"),
         QStringLiteral("Accept requests with this Origin besides localhost (repeatable)"),
         QStringLiteral("origin")},
        {QStringLiteral("max-body"), QStringLiteral("Largest HTTP request body (default 8m)"),
         QStringLiteral("size")},
        {QStringLiteral("timeout"),
         QStringLiteral("Default wall-time limit of runs in seconds (default 30)"),
         QStringLiteral("seconds")},
        {QStringLiteral("memory"), QStringLiteral("Memory limit of runs (default 512m)"),
         QStringLiteral("size")},
        {QStringLiteral("backend"), QStringLiteral("docker (default) or docker-tls"),
         QStringLiteral("kind")},
        {QStringLiteral("host"),
         QStringLiteral("Engine endpoint, e.g. unix:///var/run/docker.sock"),
         QStringLiteral("uri")},
        {QStringLiteral("policy"),
         QStringLiteral("strict, standard (default), permissive, or a policy file (JSON; "
                        "docs/policy.md) for every run and notebook cell"),
         QStringLiteral("policy")},
        {QStringLiteral("allow-ask"),
         QStringLiteral("Run code whose policy findings ask for approval (default: refuse, as "
                        "no person is there to approve)")},
        {QStringLiteral("no-pool"),
         QStringLiteral("Keep no warm Python sandbox: every run creates its own")},
        {QStringLiteral("conformance-fixtures"),
         QStringLiteral("TESTING ONLY: add the fixture tools the MCP conformance runner calls")},
        {QStringLiteral("standalone"),
         QStringLiteral("stdio: serve headless even when a Sandbox Studio window is open (by "
                        "default the window's server takes the client: its activity feed and "
                        "approval apply)")},
        {QStringLiteral("require-gui"),
         QStringLiteral("stdio: fail unless a Sandbox Studio window accepts the client")},
    });
    processOrExit(p, QStringList{QStringLiteral("sandbox-studio mcp")} + args);
    if (!p.positionalArguments().isEmpty()) {
        err() << "usage: sandbox-studio mcp [--standalone | --require-gui | --http PORT [--token T "
                 "| --no-auth]]"
              << Qt::endl;
        return ExitUsage;
    }
    const bool http = p.isSet(QStringLiteral("http"));
    if (!http && (p.isSet(QStringLiteral("token")) || p.isSet(QStringLiteral("no-auth")))) {
        err() << "sandbox-studio: --token and --no-auth need --http" << Qt::endl;
        return ExitUsage;
    }
    const bool standalone = p.isSet(QStringLiteral("standalone"));
    const bool requireGui = p.isSet(QStringLiteral("require-gui"));
    if (http && (standalone || requireGui)) {
        err() << "sandbox-studio: --standalone and --require-gui are for stdio (not --http)"
              << Qt::endl;
        return ExitUsage;
    }
    if (standalone && requireGui) {
        err() << "sandbox-studio: --standalone and --require-gui exclude each other" << Qt::endl;
        return ExitUsage;
    }
    if (p.isSet(QStringLiteral("token")) && p.isSet(QStringLiteral("no-auth"))) {
        err() << "sandbox-studio: --token and --no-auth exclude each other" << Qt::endl;
        return ExitUsage;
    }
    Limits limits;
    if (p.isSet(QStringLiteral("timeout"))) {
        bool ok = false;
        const double s = p.value(QStringLiteral("timeout")).toDouble(&ok);
        if (!ok || s <= 0) {
            err() << "sandbox-studio: --timeout takes seconds" << Qt::endl;
            return ExitUsage;
        }
        limits.timeoutMs = qint64(s * 1000);
    }
    if (p.isSet(QStringLiteral("memory"))) {
        limits.memoryBytes = parseBytes(p.value(QStringLiteral("memory")));
        if (limits.memoryBytes <= 0) {
            err() << "sandbox-studio: --memory takes a size such as 512m" << Qt::endl;
            return ExitUsage;
        }
    }
    auto policy = Policy::load(p.isSet(QStringLiteral("policy")) ? p.value(QStringLiteral("policy"))
                                                                 : QStringLiteral("standard"));
    if (!policy) {
        err() << "sandbox-studio: --policy: " << policy.error().message << Qt::endl;
        return ExitUsage;
    }
    McpHttpOptions httpOptions;
    if (http) {
        bool ok = false;
        const uint port = p.value(QStringLiteral("http")).toUInt(&ok);
        if (!ok || port > 65535) {
            err() << "sandbox-studio: --http takes a port number (0-65535)" << Qt::endl;
            return ExitUsage;
        }
        httpOptions.port = quint16(port);
        httpOptions.token = p.value(QStringLiteral("token"));
        httpOptions.requireAuth = !p.isSet(QStringLiteral("no-auth"));
        httpOptions.allowedOrigins = p.values(QStringLiteral("allow-origin"));
        if (p.isSet(QStringLiteral("max-body"))) {
            httpOptions.maxBodyBytes = parseBytes(p.value(QStringLiteral("max-body")));
            if (httpOptions.maxBodyBytes < 1024) {
                err() << "sandbox-studio: --max-body takes a size of at least 1k" << Qt::endl;
                return ExitUsage;
            }
        }
    }

    // stdio: a running window serves the client (its activity feed, approval and policy
    // apply); this process only relays the stream.
    if (!http && !standalone) {
        auto socket = mcpBridgeConnect();
        if (socket)
            return relayToGui(std::move(*socket));
        if (requireGui) {
            err() << "sandbox-studio mcp: --require-gui: " << socket.error().message
                  << "; open Sandbox Studio and turn on \"Accept runs from Claude Desktop\" "
                     "in its MCP panel"
                  << Qt::endl;
            return ExitEngine;
        }
        err() << "sandbox-studio mcp: serving headless (" << socket.error().message << ")"
              << Qt::endl;
    }

    // The server still starts without an engine: tools then say what to start.
    auto engine = engineFrom(p.value(QStringLiteral("backend")), p.value(QStringLiteral("host")));
    std::shared_ptr<Engine> eng;
    if (engine) {
        eng = *engine;
        if (auto ping = eng->ping(); !ping)
            err() << "sandbox-studio: warning: " << ping.error().message << Qt::endl;
        else
            (void)eng->reapOrphans();
    } else {
        err() << "sandbox-studio: warning: " << engine.error().toString() << Qt::endl;
    }

    // Warm Python sandboxes for the server's default limits (network none, as MCP runs
    // have), with a preloaded interpreter unless --no-zygote: runs start in milliseconds.
    std::shared_ptr<SandboxPool> pool;
    if (eng) {
        eng->setPolicy(*policy);
        if (!p.isSet(QStringLiteral("no-pool"))) {
            if (const auto image = Engine::defaultImageFor(QStringLiteral("python"))) {
                PoolOptions options;
                options.minWarm = 0;
                options.minWarmByLanguage = {{QStringLiteral("python"), 1}};
                pool = SandboxPool::create(eng->runtimePtr(), options);
                (void)pool->prewarm(PoolKey::from(eng->runtime().backend(),
                                                  QStringLiteral("python"), *image, limits,
                                                  NetworkMode::None));
                eng->setPool(pool);
                err() << "sandbox-studio mcp: warming a Python sandbox"
                      << (options.zygotes ? " with a preloaded interpreter" : "") << Qt::endl;
            }
        }
    }

    // Every warm sandbox (and its zygote) is removed before the process ends, on every
    // way out (after the server, declared below, has finished its runs).
    struct PoolGuard
    {
        std::shared_ptr<Engine> engine;
        std::shared_ptr<SandboxPool> pool;
        ~PoolGuard()
        {
            if (!pool)
                return;
            engine->setPool(nullptr);
            pool->shutdown();
        }
    } poolGuard{eng, pool};

    McpServer server(eng);
    server.setDefaultLimits(limits);
    // The policy engine decides on approval and reports findings; "ask" has no person
    // here: refused with the rule named, unless --allow-ask.
    server.setPolicyChecker([eng](const QString &language, const QString &code) {
        return eng ? evaluatePolicy(eng->policy(), language, code).findings
                   : QList<PolicyFinding>{};
    });
    server.setAllowPolicyAsk(p.isSet(QStringLiteral("allow-ask")));
    server.setConformanceFixtures(p.isSet(QStringLiteral("conformance-fixtures")));
    // McpServer logs to the category sandbox.mcp, which goes to stderr.

    if (::pipe(g_signalPipe) != 0) {
        err() << "sandbox-studio: pipe: " << strerror(errno) << Qt::endl;
        return ExitEngine;
    }
    installTerminationHandlers();
    QSocketNotifier signalNotifier(g_signalPipe[0], QSocketNotifier::Read);
    bool stopping = false;
    auto stop = [&](const char *why) {
        if (stopping)
            return;
        stopping = true;
        err() << "sandbox-studio mcp: " << why << ": cancelling runs and removing sandboxes"
              << Qt::endl;
        QCoreApplication::quit();
    };
    QObject::connect(&signalNotifier, &QSocketNotifier::activated, &server, [&] {
        char c = 0;
        [[maybe_unused]] const ssize_t n = ::read(g_signalPipe[0], &c, 1);
        stop(c == SIGINT ? "SIGINT" : "SIGTERM");
    });

    std::unique_ptr<McpHttpServer> httpServer;
    std::unique_ptr<McpStdioTransport> stdio;
    if (http) {
        httpServer = std::make_unique<McpHttpServer>(&server);
        if (auto r = httpServer->start(httpOptions); !r) {
            err() << "sandbox-studio: " << r.error().message << Qt::endl;
            return ExitEngine;
        }
        err() << "sandbox-studio mcp: listening on " << httpServer->url() << Qt::endl;
        if (httpServer->requiresAuth())
            err() << "sandbox-studio mcp: bearer token " << httpServer->token() << Qt::endl;
        else
            err() << "sandbox-studio mcp: WARNING: authentication is OFF (--no-auth): any "
                     "local process can run code through this endpoint"
                  << Qt::endl;
    } else {
        stdio = std::make_unique<McpStdioTransport>(&server);
        QObject::connect(stdio.get(), &McpStdioTransport::finished, &server,
                         [&] { stop("stdin closed"); });
        stdio->start();
    }
    QCoreApplication::exec();
    if (httpServer)
        httpServer->stop();
    server.shutdown(60'000);
    err() << "sandbox-studio mcp: stopped" << Qt::endl;
    stdio.reset();
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
        "  images list [--all]        list the sandbox images and whether they are present\n"
        "                             (--all: every image with its size)\n"
        "  images build NAME...       build images from their recipes (needs root, debootstrap)\n"
        "  images build --tag REF DIR build DIR's Dockerfile (network none; --network host)\n"
        "  images import ROOTFS.tar REF  import a root filesystem tarball as an image\n"
        "  images remove REF...       remove images\n"
        "  images ensure NAME...      build images that are missing\n"
        "  images ref NAME            print the image reference of a recipe\n"
        "  images pull REF            pull an image from its registry (with progress)\n"
        "  images prune               remove images of recipes that changed since\n"
        "  policy check FILE          print the policy findings of FILE (--policy P, --json)\n"
        "  policy show                print a policy in the file format (--policy P)\n"
        "  doctor                     check the container engine and the images\n"
        "  backends list|test [NAME]  backend profiles (docker, podman, docker-tls, saved ones)\n"
        "  backends show NAME         a profile's settings\n"
        "  backends add NAME --kind K [--host URI] [--tls-cert-path DIR] | remove NAME\n"
        "                             kubernetes: [--kubeconfig F] [--context C] [--namespace N]\n"
        "                             [--set KEY=VALUE]... (cpuRequest=500m, runtimeClassName=\n"
        "                             gvisor, nodeSelector=disk=ssd, tolerations=gpu:NoSchedule)\n"
        "  reap                       remove sandboxes left by crashed processes\n"
        "  deps list|clear [--language L]  cached dependency volumes (clear removes them)\n"
        "  bench cold [--iterations N]  benchmark a cold one-shot run (JSON)\n"
        "  bench notebook [--language L]  benchmark a notebook cell round trip (JSON)\n"
        "  bench pool [--iterations N]  benchmark warm pooled runs, throughput (JSON)\n"
        "  bench languages [--iterations N] [--language L]...  one-shot hello world per\n"
        "                               language and a Go net/http program (JSON)\n"
        "  mcp                        MCP server over stdio (what Claude Desktop launches);\n"
        "                             relays to a running window (--standalone: never)\n"
        "  mcp --http PORT [--token T]  MCP Streamable HTTP server on 127.0.0.1:PORT/mcp\n"
        "  bench zygote [--iterations N] [--cases DIR]  one-shot Python runs forked from a\n"
        "                             preloaded interpreter vs plain spawn vs cold (JSON)\n"
        "\n"
        "Options:\n"
        "  -h, --help                 show this help\n"
        "  -v, --version              show the version\n"
        "  --no-zygote                warm pool sandboxes keep no preloaded interpreter: every\n"
        "                             run starts a fresh one (also for the GUI)\n"
        "\n"
        "Every command uses $SANDBOX_STUDIO_BACKEND (a profile name or docker, podman,\n"
        "docker-tls) when set, else DOCKER_HOST/DOCKER_CERT_PATH/DOCKER_TLS_VERIFY.\n");
}

/// backends list | test [NAME] | show NAME | add NAME --kind K [--host URI]
/// [--tls-cert-path DIR] [--no-tls-verify] [--kubeconfig F] [--context C] [--namespace N]
/// [--set KEY=VALUE]... | remove NAME: the profiles the GUI's picker shows.
int cmdBackends(const QStringList &args)
{
    const QString sub = args.value(0);
    BackendProfileStore store;
    QTextStream out(stdout);
    if (sub == QLatin1String("list")) {
        const QString current = store.currentName();
        for (const BackendProfile &p : store.profiles())
            out << (p.name == current ? "* " : "  ") << p.name.leftJustified(28)
                << p.kind.leftJustified(12) << p.endpointDisplay() << Qt::endl;
        return 0;
    }
    if (sub == QLatin1String("test")) {
        auto engine = engineFrom(args.value(1), {});
        if (!engine)
            return reportError(engine.error(), false);
        auto info = (*engine)->ping();
        if (!info)
            return reportError(info.error(), false);
        out << (*engine)->profile().name << ": " << info->name << ' ' << info->version << " (API "
            << info->apiVersion << ") at " << (*engine)->runtime().endpointDisplay() << Qt::endl;
        return 0;
    }
    if (sub == QLatin1String("add")) {
        QCommandLineParser p;
        p.addPositionalArgument(QStringLiteral("name"), QStringLiteral("Profile name"));
        p.addOptions(
            {{QStringLiteral("kind"), QStringLiteral("docker, podman, docker-tls or kubernetes"),
              QStringLiteral("kind")},
             {QStringLiteral("host"), QStringLiteral("Endpoint URI"), QStringLiteral("uri")},
             {QStringLiteral("tls-cert-path"),
              QStringLiteral("Folder with ca.pem, cert.pem, key.pem"), QStringLiteral("dir")},
             {QStringLiteral("no-tls-verify"),
              QStringLiteral("Do not verify the server's certificate")},
             {QStringLiteral("kubeconfig"), QStringLiteral("Kubernetes: kubeconfig file"),
              QStringLiteral("file")},
             {QStringLiteral("context"), QStringLiteral("Kubernetes: context"),
              QStringLiteral("name")},
             {QStringLiteral("namespace"), QStringLiteral("Kubernetes: namespace"),
              QStringLiteral("name")},
             {QStringLiteral("set"),
              QStringLiteral("Kubernetes pod setting KEY=VALUE, repeatable (list keys add an "
                             "entry): %1")
                  .arg(kubernetesSettingKeys().join(QStringLiteral(", "))),
              QStringLiteral("key=value")}});
        const auto usage = [] {
            err() << "usage: sandbox-studio backends add NAME --kind K [--host URI] "
                     "[--tls-cert-path DIR] [--no-tls-verify] [--kubeconfig F] [--context C] "
                     "[--namespace N] [--set KEY=VALUE]..."
                  << Qt::endl;
            return ExitUsage;
        };
        if (!p.parse(QStringList{QStringLiteral("backends")} + args.mid(1)) ||
            p.positionalArguments().size() != 1)
            return usage();
        BackendProfile profile;
        profile.name = p.positionalArguments().value(0);
        profile.kind = p.value(QStringLiteral("kind"));
        profile.uri = p.value(QStringLiteral("host"));
        profile.certPath = p.value(QStringLiteral("tls-cert-path"));
        profile.tlsVerify = !p.isSet(QStringLiteral("no-tls-verify"));
        const bool kubeOptions =
            p.isSet(QStringLiteral("kubeconfig")) || p.isSet(QStringLiteral("context")) ||
            p.isSet(QStringLiteral("namespace")) || p.isSet(QStringLiteral("set"));
        if (profile.kind == QLatin1String("kubernetes") &&
            (p.isSet(QStringLiteral("host")) || p.isSet(QStringLiteral("tls-cert-path")))) {
            err() << "sandbox-studio: a kubernetes profile takes its server from the kubeconfig "
                     "(--kubeconfig, --context), not --host or --tls-cert-path"
                  << Qt::endl;
            return ExitUsage;
        }
        if (kubeOptions && profile.kind != QLatin1String("kubernetes")) {
            err() << "sandbox-studio: --kubeconfig, --context, --namespace and --set are for "
                     "--kind kubernetes"
                  << Qt::endl;
            return ExitUsage;
        }
        QStringList settings;
        for (const char *key : {"kubeconfig", "context", "namespace"})
            if (p.isSet(QLatin1String(key)))
                settings << QLatin1String(key) + u'=' + p.value(QLatin1String(key));
        settings += p.values(QStringLiteral("set"));
        for (const QString &kv : std::as_const(settings)) {
            const qsizetype eq = kv.indexOf(u'=');
            Result<void> set =
                eq <= 0 ? fail(ErrorCode::InvalidArgument,
                               QStringLiteral("--set needs KEY=VALUE, got '%1'").arg(kv))
                        : setKubernetesSetting(profile.kubernetes, kv.left(eq), kv.mid(eq + 1));
            if (!set) {
                reportError(set.error(), false);
                return ExitUsage;
            }
        }
        const bool existed =
            bool(store.find(profile.name)) && !BackendProfileStore::isBuiltIn(profile.name);
        if (auto saved = store.save(profile); !saved) {
            reportError(saved.error(), false);
            return ExitUsage;
        }
        out << (existed ? "replaced" : "added") << " profile " << profile.name << " ("
            << profile.kind << ")" << Qt::endl;
        return 0;
    }
    if (sub == QLatin1String("show")) {
        auto found = store.find(args.value(1));
        if (!found) {
            reportError(found.error(), false);
            return ExitUsage;
        }
        out << "name: " << found->name << "\nkind: " << found->kind
            << "\nendpoint: " << found->endpointDisplay() << Qt::endl;
        if (found->kind == QLatin1String("kubernetes"))
            for (const auto &[key, entries] : kubernetesSettingValues(found->kubernetes))
                for (const QString &entry : entries)
                    out << key << ": "
                        << (key == QLatin1String("rawManifest")
                                ? QStringLiteral("(%1 lines)").arg(entry.count(u'\n') + 1)
                                : entry)
                        << Qt::endl;
        return 0;
    }
    if (sub == QLatin1String("remove")) {
        if (auto removed = store.remove(args.value(1)); !removed) {
            reportError(removed.error(), false);
            return ExitUsage;
        }
        return 0;
    }
    err() << "usage: sandbox-studio backends list | test [NAME] | show NAME | add NAME --kind "
             "K ... | remove NAME"
          << Qt::endl;
    return ExitUsage;
}

int runCli(const QStringList &argsIn)
{
    QStringList args = argsIn;
    // --no-zygote (any position): pools made by this process fork no run from a
    // preloaded interpreter (PoolOptions::zygotes; SANDBOX_STUDIO_NO_ZYGOTE).
    if (args.removeAll(QStringLiteral("--no-zygote")) > 0)
        qputenv("SANDBOX_STUDIO_NO_ZYGOTE", "1");
    const QString cmd = args.value(0);
    const QStringList rest = args.mid(1);
    if (cmd == QLatin1String("run"))
        return cmdRun(rest);
    if (cmd == QLatin1String("images"))
        return cmdImages(rest);
    if (cmd == QLatin1String("doctor"))
        return cmdDoctor();
    if (cmd == QLatin1String("policy"))
        return cmdPolicy(rest);
    if (cmd == QLatin1String("reap"))
        return cmdReap();
    if (cmd == QLatin1String("bench"))
        return cmdBench(rest);
    if (cmd == QLatin1String("deps"))
        return cmdDeps(rest);
    if (cmd == QLatin1String("mcp"))
        return cmdMcp(rest);
    if (cmd == QLatin1String("backends"))
        return cmdBackends(rest);
    err() << "sandbox-studio: unknown command '" << cmd << "'\n\n" << cliUsage();
    return ExitUsage;
}
