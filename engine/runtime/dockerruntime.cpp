// SPDX-License-Identifier: GPL-3.0-or-later
#include "dockerruntime.h"

#include "runtime/dockerstream.h"

#include <QThread>
#include <QUrl>
#include <QUrlQuery>
#include <nlohmann/json.hpp>

Q_LOGGING_CATEGORY(lcDocker, "sandbox.runtime.docker", QtInfoMsg)

using json = nlohmann::json;

namespace sandbox {

namespace {

std::string s(const QString &q)
{
    return q.toStdString();
}

QString enc(const QString &v)
{
    return QString::fromUtf8(QUrl::toPercentEncoding(v));
}

json parse(const QByteArray &body)
{
    return json::parse(body.constBegin(), body.constEnd(), nullptr, false);
}

QString jsonString(const json &j, const char *key)
{
    if (j.is_object() && j.contains(key) && j[key].is_string())
        return QString::fromStdString(j[key].get<std::string>());
    return {};
}

/// The "Labels" object of a container or volume as a map (non-string values skipped).
QMap<QString, QString> labelsOf(const json &object)
{
    QMap<QString, QString> labels;
    if (object.contains("Labels") && object["Labels"].is_object())
        for (auto it = object["Labels"].begin(); it != object["Labels"].end(); ++it)
            if (it.value().is_string())
                labels.insert(QString::fromStdString(it.key()),
                              QString::fromStdString(it.value().get<std::string>()));
    return labels;
}

} // namespace

DockerRuntime::DockerRuntime(Endpoint endpoint, QString backendName)
    : m_http(std::move(endpoint))
    , m_backend(std::move(backendName))
{}

QString DockerRuntime::api(const QString &path)
{
    return QLatin1String("/") + QLatin1String(ApiVersion) + path;
}

Error DockerRuntime::engineError(const HttpResponse &resp, const QString &what)
{
    QString msg = jsonString(parse(resp.body), "message");
    if (msg.isEmpty())
        msg = QString::fromUtf8(resp.body.left(500)).trimmed();
    const QString detail = QStringLiteral("%1 -> %2: %3").arg(what).arg(resp.status).arg(msg);
    if (resp.status == 404)
        return Error{ErrorCode::NotFound, msg, detail};
    return Error{ErrorCode::EngineError, QStringLiteral("The container engine refused: ") + msg,
                 detail};
}

Result<void> DockerRuntime::detectEngine()
{
    std::lock_guard lock(m_detectMutex);
    if (m_detected)
        return {};
    auto pong = m_http.request("GET", QStringLiteral("/_ping"), {}, {}, 5000);
    if (!pong)
        return std::unexpected(pong.error());
    if (pong->status == 400 && pong->body.contains("HTTPS"))
        return fail(ErrorCode::TlsError,
                    QStringLiteral("%1 expects TLS: give its CA, client certificate and key "
                                   "(DOCKER_CERT_PATH, DOCKER_TLS_VERIFY=1, or a docker-tls "
                                   "profile)")
                        .arg(endpointDisplay()),
                    QString::fromUtf8(pong->body.trimmed()));
    if (!pong->ok())
        return std::unexpected(engineError(*pong, QStringLiteral("GET /_ping")));
    const bool podman = !pong->header("libpod-api-version").isEmpty();
    m_isPodman = podman;
    if (podman) {
        // libpod tree: rootless and cgroup version decide whether limits can apply.
        const QString path = QStringLiteral("/v4.0.0/libpod/info");
        auto info = m_http.request("GET", path, {}, {}, 10000);
        if (!info)
            return std::unexpected(info.error());
        if (!info->ok())
            return std::unexpected(engineError(*info, QStringLiteral("GET ") + path));
        const json j = parse(info->body);
        if (j.is_object() && j.contains("host") && j["host"].is_object()) {
            const json &host = j["host"];
            m_cgroupVersion = jsonString(host, "cgroupVersion");
            if (host.contains("security") && host["security"].is_object())
                m_podmanRootless = host["security"].value("rootless", false);
        }
    }
    m_detected = true;
    return {};
}

QStringList DockerRuntime::podmanUnappliedLimits(bool rootless, const QString &cgroupVersion,
                                                 const SandboxSpec &spec)
{
    if (!rootless || cgroupVersion != QLatin1String("v1"))
        return {};
    QStringList limits;
    if (spec.memoryBytes > 0)
        limits << QStringLiteral("memory %1 MiB").arg(spec.memoryBytes >> 20);
    if (spec.nanoCpus > 0)
        limits << QStringLiteral("CPU %1").arg(double(spec.nanoCpus) / 1e9);
    if (spec.pidsLimit > 0)
        limits << QStringLiteral("processes %1").arg(spec.pidsLimit);
    if (limits.isEmpty())
        return {};
    return {QStringLiteral("limits not applied: %1 (rootless Podman on a cgroup v1 host cannot "
                           "set resource limits; run Podman rootful or on cgroup v2)")
                .arg(limits.join(QStringLiteral(", ")))};
}

QStringList DockerRuntime::unappliedLimits(const SandboxSpec &spec)
{
    if (!detectEngine() || !m_isPodman)
        return {};
    std::lock_guard lock(m_detectMutex);
    return podmanUnappliedLimits(m_podmanRootless, m_cgroupVersion, spec);
}

Result<RuntimeInfo> DockerRuntime::ping()
{
    {
        std::lock_guard lock(m_detectMutex);
        m_detected = false; // the engine behind a socket may have changed
    }
    if (auto d = detectEngine(); !d)
        return std::unexpected(d.error());
    const bool podman = m_isPodman;
    auto ver = m_http.request("GET", api(QStringLiteral("/version")), {}, {}, 5000);
    if (!ver)
        return std::unexpected(ver.error());
    if (!ver->ok())
        return std::unexpected(engineError(*ver, QStringLiteral("GET /version")));
    const json j = parse(ver->body);
    RuntimeInfo info;
    info.isPodman = podman;
    info.name = podman ? QStringLiteral("Podman") : QStringLiteral("Docker Engine");
    info.version = jsonString(j, "Version");
    info.apiVersion = jsonString(j, "ApiVersion");
    info.os = jsonString(j, "Os");
    return info;
}

Result<bool> DockerRuntime::exists(const QString &path, long timeoutMs)
{
    auto resp = m_http.request("GET", path, {}, {}, timeoutMs);
    if (!resp)
        return std::unexpected(resp.error());
    if (resp->status == 404)
        return false;
    if (!resp->ok())
        return std::unexpected(engineError(*resp, QStringLiteral("GET ") + path));
    return true;
}

Result<bool> DockerRuntime::imageExists(const QString &ref)
{
    return exists(api(QStringLiteral("/images/%1/json").arg(enc(ref))), 30000);
}

QByteArray DockerRuntime::createBody(const SandboxSpec &spec) const
{
    json body;
    body["Image"] = s(spec.image);
    json cmd = json::array();
    for (const auto &a : spec.command)
        cmd.push_back(s(a));
    body["Cmd"] = cmd;
    json env = json::array();
    for (const auto &e : spec.env)
        env.push_back(s(e));
    body["Env"] = env;
    body["User"] = s(spec.user);
    body["WorkingDir"] = s(spec.workDir);
    body["AttachStdin"] = spec.openStdin;
    body["OpenStdin"] = spec.openStdin;
    body["StdinOnce"] = spec.openStdin;
    body["AttachStdout"] = spec.openStdin;
    body["AttachStderr"] = spec.openStdin;
    body["Tty"] = false;
    body["NetworkDisabled"] = spec.network == NetworkMode::None;
    json labels = json::object();
    for (auto it = spec.labels.cbegin(); it != spec.labels.cend(); ++it)
        labels[s(it.key())] = s(it.value());
    body["Labels"] = labels;

    json host;
    switch (spec.network) {
    case NetworkMode::None:
        host["NetworkMode"] = "none";
        break;
    case NetworkMode::Host:
        host["NetworkMode"] = "host";
        break;
    case NetworkMode::Bridge:
        host["NetworkMode"] = "bridge";
        break;
    }
    host["ReadonlyRootfs"] = spec.readOnlyRoot;
    host["CapDrop"] = json::array({"ALL"});
    host["SecurityOpt"] = json::array({"no-new-privileges"});
    // A rootless Podman on cgroup v1 cannot apply these: left out, and said in the run's
    // notes (unappliedLimits), rather than passed on to be ignored or refused.
    QString cgroupVersion;
    {
        std::lock_guard lock(m_detectMutex);
        cgroupVersion = m_cgroupVersion;
    }
    const bool limitsApply =
        !m_isPodman || podmanUnappliedLimits(m_podmanRootless, cgroupVersion, spec).isEmpty();
    if (spec.memoryBytes > 0 && limitsApply) {
        host["Memory"] = spec.memoryBytes;
        host["MemorySwap"] = spec.memoryBytes; // no swap beyond the limit
    }
    // NanoCpus alone: Podman rejects it together with CpuPeriod/CpuQuota.
    if (spec.nanoCpus > 0 && limitsApply)
        host["NanoCpus"] = spec.nanoCpus;
    if (spec.pidsLimit > 0 && limitsApply)
        host["PidsLimit"] = spec.pidsLimit;
    // tmpfs mounts are noexec,nosuid,nodev unless told otherwise. The work directory must
    // allow exec (compiled programs, the agent). dockerd needs uid/gid for a non-root user
    // to write there; podman 4.3 rejects uid=/gid= ("unknown mount option"), and where the
    // image has the directory (our images' WORKDIR) its tmpfs copy-up gives the tmpfs the
    // image directory's root:root 0755, mode=1777 notwithstanding: Podman's "U" option
    // chowns the tmpfs to the container's user instead (PLATFORM.md, checked on 4.3.1).
    const QString uid = spec.user.section(u':', 0, 0);
    const QString gid =
        spec.user.section(u':', 1, 1).isEmpty() ? uid : spec.user.section(u':', 1, 1);
    QString owner = m_isPodman ? QStringLiteral("mode=0700,U")
                               : QStringLiteral("uid=%1,gid=%2,mode=0700").arg(uid, gid);
    json tmpfs;
    tmpfs[s(spec.workDir)] =
        s(QStringLiteral("rw,exec,nosuid,nodev,size=%1,%2").arg(spec.workDirBytes).arg(owner));
    tmpfs["/tmp"] = s(QStringLiteral("rw,nosuid,nodev,size=%1,mode=1777").arg(spec.tmpBytes));
    host["Tmpfs"] = tmpfs;
    if (!spec.volumes.isEmpty()) {
        json mounts = json::array();
        for (const VolumeMount &v : spec.volumes) {
            json m;
            m["Type"] = v.type == VolumeMount::Type::Bind ? "bind" : "volume";
            m["Source"] = s(v.source);
            m["Target"] = s(v.target);
            m["ReadOnly"] = v.readOnly;
            if (v.type == VolumeMount::Type::Volume)
                m["VolumeOptions"] = json{{"NoCopy", true}};
            mounts.push_back(m);
        }
        host["Mounts"] = mounts;
    }
    host["Init"] = spec.init;
    host["LogConfig"] = json{{"Type", "none"}, {"Config", json::object()}};
    body["HostConfig"] = host;
    return QByteArray::fromStdString(body.dump());
}

Result<QString> DockerRuntime::create(const SandboxSpec &spec)
{
    // The body differs between Docker and Podman (tmpfs options, limits): know which.
    if (auto d = detectEngine(); !d)
        return std::unexpected(d.error());
    QString path = api(QStringLiteral("/containers/create"));
    if (!spec.name.isEmpty())
        path += QStringLiteral("?name=") + enc(spec.name);
    auto resp = m_http.request("POST", path, createBody(spec), "application/json", 60000);
    if (!resp)
        return std::unexpected(resp.error());
    if (resp->status == 404) {
        Error e = engineError(*resp, QStringLiteral("POST ") + path);
        e.code = ErrorCode::ImageMissing;
        e.message = QStringLiteral("The image %1 is not available on %2. Build it with "
                                   "`sandbox-studio images build` or pick another image.")
                        .arg(spec.image, endpointDisplay());
        if (m_isPodman) // Podman keeps its own image store
            e.message += QStringLiteral(" Podman has its own images: copy it from Docker with "
                                        "`docker save %1 | podman load`.")
                             .arg(spec.image);
        return std::unexpected(e);
    }
    if (!resp->ok())
        return std::unexpected(engineError(*resp, QStringLiteral("POST ") + path));
    const QString id = jsonString(parse(resp->body), "Id");
    if (id.isEmpty())
        return fail(ErrorCode::ProtocolError, QStringLiteral("create answered without an Id"),
                    QString::fromUtf8(resp->body.left(300)));
    return id;
}

Result<void> DockerRuntime::start(const QString &id)
{
    const QString path = api(QStringLiteral("/containers/%1/start").arg(id));
    auto resp = m_http.request("POST", path, {}, {}, 60000);
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok() && resp->status != 304)
        return std::unexpected(engineError(*resp, QStringLiteral("POST ") + path));
    return {};
}

