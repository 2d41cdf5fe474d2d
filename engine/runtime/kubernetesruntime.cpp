// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetesruntime.h"

#include "runtime/websocketchannel.h"

#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QUrl>
#include <curl/curl.h>
#include <mutex>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

Q_LOGGING_CATEGORY(lcKube, "sandbox.runtime.kubernetes", QtInfoMsg)

namespace sandbox {

using json = nlohmann::json;

namespace {

constexpr auto ContainerName = "sandbox";
constexpr int ChunkBytes = 256 * 1024;

std::string s(const QString &q)
{
    return q.toStdString();
}

QString q(const json &j, const char *key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                            : QString();
}

// ------------------------------------------------------------------ HTTP (libcurl)

struct Curl
{
    CURL *h = nullptr;
    curl_slist *headers = nullptr;
    char errbuf[CURL_ERROR_SIZE] = {};
    Curl()
    {
        static std::once_flag once;
        std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
        h = curl_easy_init();
    }
    ~Curl()
    {
        if (headers)
            curl_slist_free_all(headers);
        if (h)
            curl_easy_cleanup(h);
    }
    Curl(const Curl &) = delete;
    Curl &operator=(const Curl &) = delete;
};

size_t appendBody(char *ptr, size_t size, size_t nmemb, void *userdata)
{
    static_cast<QByteArray *>(userdata)->append(ptr, qsizetype(size * nmemb));
    return size * nmemb;
}

struct WatchCtx
{
    QByteArray pending;
    std::function<bool(const QByteArray &)> onLine;
    bool stopped = false;
    const CancelToken *cancel = nullptr;
    Deadline deadline;
};

size_t watchWrite(char *ptr, size_t size, size_t nmemb, void *userdata)
{
    auto *ctx = static_cast<WatchCtx *>(userdata);
    ctx->pending.append(ptr, qsizetype(size * nmemb));
    qsizetype nl;
    while ((nl = ctx->pending.indexOf('\n')) >= 0) {
        const QByteArray line = ctx->pending.left(nl);
        ctx->pending.remove(0, nl + 1);
        if (!line.trimmed().isEmpty() && !ctx->onLine(line)) {
            ctx->stopped = true;
            return 0;
        }
    }
    return size * nmemb;
}

int watchProgress(void *userdata, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    auto *ctx = static_cast<WatchCtx *>(userdata);
    return (ctx->cancel && ctx->cancel->isCancelled()) || ctx->deadline.expired() ? 1 : 0;
}

} // namespace

// ------------------------------------------------------------------ the runtime's state

struct KubernetesRuntime::Impl
{
    KubernetesConnection conn;
    KubernetesSettings settings;
    QString profileName;
    std::atomic<int> wsVersion{0}; ///< 5 or 4 once learnt; 0 = not yet

    QString where() const
    {
        QString w = QStringLiteral("the Kubernetes API server %1 (context %2")
                        .arg(conn.server, conn.contextName);
        if (!profileName.isEmpty())
            w += QStringLiteral(", profile %1").arg(profileName);
        return w + u')';
    }

