// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine.h"

#include "images/imagerecipe.h"
#include "images/template.h"
#include "languages/language.h"
#include "policy/preflight.h"
#include "runtime/agentchannel.h"
#include "runtime/dockerruntime.h"
#include "runtime/kubernetesruntime.h"
#include "session/dependencies.h"
#include "session/pool.h"
#include "session/sandboxsetup.h"
#include "util/tarball.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHostInfo>
#include <QLoggingCategory>
#include <QMimeDatabase>
#include <QScopeGuard>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <csignal>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcSession, "sandbox.session", QtInfoMsg)

namespace sandbox {

namespace {

constexpr auto WorkDir = "/sandbox";
constexpr int KilledExitCode = 137; // 128 + SIGKILL, as shells report it

/// Counters of the sandbox's cgroup and work directory that say which limit a run hit.
struct LimitCounters
{
    int oomKills = 0; ///< "oom_kill N" (cgroup v1 memory.oom_control, v2 memory.events)
    int pidsMax = 0;  ///< "max N" of pids.events: forks refused at the process limit
    bool workDirFull = false;
};

/// Shell command printing what parseLimitCounters reads. Builtins only up to the counters
/// (a sandbox whose process limit is held may have room for the shell, not for a child):
/// "probe-ok" first says a process could start at all.
const QString LimitProbe = QStringLiteral(
    "echo probe-ok; "
    "for f in /sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events; do "
    "[ -r $f ] && while read a b; do echo \"$a $b\"; done < $f; done; "
    "for f in /sys/fs/cgroup/pids/pids.events /sys/fs/cgroup/pids.events; do "
    "[ -r $f ] && while read a b; do echo \"pids_$a $b\"; done < $f; done; "
    "stat -f -c 'workdir %b %a' /sandbox 2>/dev/null; true");

LimitCounters parseLimitCounters(const QByteArray &text)
{
    LimitCounters c;
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> parts = line.simplified().split(' ');
        if (parts.size() == 2 && parts[0] == "oom_kill")
            c.oomKills = qMax(c.oomKills, parts[1].toInt());
        else if (parts.size() == 2 && parts[0] == "pids_max")
            c.pidsMax = qMax(c.pidsMax, parts[1].toInt());
        else if (parts.size() == 3 && parts[0] == "workdir")
            c.workDirFull = parts[2].toLongLong() <= parts[1].toLongLong() / 100;
    }
    return c;
}

using StepRunner = std::function<Result<ExecResult>(const QStringList &argv, const ExecIo &io,
                                                    const CancelToken &cancel, qint64 timeoutMs,
                                                    qint64 outputLimit)>;

/// Brings back RunRequest::fetchPaths into result.fetched: each path is checked inside the
/// sandbox (realpath: links on the way must stay in the work directory), then archived.
void fetchRequested(const RunRequest &request, const StepRunner &run, const CancelToken &cancel,
                    RunResult &result)
{
    QStringList paths;
    for (const QString &p : request.fetchPaths) {
        if (p == QLatin1String(".") || p == QLatin1String("./")) {
            paths << QStringLiteral(".");
            continue;
        }
        auto safe = safeRelativePath(p);
        if (!safe) {
            result.refusedPaths.append(p + QStringLiteral(": ") + safe.error().message);
            continue;
        }
        paths << *safe;
    }
    if (paths.isEmpty())
        return;
    // Paths that leave the work directory or do not exist are reported on stderr as
    // "refused\tPATH\tREASON" and skipped; the rest are archived.
    // The paths that pass go to a NUL-separated list that tar reads.
    const QString full = QStringLiteral(
        "keep=\"\"; n=0\n"
        "for p; do\n"
        "  r=$(realpath -m -- \"/sandbox/$p\")\n"
        "  case \"$r\" in /sandbox|/sandbox/*) ;; *) printf 'refused\\t%s\\tleads outside the "
        "work directory (to %s)\\n' \"$p\" \"$r\" >&2; continue;; esac\n"
        "  [ -e \"/sandbox/$p\" ] || [ -L \"/sandbox/$p\" ] || { printf "
        "'refused\\t%s\\tno such file or folder\\n' \"$p\" >&2; continue; }\n"
        "  printf '%s\\0' \"$p\" >> /sandbox/.sandbox/fetch.list; n=1\n"
        "done\n"
        "[ \"$n\" = 1 ] || exit 0\n"
        "exec tar -c -f - -C /sandbox --null -T /sandbox/.sandbox/fetch.list "
        "--exclude=./.sandbox --exclude=./.agent\n");
    QByteArray tarOut, err;
    const qint64 readCap = request.limits.artifactBytes + (4ll << 20);
    bool capped = false;
    ExecIo io;
    io.onStdout = [&](QByteArrayView d) {
        tarOut += d;
        if (tarOut.size() > readCap) {
            capped = true;
            return false;
        }
        return true;
    };
    io.onStderr = [&](QByteArrayView d) {
        if (err.size() < 65536)
            err += d;
        return true;
    };
    auto r = run(QStringList{QStringLiteral("sh"), QStringLiteral("-c"),
                             QStringLiteral("rm -f /sandbox/.sandbox/fetch.list; ") + full,
                             QStringLiteral("fetch")} +
                     paths,
                 io, cancel, 60'000, 0);
    for (const QByteArray &line : err.split('\n')) {
        const QList<QByteArray> f = line.split('\t');
        if (f.size() >= 3 && f[0] == "refused")
            result.refusedPaths.append(QString::fromUtf8(f[1]) + QStringLiteral(": ") +
                                       QString::fromUtf8(line.mid(f[0].size() + f[1].size() + 2)));
    }
    if (!r) {
        result.refusedPaths.append(QStringLiteral("--get: ") + r.error().message);
        return;
    }
    TarReadLimits lim;
    lim.maxTotalBytes = request.limits.artifactBytes;
    lim.maxMembers = request.limits.artifactCount;
    bool truncated = false;
    auto read = readTar(tarOut, lim, &result.refusedPaths, &truncated);
    if (truncated || capped)
        result.artifactsTruncated = true;
    if (!read)
        return;
    static const QMimeDatabase mimeDb;
    for (TarMember &m : *read) {
        Artifact a;
        a.name = m.path;
        a.mimeType = mimeDb.mimeTypeForFileNameAndData(m.path, m.data).name();
        a.data = std::move(m.data);
        result.fetched.append(std::move(a));
    }
}

/// Runs the language's steps through run, then reads the OOM counter and collects the
/// artifacts: shared by the fresh-sandbox path (Docker exec) and the pooled one (agent).
/// programOptions go right after the run step's launcher (java -D... Main.java).
void executeSteps(const LanguageDescriptor *lang, const RunRequest &request,
                  const RunObserver &observer, const CancelToken &cancel, const QString &codeFile,
                  const QHash<QString, QByteArray> &inputs, const QStringList &depsLinks,
                  const QStringList &programOptions, const StepRunner &run,
                  const std::function<void()> &killSandbox, const LimitCounters &before,
                  RunResult &result, Result<void> &error)
{
    auto status = [&](const QString &s) {
        if (observer.onStatus)
            observer.onStatus(s);
    };
    qint64 kept = 0;
    auto keep = [&](QByteArray &sink, QByteArrayView data,
                    const std::function<void(QByteArrayView)> &forward) {
        const qint64 room = request.limits.outputBytes - kept;
        if (room <= 0) {
            result.outputTruncated = true;
            return true; // keep draining so the program is not blocked on a full pipe
        }
        const QByteArrayView part = data.first(qMin<qint64>(room, data.size()));
        if (part.size() < data.size())
            result.outputTruncated = true;
        sink.append(part);
        kept += part.size();
        if (forward)
            forward(part);
        return true;
    };

    // A custom image: its toolchain must be there, and a template's saved work directory
    // comes back first (files it restores are not the program's artifacts).
    bool restored = false;
    if (!request.image.isEmpty()) {
        status(QStringLiteral("preparing the image"));
        QByteArray out, err;
        ExecIo io;
        io.onStdout = [&](QByteArrayView d) {
            out += d;
            return true;
        };
        io.onStderr = [&](QByteArrayView d) {
            err += d;
            return true;
        };
        auto r = run(customImagePrepArgv(toolchainOf(*lang)), io, cancel, 120'000, 0);
        if (!r) {
            error = std::unexpected(r.error());
            return;
        }
        if (auto ok = customImagePrepResult(r->exitCode, out, err, request.image, *lang); !ok) {
            error = std::unexpected(ok.error());
            return;
        }
        restored = out.contains("restored");
    }

    QList<LanguageStep> steps = lang->stepsFor(codeFile, request.standard);
    for (LanguageStep &step : steps)
        if (step.phase == LanguageStep::Phase::Run && !step.argv.isEmpty())
            for (qsizetype i = 0; i < programOptions.size(); ++i)
                step.argv.insert(1 + i, programOptions[i]);
    bool killed = false;
    for (const LanguageStep &step : steps) {
        ExecSpec exec;
        exec.argv = step.argv;
        ExecIo io;
        QElapsedTimer phase;
        phase.start();
        Result<ExecResult> r;
        if (step.phase == LanguageStep::Phase::Compile) {
            status(QStringLiteral("compiling"));
            result.compile.ran = true;
            io.onStdout = [&](QByteArrayView d) {
                result.compile.output += d;
                return true;
            };
            io.onStderr = io.onStdout;
            const qint64 budget = qMax<qint64>(request.limits.timeoutMs, 120'000);
            r = run(exec.argv, io, cancel, budget, 0);
            result.compile.durationMs = phase.elapsed();
        } else {
            status(QStringLiteral("running"));
            io.onStdout = [&](QByteArrayView d) {
                return keep(result.stdoutData, d, observer.onStdout);
            };
            io.onStderr = [&](QByteArrayView d) {
                return keep(result.stderrData, d, observer.onStderr);
            };
            r = run(exec.argv, io, cancel, request.limits.timeoutMs,
                    request.limits.outputBytes + 1);
            result.durationMs = phase.elapsed();
        }
        if (!r) {
            error = std::unexpected(r.error());
            return;
        }
        if (r->deadlineExceeded || r->cancelled) {
            // Stop the program for real: kill the whole sandbox, not just our stream.
            killSandbox();
            killed = true;
            result.timedOut = r->deadlineExceeded;
            result.cancelled = r->cancelled;
            result.exitCode = KilledExitCode;
            status(r->cancelled ? QStringLiteral("cancelled") : QStringLiteral("timed out"));
            break;
        }
        result.exitCode = r->exitCode;
        if (step.phase == LanguageStep::Phase::Compile) {
            result.compile.exitCode = r->exitCode;
            if (r->exitCode != 0) {
                // A compile error is the user's failed run, with the compiler's message.
                result.stderrData = result.compile.output;
                if (observer.onStderr)
                    observer.onStderr(result.stderrData);
                break;
            }
        }
    }

    if (!killed) {
        // A process killed by the kernel's OOM killer inside a running sandbox leaves the
        // container running with State.OOMKilled false: read the cgroup's counters (and
        // whether forks were refused or the work directory filled) when the program failed.
        if (result.exitCode != 0) {
            QByteArray text;
            ExecIo io;
            io.onStdout = [&](QByteArrayView d) {
                text += d;
                return true;
            };
            auto r =
                run({QStringLiteral("sh"), QStringLiteral("-c"), LimitProbe}, io, {}, 10'000, 0);
            if (r && text.startsWith("probe-ok")) {
                const LimitCounters after = parseLimitCounters(text);
                if (after.oomKills > before.oomKills) {
                    // Killed itself, or one of its processes was (the "memory" limit hit).
                    result.oomKilled = result.exitCode == KilledExitCode;
                    result.limitsHit.append(QStringLiteral("memory"));
                }
                if (after.pidsMax > before.pidsMax)
                    result.limitsHit.append(QStringLiteral("pids"));
                if (after.workDirFull)
                    result.limitsHit.append(QStringLiteral("work_dir"));
            } else if (r) {
                // Nothing could start in the sandbox after the program ended: processes it
                // left behind hold every slot of the process limit.
                result.limitsHit.append(QStringLiteral("pids"));
                result.notes.append(QStringLiteral(
                    "processes the program left running hold the sandbox's process limit: "
                    "nothing more could start in it, so no files were collected"));
                return; // the copy-out cannot start either
            } else {
                // The sandbox itself is gone: the program ended its keeper process.
                result.notes.append(QStringLiteral("the sandbox stopped with the program (%1); "
                                                   "no files were collected")
                                        .arg(r.error().message));
                return;
            }
        }

        // Bring back what the program wrote: new or changed files in the work directory.
        status(QStringLiteral("collecting artifacts"));
        ExecSpec copyOut;
        copyOut.argv = {QStringLiteral("tar"),
                        QStringLiteral("-c"),
                        QStringLiteral("-f"),
                        QStringLiteral("-"),
                        QStringLiteral("-C"),
                        QLatin1String(WorkDir),
                        QStringLiteral("--exclude=./.sandbox"),
                        QStringLiteral("--exclude=./.agent")};
        for (const QString &link : depsLinks)
            copyOut.argv.append(QStringLiteral("--exclude=./") + link);
        if (restored)
            copyOut.argv.append(
                QStringLiteral("--newer-mtime=/sandbox/.sandbox/template-restored"));
        // Files in output/ always come back; other new files of the work directory only
        // when the request asks for them (the default).
        copyOut.argv.append(request.collectWorkDirFiles ? QStringLiteral(".")
                                                        : QStringLiteral("./output"));
        QByteArray tarOut;
        const qint64 readCap = request.limits.artifactBytes + (4ll << 20);
        bool capped = false;
        ExecIo io;
        io.onStdout = [&](QByteArrayView d) {
            tarOut += d;
            if (tarOut.size() > readCap) {
                capped = true;
                return false;
            }
            return true;
        };
        auto r = run(copyOut.argv, io, cancel, 60'000, 0);
        if (r) {
            bool truncated = false;
            // The tar also holds the unchanged inputs: leave room for them, then apply the
            // artifact limits to what the program produced.
            qint64 inputBytes = 0;
            for (const QByteArray &data : std::as_const(inputs))
                inputBytes += data.size();
            TarReadLimits lim;
            lim.maxTotalBytes = request.limits.artifactBytes + inputBytes;
            lim.maxMembers = request.limits.artifactCount + int(inputs.size());
            auto read = readTar(tarOut, lim, &result.refusedPaths, &truncated);
            result.artifactsTruncated = truncated || capped;
            if (read) {
                static const QMimeDatabase mimeDb;
                qint64 artifactBytes = 0;
                for (TarMember &m : *read) {
                    auto in = inputs.constFind(m.path);
                    if (in != inputs.constEnd() && *in == m.data)
                        continue; // an input, unchanged
                    if (result.artifacts.size() >= request.limits.artifactCount ||
                        artifactBytes + m.data.size() > request.limits.artifactBytes) {
                        result.artifactsTruncated = true;
                        result.refusedPaths.append(m.path +
                                                   QStringLiteral(": artifact limit reached"));
                        continue;
                    }
                    artifactBytes += m.data.size();
                    Artifact a;
                    a.name = m.path;
                    a.mimeType = mimeDb.mimeTypeForFileNameAndData(m.path, m.data).name();
                    a.data = std::move(m.data);
                    result.artifacts.append(std::move(a));
                }
            }
        }
        if (!request.fetchPaths.isEmpty())
            fetchRequested(request, run, cancel, result);
    }
}

/// Nothing could start in the sandbox after the run: either leftovers hold the process
/// limit, or the sandbox stopped (the program killed its keeper with kill -1). Tell which.
void distinguishStoppedSandbox(Runtime &runtime, const QString &id, RunResult &result)
{
    // A sandbox whose keeper was killed takes a moment to be reported as stopped.
    for (int attempt = 0; attempt < 8; ++attempt) {
        auto list = runtime.list(QLatin1String(labels::Owner), ownerLabel());
        if (!list)
            return;
        for (const SandboxInfo &s : *list) {
            if (!(s.id.startsWith(id) || id.startsWith(s.id)) ||
                s.state == QLatin1String("running"))
                continue;
            result.limitsHit.removeAll(QStringLiteral("pids"));
            result.notes.removeIf([](const QString &n) {
                return n.startsWith(QLatin1String("processes the program left"));
            });
            result.notes.append(QStringLiteral("the sandbox stopped with the program (it ended "
                                               "the sandbox's keeper process); no files were "
                                               "collected"));
            return;
        }
        QThread::msleep(250);
    }
}

/// The run's dependencies; files copied in are the program's own modules.
Result<DependencyPlan> planFor(const LanguageDescriptor &lang, const RunRequest &request)
{
    QStringList local;
    for (const InputFile &f : request.files) {
        const QString first = f.path.section(u'/', 0, 0);
        local.append(first.section(u'.', 0, 0));
    }
    return planDependencies(lang, request.code, request.libraries, local);
}

} // namespace

QString ownerLabel()
{
    return QHostInfo::localHostName() + u'/' + QString::number(::getpid());
}

Result<void> Limits::validate() const
{
    auto bad = [](const QString &msg) { return fail(ErrorCode::InvalidArgument, msg); };
    if (memoryBytes != 0 && memoryBytes < (32ll << 20))
        return bad(memoryBytes < (1ll << 20)
                       ? QStringLiteral("memory limit %1 bytes is below the minimum of 32 MiB")
                             .arg(memoryBytes)
                       : QStringLiteral("memory limit %1 MiB is below the minimum of 32 MiB")
                             .arg(memoryBytes >> 20));
    if (nanoCpus < 0 || nanoCpus > 256'000'000'000ll)
        return bad(QStringLiteral("CPU limit must be between 0.01 and 256 CPUs"));
    if (nanoCpus != 0 && nanoCpus < 10'000'000)
        return bad(QStringLiteral("CPU limit must be at least 0.01 CPUs"));
    if (pids < 0 || (pids != 0 && pids < 8))
        return bad(QStringLiteral("process limit must be at least 8"));
    if (timeoutMs <= 0 || timeoutMs > 24ll * 3600 * 1000)
        return bad(QStringLiteral("timeout must be between 1 ms and 24 hours"));
    if (outputBytes < 1024)
        return bad(QStringLiteral("output cap must be at least 1 KiB"));
    if (workDirBytes < (1ll << 20))
        return bad(QStringLiteral("work directory must be at least 1 MiB"));
    if (artifactCount < 0 || artifactBytes < 0)
        return bad(QStringLiteral("artifact limits must not be negative"));
    return {};
}

BackendProfile BackendProfile::fromEnvironment()
{
    BackendProfile p;
    p.uri = qEnvironmentVariable("DOCKER_HOST");
    p.certPath = qEnvironmentVariable("DOCKER_CERT_PATH");
    const bool verify = !qEnvironmentVariable("DOCKER_TLS_VERIFY").isEmpty();
    if (verify && p.certPath.isEmpty())
        p.certPath = QDir::home().filePath(QStringLiteral(".docker"));
    p.tlsVerify = verify;
    if (!p.certPath.isEmpty() || verify) {
        p.kind = QStringLiteral("docker-tls");
        p.name = QStringLiteral("Docker over TLS (environment)");
    }
    return p;
}

BackendProfile BackendProfile::localDocker()
{
    BackendProfile p = fromEnvironment();
    if (p.kind == QLatin1String("docker"))
        p.name = QStringLiteral("Local Docker");
    return p;
}

BackendProfile BackendProfile::localPodman()
{
    BackendProfile p;
    p.name = QStringLiteral("Local Podman");
    p.kind = QStringLiteral("podman");
    return p;
}

QString BackendProfile::defaultPodmanUri()
{
    const QString containerHost = qEnvironmentVariable("CONTAINER_HOST");
    if (!containerHost.isEmpty())
        return containerHost;
    const QString rootful = QStringLiteral("/run/podman/podman.sock");
    const QString runtimeDir = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (QFileInfo::exists(rootful) || ::geteuid() == 0 || runtimeDir.isEmpty())
        return QStringLiteral("unix://") + rootful;
    return QStringLiteral("unix://") + runtimeDir + QStringLiteral("/podman/podman.sock");
}

Result<Endpoint> BackendProfile::endpoint() const
{
    auto named = [&](Error e) {
        e.message = QStringLiteral("Profile '%1': ").arg(name) + e.message;
        return std::unexpected(e);
    };
    Result<Endpoint> ep;
    if (kind == QLatin1String("docker")) {
        ep = uri.isEmpty() ? Endpoint::fromUri(QStringLiteral("unix:///var/run/docker.sock"))
                           : Endpoint::fromUri(uri, certPath, tlsVerify);
    } else if (kind == QLatin1String("podman")) {
        ep = Endpoint::fromUri(uri.isEmpty() ? defaultPodmanUri() : uri, certPath, tlsVerify);
    } else if (kind == QLatin1String("docker-tls")) {
        const QString host = uri.isEmpty() ? qEnvironmentVariable("DOCKER_HOST") : uri;
        if (host.isEmpty())
            return named(Error{ErrorCode::InvalidArgument,
                               QStringLiteral("Docker over TLS needs a host (tcp://HOST:2376)"),
                               {}});
        if (host.startsWith(QLatin1String("unix://")) || host.startsWith(QLatin1String("http://")))
            return named(Error{ErrorCode::InvalidArgument,
                               QStringLiteral("Docker over TLS needs a tcp:// or https:// host, "
                                              "not %1")
                                   .arg(host),
                               {}});
        ep = Endpoint::fromUri(host, certPath, tlsVerify, true);
    } else {
        return named(Error{ErrorCode::InvalidArgument,
                           QStringLiteral("The %1 backend has no Docker API endpoint").arg(kind),
                           {}});
    }
    if (!ep)
        return named(ep.error());
    if (ep->isTls()) {
        if (!caFile.isEmpty())
            ep->caFile = caFile;
        if (!certFile.isEmpty())
            ep->certFile = certFile;
        if (!keyFile.isEmpty())
            ep->keyFile = keyFile;
    }
    if (auto checked = ep->checkFiles(); !checked)
        return named(checked.error());
    return ep;
}

QString BackendProfile::endpointDisplay() const
{
    if (kind == QLatin1String("kubernetes"))
        return kubernetes.context.isEmpty() ? QStringLiteral("kubeconfig current-context")
                                            : QStringLiteral("context ") + kubernetes.context;
    auto ep = endpoint();
    return ep ? ep->display() : uri;
}

QString BackendProfile::describe() const
{
    const QString where = endpointDisplay();
    return where.isEmpty() ? QStringLiteral("Profile '%1'").arg(name)
                           : QStringLiteral("Profile '%1' (%2)").arg(name, where);
}

Result<std::shared_ptr<Engine>> Engine::create(const BackendProfile &profile)
{
    if (profile.kind == QLatin1String("kubernetes")) {
        auto runtime = KubernetesRuntime::create(profile.kubernetes, profile.name);
        if (!runtime)
            return std::unexpected(runtime.error());
        auto engine = std::make_shared<Engine>(*runtime);
        engine->m_profile = profile;
        return engine;
    }
    if (profile.kind != QLatin1String("docker") && profile.kind != QLatin1String("docker-tls") &&
        profile.kind != QLatin1String("podman"))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Profile '%1': the %2 backend is not available in this build "
                                   "(known: docker, podman, docker-tls, kubernetes)")
                        .arg(profile.name, profile.kind));
    auto ep = profile.endpoint();
    if (!ep)
        return std::unexpected(ep.error());
    auto engine = std::make_shared<Engine>(std::make_shared<DockerRuntime>(*ep, profile.kind));
    engine->m_profile = profile;
    return engine;
}

Engine::Engine(std::shared_ptr<Runtime> runtime)
    : m_runtime(std::move(runtime))
    , m_policy(Policy::preset(QStringLiteral("standard")).value_or(Policy()))
{
    m_profile.kind = m_runtime->backend();
    m_profile.name = m_runtime->backend();
}

void Engine::setPolicy(const Policy &policy)
{
    std::lock_guard lock(m_policyMutex);
    m_policy = policy;
}

Policy Engine::policy() const
{
    std::lock_guard lock(m_policyMutex);
    return m_policy;
}

void Engine::setAskHandler(PolicyAskHandler handler)
{
    std::lock_guard lock(m_policyMutex);
    m_ask = std::move(handler);
}

Result<RuntimeInfo> Engine::ping()
{
    auto info = m_runtime->ping();
    if (!info) {
        Error e = info.error();
        if (e.code == ErrorCode::EngineUnreachable) {
            const QString kind = m_runtime->backend();
            if (kind == QLatin1String("podman"))
                e.message += QStringLiteral(
                    " Start the podman service (`./studio.sh services`, or `podman system service "
                    "--time=0 unix:///run/podman/podman.sock &`) and try again.");
            else if (kind == QLatin1String("docker-tls"))
                e.message += QStringLiteral(" Check that dockerd listens there with --tlsverify "
                                            "and that the host and port are right.");
            else if (kind != QLatin1String("kubernetes")) // its messages say what to check
                e.message += QStringLiteral(" Start it (`sudo dockerd &` or `sudo systemctl start "
                                            "docker`) and try again.");
        }
        if (m_runtime->backend() != QLatin1String("kubernetes") &&
            !e.message.startsWith(QLatin1String("Profile '")))
            e.message = QStringLiteral("Profile '%1': ").arg(m_profile.name) + e.message;
        return std::unexpected(e);
    }
    return info;
}

Result<QString> Engine::defaultImageFor(const QString &language)
{
    const LanguageDescriptor *lang = LanguageRegistry::instance().find(language);
    if (!lang)
        return fail(
            ErrorCode::UnknownLanguage,
            QStringLiteral("Unknown language '%1'. Known: %2")
                .arg(language, LanguageRegistry::instance().ids().join(QStringLiteral(", "))));
    const ImageRecipe *recipe = ImageCatalog::instance().find(lang->imageRecipe);
    if (!recipe)
        return fail(ErrorCode::NotFound,
                    QStringLiteral("No image recipe for %1").arg(lang->displayName));
    return recipe->reference();
}

QFuture<Result<RunResult>> Engine::run(RunRequest request, RunObserver observer, CancelToken cancel)
{
    return QtConcurrent::run(
        [this, request = std::move(request), observer = std::move(observer),
         cancel = std::move(cancel)] { return runBlocking(request, observer, cancel); });
}

Result<RunResult> Engine::runBlocking(const RunRequest &request, const RunObserver &observer,
                                      const CancelToken &cancel)
{
    // Limits for the language and the policy, before anything is created.
    PolicyAskHandler ask;
    {
        std::lock_guard lock(m_policyMutex);
        ask = m_ask;
    }
    auto preflight = preflightRun(request, policy(), ask, observer);
    if (!preflight)
        return std::unexpected(preflight.error());
    if (preflight->stopped)
        return *preflight->stopped;
    auto result = runAttempt(request, observer, cancel, 0);
    if (result)
        completeReport(*result, request, *preflight);
    return result;
}

Result<RunResult> Engine::runAttempt(const RunRequest &request, const RunObserver &observer,
                                     const CancelToken &cancel, int attempt)
{
    QElapsedTimer total;
    total.start();
    auto status = [&](const QString &s) {
        if (observer.onStatus)
            observer.onStatus(s);
    };

    const LanguageDescriptor *lang = LanguageRegistry::instance().find(request.language);
    if (!lang)
        return fail(ErrorCode::UnknownLanguage,
                    QStringLiteral("Unknown language '%1'. Known: %2")
                        .arg(request.language,
                             LanguageRegistry::instance().ids().join(QStringLiteral(", "))));
    if (auto v = request.limits.validate(); !v)
        return std::unexpected(v.error());
    if (!request.standard.isEmpty() && !lang->standards.contains(request.standard))
        return fail(
            ErrorCode::InvalidArgument,
            lang->standards.isEmpty()
                ? QStringLiteral("%1 has no selectable language standard").arg(lang->displayName)
                : QStringLiteral("Unknown %1 standard '%2'. Known: %3")
                      .arg(lang->displayName, request.standard,
                           lang->standards.join(QStringLiteral(", "))));

    QString image = request.image;
    if (image.isEmpty()) {
        auto def = defaultImageFor(lang->id);
        if (!def)
            return std::unexpected(def.error());
        image = *def;
    }

    // Build the work directory's contents first: bad file paths fail before any container.
    const QString codeFile = lang->fileNameFor(request.code);
    QList<TarMember> members = helperMembers(*lang);
    QHash<QString, QByteArray> inputs;
    for (const InputFile &f : request.files) {
        auto safe = safeRelativePath(f.path);
        if (!safe)
            return std::unexpected(safe.error());
        // Parent directories of nested inputs.
        const QStringList parts = safe->split(u'/');
        for (int i = 1; i < parts.size(); ++i)
            members.append({parts.mid(0, i).join(u'/'), TarMember::Type::Directory, {}, 0755, {}});
        members.append({*safe, TarMember::Type::File, f.content, 0644, {}});
        inputs.insert(*safe, f.content);
    }
    members.append({codeFile, TarMember::Type::File, request.code.toUtf8(), 0644, {}});
    inputs.insert(codeFile, request.code.toUtf8());
    if (auto check = makeTar(members); !check)
        return std::unexpected(check.error());

    if (cancel.isCancelled())
        return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled before the run started"));
    // Sandboxes an earlier run could not remove (the engine was down): try again now.
    retryPendingRemovals();

    QStringList notes;
    auto network = resolveNetwork(*m_runtime, request.network, &notes);
    if (!network)
        return std::unexpected(network.error());
    for (const QString &note : notes)
        status(note);

    // Dependencies: named or detected, installed with network into a cached volume that
    // the program's sandbox mounts read-only (the program keeps the network it asked for).
    auto plan = planFor(*lang, request);
    if (!plan)
        return std::unexpected(plan.error());
    auto note = [&](const QString &n) {
        notes.append(n);
        status(n);
    };
    if (plan->fromCode && !request.image.isEmpty() && !plan->packages.isEmpty()) {
        // A custom image (a Dockerfile build, a template) is taken to carry what the code
        // imports: installing detected names would shadow its packages, or fail offline.
        note(QStringLiteral("custom image %1: imports (%2) are expected in the image; name "
                            "libraries to install them")
                 .arg(request.image, plan->detected.join(QStringLiteral(", "))));
        plan->packages.clear();
        plan->detected.clear();
        plan->unsupported.clear();
    }
    if (plan->fromCode && !plan->detected.isEmpty())
        note(QStringLiteral("dependencies detected from the code: %1")
                 .arg(plan->detected.join(QStringLiteral(", "))));
    for (const QString &n : plan->notes)
        note(n);
    if (!plan->unsupported.isEmpty()) {
        if (!plan->fromCode)
            return fail(ErrorCode::DependencyFailed, plan->unsupported);
        note(plan->unsupported);
    }
    SandboxSpec spec =
        hardenedSpec(*lang, image, request.limits, *network, QStringLiteral("oneshot"));
    // A backstop should this process die without removing the sandbox (SIGKILL, a crash):
    // PID 1 ends some minutes after the run's own limit, and the program with it, instead
    // of running on until `reap`. Dependencies are installed before, elsewhere.
    if (request.limits.timeoutMs > 0)
        spec.command = {QStringLiteral("sleep"),
                        QString::number(request.limits.timeoutMs / 1000 + 600)};
    for (const QString &n : m_runtime->unappliedLimits(spec))
        note(n); // said, not silently dropped (rootless Podman on cgroup v1)
    QString depsVolume;
    QStringList depsLinks;
    if (plan->needsInstall()) {
        InstallOptions opts;
        opts.image = image;
        opts.cranRepo = cranRepositoryFor(request);
        opts.trustHostCa = request.trustHostCa;
        opts.extraMounts = request.installMounts;
        opts.code = request.code;
        opts.status = status;
        auto prepared = ensureDependencies(*m_runtime, *lang, *plan, opts, cancel);
        if (!prepared && plan->fromCode && prepared.error().code == ErrorCode::DependencyFailed) {
            // Worked out from the imports, not asked for: often a guarded import (try /
            // except ImportError) of something the registry does not have. The program
            // runs without it and the result says why; named libraries still fail the run.
            note(prepared.error().message + QStringLiteral(" The program runs without them."));
        } else if (!prepared) {
            return std::unexpected(prepared.error());
        } else {
            depsVolume = prepared->volume;
            if (!prepared->cached)
                note(QStringLiteral("installed: %1")
                         .arg((prepared->installed.isEmpty() ? plan->packages : prepared->installed)
                                  .join(QStringLiteral(", "))));
            useDependencies(*plan, depsVolume, spec, members, &depsLinks);
        }
    }
    QStringList programOptions;
    if (*network != NetworkMode::None && request.trustHostCa) {
        const QByteArray bundle = hostCaBundle();
        if (bundle.isEmpty())
            note(QStringLiteral("no CA bundle found on this machine (SANDBOX_STUDIO_CA_BUNDLE, "
                                "SSL_CERT_FILE, /etc/ssl/certs/ca-certificates.crt): the "
                                "sandbox trusts its image's certificates only"));
        addCaTrust(spec, members, bundle);
        // The JVM reads none of the variables: it gets a trust store of its own.
        if (!bundle.isEmpty() && lang->id == QLatin1String("java")) {
            if (auto store = javaTrustStore(bundle); store) {
                members.append({QString::fromLatin1(SandboxJavaTrustStorePath)
                                    .mid(qstrlen(SandboxWorkDir) + 1),
                                TarMember::Type::File,
                                *store,
                                0644,
                                {}});
                programOptions = javaTrustOptions();
            } else {
                note(store.error().message + QStringLiteral(": Java trusts its image's "
                                                            "certificates only"));
            }
        }
    }
    auto tar = makeTar(members);
    if (!tar)
        return std::unexpected(tar.error());

    if (std::shared_ptr<SandboxPool> pool = this->pool();
        pool && !plan->needsInstall() && request.installMounts.isEmpty() &&
        !(*network != NetworkMode::None && request.trustHostCa)) {
        bool acquired = false;
        auto pooled = runPooled(*pool, *lang, image, *network, request, observer, cancel, *tar,
                                codeFile, inputs, notes, total, &acquired);
        // Every warm sandbox stayed busy for the pool's wait (many long runs at once, e.g.
        // compiles under load): the run is not lost, it takes a fresh sandbox instead.
        if (acquired || pooled || pooled.error().code != ErrorCode::Timeout || cancel.isCancelled())
            return pooled;
        const QString n = QStringLiteral("the sandbox pool is busy: running in a fresh sandbox");
        notes.append(n);
        status(n);
    }

    status(QStringLiteral("creating sandbox"));
    auto created = m_runtime->create(spec);
    if (!created)
        return std::unexpected(created.error());
    const QString id = *created;
    // The sandbox is removed on every path out of this function.
    auto removeGuard = qScopeGuard([&] { removeOrRemember(id); });
    if (auto s = m_runtime->start(id); !s)
        return std::unexpected(s.error());

    RunResult result;
    result.sandboxId = id;
    result.image = image;
    result.language = lang->id;
    result.notes = notes;

    QByteArray cachedList;
    if (auto copied = copyIntoSandbox(
            *m_runtime, id, *tar, cancel,
            depsVolume.isEmpty() ? QString() : QLatin1String(DependencyMarker), &cachedList);
        !copied) {
        // A custom image without the basics: the sandbox's command (sleep) exits at once,
        // or tar is missing.
        // (NotFound: the exec vanished with the stopped sandbox, when no dependency marker
        // was asked for.)
        const ErrorCode code = copied.error().code;
        if ((code == ErrorCode::IoError || code == ErrorCode::EngineError ||
             (code == ErrorCode::NotFound && depsVolume.isEmpty())) &&
            !request.image.isEmpty()) {
            Error e = copied.error();
            e.code = ErrorCode::InvalidArgument;
            e.detail = e.toString();
            e.message = QStringLiteral("Image %1 cannot be used as a sandbox: it needs /bin/sh, "
                                       "sleep and tar")
                            .arg(request.image);
            return std::unexpected(e);
        }
        if (copied.error().code != ErrorCode::NotFound || depsVolume.isEmpty())
            return std::unexpected(copied.error());
        // The volume lacks the marker a finished install writes last: another process is
        // still filling it (wait, then use it), an install was interrupted (a crash, a
        // killed engine), or the volume was removed under us and the engine created an
        // empty one (drop it and install again).
        m_runtime->remove(id);
        constexpr int MaxAttempts = 3;
        auto waited = waitForInstalls(*m_runtime, depsVolume, status, cancel);
        if (!waited)
            return std::unexpected(waited.error());
        QString n;
        if (!*waited) {
            auto removed = m_runtime->removeVolume(depsVolume);
            if (!removed || attempt + 1 >= MaxAttempts)
                return fail(ErrorCode::DependencyFailed,
                            QStringLiteral("The dependency cache %1 is incomplete (an earlier "
                                           "install was interrupted) and could not be rebuilt")
                                .arg(depsVolume),
                            removed ? QString() : removed.error().toString());
            n = QStringLiteral("the dependency cache %1 was incomplete (an earlier install was "
                               "interrupted): installing again")
                    .arg(depsVolume);
            status(n);
        } else if (attempt + 1 >= MaxAttempts) {
            return fail(
                ErrorCode::DependencyFailed,
                QStringLiteral("The dependency cache %1 stayed incomplete").arg(depsVolume));
        }
        auto again = runAttempt(request, observer, cancel, attempt + 1);
        if (again && !n.isEmpty())
            again->notes.prepend(n);
        return again;
    }
    if (!depsVolume.isEmpty() && result.notes.filter(QStringLiteral("installed: ")).isEmpty()) {
        QStringList list = QString::fromUtf8(cachedList).split(u'\n', Qt::SkipEmptyParts);
        const QString n =
            QStringLiteral("dependencies from cache: %1").arg(list.join(QStringLiteral(", ")));
        result.notes.append(n);
        status(n);
    }

    auto dockerRun = [&](const QStringList &argv, const ExecIo &io, const CancelToken &c,
                         qint64 timeoutMs, qint64) {
        ExecSpec exec;
        exec.argv = argv;
        return m_runtime->exec(id, exec, io, c, Deadline::in(std::chrono::milliseconds(timeoutMs)));
    };
    Result<void> failed;
    executeSteps(
        lang, request, observer, cancel, codeFile, inputs, depsLinks, programOptions, dockerRun,
        [&] { m_runtime->kill(id); }, LimitCounters{}, result, failed);
    if (!failed)
        return std::unexpected(failed.error());
    if (result.limitsHit.contains(QStringLiteral("pids")) &&
        !result.notes.filter(QStringLiteral("processes the program left")).isEmpty())
        distinguishStoppedSandbox(*m_runtime, id, result);
    // Tar order is directory order: give artifacts a stable order (figure-001, -002, ...).
    std::sort(result.artifacts.begin(), result.artifacts.end(),
              [](const Artifact &a, const Artifact &b) { return a.name < b.name; });
    result.totalMs = total.elapsed();
    status(QStringLiteral("finished"));
    return result;
}

void Engine::setPool(std::shared_ptr<SandboxPool> pool)
{
    std::lock_guard lock(m_poolMutex);
    m_pool = std::move(pool);
}

std::shared_ptr<SandboxPool> Engine::pool() const
{
    std::lock_guard lock(m_poolMutex);
    return m_pool;
}

Result<RunResult>
Engine::runPooled(SandboxPool &pool, const LanguageDescriptor &lang, const QString &image,
                  NetworkMode network, const RunRequest &request, const RunObserver &observer,
                  const CancelToken &cancel, const QByteArray &tar, const QString &codeFile,
                  const QHash<QString, QByteArray> &inputs, const QStringList &notes,
                  const QElapsedTimer &total, bool *acquired)
{
    auto status = [&](const QString &s) {
        if (observer.onStatus)
            observer.onStatus(s);
    };
    status(QStringLiteral("borrowing a warm sandbox"));
    auto lease = pool.acquire(
        PoolKey::from(m_runtime->backend(), lang.id, image, request.limits, network), cancel);
    if (!lease)
        return std::unexpected(lease.error());
    *acquired = true;
    AgentChannel &agent = (*lease)->channel();

    RunResult result;
    result.sandboxId = (*lease)->sandboxId();
    result.image = image;
    result.language = lang.id;
    result.notes = notes;

    if (auto put = agent.putTar(QLatin1String(WorkDir), tar); !put) {
        (*lease)->discard();
        return std::unexpected(put.error());
    }
    if (cancel.isCancelled())
        return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled before the run started"));

    bool broken = false;
    // The program itself forks from the sandbox's preloaded interpreter when it has one
    // (PoolOptions::zygotes); compile steps and the engine's own helpers exec.
    const QString zygote = (*lease)->zygoteLanguage();
    const QList<LanguageStep> steps = lang.stepsFor(codeFile, request.standard);
    const QStringList programArgv = steps.isEmpty() ? QStringList() : steps.last().argv;
    auto agentRun = [&](const QStringList &argv, const ExecIo &io, const CancelToken &c,
                        qint64 timeoutMs, qint64 outputLimit) -> Result<ExecResult> {
        AgentRunSpec spec;
        spec.argv = argv;
        spec.timeoutMs = timeoutMs;
        spec.outputLimit = outputLimit;
        const bool program = argv == programArgv;
        if (program && !zygote.isEmpty())
            spec.zygote = zygote;
        auto r = agent.run(
            spec, io, c,
            Deadline::in(std::chrono::milliseconds(timeoutMs) + std::chrono::seconds(10)));
        if (!r) {
            broken = true;
            return std::unexpected(r.error());
        }
        if (program && !zygote.isEmpty())
            status(r->viaZygote ? QStringLiteral("ran in a preloaded interpreter")
                                : QStringLiteral("ran in a fresh interpreter: ") + r->zygoteWhy);
        if (program)
            status(QStringLiteral("program CPU time: %1 ms").arg(r->userMs + r->sysMs));
        ExecResult e;
        e.exitCode = r->exitCode;
        e.cancelled = r->cancelled;
        e.deadlineExceeded = r->timedOut || r->deadlineExceeded;
        e.stoppedByReader = r->stoppedByReader;
        if (!r->error.isEmpty() && io.onStderr)
            io.onStderr(QByteArray(r->error.toUtf8() + '\n'));
        return e;
    };
    // The cgroup's counters live as long as the sandbox: compare with their values now.
    LimitCounters before;
    {
        QByteArray text;
        ExecIo io;
        io.onStdout = [&](QByteArrayView d) {
            text += d;
            return true;
        };
        if (auto r = agentRun({QStringLiteral("sh"), QStringLiteral("-c"), LimitProbe}, io, {},
                              10'000, 0);
            r)
            before = parseLimitCounters(text);
    }
    Result<void> failed;
    executeSteps(
        &lang, request, observer, cancel, codeFile, inputs, {}, {}, agentRun,
        [&] { broken = true; }, before, result, failed);
    if (broken)
        (*lease)->discard(); // killed or failed mid-run: do not lend it again
    if (!failed)
        return std::unexpected(failed.error());
    std::sort(result.artifacts.begin(), result.artifacts.end(),
              [](const Artifact &a, const Artifact &b) { return a.name < b.name; });
    result.totalMs = total.elapsed();
    status(QStringLiteral("finished"));
    return result;
}

Result<QString> Engine::dependencyVolumeFor(const RunRequest &request)
{
    const LanguageDescriptor *lang = LanguageRegistry::instance().find(request.language);
    if (!lang)
        return fail(ErrorCode::UnknownLanguage,
                    QStringLiteral("Unknown language '%1'").arg(request.language));
    QString image = request.image;
    if (image.isEmpty()) {
        auto def = defaultImageFor(lang->id);
        if (!def)
            return std::unexpected(def.error());
        image = *def;
    }
    auto plan = planFor(*lang, request);
    if (!plan)
        return std::unexpected(plan.error());
    if (!plan->needsInstall())
        return QString();
    return dependencyVolumeName(*plan, image, cranRepositoryFor(request));
}

void Engine::removeOrRemember(const QString &id)
{
    auto r = m_runtime->remove(id);
    if (r)
        return;
    // The engine may be restarting or unreachable (fault tests: dockerd killed mid-run):
    // the sandbox still exists once it is back, so the removal is retried later.
    qCWarning(lcSession).noquote()
        << "could not remove sandbox" << id << r.error().toString() << "- retried later";
    std::lock_guard lock(m_pendingMutex);
    if (!m_pendingRemovals.contains(id))
        m_pendingRemovals.append(id);
}

int Engine::retryPendingRemovals()
{
    QStringList ids;
    {
        std::lock_guard lock(m_pendingMutex);
        ids = std::exchange(m_pendingRemovals, {});
    }
    // Pool and notebook sandboxes whose agent channel could not remove them (absent ones,
    // e.g. of another engine, count as removed).
    for (const QString &id : takeUnremovedSandboxes())
        if (!ids.contains(id))
            ids.append(id);
    int removed = 0;
    QStringList failed;
    for (const QString &id : std::as_const(ids)) {
        if (m_runtime->remove(id))
            ++removed; // absent counts as removed (Runtime::remove)
        else
            failed.append(id);
    }
    if (!failed.isEmpty()) {
        std::lock_guard lock(m_pendingMutex);
        for (const QString &id : std::as_const(failed))
            if (!m_pendingRemovals.contains(id))
                m_pendingRemovals.append(id);
    }
    return removed;
}

QStringList Engine::pendingRemovals() const
{
    std::lock_guard lock(m_pendingMutex);
    return m_pendingRemovals;
}

Result<int> Engine::reapOrphans()
{
    int retried = 0;
    if (!pendingRemovals().isEmpty())
        retried = retryPendingRemovals();
    auto list = m_runtime->list(QLatin1String(labels::Managed), QStringLiteral("true"));
    if (!list)
        return std::unexpected(list.error());
    const QString host = QHostInfo::localHostName();
    int removed = 0;
    for (const SandboxInfo &s : *list) {
        const QString owner = s.labels.value(QLatin1String(labels::Owner));
        const QString ownerHost = owner.section(u'/', 0, -2);
        const qint64 pid = owner.section(u'/', -1).toLongLong();
        if (ownerHost != host || pid <= 0)
            continue;
        // This process's own sandboxes that stopped (the engine restarted under them, or they
        // were killed from outside) serve nobody, but whoever held them may have failed to
        // remove them (the engine was down then). Created-but-not-started ones may be in use.
        const bool mineAndDead = pid == ::getpid() && (s.state == QLatin1String("exited") ||
                                                       s.state == QLatin1String("dead"));
        const bool alive = ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
        if (alive && !mineAndDead)
            continue;
        if (m_runtime->remove(s.id))
            ++removed;
    }
    return removed + retried;
}

} // namespace sandbox