Result<QString> DockerRuntime::createExec(const QString &id, const ExecSpec &spec)
{
    json body;
    json cmd = json::array();
    for (const auto &a : spec.argv)
        cmd.push_back(s(a));
    body["Cmd"] = cmd;
    body["AttachStdin"] = spec.attachStdin;
    body["AttachStdout"] = true;
    body["AttachStderr"] = true;
    body["Tty"] = false;
    if (!spec.env.isEmpty()) {
        json env = json::array();
        for (const auto &e : spec.env)
            env.push_back(s(e));
        body["Env"] = env;
    }
    if (!spec.user.isEmpty())
        body["User"] = s(spec.user);
    if (!spec.workDir.isEmpty())
        body["WorkingDir"] = s(spec.workDir);
    const QString createPath = api(QStringLiteral("/containers/%1/exec").arg(id));
    auto created = m_http.request("POST", createPath, QByteArray::fromStdString(body.dump()),
                                  "application/json", 30000);
    if (!created)
        return std::unexpected(created.error());
    if (!created->ok())
        return std::unexpected(engineError(*created, QStringLiteral("POST ") + createPath));
    const QString execId = jsonString(parse(created->body), "Id");
    if (execId.isEmpty())
        return fail(ErrorCode::ProtocolError, QStringLiteral("exec create answered without an Id"));
    return execId;
}