    void setup(Curl &c, const QString &path, long timeoutMs) const
    {
        const QByteArray url = (conn.server + path).toUtf8();
        curl_easy_setopt(c.h, CURLOPT_URL, url.constData());
        curl_easy_setopt(c.h, CURLOPT_ERRORBUFFER, c.errbuf);
        curl_easy_setopt(c.h, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(c.h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
        if (timeoutMs > 0)
            curl_easy_setopt(c.h, CURLOPT_TIMEOUT_MS, timeoutMs);
        if (!conn.caPem.isEmpty()) {
            curl_blob blob{const_cast<char *>(conn.caPem.constData()), size_t(conn.caPem.size()),
                           CURL_BLOB_COPY};
            curl_easy_setopt(c.h, CURLOPT_CAINFO_BLOB, &blob);
        }
        if (!conn.clientCertPem.isEmpty()) {
            curl_blob cert{const_cast<char *>(conn.clientCertPem.constData()),
                           size_t(conn.clientCertPem.size()), CURL_BLOB_COPY};
            curl_blob key{const_cast<char *>(conn.clientKeyPem.constData()),
                          size_t(conn.clientKeyPem.size()), CURL_BLOB_COPY};
            curl_easy_setopt(c.h, CURLOPT_SSLCERT_BLOB, &cert);
            curl_easy_setopt(c.h, CURLOPT_SSLCERTTYPE, "PEM");
            curl_easy_setopt(c.h, CURLOPT_SSLKEY_BLOB, &key);
            curl_easy_setopt(c.h, CURLOPT_SSLKEYTYPE, "PEM");
        }
        curl_easy_setopt(c.h, CURLOPT_SSL_VERIFYPEER, conn.insecureSkipTlsVerify ? 0L : 1L);
        curl_easy_setopt(c.h, CURLOPT_SSL_VERIFYHOST, conn.insecureSkipTlsVerify ? 0L : 2L);
        if (!conn.token.isEmpty())
            c.headers = curl_slist_append(
                c.headers, QByteArray("Authorization: Bearer " + conn.token.toUtf8()).constData());
        c.headers = curl_slist_append(c.headers, "Accept: application/json");
        c.headers =
            curl_slist_append(c.headers, "User-Agent: sandbox-studio/" SANDBOX_STUDIO_VERSION);
        c.headers = curl_slist_append(c.headers, "Expect:");
    }

    Error transportError(CURLcode rc, const char *errbuf, const QString &what) const
    {
        const QString detail =
            what + QStringLiteral(": ") +
            QString::fromUtf8(errbuf && *errbuf ? errbuf : curl_easy_strerror(rc));
        switch (rc) {
        case CURLE_COULDNT_CONNECT:
        case CURLE_COULDNT_RESOLVE_HOST:
            return {ErrorCode::EngineUnreachable,
                    QStringLiteral("%1 is not reachable: check the server address and that the "
                                   "cluster is up")
                        .arg(where()),
                    detail};
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CERTPROBLEM:
        case CURLE_SSL_CIPHER:
        case CURLE_SSL_CACERT_BADFILE:
        case CURLE_SSL_ISSUER_ERROR:
        case CURLE_USE_SSL_FAILED:
            return {ErrorCode::TlsError,
                    QStringLiteral("TLS with %1 failed: check certificate-authority and the "
                                   "client certificate in %2")
                        .arg(where(), conn.source),
                    detail};
        case CURLE_OPERATION_TIMEDOUT:
            return {ErrorCode::Timeout, QStringLiteral("%1 did not answer in time").arg(where()),
                    detail};
        case CURLE_ABORTED_BY_CALLBACK:
            return {ErrorCode::Cancelled, QStringLiteral("Cancelled"), detail};
        default:
            return {ErrorCode::IoError, QStringLiteral("Talking to %1 failed").arg(where()),
                    detail};
        }
    }

    Result<HttpResponse> request(QByteArrayView method, const QString &path,
                                 const QByteArray &body = {}, long timeoutMs = 30000) const
    {
        Curl c;
        if (!c.h)
            return fail(ErrorCode::Internal, QStringLiteral("curl_easy_init failed"));
        setup(c, path, timeoutMs);
        HttpResponse resp;
        curl_easy_setopt(c.h, CURLOPT_WRITEFUNCTION, appendBody);
        curl_easy_setopt(c.h, CURLOPT_WRITEDATA, &resp.body);
        if (method == "GET") {
            curl_easy_setopt(c.h, CURLOPT_HTTPGET, 1L);
        } else {
            c.headers = curl_slist_append(c.headers, "Content-Type: application/json");
            curl_easy_setopt(c.h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
            curl_easy_setopt(c.h, CURLOPT_COPYPOSTFIELDS, body.constData());
            curl_easy_setopt(c.h, CURLOPT_CUSTOMREQUEST, QByteArray(method).constData());
        }
        curl_easy_setopt(c.h, CURLOPT_HTTPHEADER, c.headers);
        const CURLcode rc = curl_easy_perform(c.h);
        const QString what = QString::fromLatin1(method.toByteArray()) + u' ' + path;
        if (rc != CURLE_OK)
            return std::unexpected(transportError(rc, c.errbuf, what));
        curl_easy_getinfo(c.h, CURLINFO_RESPONSE_CODE, &resp.status);
        qCDebug(lcKube) << what << "->" << resp.status;
        return resp;
    }

    /// Streams a watch; onLine gets each JSON line and returns false to stop.
    Result<void> watch(const QString &path, const std::function<bool(const QByteArray &)> &onLine,
                       const CancelToken &cancel, Deadline deadline) const
    {
        Curl c;
        if (!c.h)
            return fail(ErrorCode::Internal, QStringLiteral("curl_easy_init failed"));
        setup(c, path, 0);
        WatchCtx ctx;
        ctx.onLine = onLine;
        ctx.cancel = &cancel;
        ctx.deadline = deadline;
        curl_easy_setopt(c.h, CURLOPT_HTTPGET, 1L);
        curl_easy_setopt(c.h, CURLOPT_WRITEFUNCTION, watchWrite);
        curl_easy_setopt(c.h, CURLOPT_WRITEDATA, &ctx);
        curl_easy_setopt(c.h, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(c.h, CURLOPT_XFERINFOFUNCTION, watchProgress);
        curl_easy_setopt(c.h, CURLOPT_XFERINFODATA, &ctx);
        curl_easy_setopt(c.h, CURLOPT_HTTPHEADER, c.headers);
        const CURLcode rc = curl_easy_perform(c.h);
        if (ctx.stopped)
            return {};
        long status = 0;
        curl_easy_getinfo(c.h, CURLINFO_RESPONSE_CODE, &status);
        const QString what = QStringLiteral("GET ") + path;
        if (rc == CURLE_ABORTED_BY_CALLBACK) {
            if (cancel.isCancelled())
                return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled"), what);
            return fail(ErrorCode::Timeout, QStringLiteral("watch deadline"), what);
        }
        if (rc != CURLE_OK)
            return std::unexpected(transportError(rc, c.errbuf, what));
        if (status >= 300) {
            HttpResponse r;
            r.status = status;
            r.body = ctx.pending;
            return std::unexpected(apiError(r, what));
        }
        return {};
    }

    /// An error from a Kubernetes Status answer, naming the server, context and user.
    Error apiError(const HttpResponse &r, const QString &what) const
    {
        QString message;
        QString reason;
        const json j =
            json::parse(r.body.constData(), r.body.constData() + r.body.size(), nullptr, false);
        if (j.is_object()) {
            message = q(j, "message");
            reason = q(j, "reason");
        }
        if (message.isEmpty())
            message = QString::fromUtf8(r.body.left(300)).trimmed();
        const QString detail =
            QStringLiteral("%1 -> %2 %3: %4").arg(what).arg(r.status).arg(reason, message);
        if (r.status == 401)
            return {ErrorCode::EngineError,
                    QStringLiteral("%1 refused the credentials of user '%2' (401 Unauthorized): "
                                   "check the token or client certificate in %3")
                        .arg(where(), conn.userName, conn.source),
                    detail};
        if (r.status == 403)
            return {ErrorCode::EngineError,
                    QStringLiteral("%1 forbids this to user '%2' in namespace %3: %4")
                        .arg(where(), conn.userName, conn.namespaceName, message),
                    detail};
        if (r.status == 404)
            return {ErrorCode::NotFound,
                    QStringLiteral("Not found on %1: %2").arg(where(), message), detail};
        return {ErrorCode::EngineError,
                QStringLiteral("%1 answered %2: %3").arg(where()).arg(r.status).arg(message),
                detail};
    }

    QString podPath(const QString &name = {}) const
    {
        QString p = QStringLiteral("/api/v1/namespaces/%1/pods")
                        .arg(QString::fromLatin1(QUrl::toPercentEncoding(conn.namespaceName)));
        if (!name.isEmpty())
            p += u'/' + QString::fromLatin1(QUrl::toPercentEncoding(name));
        return p;
    }

    Result<void> deletePod(const QString &name) const
    {
        auto r = request("DELETE", podPath(name) + QStringLiteral("?gracePeriodSeconds=0"),
                         R"({"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0})");
        if (!r)
            return std::unexpected(r.error());
        if (r->status == 404 || r->ok())
            return {};
        return std::unexpected(apiError(*r, QStringLiteral("DELETE ") + podPath(name)));
    }

    std::mutex policyMutex;
    bool policyEnsured = false;

    /// The namespace's deny-all NetworkPolicy for pods labelled network=none (created once).
    Result<void> ensureDenyAllPolicy()
    {
        std::lock_guard lock(policyMutex);
        if (policyEnsured)
            return {};
        const QString base =
            QStringLiteral("/apis/networking.k8s.io/v1/namespaces/%1/networkpolicies")
                .arg(QString::fromLatin1(QUrl::toPercentEncoding(conn.namespaceName)));
        const json policy = {
            {"apiVersion", "networking.k8s.io/v1"},
            {"kind", "NetworkPolicy"},
            {"metadata",
             {{"name", kubernetesDenyAllPolicy},
              {"labels", {{"app.kubernetes.io/managed-by", "sandbox-studio"}}}}},
            {"spec",
             {{"podSelector", {{"matchLabels", {{kubernetesNetworkLabel, "none"}}}}},
              {"policyTypes", json::array({"Ingress", "Egress"})}}}};
        const std::string body = policy.dump();
        auto r = request("POST", base, QByteArray(body.data(), qsizetype(body.size())));
        if (!r)
            return std::unexpected(r.error());
        if (r->ok() || r->status == 409) { // 409: it exists already
            policyEnsured = true;
            return {};
        }
        Error e = apiError(*r, QStringLiteral("POST ") + base);
        if (r->status == 401)
            return std::unexpected(e); // bad credentials: nothing to say about policies
        e.message = QStringLiteral("A sandbox without network needs the NetworkPolicy %1 in "
                                   "namespace %2, which could not be created (%3). Create it "
                                   "once (podSelector %4=none, policyTypes Ingress and Egress, "
                                   "no rules) or grant create on networkpolicies")
                        .arg(QLatin1String(kubernetesDenyAllPolicy), conn.namespaceName, e.message,
                             QLatin1String(kubernetesNetworkLabel));
        return std::unexpected(e);
    }

    /// Why a pod cannot come up, from its status; empty when it still may.
    std::optional<Error> podProblem(const json &pod, const QString &image, bool *running) const
    {
        *running = false;
        const json status = pod.value("status", json::object());
        const QString phase = q(status, "phase");
        const QString name = q(pod.value("metadata", json::object()), "name");
        const QString podWhere =
            QStringLiteral("pod %1 in namespace %2 on %3").arg(name, conn.namespaceName, where());
        if (status.contains("containerStatuses") && status["containerStatuses"].is_array())
            for (const json &cs : status["containerStatuses"]) {
                const json state = cs.value("state", json::object());
                if (state.contains("waiting")) {
                    const QString reason = q(state["waiting"], "reason");
                    const QString msg = q(state["waiting"], "message");
                    if (reason == QLatin1String("ErrImagePull") ||
                        reason == QLatin1String("ImagePullBackOff") ||
                        reason == QLatin1String("InvalidImageName") ||
                        reason == QLatin1String("ErrImageNeverPull"))
                        return Error{ErrorCode::ImageMissing,
                                     QStringLiteral("The cluster cannot pull image %1 (%2): %3. "
                                                    "Push the image to a registry the cluster's "
                                                    "nodes can reach, or add imagePullSecrets")
                                         .arg(image, reason, msg),
                                     podWhere};
                    if (reason == QLatin1String("CreateContainerConfigError") ||
                        reason == QLatin1String("CreateContainerError") ||
                        reason == QLatin1String("RunContainerError") ||
                        reason == QLatin1String("CrashLoopBackOff"))
                        return Error{ErrorCode::EngineError,
                                     QStringLiteral("The sandbox container could not start (%1): "
                                                    "%2")
                                         .arg(reason, msg),
                                     podWhere};
                }
                if (state.contains("terminated") && phase != QLatin1String("Running"))
                    return Error{ErrorCode::EngineError,
                                 QStringLiteral("The sandbox container exited (code %1, %2) "
                                                "before it was ready")
                                     .arg(state["terminated"].value("exitCode", -1))
                                     .arg(q(state["terminated"], "reason")),
                                 podWhere};
            }
        if (status.contains("conditions") && status["conditions"].is_array())
            for (const json &c : status["conditions"])
                if (q(c, "type") == QLatin1String("PodScheduled") &&
                    q(c, "status") == QLatin1String("False") &&
                    q(c, "reason") == QLatin1String("Unschedulable"))
                    return Error{ErrorCode::EngineError,
                                 QStringLiteral("The cluster cannot schedule the sandbox pod "
                                                "(Unschedulable): %1")
                                     .arg(q(c, "message")),
                                 podWhere};
        if (phase == QLatin1String("Failed") || phase == QLatin1String("Succeeded"))
            return Error{
                ErrorCode::EngineError,
                QStringLiteral("The sandbox pod ended (%1%2) before it was ready%3")
                    .arg(phase,
                         q(status, "reason").isEmpty() ? QString() : u' ' + q(status, "reason"),
                         q(status, "message").isEmpty() ? QString() : u": " + q(status, "message")),
                podWhere};
        if (phase == QLatin1String("Running"))
            *running = true;
        return std::nullopt;
    }

    /// Watches the pod until it is Running, a problem shows, or the timeout passes.
    Result<void> waitRunning(const QString &name, const QString &image) const
    {
        const qint64 timeoutS = qMax<qint64>(1, settings.startTimeoutSeconds);
        const Deadline deadline = Deadline::in(std::chrono::seconds(timeoutS));
        QString last = QStringLiteral("Pending");
        std::optional<Error> problem;
        bool running = false;
        bool deleted = false;
        auto onLine = [&](const QByteArray &line) {
            const json ev =
                json::parse(line.constData(), line.constData() + line.size(), nullptr, false);
            if (!ev.is_object() || !ev.contains("object"))
                return true;
            const QString type = q(ev, "type");
            if (type == QLatin1String("DELETED")) {
                deleted = true;
                return false;
            }
            if (type == QLatin1String("ERROR")) {
                problem = Error{ErrorCode::EngineError,
                                QStringLiteral("Watching the sandbox pod failed: %1")
                                    .arg(q(ev["object"], "message")),
                                where()};
                return false;
            }
            last = q(ev["object"].value("status", json::object()), "phase");
            problem = podProblem(ev["object"], image, &running);
            return !problem && !running;
        };
        while (!deadline.expired()) {
            const qint64 left = qMax<qint64>(1, deadline.remainingMs() / 1000);
            const QString path = podPath() + QStringLiteral("?watch=1&fieldSelector=") +
                                 QString::fromLatin1(QUrl::toPercentEncoding(
                                     QStringLiteral("metadata.name=") + name)) +
                                 QStringLiteral("&timeoutSeconds=%1").arg(left);
            auto w = watch(path, onLine, CancelToken(), deadline);
            if (problem)
                return std::unexpected(*problem);
            if (running)
                return {};
            if (deleted)
                return fail(
                    ErrorCode::EngineError,
                    QStringLiteral("The sandbox pod %1 was deleted while starting").arg(name),
                    where());
            if (!w && w.error().code != ErrorCode::Timeout)
                return std::unexpected(w.error());
        }
        return fail(ErrorCode::Timeout,
                    QStringLiteral("The sandbox pod %1 was not Running after %2 s (last phase: "
                                   "%3); the cluster may be busy or pulling image %4")
                        .arg(name)
                        .arg(timeoutS)
                        .arg(last, image),
                    where());
    }

    /// Opens pods/{name}/{kind} (exec or attach) over WebSocket.
    Result<std::unique_ptr<WebSocketChannel>> openStream(const QString &kind, const QString &name,
                                                         const QStringList &argv, bool stdinOn,
                                                         bool v4Only = false) const
    {
        QByteArray query;
        for (const QString &a : argv)
            query += "command=" + QUrl::toPercentEncoding(a) + '&';
        query += "container=" + QByteArray(ContainerName);
        query += stdinOn ? "&stdin=true" : "&stdin=false";
        query += "&stdout=true&stderr=true&tty=false";
        QByteArray base = (conn.server + podPath(name) + u'/' + kind).toUtf8();
        base.replace(0, base.indexOf(':'), base.startsWith("https") ? "wss" : "ws");
        const QUrl url = QUrl::fromEncoded(QByteArray(base + '?' + query), QUrl::StrictMode);
        WebSocketOptions o;
        o.url = url;
        if (!conn.token.isEmpty())
            o.headers.append({"Authorization", "Bearer " + conn.token.toUtf8()});
        o.subprotocols = v4Only ? QStringList{QStringLiteral("v4.channel.k8s.io")}
                                : QStringList{QStringLiteral("v5.channel.k8s.io"),
                                              QStringLiteral("v4.channel.k8s.io")};
        o.caPem = conn.caPem;
        o.clientCertPem = conn.clientCertPem;
        o.clientKeyPem = conn.clientKeyPem;
        o.insecure = conn.insecureSkipTlsVerify;
        auto ws = WebSocketChannel::open(o);
        if (!ws) {
            Error e = ws.error();
            if (e.detail.contains(QLatin1String("401")))
                e.message = QStringLiteral("%1 refused the credentials of user '%2' for %3 (401 "
                                           "Unauthorized)")
                                .arg(where(), conn.userName, kind);
            else if (e.detail.contains(QLatin1String("403")))
                e.message = QStringLiteral("%1 forbids %2 to user '%3' (RBAC needs get and create "
                                           "on pods/%2)")
                                .arg(where(), kind, conn.userName);
            else
                e.message =
                    QStringLiteral("Opening %1 on pod %2 failed: %3").arg(kind, name, e.message);
            return std::unexpected(e);
        }
        const QString proto = (*ws)->subprotocol();
        if (proto != QLatin1String("v5.channel.k8s.io") &&
            proto != QLatin1String("v4.channel.k8s.io"))
            return fail(ErrorCode::ProtocolError,
                        QStringLiteral("%1 chose WebSocket subprotocol '%2' for %3; only "
                                       "v5.channel.k8s.io and v4.channel.k8s.io are spoken")
                            .arg(where(), proto, kind));
        return ws;
    }
};

// ------------------------------------------------------------------ status channel

namespace {

/// Exit code from a channel-3 Status (PROTOCOLS.md "Kubernetes"); *message gets the
/// Failure message when there is no exit code (the process did not start).
int exitCodeFromStatus(const QByteArray &payload, QString *message)
{
    const json j =
        json::parse(payload.constData(), payload.constData() + payload.size(), nullptr, false);
    if (!j.is_object())
        return -1;
    if (q(j, "status") == QLatin1String("Success"))
        return 0;
    if (j.contains("details") && j["details"].contains("causes") &&
        j["details"]["causes"].is_array())
        for (const json &c : j["details"]["causes"])
            if (q(c, "reason") == QLatin1String("ExitCode")) {
                bool ok = false;
                const int code = q(c, "message").toInt(&ok);
                if (ok)
                    return code;
            }
    *message = q(j, "message");
    return 126; // like Docker: a process that could not start
}

/// An interactive exec: stdin stays open; output is read as it comes.
class KubeExecChannel final : public ExecChannel
{
public:
    KubeExecChannel(std::unique_ptr<WebSocketChannel> ws)
        : m_ws(std::move(ws))
    {}
    ~KubeExecChannel() override { m_ws->close(); }

    Result<void> write(QByteArrayView data) override
    {
        for (qsizetype off = 0; off < data.size(); off += ChunkBytes) {
            QByteArray msg(1, '\0');
            msg += data.mid(off, ChunkBytes).toByteArray();
            if (auto r = m_ws->send(msg); !r)
                return r;
        }
        return {};
    }

    Result<bool> read(int timeoutMs, QByteArray *out, QByteArray *err) override
    {
        if (m_done)
            return false;
        bool closed = false;
        auto m = m_ws->receive(timeoutMs, &closed);
        if (!m)
            return std::unexpected(m.error());
        while (true) {
            if (*m && !(*m)->isEmpty()) {
                const char ch = (**m)[0];
                const QByteArray data = (*m)->mid(1);
                if (ch == 1)
                    out->append(data);
                else if (ch == 2)
                    err->append(data);
                else if (ch == 3) {
                    QString msg;
                    m_exit = exitCodeFromStatus(data, &msg);
                    if (!msg.isEmpty())
                        err->append(msg.toUtf8() + '\n');
                }
            }
            if (closed) {
                m_done = true;
                return false;
            }
            // Take what else is queued without waiting.
            m = m_ws->receive(0, &closed);
            if (!m)
                return std::unexpected(m.error());
            if (!*m && !closed)
                return true;
        }
    }

    Result<int> exitCode() override { return m_exit; }

private:
    std::unique_ptr<WebSocketChannel> m_ws;
    bool m_done = false;
    int m_exit = -1;
};

/// pods/attach seen as Docker's multiplexed attach stream, for AgentChannel.
class KubeAttachStream final : public RawStream
{
public:
    KubeAttachStream(std::unique_ptr<WebSocketChannel> ws)
        : m_ws(std::move(ws))
        , m_v5(m_ws->subprotocol() == QLatin1String("v5.channel.k8s.io"))
    {}
    ~KubeAttachStream() override { m_ws->close(); }

    Result<void> write(QByteArrayView data) override
    {
        for (qsizetype off = 0; off < data.size(); off += ChunkBytes) {
            QByteArray msg(1, '\0');
            msg += data.mid(off, ChunkBytes).toByteArray();
            if (auto r = m_ws->send(msg); !r)
                return r;
        }
        return {};
    }
    Result<void> closeWrite() override
    {
        if (!m_v5)
            return fail(ErrorCode::ProtocolError,
                        QStringLiteral("v4.channel.k8s.io cannot close stdin"));
        return m_ws->send(QByteArray("\xff\x00", 2));
    }
    Result<QByteArray> read(int timeoutMs, bool *eof) override
    {
        *eof = false;
        bool closed = false;
        auto m = m_ws->receive(timeoutMs, &closed);
        if (!m)
            return std::unexpected(m.error());
        if (closed) {
            *eof = true;
            return QByteArray();
        }
        if (!*m || (*m)->isEmpty())
            return QByteArray();
        const unsigned char ch = uchar((**m)[0]);
        if (ch != 1 && ch != 2)
            return QByteArray(); // status and close channels carry no output
        // Docker framing: [stream, 0, 0, 0, size (big endian)] then the bytes.
        const QByteArray data = (*m)->mid(1);
        QByteArray frame(8, '\0');
        frame[0] = char(ch);
        const quint32 n = quint32(data.size());
        frame[4] = char(n >> 24);
        frame[5] = char(n >> 16);
        frame[6] = char(n >> 8);
        frame[7] = char(n);
        return frame + data;
    }
    QByteArray takeInitialBytes() override { return {}; }

private:
    std::unique_ptr<WebSocketChannel> m_ws;
    bool m_v5;
};

// ------------------------------------------------------------------ manifests

bool validLabelChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') ||
           c == u'-' || c == u'_' || c == u'.';
}

json yamlToJson(const YAML::Node &n)
{
    switch (n.Type()) {
    case YAML::NodeType::Map: {
        json o = json::object();
        for (const auto &kv : n)
            o[kv.first.as<std::string>()] = yamlToJson(kv.second);
        return o;
    }
    case YAML::NodeType::Sequence: {
        json a = json::array();
        for (const auto &e : n)
            a.push_back(yamlToJson(e));
        return a;
    }
    case YAML::NodeType::Scalar: {
        const std::string v = n.Scalar();
        if (n.Tag() == "!") // quoted: always a string
            return v;
        if (v == "true" || v == "True")
            return true;
        if (v == "false" || v == "False")
            return false;
        if (v == "null" || v == "~")
            return nullptr;
        static const QRegularExpression intRe(QStringLiteral("^-?[0-9]+$"));
        static const QRegularExpression floatRe(QStringLiteral("^-?[0-9]+\\.[0-9]+$"));
        const QString qv = QString::fromStdString(v);
        if (intRe.match(qv).hasMatch())
            return qv.toLongLong();
        if (floatRe.match(qv).hasMatch())
            return qv.toDouble();
        return v;
    }
    default:
        return nullptr;
    }
}

/// JSON merge patch (RFC 7386) with one Kubernetes twist: containers merge by name.
void mergeOver(json &base, const json &over, const std::string &key = {})
{
    if (!over.is_object()) {
        if (key == "containers" && over.is_array() && base.is_array()) {
            for (const json &oc : over) {
                json *target = nullptr;
                const std::string n = oc.is_object() ? oc.value("name", std::string()) : "";
                for (json &bc : base)
                    if (n.empty() ? &bc == &base.front() : bc.value("name", std::string()) == n)
                        target = &bc;
                if (target)
                    mergeOver(*target, oc);
                else
                    base.push_back(oc);
            }
            return;
        }
        base = over;
        return;
    }
    if (!base.is_object())
        base = json::object();
    for (auto it = over.begin(); it != over.end(); ++it) {
        if (it->is_null())
            base.erase(it.key());
        else
            mergeOver(base[it.key()], *it, it.key());
    }
}

/// The reference the cluster pulls: settings.imageRegistry + '/' + image.
QString clusterImage(const QString &image, const KubernetesSettings &settings)
{
    QString prefix = settings.imageRegistry;
    while (prefix.endsWith(u'/'))
        prefix.chop(1);
    return prefix.isEmpty() ? image : prefix + u'/' + image;
}

/// "500m" style CPU quantity from nano-CPUs.
QString cpuQuantity(qint64 nanoCpus)
{
    return QStringLiteral("%1m").arg(qMax<qint64>(1, nanoCpus / 1'000'000));
}

} // namespace

QString kubernetesLabelValue(const QString &text)
{
    QString v;
    for (QChar c : text)
        v += validLabelChar(c) ? c : u'_';
    v.truncate(63);
    auto alnum = [](QChar c) { return c.isLetterOrNumber() && c.unicode() < 128; };
    while (!v.isEmpty() && !alnum(v.front()))
        v.remove(0, 1);
    while (!v.isEmpty() && !alnum(v.back()))
        v.chop(1);
    return v;
}

Result<QByteArray> buildPodManifest(const SandboxSpec &spec, const KubernetesSettings &settings,
                                    const QString &podName, const QString &namespaceName,
                                    QStringList *notes)
{
    auto note = [&](const QString &n) {
        if (notes)
            notes->append(n);
    };
    // User "uid:gid" (numbers only: a pod cannot name users).
    const QStringList ug = spec.user.split(u':');
    bool uidOk = false, gidOk = true;
    const qint64 uid = ug.value(0).toLongLong(&uidOk);
    const qint64 gid = ug.size() > 1 ? ug.value(1).toLongLong(&gidOk) : uid;
    if (!uidOk || !gidOk)
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("The Kubernetes backend needs a numeric user (uid:gid), not "
                                   "'%1'")
                        .arg(spec.user));
    if (uid == 0)
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Restricted pods do not run as root (user %1)").arg(spec.user));
    for (const VolumeMount &v : spec.volumes)
        return fail(
            ErrorCode::InvalidArgument,
            QStringLiteral("The Kubernetes backend cannot mount %1 %2 at %3 (Docker volumes "
                           "and host paths do not exist in a cluster): runs that install "
                           "dependencies need a Docker or Podman backend")
                .arg(v.type == VolumeMount::Type::Volume ? QStringLiteral("volume")
                                                         : QStringLiteral("host path"),
                     v.source, v.target));

    json labels = json::object();
    json annotations = json::object();
    for (auto it = spec.labels.cbegin(); it != spec.labels.cend(); ++it) {
        labels[s(it.key())] = s(kubernetesLabelValue(it.value()));
        annotations[s(it.key())] = s(it.value());
    }
    labels["app.kubernetes.io/managed-by"] = "sandbox-studio";
    for (auto it = settings.labels.cbegin(); it != settings.labels.cend(); ++it)
        labels[s(it.key())] = s(it.value());
    for (auto it = settings.annotations.cbegin(); it != settings.annotations.cend(); ++it)
        annotations[s(it.key())] = s(it.value());

    const QString image = clusterImage(spec.image, settings);
    json seccomp = {{"type", "RuntimeDefault"}};
    json container = {
        {"name", ContainerName},
        {"image", s(image)},
        {"imagePullPolicy", s(settings.imagePullPolicy.isEmpty() ? QStringLiteral("IfNotPresent")
                                                                 : settings.imagePullPolicy)},
        {"securityContext",
         {{"allowPrivilegeEscalation", false},
          {"privileged", false},
          {"readOnlyRootFilesystem", spec.readOnlyRoot},
          {"runAsNonRoot", true},
          {"runAsUser", uid},
          {"runAsGroup", gid},
          {"capabilities", {{"drop", json::array({"ALL"})}}},
          {"seccompProfile", seccomp}}},
        {"stdin", spec.openStdin},
        {"stdinOnce", false},
        {"tty", false},
        {"terminationMessagePolicy", "FallbackToLogsOnError"},
    };
    if (!spec.command.isEmpty()) {
        json cmd = json::array();
        for (const QString &a : spec.command)
            cmd.push_back(s(a));
        container["command"] = cmd;
    }
    if (!spec.workDir.isEmpty())
        container["workingDir"] = s(spec.workDir);
    json env = json::array();
    for (const QString &e : spec.env) {
        const qsizetype eq = e.indexOf(u'=');
        if (eq <= 0)
            continue;
        env.push_back({{"name", s(e.left(eq))}, {"value", s(e.mid(eq + 1))}});
    }
    if (!env.empty())
        container["env"] = env;

    json limits = json::object();
    json requests = json::object();
    const QString memLimit = !settings.memoryLimit.isEmpty() ? settings.memoryLimit
                             : spec.memoryBytes > 0          ? QString::number(spec.memoryBytes)
                                                             : QString();
    const QString cpuLimit = !settings.cpuLimit.isEmpty() ? settings.cpuLimit
                             : spec.nanoCpus > 0          ? cpuQuantity(spec.nanoCpus)
                                                          : QString();
    if (!memLimit.isEmpty())
        limits["memory"] = s(memLimit);
    if (!cpuLimit.isEmpty())
        limits["cpu"] = s(cpuLimit);
    const QString memRequest = settings.memoryRequest.isEmpty() ? memLimit : settings.memoryRequest;
    const QString cpuRequest = settings.cpuRequest.isEmpty() ? cpuLimit : settings.cpuRequest;
    if (!memRequest.isEmpty())
        requests["memory"] = s(memRequest);
    if (!cpuRequest.isEmpty())
        requests["cpu"] = s(cpuRequest);
    if (!settings.ephemeralStorage.isEmpty()) {
        limits["ephemeral-storage"] = s(settings.ephemeralStorage);
        requests["ephemeral-storage"] = s(settings.ephemeralStorage);
    }
    container["resources"] = {{"limits", limits}, {"requests", requests}};

    json volumes = json::array();
    json mounts = json::array();
    auto scratch = [&](const char *name, const QString &path, qint64 bytes) {
        json emptyDir = {{"medium", "Memory"}};
        if (bytes > 0)
            emptyDir["sizeLimit"] = s(QString::number(bytes));
        volumes.push_back({{"name", name}, {"emptyDir", emptyDir}});
        mounts.push_back({{"name", name}, {"mountPath", s(path)}});
    };
    scratch("work", spec.workDir.isEmpty() ? QStringLiteral("/sandbox") : spec.workDir,
            spec.workDirBytes);
    scratch("tmp", QStringLiteral("/tmp"), spec.tmpBytes);
    container["volumeMounts"] = mounts;

    json podSpec = {
        {"restartPolicy", "Never"},
        {"automountServiceAccountToken", false},
        {"enableServiceLinks", false},
        {"terminationGracePeriodSeconds", 0},
        {"securityContext",
         {{"runAsNonRoot", true},
          {"runAsUser", uid},
          {"runAsGroup", gid},
          {"fsGroup", gid},
          {"seccompProfile", seccomp}}},
        {"containers", json::array({container})},
        {"volumes", volumes},
    };
    if (settings.activeDeadlineSeconds > 0)
        podSpec["activeDeadlineSeconds"] = settings.activeDeadlineSeconds;
    if (spec.network == NetworkMode::Host) {
        podSpec["hostNetwork"] = true;
    } else if (spec.network == NetworkMode::None) {
        // No network-off mode for a pod: the label selects it for the deny-all policy.
        labels[kubernetesNetworkLabel] = "none";
        note(QStringLiteral("network off on Kubernetes is the NetworkPolicy %1, enforced where "
                            "the cluster's network plugin enforces policies")
                 .arg(QLatin1String(kubernetesDenyAllPolicy)));
    }
    if (spec.pidsLimit > 0)
        note(QStringLiteral("the process limit is the cluster's (kubelet podPidsLimit); a pod "
                            "cannot set it"));
    if (!settings.runtimeClassName.isEmpty())
        podSpec["runtimeClassName"] = s(settings.runtimeClassName);
    if (!settings.nodeSelector.isEmpty()) {
        json sel = json::object();
        for (auto it = settings.nodeSelector.cbegin(); it != settings.nodeSelector.cend(); ++it)
            sel[s(it.key())] = s(it.value());
        podSpec["nodeSelector"] = sel;
    }
    if (!settings.tolerations.isEmpty()) {
        json tols = json::array();
        for (const KubernetesToleration &t : settings.tolerations) {
            json tj = json::object();
            if (!t.key.isEmpty())
                tj["key"] = s(t.key);
            if (!t.op.isEmpty())
                tj["operator"] = s(t.op);
            if (!t.value.isEmpty())
                tj["value"] = s(t.value);
            if (!t.effect.isEmpty())
                tj["effect"] = s(t.effect);
            if (t.tolerationSeconds >= 0)
                tj["tolerationSeconds"] = t.tolerationSeconds;
            tols.push_back(tj);
        }
        podSpec["tolerations"] = tols;
    }
    if (!settings.serviceAccountName.isEmpty())
        podSpec["serviceAccountName"] = s(settings.serviceAccountName);
    if (!settings.imagePullSecrets.isEmpty()) {
        json secrets = json::array();
        for (const QString &n : settings.imagePullSecrets)
            secrets.push_back({{"name", s(n)}});
        podSpec["imagePullSecrets"] = secrets;
    }

    json pod = {
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata",
         {{"name", s(podName)},
          {"namespace", s(namespaceName)},
          {"labels", labels},
          {"annotations", annotations}}},
        {"spec", podSpec},
    };