Result<int> DockerRuntime::execExitCode(const QString &execId)
{
    const QString inspectPath = api(QStringLiteral("/exec/%1/json").arg(execId));
    // The stream can close a moment before the engine records the exit code.
    for (int attempt = 0; attempt < 50; ++attempt) {
        auto inspected = m_http.request("GET", inspectPath, {}, {}, 10000);
        if (!inspected)
            return std::unexpected(inspected.error());
        if (inspected->status == 404 && m_isPodman)
            return fail(ErrorCode::NotFound,
                        QStringLiteral("Podman no longer knows the exec session (it removes "
                                       "them 5 minutes after they exit)"),
                        QStringLiteral("GET ") + inspectPath);
        if (!inspected->ok())
            return std::unexpected(engineError(*inspected, QStringLiteral("GET ") + inspectPath));
        const json j = parse(inspected->body);
        const bool running = j.value("Running", false);
        if (!running && j.contains("ExitCode") && j["ExitCode"].is_number_integer())
            return j["ExitCode"].get<int>();
        QThread::msleep(attempt < 10 ? 2 : 20);
    }
    return fail(ErrorCode::Timeout, QStringLiteral("The engine did not report the exit code"),
                inspectPath);
}

namespace {

class DockerExecChannel final : public ExecChannel
{
public:
    DockerExecChannel(DockerRuntime *runtime, QString execId, std::unique_ptr<RawStream> stream,
                      std::function<Result<int>(const QString &)> exitCode)
        : m_execId(std::move(execId))
        , m_stream(std::move(stream))
        , m_exitCode(std::move(exitCode))
        , m_demux([this](FrameDemuxer::Stream which, QByteArrayView data) {
            if (which == FrameDemuxer::Stream::Stderr || which == FrameDemuxer::Stream::SystemError)
                m_err->append(data);
            else
                m_out->append(data);
            return true;
        })
    {
        (void)runtime;
    }

    Result<void> write(QByteArrayView data) override { return m_stream->write(data); }

    Result<bool> read(int timeoutMs, QByteArray *out, QByteArray *err) override
    {
        if (m_ended)
            return false;
        bool eof = false;
        auto chunk = m_stream->read(timeoutMs, &eof);
        if (!chunk)
            return std::unexpected(chunk.error());
        m_out = out;
        m_err = err;
        if (!chunk->isEmpty() && !m_demux.feed(*chunk))
            return fail(ErrorCode::ProtocolError,
                        QStringLiteral("The engine sent a malformed exec stream"));
        if (eof) {
            m_ended = true;
            if (m_demux.truncated())
                return fail(ErrorCode::ProtocolError,
                            QStringLiteral("The exec stream ended in the middle of a frame"));
            return false;
        }
        return true;
    }

    Result<int> exitCode() override { return m_exitCode(m_execId); }

private:
    QString m_execId;
    std::unique_ptr<RawStream> m_stream;
    std::function<Result<int>(const QString &)> m_exitCode;
    QByteArray *m_out = nullptr;
    QByteArray *m_err = nullptr;
    FrameDemuxer m_demux;
    bool m_ended = false;
};

} // namespace

Result<std::unique_ptr<ExecChannel>> DockerRuntime::execInteractive(const QString &id,
                                                                    const ExecSpec &spec)
{
    ExecSpec withStdin = spec;
    withStdin.attachStdin = true;
    auto execId = createExec(id, withStdin);
    if (!execId)
        return std::unexpected(execId.error());
    const QString startPath = api(QStringLiteral("/exec/%1/start").arg(*execId));
    auto stream = m_http.upgrade("POST", startPath, R"({"Detach":false,"Tty":false})");
    if (!stream)
        return std::unexpected(stream.error());
    return std::unique_ptr<ExecChannel>(std::make_unique<DockerExecChannel>(
        this, *execId, std::move(*stream), [this](const QString &e) { return execExitCode(e); }));
}