    const QString raw = settings.rawManifest.trimmed();
    if (!raw.isEmpty()) {
        json over;
        if (raw.startsWith(u'{')) {
            over = json::parse(raw.toStdString(), nullptr, false);
            if (over.is_discarded())
                return fail(ErrorCode::InvalidArgument,
                            QStringLiteral("The raw pod manifest is not valid JSON"));
        } else {
            try {
                over = yamlToJson(YAML::Load(raw.toStdString()));
            } catch (const YAML::Exception &e) {
                return fail(ErrorCode::InvalidArgument,
                            QStringLiteral("The raw pod manifest is not valid YAML: %1")
                                .arg(QString::fromStdString(e.what())));
            }
        }
        if (!over.is_object())
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("The raw pod manifest must be an object (a Pod or a part "
                                       "of one)"));
        if (over.contains("kind") && over["kind"] != "Pod")
            return fail(
                ErrorCode::InvalidArgument,
                QStringLiteral("The raw pod manifest is a %1, not a Pod").arg(q(over, "kind")));
        // Identity stays the engine's: the sandbox id is the pod's name.
        if (over.contains("metadata") && over["metadata"].is_object()) {
            over["metadata"].erase("name");
            over["metadata"].erase("namespace");
        }
        mergeOver(pod, over);
    }
    const std::string text = pod.dump();
    return QByteArray(text.data(), qsizetype(text.size()));
}