Result<ExecResult> DockerRuntime::exec(const QString &id, const ExecSpec &spec, const ExecIo &io,
                                       const CancelToken &cancel, Deadline deadline)
{
    auto createdExec = createExec(id, spec);
    if (!createdExec)
        return std::unexpected(createdExec.error());
    const QString execId = *createdExec;

    const QString startPath = api(QStringLiteral("/exec/%1/start").arg(execId));
    auto stream = m_http.upgrade("POST", startPath, R"({"Detach":false,"Tty":false})");
    if (!stream)
        return std::unexpected(stream.error());

    ExecResult result;
    if (spec.attachStdin) {
        if (!spec.stdinData.isEmpty())
            if (auto w = (*stream)->write(spec.stdinData); !w)
                return std::unexpected(w.error());
        if (auto c = (*stream)->closeWrite(); !c)
            return std::unexpected(c.error());
    }

    QByteArray systemError;
    FrameDemuxer demux([&](FrameDemuxer::Stream which, QByteArrayView data) {
        switch (which) {
        case FrameDemuxer::Stream::Stdout:
            return io.onStdout ? io.onStdout(data) : true;
        case FrameDemuxer::Stream::Stderr:
            return io.onStderr ? io.onStderr(data) : true;
        case FrameDemuxer::Stream::SystemError:
            systemError += data;
            return true;
        }
        return true;
    });
    for (;;) {
        if (cancel.isCancelled()) {
            result.cancelled = true;
            return result;
        }
        if (deadline.expired()) {
            result.deadlineExceeded = true;
            return result;
        }
        long long wait = deadline.remainingMs();
        const int slice = int(wait < 0 ? 50 : qMin<long long>(wait, 50));
        bool eof = false;
        auto chunk = (*stream)->read(slice, &eof);
        if (!chunk)
            return std::unexpected(chunk.error());
        if (!chunk->isEmpty() && !demux.feed(*chunk)) {
            if (demux.malformed())
                return fail(ErrorCode::ProtocolError,
                            QStringLiteral("The engine sent a malformed exec stream"),
                            QStringLiteral("frame header type > 3 on ") + startPath);
            result.stoppedByReader = true;
            return result;
        }
        if (eof)
            break;
    }
    if (demux.truncated())
        return fail(ErrorCode::ProtocolError,
                    QStringLiteral("The exec stream ended in the middle of a frame"), startPath);
    if (!systemError.isEmpty())
        return fail(ErrorCode::EngineError, QString::fromUtf8(systemError), startPath);

    auto code = execExitCode(execId);
    if (!code) {
        // The stream ended but the process still runs: the connection was cut (the socket
        // closed mid-stream, a proxy or the engine went away), not the program's exit.
        if (code.error().code == ErrorCode::Timeout)
            return fail(ErrorCode::IoError,
                        QStringLiteral("The connection to the engine closed while the program "
                                       "was still running"),
                        startPath);
        return std::unexpected(code.error());
    }
    result.exitCode = *code;
    return result;
}

Result<std::unique_ptr<RawStream>> DockerRuntime::attach(const QString &id)
{
    // Engine API "Attach to a container": a hijacked connection (Upgrade: tcp). Without a
    // TTY the output is multiplexed; stdin closes when we half-close (StdinOnce).
    const QString path =
        api(QStringLiteral("/containers/%1/attach?stream=1&stdin=1&stdout=1&stderr=1").arg(id));
    auto stream = m_http.upgrade("POST", path);
    if (!stream) {
        Error e = stream.error();
        if (e.detail.contains(QLatin1String("No such container")))
            e.code = ErrorCode::NotFound;
        return std::unexpected(e);
    }
    return stream;
}

Result<void> DockerRuntime::kill(const QString &id)
{
    const QString path = api(QStringLiteral("/containers/%1/kill?signal=SIGKILL").arg(id));
    auto resp = m_http.request("POST", path, {}, {}, 30000);
    if (!resp)
        return std::unexpected(resp.error());
    if (resp->ok() || resp->status == 404 || resp->status == 409)
        return {};
    return std::unexpected(engineError(*resp, QStringLiteral("POST ") + path));
}

Result<void> DockerRuntime::remove(const QString &id)
{
    const QString path = api(QStringLiteral("/containers/%1?force=true&v=true").arg(id));
    auto resp = m_http.request("DELETE", path, {}, {}, 60000);
    if (!resp)
        return std::unexpected(resp.error());
    if (resp->ok() || resp->status == 404)
        return {};
    // "removal already in progress" is success for our purposes.
    if (resp->status == 409 && resp->body.contains("in progress"))
        return {};
    return std::unexpected(engineError(*resp, QStringLiteral("DELETE ") + path));
}

Result<QList<SandboxInfo>> DockerRuntime::list(const QString &labelKey, const QString &labelValue)
{
    json filters;
    filters["label"] = json::array({s(labelKey + u'=' + labelValue)});
    const QString path = api(QStringLiteral("/containers/json?all=true&filters=") +
                             enc(QString::fromStdString(filters.dump())));
    auto resp = m_http.request("GET", path, {}, {}, 30000);
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok())
        return std::unexpected(engineError(*resp, QStringLiteral("GET ") + path));
    QList<SandboxInfo> out;
    const json j = parse(resp->body);
    if (!j.is_array())
        return fail(ErrorCode::ProtocolError, QStringLiteral("container list is not an array"));
    for (const auto &c : j) {
        SandboxInfo info;
        info.id = jsonString(c, "Id");
        if (c.contains("Names") && c["Names"].is_array() && !c["Names"].empty())
            info.name = QString::fromStdString(c["Names"][0].get<std::string>()).mid(1);
        info.state = jsonString(c, "State");
        info.labels = labelsOf(c);
        out.append(info);
    }
    return out;
}

Result<bool> DockerRuntime::networkExists(const QString &name)
{
    return exists(api(QStringLiteral("/networks/%1").arg(enc(name))), 10000);
}