// ------------------------------------------------------------------ KubernetesRuntime

Result<std::shared_ptr<KubernetesRuntime>>
KubernetesRuntime::create(const KubernetesSettings &settings, const QString &profileName)
{
    auto conn = resolveKubernetesConnection(settings);
    if (!conn)
        return std::unexpected(conn.error());
    return std::make_shared<KubernetesRuntime>(*conn, settings, profileName);
}

KubernetesRuntime::KubernetesRuntime(KubernetesConnection connection, KubernetesSettings settings,
                                     QString profileName)
    : d(std::make_unique<Impl>())
{
    d->conn = std::move(connection);
    d->settings = std::move(settings);
    d->profileName = std::move(profileName);
}

KubernetesRuntime::~KubernetesRuntime() = default;

const KubernetesConnection &KubernetesRuntime::connection() const
{
    return d->conn;
}

const KubernetesSettings &KubernetesRuntime::settings() const
{
    return d->settings;
}

QString KubernetesRuntime::endpointDisplay() const
{
    return QStringLiteral("%1 (context %2, namespace %3)")
        .arg(d->conn.server, d->conn.contextName, d->conn.namespaceName);
}

Result<RuntimeInfo> KubernetesRuntime::ping()
{
    auto r = d->request("GET", QStringLiteral("/version"), {}, 10000);
    if (!r)
        return std::unexpected(r.error());
    if (!r->ok())
        return std::unexpected(d->apiError(*r, QStringLiteral("GET /version")));
    const json v =
        json::parse(r->body.constData(), r->body.constData() + r->body.size(), nullptr, false);
    RuntimeInfo info;
    info.name = QStringLiteral("Kubernetes");
    info.version = v.is_object() ? q(v, "gitVersion") : QString();
    info.apiVersion = QStringLiteral("v1");
    info.os = v.is_object() ? q(v, "platform").section(u'/', 0, 0) : QString();
    // /version is public on most clusters: a pod list proves the credentials work.
    const QString path = d->podPath() + QStringLiteral("?limit=1");
    auto l = d->request("GET", path, {}, 10000);
    if (!l)
        return std::unexpected(l.error());
    if (!l->ok())
        return std::unexpected(d->apiError(*l, QStringLiteral("GET ") + path));
    return info;
}

Result<bool> KubernetesRuntime::imageExists(const QString &)
{
    return true;
}

Result<QString> KubernetesRuntime::create(const SandboxSpec &spec)
{
    QString name = QStringLiteral("sandbox-%1%2")
                       .arg(QRandomGenerator::global()->generate64(), 16, 16, QChar(u'0'))
                       .arg(QRandomGenerator::global()->generate() & 0xff, 2, 16, QChar(u'0'));
    QStringList notes;
    auto manifest = buildPodManifest(spec, d->settings, name, d->conn.namespaceName, &notes);
    if (!manifest)
        return std::unexpected(manifest.error());
    // Network off is a policy, not a pod field: fail closed when it cannot be in place.
    if (spec.network == NetworkMode::None)
        if (auto p = d->ensureDenyAllPolicy(); !p)
            return std::unexpected(p.error());
    for (const QString &n : std::as_const(notes))
        qCDebug(lcKube).noquote() << n;
    const QString path = d->podPath() + QStringLiteral("?fieldManager=sandbox-studio");
    auto r = d->request("POST", path, *manifest);
    if (!r)
        return std::unexpected(r.error());
    if (r->status != 201 && r->status != 200) {
        Error e = d->apiError(*r, QStringLiteral("POST ") + d->podPath());
        if (r->status != 401 && r->status != 403)
            e.message = QStringLiteral("Creating the sandbox pod failed: ") + e.message;
        return std::unexpected(e);
    }
    const json created =
        json::parse(r->body.constData(), r->body.constData() + r->body.size(), nullptr, false);
    if (created.is_object() && created.contains("metadata"))
        name = q(created["metadata"], "name");
    auto running = d->waitRunning(name, clusterImage(spec.image, d->settings));
    if (!running) {
        // Nothing stays behind when the pod cannot start.
        if (auto del = d->deletePod(name); !del)
            qCWarning(lcKube).noquote() << "could not delete pod" << name << del.error().toString();
        return std::unexpected(running.error());
    }
    return name;
}