Result<bool> DockerRuntime::volumeExists(const QString &name)
{
    return exists(api(QStringLiteral("/volumes/%1").arg(enc(name))), 10000);
}

Result<void> DockerRuntime::createVolume(const QString &name, const QMap<QString, QString> &labels)
{
    json body;
    body["Name"] = s(name);
    body["Driver"] = "local";
    json l = json::object();
    for (auto it = labels.cbegin(); it != labels.cend(); ++it)
        l[s(it.key())] = s(it.value());
    body["Labels"] = l;
    const QString path = api(QStringLiteral("/volumes/create"));
    auto resp = m_http.request("POST", path, QByteArray::fromStdString(body.dump()),
                               "application/json", 30000);
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok())
        return std::unexpected(engineError(*resp, QStringLiteral("POST ") + path));
    return {};
}

Result<QList<VolumeInfo>> DockerRuntime::listVolumes(const QString &labelKey,
                                                     const QString &labelValue)
{
    json filters;
    filters["label"] = json::array({s(labelKey + u'=' + labelValue)});
    const QString path =
        api(QStringLiteral("/volumes?filters=") + enc(QString::fromStdString(filters.dump())));
    auto resp = m_http.request("GET", path, {}, {}, 30000);
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok())
        return std::unexpected(engineError(*resp, QStringLiteral("GET ") + path));
    const json j = parse(resp->body);
    if (!j.is_object() || !j.contains("Volumes"))
        return fail(ErrorCode::ProtocolError, QStringLiteral("volume list without Volumes"));
    QList<VolumeInfo> out;
    if (!j["Volumes"].is_array())
        return out; // null when there are none
    for (const auto &v : j["Volumes"]) {
        VolumeInfo info;
        info.name = jsonString(v, "Name");
        info.createdAt = jsonString(v, "CreatedAt");
        info.labels = labelsOf(v);
        out.append(info);
    }
    return out;
}

Result<void> DockerRuntime::removeVolume(const QString &name)
{
    return deleteAllowingMissing(api(QStringLiteral("/volumes/%1?force=true").arg(enc(name))),
                                 60000);
}

Result<void> DockerRuntime::deleteAllowingMissing(const QString &path, long timeoutMs)
{
    auto resp = m_http.request("DELETE", path, {}, {}, timeoutMs);
    if (!resp)
        return std::unexpected(resp.error());
    if (resp->ok() || resp->status == 404)
        return {};
    return std::unexpected(engineError(*resp, QStringLiteral("DELETE ") + path));
}

Result<QStringList> DockerRuntime::listImages(const QString &prefix)
{
    const QString path = api(QStringLiteral("/images/json"));
    auto resp = m_http.request("GET", path, {}, {}, 30000);
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok())
        return std::unexpected(engineError(*resp, QStringLiteral("GET ") + path));
    const json j = parse(resp->body);
    if (!j.is_array())
        return fail(ErrorCode::ProtocolError, QStringLiteral("image list is not an array"));
    QStringList refs;
    for (const auto &image : j) {
        if (!image.contains("RepoTags") || !image["RepoTags"].is_array())
            continue;
        for (const auto &tag : image["RepoTags"])
            if (tag.is_string()) {
                const QString ref = QString::fromStdString(tag.get<std::string>());
                if (ref.startsWith(prefix))
                    refs << ref;
            }
    }
    refs.sort();
    return refs;
}

Result<void> DockerRuntime::removeImage(const QString &ref)
{
    return deleteAllowingMissing(api(QStringLiteral("/images/%1").arg(enc(ref))), 120000);
}