Result<void> KubernetesRuntime::start(const QString &)
{
    return {};
}

Result<ExecResult> KubernetesRuntime::exec(const QString &id, const ExecSpec &spec,
                                           const ExecIo &io, const CancelToken &cancel,
                                           Deadline deadline)
{
    if (spec.argv.isEmpty())
        return fail(ErrorCode::InvalidArgument, QStringLiteral("exec needs a command"));
    QStringList argv = spec.argv;
    if (!spec.env.isEmpty() || !spec.workDir.isEmpty()) {
        // pods/exec has no env or cwd: let env(1) and sh do it.
        QStringList pre{QStringLiteral("env")};
        pre += spec.env;
        if (!spec.workDir.isEmpty())
            pre += QStringList{QStringLiteral("sh"), QStringLiteral("-c"),
                               QStringLiteral("cd \"$0\" && exec \"$@\""), spec.workDir};
        argv = pre + argv;
    }
    const bool stdinOn = spec.attachStdin;
    // v4 cannot signal stdin EOF: then stdin is cut at its length by head(1) in the sandbox.
    const bool wrapForV4 = stdinOn && d->wsVersion.load() == 4;
    auto wrapped = [&] {
        return QStringList{QStringLiteral("sh"), QStringLiteral("-c"),
                           QStringLiteral("head -c %1 | \"$@\"").arg(spec.stdinData.size()),
                           QStringLiteral("sh")} +
               argv;
    };
    auto ws =
        d->openStream(QStringLiteral("exec"), id, wrapForV4 ? wrapped() : argv, stdinOn, wrapForV4);
    if (!ws)
        return std::unexpected(ws.error());
    const bool v5 = (*ws)->subprotocol() == QLatin1String("v5.channel.k8s.io");
    d->wsVersion.store(v5 ? 5 : 4);
    if (stdinOn && !v5 && !wrapForV4) {
        (*ws)->close();
        ws = d->openStream(QStringLiteral("exec"), id, wrapped(), true, true);
        if (!ws)
            return std::unexpected(ws.error());
    }
    WebSocketChannel &channel = **ws;
    if (stdinOn) {
        for (qsizetype off = 0; off < spec.stdinData.size(); off += ChunkBytes) {
            QByteArray msg(1, '\0');
            msg += spec.stdinData.mid(off, ChunkBytes);
            if (auto w = channel.send(msg); !w)
                return std::unexpected(w.error());
        }
        if (v5)
            if (auto w = channel.send(QByteArray("\xff\x00", 2)); !w)
                return std::unexpected(w.error());
    }
    ExecResult result;
    bool sawStatus = false;
    while (true) {
        if (cancel.isCancelled()) {
            result.cancelled = true;
            break;
        }
        if (deadline.expired()) {
            result.deadlineExceeded = true;
            break;
        }
        bool closed = false;
        auto m = channel.receive(100, &closed);
        if (!m)
            return std::unexpected(m.error());
        if (*m && !(*m)->isEmpty()) {
            const char ch = (**m)[0];
            const QByteArrayView data = QByteArrayView(**m).sliced(1);
            bool keep = true;
            if (ch == 1 && io.onStdout)
                keep = io.onStdout(data);
            else if (ch == 2 && io.onStderr)
                keep = io.onStderr(data);
            else if (ch == 3) {
                QString msg;
                result.exitCode = exitCodeFromStatus(data.toByteArray(), &msg);
                sawStatus = true;
                if (!msg.isEmpty() && io.onStderr)
                    io.onStderr(QByteArray(msg.toUtf8() + '\n'));
            }
            if (!keep) {
                result.stoppedByReader = true;
                break;
            }
        }
        if (closed)
            break;
    }
    channel.close();
    if (!sawStatus && !result.cancelled && !result.deadlineExceeded && !result.stoppedByReader)
        return fail(ErrorCode::IoError,
                    QStringLiteral("The exec stream of pod %1 ended without an exit status (the "
                                   "pod may have been deleted or the connection cut)")
                        .arg(id),
                    d->where() + QStringLiteral(" close: ") + channel.closeReason());
    return result;
}

Result<void> KubernetesRuntime::kill(const QString &id)
{
    ExecSpec k;
    // The shell's own kill: images need not have kill(1). -1 spares the caller and PID 1.
    k.argv = {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("kill -9 -1")};
    auto r = exec(id, k, {}, {}, Deadline::in(std::chrono::seconds(10)));
    if (r && !r->deadlineExceeded && r->exitCode == 0)
        return {};
    if (auto del = d->deletePod(id); !del)
        return std::unexpected(del.error());
    return {};
}

Result<void> KubernetesRuntime::remove(const QString &id)
{
    return d->deletePod(id);
}

Result<QList<SandboxInfo>> KubernetesRuntime::list(const QString &labelKey,
                                                   const QString &labelValue)
{
    const QString selector = labelKey + u'=' + kubernetesLabelValue(labelValue);
    const QString path = d->podPath() + QStringLiteral("?labelSelector=") +
                         QString::fromLatin1(QUrl::toPercentEncoding(selector));
    auto r = d->request("GET", path);
    if (!r)
        return std::unexpected(r.error());
    if (!r->ok())
        return std::unexpected(d->apiError(*r, QStringLiteral("GET ") + path));
    const json j =
        json::parse(r->body.constData(), r->body.constData() + r->body.size(), nullptr, false);
    QList<SandboxInfo> out;
    if (!j.is_object() || !j.contains("items") || !j["items"].is_array())
        return fail(ErrorCode::ProtocolError, QStringLiteral("The pod list is malformed"), path);
    for (const json &pod : j["items"]) {
        const json meta = pod.value("metadata", json::object());
        SandboxInfo info;
        info.id = q(meta, "name");
        info.name = info.id;
        for (const char *key : {"labels", "annotations"}) // annotations hold the exact values
            if (meta.contains(key) && meta[key].is_object())
                for (auto it = meta[key].begin(); it != meta[key].end(); ++it)
                    if (it->is_string())
                        info.labels.insert(QString::fromStdString(it.key()),
                                           QString::fromStdString(it->get<std::string>()));
        if (info.labels.value(labelKey) != labelValue)
            continue;
        const QString phase = q(pod.value("status", json::object()), "phase");
        info.state = phase == QLatin1String("Running")   ? QStringLiteral("running")
                     : phase == QLatin1String("Pending") ? QStringLiteral("created")
                                                         : QStringLiteral("exited");
        out.append(info);
    }
    return out;
}