Result<void> DockerRuntime::pullImage(const QString &ref,
                                      std::function<void(const QString &)> progress,
                                      const CancelToken &cancel)
{
    // "name:tag" or "name@digest"; a colon inside a registry host:port is not a tag.
    QString name = ref, tag = QStringLiteral("latest");
    const qsizetype at = ref.indexOf(u'@');
    const qsizetype colon = ref.lastIndexOf(u':');
    if (at >= 0) {
        name = ref.left(at);
        tag = ref.mid(at + 1);
    } else if (colon > ref.lastIndexOf(u'/')) {
        name = ref.left(colon);
        tag = ref.mid(colon + 1);
    }
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("fromImage"), name);
    q.addQueryItem(QStringLiteral("tag"), tag);
    const QString path = api(QStringLiteral("/images/create?") + q.toString(QUrl::FullyEncoded));
    QByteArray pending;
    QString failure;
    HttpClient::StreamOptions opts;
    opts.cancel = cancel;
    opts.contentType = {};
    // 200 even when the pull fails part-way: every JSON object is checked for errors.
    opts.onData = [&](QByteArrayView data) {
        pending += data;
        qsizetype nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const json j = parse(pending.left(nl));
            pending.remove(0, nl + 1);
            if (j.is_discarded())
                continue;
            if (j.contains("error") || j.contains("errorDetail") ||
                (j.contains("message") && !j.contains("status"))) {
                failure = jsonString(j, j.contains("message") ? "message" : "error");
                if (failure.isEmpty() && j["errorDetail"].is_object())
                    failure = jsonString(j["errorDetail"], "message");
                continue;
            }
            if (progress) {
                QString line = jsonString(j, "status");
                const QString prog = jsonString(j, "progress");
                if (!prog.isEmpty())
                    line += u' ' + prog;
                progress(line);
            }
        }
        return true;
    };
    auto resp = m_http.stream("POST", path, std::move(opts));
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok() || !failure.isEmpty()) {
        HttpResponse answered = *resp;
        answered.body = pending; // an error answer is one JSON object without a newline
        Error e = resp->ok()
                      ? Error{ErrorCode::ImageMissing, failure, QStringLiteral("POST ") + path}
                      : engineError(answered, QStringLiteral("POST ") + path);
        if (!failure.isEmpty())
            e.message = failure;
        e.code = ErrorCode::ImageMissing;
        e.message = QStringLiteral("Pulling %1 failed: %2. No registry may be reachable from "
                                   "here; build or import the image instead.")
                        .arg(ref, e.message);
        return std::unexpected(e);
    }
    return {};
}

Result<QString> DockerRuntime::importImage(const QString &repo, const QString &tag,
                                           const QStringList &changes,
                                           std::function<size_t(char *, size_t)> read,
                                           std::function<void(qint64)> progress,
                                           const CancelToken &cancel)
{
    if (auto d = detectEngine(); !d)
        return std::unexpected(d.error());
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("fromSrc"), QStringLiteral("-"));
    if (m_isPodman && !tag.isEmpty()) {
        // Podman's compatible import reads no tag parameter (the image would become
        // repo:latest): the tag goes into repo.
        q.addQueryItem(QStringLiteral("repo"), repo + u':' + tag);
    } else {
        q.addQueryItem(QStringLiteral("repo"), repo);
        q.addQueryItem(QStringLiteral("tag"), tag);
    }
    for (const auto &c : changes)
        q.addQueryItem(QStringLiteral("changes"), c);
    const QString path = api(QStringLiteral("/images/create?") + q.toString(QUrl::FullyEncoded));
    HttpClient::StreamOptions opts;
    opts.contentType = "application/x-tar";
    opts.upload = std::move(read);
    opts.cancel = cancel;
    if (progress)
        opts.progress = [progress](qint64 up, qint64) { progress(up); };
    auto resp = m_http.stream("POST", path, std::move(opts));
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok())
        return std::unexpected(engineError(*resp, QStringLiteral("POST /images/create")));
    // 200 even on failure: every JSON object must be checked for errorDetail/error.
    QString imageId;
    for (const QByteArray &line : resp->body.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const json j = parse(line);
        if (j.is_discarded())
            continue;
        if (j.contains("error") || j.contains("errorDetail")) {
            QString msg = jsonString(j, "error");
            return fail(ErrorCode::EngineError, QStringLiteral("Image import failed: ") + msg,
                        QString::fromUtf8(line));
        }
        const QString status = jsonString(j, "status");
        if (status.startsWith(QLatin1String("sha256:")))
            imageId = status;
    }
    return imageId.isEmpty() ? repo + u':' + tag : imageId;
}

} // namespace sandbox