Result<std::unique_ptr<ExecChannel>> KubernetesRuntime::execInteractive(const QString &id,
                                                                        const ExecSpec &spec)
{
    if (spec.argv.isEmpty())
        return fail(ErrorCode::InvalidArgument, QStringLiteral("exec needs a command"));
    QStringList argv = spec.argv;
    if (!spec.env.isEmpty() || !spec.workDir.isEmpty()) {
        QStringList pre{QStringLiteral("env")};
        pre += spec.env;
        if (!spec.workDir.isEmpty())
            pre += QStringList{QStringLiteral("sh"), QStringLiteral("-c"),
                               QStringLiteral("cd \"$0\" && exec \"$@\""), spec.workDir};
        argv = pre + argv;
    }
    auto ws = d->openStream(QStringLiteral("exec"), id, argv, true);
    if (!ws)
        return std::unexpected(ws.error());
    return std::unique_ptr<ExecChannel>(new KubeExecChannel(std::move(*ws)));
}

Result<bool> KubernetesRuntime::networkExists(const QString &name)
{
    return name == QLatin1String("bridge");
}

Result<void> KubernetesRuntime::pullImage(const QString &ref, std::function<void(const QString &)>,
                                          const CancelToken &)
{
    return fail(ErrorCode::ImageMissing,
                QStringLiteral("A Kubernetes cluster pulls images on its nodes: push %1 to a "
                               "registry they can reach; Sandbox Studio does not pull for them")
                    .arg(ref));
}

Result<QString> KubernetesRuntime::importImage(const QString &repo, const QString &tag,
                                               const QStringList &,
                                               std::function<size_t(char *, size_t)>,
                                               std::function<void(qint64)>, const CancelToken &)
{
    return fail(ErrorCode::EngineError,
                QStringLiteral("A Kubernetes cluster cannot import images: build %1:%2 with a "
                               "Docker or Podman backend and push it to a registry the cluster "
                               "pulls from")
                    .arg(repo, tag));
}

Result<std::unique_ptr<RawStream>> KubernetesRuntime::attach(const QString &id)
{
    auto ws = d->openStream(QStringLiteral("attach"), id, {}, true);
    if (!ws)
        return std::unexpected(ws.error());
    return std::unique_ptr<RawStream>(new KubeAttachStream(std::move(*ws)));
}

Result<QString> KubernetesRuntime::commit(const QString &id, const QString &repo,
                                          const QString &tag)
{
    return fail(ErrorCode::EngineError,
                QStringLiteral("Kubernetes cannot commit a running pod %1 as image %2:%3 (there "
                               "is no commit API): save templates with a Docker or Podman "
                               "backend")
                    .arg(id, repo, tag));
}

} // namespace sandbox
