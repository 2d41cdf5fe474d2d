// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpserver.h"

#include "languages/language.h"
#include "mcp/mcptools.h"
#include "session/engine.h"
#include "session/notebook.h"
#include "session/sandboxsetup.h"
#include "util/tarball.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QMetaMethod>
#include <QPointer>
#include <QRandomGenerator>
#include <QThreadPool>
#include <QTimer>
#include <algorithm>
#include <mutex>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcMcp, "sandbox.mcp")

namespace sandbox {

namespace {

// JSON-RPC 2.0 error codes (JSON-RPC 2.0 specification, section 5.1).
constexpr int ParseError = -32700;
constexpr int InvalidRequest = -32600;
constexpr int MethodNotFound = -32601;
constexpr int InvalidParams = -32602;
constexpr int InternalError = -32603;

constexpr int HeartbeatMs = 2000;
constexpr int MaxSessionsPerConnection = 8;
constexpr qint64 MaxDownloadBytes = 16ll << 20;

QString randomHex(int bytes)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    for (int i = 0; i < bytes; ++i)
        raw[i] = char(QRandomGenerator::system()->bounded(256));
    return QString::fromLatin1(raw.toHex());
}

QJsonObject errorResponse(const QJsonValue &id, int code, const QString &message,
                          const QJsonValue &data = {})
{
    QJsonObject err{{u"code"_s, code}, {u"message"_s, message}};
    if (!data.isUndefined() && !data.isNull())
        err.insert(u"data"_s, data);
    return QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"error"_s, err}};
}

QJsonObject resultResponse(const QJsonValue &id, const QJsonObject &result)
{
    return QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}};
}

QJsonObject notification(const QString &method, const QJsonObject &params)
{
    return QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, method}, {u"params"_s, params}};
}

/// JSON-RPC ids are strings or integers (MCP: never null).
bool isValidId(const QJsonValue &id)
{
    if (id.isString())
        return true;
    if (id.isDouble()) {
        const double v = id.toDouble();
        return v == double(qint64(v));
    }
    return false;
}

QString idKey(const QJsonValue &id)
{
    return id.isString() ? u"s:"_s + id.toString() : u"n:"_s + QString::number(id.toInteger());
}

const QStringList &logLevels()
{
    // RFC 5424 severities, as MCP's logging/setLevel names them, least severe first.
    static const QStringList levels = {u"debug"_s, u"info"_s,     u"notice"_s, u"warning"_s,
                                       u"error"_s, u"critical"_s, u"alert"_s,  u"emergency"_s};
    return levels;
}

int severityRank(const QString &severity)
{
    static const QStringList order = {u"low"_s, u"medium"_s, u"high"_s, u"critical"_s};
    return int(order.indexOf(severity.toLower()));
}

/// Calls that arrived in one body: collects batch responses and runs done once.
struct Exchange
{
    McpSend reply;
    std::function<void()> done;
    bool batch = false;
    int pending = 0;
    QJsonArray batchResponses;
    bool finished = false;

    void send(const QJsonValue &v)
    {
        if (reply)
            reply(v);
    }
    void respond(const QJsonObject &response)
    {
        if (batch)
            batchResponses.append(response);
        else
            send(response);
        settle();
    }
    /// One expected response will not come (a cancelled request).
    void settle()
    {
        if (--pending > 0 || finished)
            return;
        finished = true;
        if (batch && !batchResponses.isEmpty())
            send(batchResponses);
        if (done)
            done();
    }
};

} // namespace

namespace {
QString serverInstructions()
{
    return u"Sandbox Studio runs code in hardened, throw-away containers (no network, limited "
           u"memory, CPU and time). Use execute_code for one-shot programs in Python, "
           u"JavaScript, Java, C++, Go or R; every matplotlib/R plot comes back as an image. "
           u"Use create_session + execute_cell for notebook-style work whose state persists "
           u"(Python, JavaScript, R), upload_file/download_file to move files in and out of "
           u"a session, and close_session when done. The person at the desk sees every run "
           u"and may have to approve it."_s;
}
} // namespace

QStringList mcpLegacyProtocolVersions()
{
    return {u"2025-11-25"_s, u"2025-06-18"_s, u"2025-03-26"_s};
}

QStringList mcpModernProtocolVersions()
{
    return {u"2026-07-28"_s};
}

QStringList mcpSupportedProtocolVersions()
{
    return mcpModernProtocolVersions() + mcpLegacyProtocolVersions();
}

bool mcpIsModernRequest(const QJsonObject &params)
{
    return params.value(u"_meta"_s).toObject().contains(QLatin1String(McpMetaProtocolVersion));
}

McpRequestError mcpCheckModernEnvelope(const QJsonObject &params)
{
    const QJsonValue metaV = params.value(u"_meta"_s);
    if (!metaV.isObject())
        return {
            InvalidParams,
            u"Invalid params: _meta must be an object carrying %1 and %2 (MCP 2026-07-28)"_s.arg(
                QLatin1String(McpMetaProtocolVersion), QLatin1String(McpMetaClientCapabilities)),
            {}};
    const QJsonObject meta = metaV.toObject();
    const QJsonValue pv = meta.value(QLatin1String(McpMetaProtocolVersion));
    if (!pv.isString() || pv.toString().isEmpty())
        return {InvalidParams,
                u"Invalid params: _meta[\"%1\"] must be a protocol version string such as "
                u"\"2026-07-28\""_s.arg(QLatin1String(McpMetaProtocolVersion)),
                {}};
    const QString requested = pv.toString();
    if (!mcpModernProtocolVersions().contains(requested)) {
        const bool legacy = mcpLegacyProtocolVersions().contains(requested);
        const QStringList supported =
            legacy ? mcpModernProtocolVersions() : mcpSupportedProtocolVersions();
        return {McpErrorUnsupportedProtocolVersion,
                legacy ? u"Unsupported protocol version %1 in _meta: it is negotiated with "
                         u"initialize; per-request _meta supports %2"_s.arg(
                             requested, mcpModernProtocolVersions().join(u", "_s))
                       : u"Unsupported protocol version %1 (supported: %2)"_s.arg(
                             requested, mcpSupportedProtocolVersions().join(u", "_s)),
                QJsonObject{{u"supported"_s, QJsonArray::fromStringList(supported)},
                            {u"requested"_s, requested}}};
    }
    if (!meta.contains(QLatin1String(McpMetaClientCapabilities)))
        return {InvalidParams,
                u"Invalid params: _meta[\"%1\"] is missing (required on every request of "
                u"protocol %2)"_s.arg(QLatin1String(McpMetaClientCapabilities), requested),
                {}};
    if (!meta.value(QLatin1String(McpMetaClientCapabilities)).isObject())
        return {InvalidParams,
                u"Invalid params: _meta[\"%1\"] must be an object"_s.arg(
                    QLatin1String(McpMetaClientCapabilities)),
                {}};
    if (meta.contains(QLatin1String(McpMetaClientInfo))) {
        const QJsonValue ci = meta.value(QLatin1String(McpMetaClientInfo));
        if (!ci.isObject() || !ci.toObject().value(u"name"_s).isString() ||
            !ci.toObject().value(u"version"_s).isString())
            return {InvalidParams,
                    u"Invalid params: _meta[\"%1\"] must be an object with string name and "
                    u"version"_s.arg(QLatin1String(McpMetaClientInfo)),
                    {}};
    }
    if (meta.contains(QLatin1String(McpMetaLogLevel)) &&
        !logLevels().contains(meta.value(QLatin1String(McpMetaLogLevel)).toString()))
        return {InvalidParams,
                u"Invalid params: _meta[\"%1\"] must be one of %2"_s.arg(
                    QLatin1String(McpMetaLogLevel), logLevels().join(u", "_s)),
                {}};
    return {};
}

struct McpServer::Private
{
    McpServer *q = nullptr;

    struct Connection
    {
        McpClientInfo info;
        McpSend notify;
        bool initialized = false;
        bool ephemeral = false;          ///< McpConnectionOptions::ephemeral
        QString owner;                   ///< of notebooks created by modern requests
        bool modern = false;             ///< a modern request was served here (era locked)
        QString logLevel;                ///< empty: the client did not ask for log messages
        QHash<QString, qint64> inflight; ///< idKey(request id) -> call id
        QStringList sessions;
    };

    struct Notebook
    {
        QString id;
        QString owner; ///< "conn:ID" (ends with that connection) or a stateless owner
        QString language;
        std::shared_ptr<NotebookSession> session;
        QDateTime lastUsed; ///< UTC, for the idle expiry of stateless owners' sessions
        int busy = 0;       ///< calls using it now
    };

    struct Call
    {
        qint64 id = 0;
        QString connectionId;
        QJsonValue requestId;
        std::shared_ptr<Exchange> exchange;
        CancelToken cancel;
        bool cancelled = false;
        bool stoppedByPerson = false;
        QString lastStatus = u"working"_s; ///< for the progress heartbeat
        bool finished = false;
        bool started = false; ///< callStarted was emitted
        QJsonValue progressToken;
        double progress = 0;
        QTimer *heartbeat = nullptr;
        McpCallInfo info;
        QElapsedTimer timer;
        std::shared_ptr<NotebookSession> notebook;
        bool awaitingApproval = false;
        std::function<void(bool, QString)> onApproval;
        QList<PolicyFinding> findings;
        bool policyApproved = false; ///< ask findings were approved (person or allowPolicyAsk)
        QString revision;            ///< negotiated protocol revision of its connection
        bool modern = false;         ///< a 2026-07-28 request: results carry resultType
        QString owner;               ///< of the notebook sessions it may use
        QString logLevel;            ///< modern: _meta logLevel of the request (empty: none)
        QString notebookId;          ///< the notebook it marked busy, if any
    };

    std::shared_ptr<Engine> engine;
    mutable std::mutex engineMutex;
    QHash<QString, Connection> connections;
    QHash<QString, Notebook> notebooks;
    QHash<qint64, std::shared_ptr<Call>> calls;
    qint64 nextCallId = 1;
    McpApprovalMode approvalMode = McpApprovalMode::Off;
    QString approvalSeverity = u"high"_s;
    McpPolicyChecker policyChecker;
    bool allowPolicyAsk = false;
    Limits defaultLimits;
    qint64 maxTimeoutMs = 600'000;
    qint64 statelessIdleMs = 30 * 60 * 1000;
    QTimer *idleTimer = nullptr;
    bool fixtures = false;
    QThreadPool pool;

    std::shared_ptr<Engine> currentEngine() const
    {
        std::lock_guard lock(engineMutex);
        return engine;
    }

    void log(const QString &line)
    {
        qCInfo(lcMcp).noquote() << line;
        Q_EMIT q->logMessage(line);
    }

    // --- dispatch ------------------------------------------------------------------------

    void dispatchOne(const QString &connectionId, const QJsonValue &message,
                     const std::shared_ptr<Exchange> &ex);
    void handleRequest(const QString &connectionId, const QJsonValue &id, const QString &method,
                       const QJsonObject &params, const std::shared_ptr<Exchange> &ex);
    void handleNotification(const QString &connectionId, const QString &method,
                            const QJsonObject &params);
    QJsonObject initializeResult(Connection &c, const QJsonObject &params, QString *error);
    void handleModernRequest(const QString &connectionId, const QJsonValue &id,
                             const QString &method, const QJsonObject &params,
                             const std::shared_ptr<Exchange> &ex);
    /// What a modern (2026-07-28) result carries besides the method's own fields.
    static QJsonObject modernResult(QJsonObject result, bool cacheable);
    void expireIdleNotebooks();
    void closeNotebook(const QString &id);

    // --- tools ---------------------------------------------------------------------------

    void callTool(const QString &connectionId, const QJsonValue &id, const QJsonObject &params,
                  const std::shared_ptr<Exchange> &ex);
    void runExecuteCode(const std::shared_ptr<Call> &call, const QJsonObject &args);
    void runCreateSession(const std::shared_ptr<Call> &call, const QJsonObject &args);
    void runExecuteCell(const std::shared_ptr<Call> &call, const QJsonObject &args);
    void runCloseSession(const std::shared_ptr<Call> &call, const QJsonObject &args);
    void runUpload(const std::shared_ptr<Call> &call, const QJsonObject &args);
    void runDownload(const std::shared_ptr<Call> &call, const QJsonObject &args);

    /// Policy check (on a worker when a checker is set), then approval, then go().
    void checkAndApprove(const std::shared_ptr<Call> &call, std::function<void()> go);
    void startCall(const std::shared_ptr<Call> &call);
    void finishCall(const std::shared_ptr<Call> &call, McpCallResult result);
    void finishWithToolError(const std::shared_ptr<Call> &call, const QString &message,
                             bool denied = false);
    /// An isError result for a call the policy (or the person) stopped before it ran, with
    /// the tool's structuredContent (policy_findings) so clients see every finding.
    void finishPolicyError(const std::shared_ptr<Call> &call, const QString &message, bool denied);
    void sendProgress(const std::shared_ptr<Call> &call, const QString &message, double value = -1,
                      double total = -1);
    void runFixture(const std::shared_ptr<Call> &call);
    void sendLog(const std::shared_ptr<Call> &call, const QString &level, const QString &text);
    void cancelCall(const std::shared_ptr<Call> &call, const QString &reason);
    Notebook *notebookFor(const std::shared_ptr<Call> &call, const QJsonObject &args,
                          QString *error);

    /// Runs work on the pool; then(result) runs on the server's thread unless the server
    /// is gone.
    template <typename T> void async(std::function<T()> work, std::function<void(T)> then)
    {
        QPointer<McpServer> guard(q);
        pool.start([work = std::move(work), then = std::move(then), guard]() mutable {
            T value = work();
            if (!guard)
                return;
            QMetaObject::invokeMethod(
                guard.data(),
                [then = std::move(then), value = std::move(value)]() mutable {
                    then(std::move(value));
                },
                Qt::QueuedConnection);
        });
    }

    /// A callback safe to call from a worker thread: fn runs on the server's thread.
    void post(std::function<void()> fn)
    {
        QPointer<McpServer> guard(q);
        if (!guard)
            return;
        QMetaObject::invokeMethod(q, std::move(fn), Qt::QueuedConnection);
    }

    void updateCallsInFlight(const QString &connectionId)
    {
        auto it = connections.find(connectionId);
        if (it == connections.end())
            return;
        int n = 0;
        for (const auto &c : std::as_const(calls))
            if (c->connectionId == connectionId && !c->finished)
                ++n;
        if (it->info.callsInFlight != n) {
            it->info.callsInFlight = n;
            Q_EMIT q->clientsChanged();
        }
    }
};

McpServer::McpServer(std::shared_ptr<Engine> engine, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->engine = std::move(engine);
    // Runs block their worker for as long as the program runs: a pool of its own, so long
    // runs neither starve nor are starved by the global pool (2 threads on 2 cores).
    d->pool.setMaxThreadCount(16);
    d->pool.setExpiryTimeout(30'000);
    qRegisterMetaType<McpCallInfo>();
    qRegisterMetaType<McpCallResult>();
    qRegisterMetaType<McpApprovalRequest>();
    qRegisterMetaType<McpClientInfo>();
    d->idleTimer = new QTimer(this);
    d->idleTimer->setInterval(60'000);
    connect(d->idleTimer, &QTimer::timeout, this, [this] { d->expireIdleNotebooks(); });
    d->idleTimer->start();
}

McpServer::~McpServer()
{
    shutdown(30'000);
}

void McpServer::setEngine(std::shared_ptr<Engine> engine)
{
    std::lock_guard lock(d->engineMutex);
    d->engine = std::move(engine);
}

QString McpServer::openConnection(const QString &transport, McpSend notify,
                                  const McpConnectionOptions &options)
{
    Private::Connection c;
    c.info.connectionId = randomHex(16);
    c.info.transport = transport;
    c.info.connectedAt = QDateTime::currentDateTimeUtc();
    c.notify = std::move(notify);
    c.ephemeral = options.ephemeral;
    const QString id = c.info.connectionId;
    c.owner = options.owner.isEmpty() ? u"conn:"_s + id : options.owner;
    d->connections.insert(id, std::move(c));
    if (!options.ephemeral) {
        d->log(u"%1 connection %2 opened"_s.arg(transport, id.left(8)));
        Q_EMIT clientsChanged();
    }
    return id;
}

void McpServer::closeConnection(const QString &connectionId)
{
    auto it = d->connections.find(connectionId);
    if (it == d->connections.end())
        return;
    const QStringList sessions = it->sessions;
    const bool visible = !it->ephemeral || it->info.callsInFlight > 0;
    const bool quiet = it->ephemeral;
    d->connections.erase(it);
    // Runs of a client that is gone are cancelled: nobody would read their results.
    const auto calls = d->calls.values();
    for (const auto &call : calls)
        if (call->connectionId == connectionId && !call->finished)
            d->cancelCall(call, u"the client disconnected"_s);
    for (const QString &sid : sessions)
        d->closeNotebook(sid);
    if (!quiet)
        d->log(u"connection %1 closed"_s.arg(connectionId.left(8)));
    if (visible)
        Q_EMIT clientsChanged();
}

bool McpServer::hasConnection(const QString &connectionId) const
{
    return d->connections.contains(connectionId);
}

QString McpServer::protocolVersion(const QString &connectionId) const
{
    return d->connections.value(connectionId).info.protocolVersion;
}

QList<McpClientInfo> McpServer::clients() const
{
    QList<McpClientInfo> out;
    for (const auto &c : std::as_const(d->connections))
        if (!c.ephemeral || c.info.callsInFlight > 0)
            out << c.info;
    std::sort(out.begin(), out.end(), [](const McpClientInfo &a, const McpClientInfo &b) {
        return a.connectedAt < b.connectedAt;
    });
    return out;
}

void McpServer::shutdown(int timeoutMs)
{
    const QStringList ids = d->connections.keys();
    for (const QString &id : ids)
        closeConnection(id);
    for (const auto &nb : std::as_const(d->notebooks))
        if (auto s = nb.session)
            d->pool.start([s] { s->close(); });
    d->notebooks.clear();
    for (const auto &call : d->calls.values())
        if (!call->finished)
            d->cancelCall(call, u"the server is shutting down"_s);
    // The engine removes each sandbox on its worker (cancellation included): wait for it.
    d->pool.waitForDone(timeoutMs);
}

McpApprovalMode McpServer::approvalMode() const
{
    return d->approvalMode;
}

void McpServer::setApprovalMode(McpApprovalMode mode, const QString &severity)
{
    d->approvalMode = mode;
    if (severityRank(severity) >= 0)
        d->approvalSeverity = severity.toLower();
}

QString McpServer::approvalSeverity() const
{
    return d->approvalSeverity;
}

void McpServer::resolveApproval(qint64 callId, bool allow, const QString &reason)
{
    auto call = d->calls.value(callId);
    if (!call || !call->awaitingApproval)
        return;
    call->awaitingApproval = false;
    auto fn = std::move(call->onApproval);
    call->onApproval = nullptr;
    if (fn)
        fn(allow, reason);
}

void McpServer::stopCall(qint64 callId)
{
    auto call = d->calls.value(callId);
    if (!call || call->finished)
        return;
    if (call->awaitingApproval) {
        resolveApproval(callId, false, u"stopped before it ran"_s);
        return;
    }
    d->log(u"call %1 stopped by the person"_s.arg(callId));
    call->stoppedByPerson = true;
    call->cancel.cancel();
    if (call->notebook)
        call->notebook->interrupt();
}

void McpServer::setPolicyChecker(McpPolicyChecker checker)
{
    d->policyChecker = std::move(checker);
}

void McpServer::setAllowPolicyAsk(bool allow)
{
    d->allowPolicyAsk = allow;
}

void McpServer::setDefaultLimits(const Limits &limits)
{
    d->defaultLimits = limits;
}

Limits McpServer::defaultLimits() const
{
    return d->defaultLimits;
}

void McpServer::setMaxTimeoutMs(qint64 ms)
{
    d->maxTimeoutMs = std::max<qint64>(1000, ms);
}

void McpServer::setStatelessSessionIdleTimeout(qint64 ms)
{
    d->statelessIdleMs = std::max<qint64>(0, ms);
}

void McpServer::Private::closeNotebook(const QString &id)
{
    auto nb = notebooks.take(id);
    if (auto s = nb.session) {
        s->interrupt();
        pool.start([s] { s->close(); });
    }
}

void McpServer::Private::expireIdleNotebooks()
{
    if (statelessIdleMs <= 0)
        return;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QStringList idle;
    for (const Notebook &nb : std::as_const(notebooks))
        if (!nb.owner.startsWith(u"conn:"_s) && nb.busy == 0 &&
            nb.lastUsed.msecsTo(now) > statelessIdleMs)
            idle << nb.id;
    for (const QString &id : std::as_const(idle)) {
        log(u"notebook session %1 unused for %2 min: closed"_s.arg(id).arg(statelessIdleMs /
                                                                           60'000));
        closeNotebook(id);
    }
}

QJsonObject McpServer::Private::modernResult(QJsonObject result, bool cacheable)
{
    // MCP 2026-07-28: every result says what it is (basic/index, "ResultType"), SHOULD
    // name the server in _meta, and cacheable ones carry ttlMs/cacheScope (SEP-2549). The
    // tool list only changes with a new version of the program; it is served behind the
    // bearer token, hence private.
    result.insert(u"resultType"_s, u"complete"_s);
    QJsonObject meta = result.value(u"_meta"_s).toObject();
    meta.insert(QLatin1String(McpMetaServerInfo), McpServer::serverInfo());
    result.insert(u"_meta"_s, meta);
    if (cacheable) {
        result.insert(u"ttlMs"_s, 3'600'000);
        result.insert(u"cacheScope"_s, u"private"_s);
    }
    return result;
}

QJsonObject McpServer::serverInfo()
{
    return QJsonObject{{u"name"_s, u"sandbox-studio"_s},
                       {u"title"_s, u"Sandbox Studio"_s},
                       {u"version"_s, QStringLiteral(SANDBOX_STUDIO_VERSION)}};
}

QJsonObject McpServer::discoverResult() const
{
    return Private::modernResult(
        QJsonObject{
            // Every revision this server speaks, the modern ones first (the legacy
            // ones through initialize); the same list an UnsupportedProtocolVersionError
            // names.
            {u"supportedVersions"_s, QJsonArray::fromStringList(mcpSupportedProtocolVersions())},
            {u"capabilities"_s, QJsonObject{{u"tools"_s, QJsonObject{{u"listChanged"_s, false}}},
                                            {u"logging"_s, QJsonObject{}}}},
            {u"instructions"_s, serverInstructions()}},
        true);
}

QJsonObject McpServer::toolsList() const
{
    QJsonArray tools = mcptools::toolDefinitions();
    if (d->fixtures)
        for (const QJsonValue &t : mcptools::fixtureToolDefinitions())
            tools.append(t);
    return QJsonObject{{u"tools"_s, tools}};
}

void McpServer::setConformanceFixtures(bool enabled)
{
    d->fixtures = enabled;
}

// --- JSON-RPC dispatch ------------------------------------------------------------------

McpDispatch McpServer::handleMessage(const QString &connectionId, const QByteArray &body,
                                     McpSend reply, std::function<void()> done)
{
    McpDispatch out;
    auto ex = std::make_shared<Exchange>();
    ex->reply = std::move(reply);
    ex->done = std::move(done);

    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &perr);
    if (perr.error != QJsonParseError::NoError || (!doc.isObject() && !doc.isArray())) {
        out.parseError = true;
        out.requests = 1;
        ex->pending = 1;
        ex->respond(errorResponse(
            QJsonValue::Null, ParseError,
            perr.error != QJsonParseError::NoError
                ? u"Parse error: %1 at offset %2"_s.arg(perr.errorString()).arg(perr.offset)
                : u"Parse error: a message is a JSON object or array"_s));
        return out;
    }

    auto countsAsRequest = [](const QJsonValue &v) {
        // Everything that gets a response: requests, and invalid messages (answered with
        // -32600). Notifications and client responses get none.
        if (!v.isObject())
            return true;
        const QJsonObject o = v.toObject();
        if (o.contains(u"method"_s))
            return o.contains(u"id"_s);
        return !(o.contains(u"result"_s) || o.contains(u"error"_s)) || !o.contains(u"id"_s);
    };

    if (doc.isArray()) {
        const QJsonArray items = doc.array();
        const QString revision = d->connections.value(connectionId).info.protocolVersion;
        // JSON-RPC batches exist in MCP 2025-03-26 only (removed in 2025-06-18).
        if (items.isEmpty() || revision != u"2025-03-26"_s) {
            out.requests = 1;
            ex->pending = 1;
            ex->respond(errorResponse(
                QJsonValue::Null, InvalidRequest,
                items.isEmpty() ? u"Invalid Request: empty batch"_s
                : revision.isEmpty()
                    ? u"Invalid Request: batches are not allowed before initialize"_s
                    : u"Invalid Request: JSON-RPC batches are not supported in protocol "
                      u"revision %1 (only 2025-03-26)"_s.arg(revision)));
            return out;
        }
        ex->batch = true;
        for (const QJsonValue &v : items) {
            if (countsAsRequest(v))
                ++out.requests;
            if (v.isObject() && v.toObject().value(u"method"_s) == u"initialize"_s)
                out.initialize = true;
        }
        ex->pending = out.requests + 1; // +1: held until every item was dispatched
        for (const QJsonValue &v : items)
            d->dispatchOne(connectionId, v, ex);
        ex->settle();
        return out;
    }

    const QJsonObject msg = doc.object();
    out.requests = countsAsRequest(msg) ? 1 : 0;
    out.initialize = msg.value(u"method"_s) == u"initialize"_s && msg.contains(u"id"_s);
    ex->pending = out.requests + 1;
    d->dispatchOne(connectionId, msg, ex);
    ex->settle();
    return out;
}

void McpServer::Private::dispatchOne(const QString &connectionId, const QJsonValue &message,
                                     const std::shared_ptr<Exchange> &ex)
{
    if (!message.isObject()) {
        ex->respond(errorResponse(QJsonValue::Null, InvalidRequest,
                                  u"Invalid Request: a message is a JSON object"_s));
        return;
    }
    const QJsonObject o = message.toObject();
    const bool hasId = o.contains(u"id"_s);
    const QJsonValue id = o.value(u"id"_s);
    const bool idOk = hasId && isValidId(id);
    const QJsonValue replyId = idOk ? id : QJsonValue(QJsonValue::Null);
    if (!o.contains(u"method"_s) && (o.contains(u"result"_s) || o.contains(u"error"_s)) && hasId)
        return; // a response from the client: this server sends no requests
    if (o.value(u"jsonrpc"_s) != u"2.0"_s) {
        if (hasId || !o.contains(u"method"_s))
            ex->respond(errorResponse(replyId, InvalidRequest,
                                      u"Invalid Request: jsonrpc must be \"2.0\""_s));
        return;
    }
    if (!o.contains(u"method"_s)) {
        if ((o.contains(u"result"_s) || o.contains(u"error"_s)) && hasId)
            return; // a response from the client: this server sends no requests
        ex->respond(errorResponse(replyId, InvalidRequest, u"Invalid Request: no method"_s));
        return;
    }
    if (!o.value(u"method"_s).isString()) {
        if (hasId)
            ex->respond(errorResponse(replyId, InvalidRequest,
                                      u"Invalid Request: method must be a string"_s));
        return;
    }
    const QString method = o.value(u"method"_s).toString();
    if (hasId && !idOk) {
        ex->respond(errorResponse(QJsonValue::Null, InvalidRequest,
                                  u"Invalid Request: id must be a string or an integer"_s));
        return;
    }
    const QJsonValue params = o.value(u"params"_s);
    if (!params.isUndefined() && !params.isObject()) {
        if (hasId)
            ex->respond(
                errorResponse(id, InvalidParams, u"Invalid params: params must be an object"_s));
        return;
    }
    if (!hasId) {
        handleNotification(connectionId, method, params.toObject());
        return;
    }
    if (!connections.contains(connectionId)) {
        ex->respond(errorResponse(id, InvalidRequest, u"Invalid Request: unknown connection"_s));
        return;
    }
    handleRequest(connectionId, id, method, params.toObject(), ex);
}

QJsonObject McpServer::Private::initializeResult(Connection &c, const QJsonObject &params,
                                                 QString *error)
{
    const QJsonValue pv = params.value(u"protocolVersion"_s);
    if (!pv.isString()) {
        *error = u"Invalid params: protocolVersion must be a string"_s;
        return {};
    }
    const QJsonValue ci = params.value(u"clientInfo"_s);
    if (!ci.isUndefined() && !ci.isObject()) {
        *error = u"Invalid params: clientInfo must be an object"_s;
        return {};
    }
    const QJsonValue caps = params.value(u"capabilities"_s);
    if (!caps.isUndefined() && !caps.isObject()) {
        *error = u"Invalid params: capabilities must be an object"_s;
        return {};
    }
    const QStringList supported = mcpLegacyProtocolVersions();
    // MCP lifecycle, version negotiation: echo a supported revision, else offer our newest.
    const QString version =
        supported.contains(pv.toString()) ? pv.toString() : supported.constFirst();
    c.info.protocolVersion = version;
    c.info.name = ci.toObject().value(u"name"_s).toString();
    c.info.version = ci.toObject().value(u"version"_s).toString();
    c.initialized = true;
    QJsonObject result{
        {u"protocolVersion"_s, version},
        {u"capabilities"_s, QJsonObject{{u"tools"_s, QJsonObject{{u"listChanged"_s, false}}},
                                        {u"logging"_s, QJsonObject{}}}},
        {u"serverInfo"_s, McpServer::serverInfo()},
        {u"instructions"_s, serverInstructions()}};
    return result;
}

void McpServer::Private::handleRequest(const QString &connectionId, const QJsonValue &id,
                                       const QString &method, const QJsonObject &params,
                                       const std::shared_ptr<Exchange> &ex)
{
    Connection &c = connections[connectionId];
    // MCP 2026-07-28 (basic/versioning, "dual-era server"): a request carrying the
    // per-request _meta envelope is served statelessly; server/discover exists only there.
    if (mcpIsModernRequest(params) || method == u"server/discover"_s) {
        handleModernRequest(connectionId, id, method, params, ex);
        return;
    }
    if (c.modern) {
        ex->respond(errorResponse(
            id, InvalidParams,
            u"Invalid params: _meta[\"%1\"] is missing; this connection speaks protocol "
            u"%2, where every request carries %1 and %3 in _meta"_s.arg(
                QLatin1String(McpMetaProtocolVersion), c.info.protocolVersion,
                QLatin1String(McpMetaClientCapabilities))));
        return;
    }
    if (method == u"initialize"_s) {
        if (c.initialized) {
            ex->respond(errorResponse(id, InvalidRequest,
                                      u"Invalid Request: the session is already initialized"_s));
            return;
        }
        QString error;
        const QJsonObject result = initializeResult(c, params, &error);
        if (!error.isEmpty()) {
            ex->respond(errorResponse(id, InvalidParams, error));
            return;
        }
        log(u"client %1 %2 initialized connection %3 (protocol %4)"_s.arg(
            c.info.name, c.info.version, connectionId.left(8), c.info.protocolVersion));
        Q_EMIT q->clientsChanged();
        ex->respond(resultResponse(id, result));
        return;
    }
    if (method == u"ping"_s) {
        ex->respond(resultResponse(id, QJsonObject{}));
        return;
    }
    if (!c.initialized) {
        ex->respond(errorResponse(
            id, InvalidRequest,
            u"Invalid Request: send initialize first (MCP 2025 lifecycle), or declare the "
            u"protocol in every request's _meta (\"%1\": \"%2\" with \"%3\", MCP %2)"_s.arg(
                QLatin1String(McpMetaProtocolVersion), mcpModernProtocolVersions().constFirst(),
                QLatin1String(McpMetaClientCapabilities))));
        return;
    }
    if (method == u"tools/list"_s) {
        const QJsonValue cursor = params.value(u"cursor"_s);
        if (!cursor.isUndefined() && !cursor.isString()) {
            ex->respond(
                errorResponse(id, InvalidParams, u"Invalid params: cursor must be a string"_s));
            return;
        }
        ex->respond(resultResponse(id, q->toolsList()));
        return;
    }
    if (method == u"tools/call"_s) {
        callTool(connectionId, id, params, ex);
        return;
    }
    if (method == u"logging/setLevel"_s) {
        const QString level = params.value(u"level"_s).toString();
        if (!logLevels().contains(level)) {
            ex->respond(errorResponse(
                id, InvalidParams,
                u"Invalid params: level must be one of %1"_s.arg(logLevels().join(u", "_s))));
            return;
        }
        c.logLevel = level;
        ex->respond(resultResponse(id, QJsonObject{}));
        return;
    }
    ex->respond(errorResponse(id, MethodNotFound, u"Method not found: %1"_s.arg(method)));
}

void McpServer::Private::handleModernRequest(const QString &connectionId, const QJsonValue &id,
                                             const QString &method, const QJsonObject &params,
                                             const std::shared_ptr<Exchange> &ex)
{
    Connection &c = connections[connectionId];
    if (c.initialized) {
        ex->respond(errorResponse(
            id, InvalidRequest,
            u"Invalid Request: this connection negotiated protocol %1 with initialize; "
            u"requests with a per-request _meta envelope (MCP %2) need a connection without "
            u"initialize"_s.arg(c.info.protocolVersion,
                                mcpModernProtocolVersions().join(u", "_s))));
        return;
    }
    if (const McpRequestError err = mcpCheckModernEnvelope(params); err.isError()) {
        ex->respond(errorResponse(id, err.code, err.message, err.data));
        return;
    }
    // No state is kept between requests: the client's name and revision are those of this
    // request (shown in clients() and the activity feed).
    const QJsonObject meta = params.value(u"_meta"_s).toObject();
    const QJsonObject ci = meta.value(QLatin1String(McpMetaClientInfo)).toObject();
    const QString version = meta.value(QLatin1String(McpMetaProtocolVersion)).toString();
    const bool changed = !c.modern || c.info.name != ci.value(u"name"_s).toString() ||
                         c.info.version != ci.value(u"version"_s).toString() ||
                         c.info.protocolVersion != version;
    if (!c.modern && !c.ephemeral)
        log(u"client %1 %2 speaks protocol %3 (stateless) on connection %4"_s.arg(
            ci.value(u"name"_s).toString(), ci.value(u"version"_s).toString(), version,
            connectionId.left(8)));
    c.modern = true;
    c.info.stateless = true;
    c.info.name = ci.value(u"name"_s).toString();
    c.info.version = ci.value(u"version"_s).toString();
    c.info.protocolVersion = version;
    if (changed && !c.ephemeral)
        Q_EMIT q->clientsChanged();

    if (method == u"server/discover"_s) {
        ex->respond(resultResponse(id, q->discoverResult()));
        return;
    }
    if (method == u"tools/list"_s) {
        const QJsonValue cursor = params.value(u"cursor"_s);
        if (!cursor.isUndefined() && !cursor.isString()) {
            ex->respond(
                errorResponse(id, InvalidParams, u"Invalid params: cursor must be a string"_s));
            return;
        }
        ex->respond(resultResponse(id, modernResult(q->toolsList(), true)));
        return;
    }
    if (method == u"tools/call"_s) {
        callTool(connectionId, id, params, ex);
        return;
    }
    static const QStringList removed = {u"initialize"_s, u"ping"_s, u"logging/setLevel"_s};
    ex->respond(errorResponse(
        id, MethodNotFound,
        removed.contains(method)
            ? u"Method not found: %1 does not exist in protocol %2 (stateless: no initialize "
              u"or ping; the log level is _meta[\"%3\"] of each request)"_s.arg(
                  method, version, QLatin1String(McpMetaLogLevel))
            : u"Method not found: %1 (protocol %2 offers server/discover, tools/list and "
              u"tools/call)"_s.arg(method, version)));
}

void McpServer::Private::handleNotification(const QString &connectionId, const QString &method,
                                            const QJsonObject &params)
{
    if (!connections.contains(connectionId))
        return;
    if (method == u"notifications/cancelled"_s) {
        const QJsonValue rid = params.value(u"requestId"_s);
        if (!isValidId(rid))
            return;
        const qint64 callId = connections[connectionId].inflight.value(idKey(rid), 0);
        if (auto call = calls.value(callId))
            cancelCall(call, params.value(u"reason"_s).toString(u"cancelled by the client"_s));
        return;
    }
    // notifications/initialized, roots/list_changed, ...: nothing to do.
}

// --- tools ------------------------------------------------------------------------------

void McpServer::Private::callTool(const QString &connectionId, const QJsonValue &id,
                                  const QJsonObject &params, const std::shared_ptr<Exchange> &ex)
{
    Connection &c = connections[connectionId];
    const QJsonValue nameV = params.value(u"name"_s);
    if (!nameV.isString()) {
        ex->respond(errorResponse(id, InvalidParams, u"Invalid params: name must be a string"_s));
        return;
    }
    const QString name = nameV.toString();
    const QJsonValue argsV = params.value(u"arguments"_s);
    if (!argsV.isUndefined() && !argsV.isNull() && !argsV.isObject()) {
        ex->respond(
            errorResponse(id, InvalidParams, u"Invalid params: arguments must be an object"_s));
        return;
    }
    const bool fixture = fixtures && mcptools::fixtureToolNames().contains(name);
    if (!fixture && !mcptools::toolNames().contains(name)) {
        ex->respond(errorResponse(id, InvalidParams,
                                  u"Unknown tool: %1 (tools/list names the "
                                  u"tools)"_s.arg(name)));
        return;
    }
    if (c.inflight.contains(idKey(id))) {
        ex->respond(errorResponse(
            id, InvalidRequest,
            u"Invalid Request: request id %1 is already in use"_s.arg(idKey(id).mid(2))));
        return;
    }
    const QJsonObject args = argsV.toObject();

    auto call = std::make_shared<Call>();
    call->id = nextCallId++;
    call->connectionId = connectionId;
    call->requestId = id;
    call->exchange = ex;
    call->revision = c.info.protocolVersion;
    call->modern = c.modern;
    call->owner = c.owner;
    if (call->modern)
        call->logLevel =
            params.value(u"_meta"_s).toObject().value(QLatin1String(McpMetaLogLevel)).toString();
    call->progressToken = params.value(u"_meta"_s).toObject().value(u"progressToken"_s);
    call->timer.start();
    call->info.callId = call->id;
    call->info.connectionId = connectionId;
    call->info.clientName = c.info.name;
    call->info.clientVersion = c.info.version;
    call->info.transport = c.info.transport;
    call->info.protocolVersion = c.info.protocolVersion;
    call->info.tool = name;
    call->info.arguments = args;
    call->info.startedAt = QDateTime::currentDateTimeUtc();

    // Argument errors: a tool execution error from 2025-11-25 on (the model can correct
    // itself, SEP-1303), a JSON-RPC -32602 before.
    if (const QString problem = fixture ? QString() : mcptools::validateArguments(name, args);
        !problem.isEmpty()) {
        if (call->revision == u"2025-11-25"_s || call->modern) {
            const QJsonObject result{
                {u"content"_s,
                 QJsonArray{QJsonObject{{u"type"_s, u"text"_s},
                                        {u"text"_s, QString(u"Invalid arguments: "_s + problem)}}}},
                {u"isError"_s, true}};
            ex->respond(resultResponse(id, call->modern ? modernResult(result, false) : result));
        } else {
            ex->respond(errorResponse(id, InvalidParams, u"Invalid params: "_s + problem));
        }
        return;
    }

    calls.insert(call->id, call);
    c.inflight.insert(idKey(id), call->id);
    if (!call->progressToken.isUndefined() && !call->progressToken.isNull()) {
        call->heartbeat = new QTimer(q);
        call->heartbeat->setInterval(HeartbeatMs);
        QObject::connect(call->heartbeat, &QTimer::timeout, q, [this, call] {
            if (!call->finished && !call->awaitingApproval)
                sendProgress(
                    call, u"%1 (%2 s)"_s.arg(call->lastStatus).arg(call->timer.elapsed() / 1000));
        });
        call->heartbeat->start();
    }
    updateCallsInFlight(connectionId);

    if (fixture) {
        runFixture(call);
    } else if (name == u"list_languages"_s) {
        startCall(call);
        McpCallResult r;
        r.mcpResult = mcptools::listLanguagesResult();
        finishCall(call, std::move(r));
    } else if (name == u"execute_code"_s) {
        runExecuteCode(call, args);
    } else if (name == u"create_session"_s) {
        runCreateSession(call, args);
    } else if (name == u"execute_cell"_s) {
        runExecuteCell(call, args);
    } else if (name == u"close_session"_s) {
        runCloseSession(call, args);
    } else if (name == u"upload_file"_s) {
        runUpload(call, args);
    } else if (name == u"download_file"_s) {
        runDownload(call, args);
    }
}

void McpServer::Private::startCall(const std::shared_ptr<Call> &call)
{
    if (call->started)
        return;
    call->started = true;
    Q_EMIT q->callStarted(call->info);
}

void McpServer::Private::finishCall(const std::shared_ptr<Call> &call, McpCallResult result)
{
    if (call->finished)
        return;
    call->finished = true;
    if (call->heartbeat) {
        call->heartbeat->stop();
        call->heartbeat->deleteLater();
        call->heartbeat = nullptr;
    }
    if (call->awaitingApproval) {
        call->awaitingApproval = false;
        Q_EMIT q->approvalWithdrawn(call->id);
    }
    result.callId = call->id;
    result.cancelled = result.cancelled || call->cancelled;
    if (result.policyFindings.isEmpty())
        result.policyFindings = call->findings;
    if (result.durationMs == 0)
        result.durationMs = call->timer.elapsed();
    if (result.mcpResult.isEmpty()) {
        result.mcpResult = QJsonObject{
            {u"content"_s,
             QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, result.errorMessage}}}},
            {u"isError"_s, true}};
        result.isError = true;
    }
    if (call->stoppedByPerson) {
        QJsonArray content = result.mcpResult.value(u"content"_s).toArray();
        content.prepend(
            QJsonObject{{u"type"_s, u"text"_s},
                        {u"text"_s, u"Stopped by the person at Sandbox Studio after %1 ms."_s.arg(
                                        call->timer.elapsed())}});
        result.mcpResult.insert(u"content"_s, content);
        result.mcpResult.insert(u"isError"_s, true);
        result.errorMessage = u"stopped by the person"_s;
    }
    result.isError = result.isError || result.mcpResult.value(u"isError"_s).toBool();
    if (call->modern)
        result.mcpResult = modernResult(result.mcpResult, false);
    if (auto nb = notebooks.find(call->notebookId);
        !call->notebookId.isEmpty() && nb != notebooks.end()) {
        nb->busy = std::max(0, nb->busy - 1);
        nb->lastUsed = QDateTime::currentDateTimeUtc();
    }
    auto conn = connections.find(call->connectionId);
    if (conn != connections.end())
        conn->inflight.remove(idKey(call->requestId));
    // notifications/cancelled: the request gets no response (MCP cancellation).
    if (call->cancelled)
        call->exchange->settle();
    else
        call->exchange->respond(resultResponse(call->requestId, result.mcpResult));
    startCall(call); // every finished call was started (denied ones too)
    Q_EMIT q->callFinished(result);
    calls.remove(call->id);
    updateCallsInFlight(call->connectionId);
}

void McpServer::Private::finishWithToolError(const std::shared_ptr<Call> &call,
                                             const QString &message, bool denied)
{
    McpCallResult r;
    r.isError = true;
    r.denied = denied;
    r.errorMessage = message;
    r.mcpResult = QJsonObject{
        {u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, message}}}},
        {u"isError"_s, true}};
    finishCall(call, std::move(r));
}

void McpServer::Private::finishPolicyError(const std::shared_ptr<Call> &call,
                                           const QString &message, bool denied)
{
    McpCallResult r;
    if (call->info.tool == u"execute_code"_s) {
        RunResult run;
        run.language = call->info.language;
        run.exitCode = -1;
        run.policyBlocked = true;
        run.policyReason = message;
        run.policyFindings = call->findings;
        r = mcptools::executeCodeResult(run);
    } else if (call->info.tool == u"execute_cell"_s) {
        CellResult cell;
        cell.status = u"error"_s;
        cell.policyBlocked = true;
        cell.policyReason = message;
        r = mcptools::executeCellResult(call->info.sessionId, cell, call->findings);
    } else {
        finishWithToolError(call, message, denied);
        return;
    }
    QJsonArray content = r.mcpResult.value(u"content"_s).toArray();
    // The first text item is for people (and older clients): the message alone.
    content.replace(0, QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, message}});
    r.mcpResult.insert(u"content"_s, content);
    r.mcpResult.insert(u"isError"_s, true);
    r.isError = true;
    r.denied = denied;
    r.errorMessage = message;
    r.exitCode = -1;
    finishCall(call, std::move(r));
}

void McpServer::Private::sendProgress(const std::shared_ptr<Call> &call, const QString &message,
                                      double value, double total)
{
    if (call->finished || call->progressToken.isUndefined() || call->progressToken.isNull())
        return;
    // MCP progress: the value increases with each notification, even without a total.
    call->progress = value >= 0 ? std::max(value, call->progress) : call->progress + 1;
    QJsonObject p{{u"progressToken"_s, call->progressToken}, {u"progress"_s, call->progress}};
    if (total > 0)
        p.insert(u"total"_s, total);
    if (!message.isEmpty())
        p.insert(u"message"_s, message);
    call->exchange->send(notification(u"notifications/progress"_s, p));
}

void McpServer::Private::sendLog(const std::shared_ptr<Call> &call, const QString &level,
                                 const QString &text)
{
    // 2026-07-28: only requests that asked with _meta logLevel get log messages.
    QString threshold = call->logLevel;
    if (!call->modern) {
        auto it = connections.constFind(call->connectionId);
        if (it == connections.constEnd())
            return;
        threshold = it->logLevel;
    }
    if (threshold.isEmpty() || call->finished)
        return;
    if (logLevels().indexOf(level) < logLevels().indexOf(threshold))
        return;
    call->exchange->send(notification(
        u"notifications/message"_s,
        QJsonObject{{u"level"_s, level}, {u"logger"_s, u"sandbox-studio"_s}, {u"data"_s, text}}));
}

void McpServer::Private::cancelCall(const std::shared_ptr<Call> &call, const QString &reason)
{
    if (call->finished || call->cancelled)
        return;
    call->cancelled = true;
    log(u"call %1 (%2) cancelled: %3"_s.arg(call->id).arg(call->info.tool, reason));
    call->cancel.cancel();
    if (call->notebook)
        call->notebook->interrupt();
    if (call->awaitingApproval || !call->started) {
        // Nothing runs yet: end it here. A worker that is still checking policy finds the
        // call finished and stops.
        McpCallResult r;
        r.cancelled = true;
        r.errorMessage = u"Cancelled: "_s + reason;
        finishCall(call, std::move(r));
    }
}

void McpServer::Private::checkAndApprove(const std::shared_ptr<Call> &call,
                                         std::function<void()> go)
{
    auto decide = [this, call, go = std::move(go)](QList<PolicyFinding> findings) mutable {
        if (call->finished)
            return;
        call->findings = findings;
        call->info.findings = findings;
        QStringList blocking;
        for (const PolicyFinding &f : std::as_const(findings))
            if (f.action == u"block"_s)
                blocking << u"rule %1, line %2: %3"_s.arg(f.rule).arg(f.line).arg(f.message);
        if (!blocking.isEmpty()) {
            log(u"call %1 blocked by policy (%2)"_s.arg(call->id).arg(blocking.join(u"; "_s)));
            finishPolicyError(call,
                              u"Blocked by the policy of Sandbox Studio (%1). The code was not "
                              u"run."_s.arg(blocking.join(u"; "_s)),
                              false);
            return;
        }
        QStringList asking;
        for (const PolicyFinding &f : std::as_const(findings))
            if (f.action == u"ask"_s)
                asking << u"rule %1, line %2: %3"_s.arg(f.rule).arg(f.line).arg(f.message);
        QString reason;
        if (approvalMode == McpApprovalMode::AskEveryRun) {
            reason = u"every run needs approval"_s;
        } else if (approvalMode == McpApprovalMode::AskAboveSeverity) {
            const int threshold = severityRank(approvalSeverity);
            for (const PolicyFinding &f : std::as_const(findings))
                if (severityRank(f.severity) >= threshold) {
                    reason = u"policy finding of severity %1: %2"_s.arg(f.severity, f.message);
                    break;
                }
        }
        if (reason.isEmpty() && !asking.isEmpty()) {
            if (allowPolicyAsk) {
                log(u"call %1: policy asks (%2); allowed without asking (allow-ask)"_s.arg(call->id)
                        .arg(asking.join(u"; "_s)));
                call->policyApproved = true;
                go();
                return;
            }
            reason = u"the policy asks for approval: "_s + asking.join(u"; "_s);
        }
        if (reason.isEmpty()) {
            go();
            return;
        }
        if (!q->isSignalConnected(QMetaMethod::fromSignal(&McpServer::approvalRequested))) {
            QString message = u"Denied: this run needs the approval of the person at Sandbox "
                              u"Studio (%1), and no one is there to approve it."_s.arg(reason);
            if (!asking.isEmpty())
                message += u" The code was not run. (A headless server started with "
                           u"--allow-ask runs code the policy asks about.)"_s;
            log(u"call %1 refused: %2"_s.arg(call->id).arg(reason));
            finishPolicyError(call, message, true);
            return;
        }
        call->awaitingApproval = true;
        call->onApproval = [this, call, go](bool allow, const QString &why) mutable {
            if (call->finished)
                return;
            if (!allow) {
                log(u"call %1 denied by the person"_s.arg(call->id));
                finishPolicyError(
                    call,
                    u"Denied: the person at Sandbox Studio did not allow this run%1. The code "
                    u"was not run."_s.arg(why.isEmpty() ? QString() : u" (%1)"_s.arg(why)),
                    true);
                return;
            }
            call->policyApproved = true; // the person saw the findings: the engine asks no more
            call->timer.restart();       // duration counts from the approval
            go();
        };
        sendProgress(call, u"waiting for the person's approval"_s);
        McpApprovalRequest req;
        req.callId = call->id;
        req.clientName = call->info.clientName;
        req.clientVersion = call->info.clientVersion;
        req.transport = call->info.transport;
        req.tool = call->info.tool;
        req.language = call->info.language;
        req.code = call->info.code;
        req.findings = findings;
        req.reason = reason;
        Q_EMIT q->approvalRequested(req);
    };
    if (!policyChecker) {
        decide({});
        return;
    }
    const auto checker = policyChecker;
    const QString language = call->info.language, code = call->info.code;
    async<QList<PolicyFinding>>([checker, language, code] { return checker(language, code); },
                                std::move(decide));
}

void McpServer::Private::runExecuteCode(const std::shared_ptr<Call> &call, const QJsonObject &args)
{
    const auto engineNow = currentEngine();
    RunRequest req;
    req.origin = RunOrigin::Mcp;
    req.language = args.value(u"language"_s).toString();
    req.code = args.value(u"code"_s).toString();
    req.limits = defaultLimits;
    const auto *lang = LanguageRegistry::instance().find(req.language);
    if (!lang) {
        finishWithToolError(call,
                            u"Unknown language \"%1\"; list_languages names them: %2"_s.arg(
                                req.language, LanguageRegistry::instance().ids().join(u", "_s)));
        return;
    }
    req.language = lang->id;
    call->info.language = lang->id;
    call->info.code = req.code;
    for (const QJsonValue &v : args.value(u"libraries"_s).toArray())
        req.libraries << v.toString();
    if (args.contains(u"timeout"_s))
        req.limits.timeoutMs =
            std::min<qint64>(maxTimeoutMs, qint64(args.value(u"timeout"_s).toDouble() * 1000));
    if (args.contains(u"standard"_s))
        req.standard = args.value(u"standard"_s).toString();
    for (const QJsonValue &v : args.value(u"files"_s).toArray()) {
        const QJsonObject f = v.toObject();
        InputFile in;
        in.path = f.value(u"path"_s).toString();
        if (f.contains(u"content_base64"_s)) {
            auto decoded =
                QByteArray::fromBase64Encoding(f.value(u"content_base64"_s).toString().toLatin1(),
                                               QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded) {
                finishWithToolError(
                    call, u"files: content_base64 of %1 is not valid base64"_s.arg(in.path));
                return;
            }
            in.content = *decoded;
        } else {
            in.content = f.value(u"content"_s).toString().toUtf8();
        }
        req.files << in;
    }
    if (!engineNow) {
        finishWithToolError(call, u"The container engine is not available to Sandbox Studio "
                                  u"(start Docker, then try again)."_s);
        return;
    }
    checkAndApprove(call, [this, call, req, engineNow]() mutable {
        startCall(call);
        sendProgress(call, u"starting"_s);
        const qint64 callId = call->id;
        RunObserver obs;
        obs.onStdout = [this, callId](QByteArrayView b) {
            post([this, callId, chunk = b.toByteArray()] {
                Q_EMIT q->callOutput(callId, u"stdout"_s, chunk);
            });
        };
        obs.onStderr = [this, callId](QByteArrayView b) {
            post([this, callId, chunk = b.toByteArray()] {
                Q_EMIT q->callOutput(callId, u"stderr"_s, chunk);
            });
        };
        obs.onStatus = [this, call](const QString &status) {
            post([this, call, status] {
                if (call->finished)
                    return;
                call->lastStatus = status;
                Q_EMIT q->callStatus(call->id, status);
                sendProgress(call, status);
                sendLog(call, u"info"_s, status);
            });
        };
        if (call->policyApproved)
            obs.onPolicyAsk = [](const QList<PolicyFinding> &) { return true; };
        const CancelToken cancel = call->cancel;
        async<Result<RunResult>>(
            [engineNow, req, obs, cancel] { return engineNow->runBlocking(req, obs, cancel); },
            [this, call](Result<RunResult> r) {
                if (call->finished)
                    return;
                if (!r) {
                    finishWithToolError(call, r.error().toString());
                    return;
                }
                RunResult rr = std::move(*r);
                // What the checker found (the person saw these) and what the engine's
                // preflight found; the same rule on the same line once.
                QList<PolicyFinding> all = call->findings;
                for (const PolicyFinding &f : std::as_const(rr.policyFindings))
                    if (std::ranges::none_of(all, [&f](const PolicyFinding &g) {
                            return g.rule == f.rule && g.line == f.line;
                        }))
                        all.append(f);
                rr.policyFindings = all;
                finishCall(call, mcptools::executeCodeResult(rr));
            });
    });
}

void McpServer::Private::runFixture(const std::shared_ptr<Call> &call)
{
    startCall(call);
    const QString name = call->info.tool;
    auto text = [](const QString &t) {
        return QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, t}};
    };
    auto done = [this, call](QJsonArray content, bool isError = false) {
        McpCallResult r;
        r.mcpResult = QJsonObject{{u"content"_s, content}, {u"isError"_s, isError}};
        finishCall(call, std::move(r));
    };
    const QJsonObject image{{u"type"_s, u"image"_s},
                            {u"data"_s, mcptools::fixturePngBase64()},
                            {u"mimeType"_s, u"image/png"_s}};
    const QJsonObject resource{
        {u"type"_s, u"resource"_s},
        {u"resource"_s, QJsonObject{{u"uri"_s, u"test://embedded-resource"_s},
                                    {u"mimeType"_s, u"text/plain"_s},
                                    {u"text"_s, u"This is an embedded resource content."_s}}}};
    if (name == u"test_simple_text"_s) {
        done({text(u"This is a simple text response for testing."_s)});
    } else if (name == u"test_image_content"_s) {
        done({image});
    } else if (name == u"test_audio_content"_s) {
        done({QJsonObject{{u"type"_s, u"audio"_s},
                          {u"data"_s, mcptools::fixtureWavBase64()},
                          {u"mimeType"_s, u"audio/wav"_s}}});
    } else if (name == u"test_embedded_resource"_s) {
        done({resource});
    } else if (name == u"test_multiple_content_types"_s) {
        done({text(u"Multiple content types test:"_s), image, resource});
    } else if (name == u"test_error_handling"_s) {
        done({text(u"This tool intentionally returns an error for testing"_s)}, true);
    } else if (name == u"test_tool_with_logging"_s) {
        sendLog(call, u"info"_s, u"Tool execution started"_s);
        QTimer::singleShot(50, q, [this, call, done] {
            sendLog(call, u"info"_s, u"Tool processing data"_s);
            QTimer::singleShot(50, q, [this, call, done] {
                sendLog(call, u"info"_s, u"Tool execution completed"_s);
                done({QJsonObject{{u"type"_s, u"text"_s},
                                  {u"text"_s, u"Tool with logging executed successfully"_s}}});
            });
        });
    } else if (name == u"test_tool_with_progress"_s) {
        sendProgress(call, {}, 0, 100);
        QTimer::singleShot(50, q, [this, call, done] {
            sendProgress(call, {}, 50, 100);
            QTimer::singleShot(50, q, [this, call, done] {
                sendProgress(call, {}, 100, 100);
                done({QJsonObject{{u"type"_s, u"text"_s},
                                  {u"text"_s, u"Tool with progress executed successfully"_s}}});
            });
        });
    } else if (name == u"json_schema_2020_12_tool"_s) {
        done({text(u"JSON Schema 2020-12 tool called"_s)});
    } else {
        done({text(u"no such fixture"_s)}, true);
    }
}

McpServer::Private::Notebook *McpServer::Private::notebookFor(const std::shared_ptr<Call> &call,
                                                              const QJsonObject &args,
                                                              QString *error)
{
    const QString sid = args.value(u"session_id"_s).toString();
    auto it = notebooks.find(sid);
    // The session id is a handle the server minted; it works for its owner only (the
    // connection, or for stateless HTTP clients the bearer token), never for others.
    if (it == notebooks.end() || it->owner != call->owner) {
        *error = u"Unknown session \"%1\": create one with create_session (sessions end with "
                 u"close_session, when a stdio client or a 2025-era HTTP session goes away, or "
                 u"after %2 min unused for stateless HTTP clients)."_s.arg(sid)
                     .arg(statelessIdleMs / 60'000);
        return nullptr;
    }
    if (call->notebookId.isEmpty()) {
        call->notebookId = sid;
        ++it->busy;
    }
    it->lastUsed = QDateTime::currentDateTimeUtc();
    call->info.sessionId = sid;
    call->info.language = it->language;
    return &*it;
}

void McpServer::Private::runCreateSession(const std::shared_ptr<Call> &call,
                                          const QJsonObject &args)
{
    const auto engineNow = currentEngine();
    const auto *lang = LanguageRegistry::instance().find(args.value(u"language"_s).toString());
    if (!lang || !mcptools::notebookLanguages().contains(lang->id)) {
        finishWithToolError(
            call,
            u"Notebook sessions exist for %1; \"%2\" is not one of them."_s.arg(
                mcptools::notebookLanguages().join(u", "_s), args.value(u"language"_s).toString()));
        return;
    }
    call->info.language = lang->id;
    if (!engineNow) {
        finishWithToolError(call, u"The container engine is not available to Sandbox Studio "
                                  u"(start Docker, then try again)."_s);
        return;
    }
    const auto owned = std::ranges::count_if(
        notebooks, [&call](const Notebook &nb) { return nb.owner == call->owner; });
    if (owned >= MaxSessionsPerConnection) {
        finishWithToolError(call, u"At most %1 notebook sessions per client: close one with "
                                  u"close_session first."_s.arg(MaxSessionsPerConnection));
        return;
    }
    startCall(call);
    sendProgress(call, u"starting a %1 kernel"_s.arg(lang->displayName));
    const QString language = lang->id;
    const Limits limits = defaultLimits;
    const CancelToken cancel = call->cancel;
    async<Result<std::shared_ptr<NotebookSession>>>(
        [engineNow, language, limits, cancel] {
            return NotebookSession::start(engineNow->runtimePtr(), language, limits,
                                          NetworkMode::None, cancel);
        },
        [this, call, language](Result<std::shared_ptr<NotebookSession>> r) {
            if (!r) {
                finishWithToolError(call,
                                    u"Could not start the session: "_s + r.error().toString());
                return;
            }
            auto session = *r;
            auto conn = connections.find(call->connectionId);
            if (call->finished || conn == connections.end()) {
                pool.start([session] { session->close(); });
                if (!call->finished)
                    finishWithToolError(call, u"The client went away."_s);
                return;
            }
            Notebook nb;
            nb.id = u"nb-"_s + randomHex(8);
            nb.owner = call->owner;
            nb.language = language;
            nb.session = session;
            nb.lastUsed = QDateTime::currentDateTimeUtc();
            notebooks.insert(nb.id, nb);
            if (nb.owner == u"conn:"_s + call->connectionId)
                conn->sessions << nb.id; // ends with the connection
            else
                log(u"notebook session %1 belongs to the token of its client, not to a "
                    u"connection: it ends with close_session or after %2 min unused"_s.arg(nb.id)
                        .arg(statelessIdleMs / 60'000));
            call->info.sessionId = nb.id;
            log(u"notebook session %1 (%2) started in sandbox %3"_s.arg(
                nb.id, language, session->sandboxId().left(12)));
            McpCallResult out;
            const QJsonObject sc{{u"session_id"_s, nb.id},
                                 {u"language"_s, language},
                                 {u"kernel"_s, session->kernelVersion()}};
            out.mcpResult = mcptools::structuredResult(
                u"Started %1 notebook session %2. Run code in it with execute_cell; state "
                u"persists between cells."_s.arg(language, nb.id),
                sc);
            finishCall(call, std::move(out));
        });
}

void McpServer::Private::runExecuteCell(const std::shared_ptr<Call> &call, const QJsonObject &args)
{
    QString error;
    Notebook *nb = notebookFor(call, args, &error);
    call->info.code = args.value(u"code"_s).toString();
    if (!nb) {
        finishWithToolError(call, error);
        return;
    }
    auto session = nb->session;
    const QString sid = nb->id;
    qint64 timeoutMs = defaultLimits.timeoutMs;
    if (args.contains(u"timeout"_s))
        timeoutMs =
            std::min<qint64>(maxTimeoutMs, qint64(args.value(u"timeout"_s).toDouble() * 1000));
    checkAndApprove(call, [this, call, session, sid, timeoutMs] {
        startCall(call);
        call->notebook = session;
        const qint64 callId = call->id;
        CellObserver obs;
        obs.onOutput = [this, callId](const CellOutput &o) {
            if (o.kind != CellOutput::Kind::Stream)
                return;
            post([this, callId, name = o.name, text = o.text.toUtf8()] {
                Q_EMIT q->callOutput(callId, name, text);
            });
        };
        // The cell is checked with the engine's policy (the same the checker uses); what
        // the person approved above is not asked again.
        if (const auto engineNow = currentEngine())
            obs.policy = engineNow->policy();
        if (call->policyApproved)
            obs.onPolicyAsk = [](const QList<PolicyFinding> &) { return true; };
        const QString code = call->info.code;
        async<Result<CellResult>>(
            [session, code, obs, timeoutMs] { return session->execute(code, obs, timeoutMs); },
            [this, call, sid](Result<CellResult> r) {
                if (call->finished)
                    return;
                if (!r) {
                    finishWithToolError(call, u"The cell could not run: "_s + r.error().toString());
                    return;
                }
                finishCall(call, mcptools::executeCellResult(sid, *r,
                                                             r->policyFindings.isEmpty()
                                                                 ? call->findings
                                                                 : r->policyFindings));
            });
    });
}

void McpServer::Private::runCloseSession(const std::shared_ptr<Call> &call, const QJsonObject &args)
{
    QString error;
    Notebook *nb = notebookFor(call, args, &error);
    if (!nb) {
        finishWithToolError(call, error);
        return;
    }
    startCall(call);
    auto session = nb->session;
    const QString sid = nb->id;
    notebooks.remove(sid);
    if (auto conn = connections.find(call->connectionId); conn != connections.end())
        conn->sessions.removeAll(sid);
    session->interrupt();
    async<bool>(
        [session] {
            session->close();
            return true;
        },
        [this, call, sid](bool) {
            McpCallResult out;
            out.mcpResult = mcptools::structuredResult(
                u"Closed session %1; its sandbox was removed."_s.arg(sid),
                QJsonObject{{u"session_id"_s, sid}, {u"closed"_s, true}});
            finishCall(call, std::move(out));
        });
}

void McpServer::Private::runUpload(const std::shared_ptr<Call> &call, const QJsonObject &args)
{
    QString error;
    Notebook *nb = notebookFor(call, args, &error);
    if (!nb) {
        finishWithToolError(call, error);
        return;
    }
    auto path = safeRelativePath(args.value(u"path"_s).toString());
    if (!path) {
        finishWithToolError(call, u"path: "_s + path.error().message);
        return;
    }
    auto data =
        QByteArray::fromBase64Encoding(args.value(u"content_base64"_s).toString().toLatin1(),
                                       QByteArray::AbortOnBase64DecodingErrors);
    if (!data) {
        finishWithToolError(call, u"content_base64 is not valid base64"_s);
        return;
    }
    const auto engineNow = currentEngine();
    if (!engineNow) {
        finishWithToolError(call, u"The container engine is not available."_s);
        return;
    }
    startCall(call);
    const QString sandboxId = nb->session->sandboxId();
    const QString rel = *path;
    const QByteArray bytes = *data;
    async<Result<void>>(
        [engineNow, sandboxId, rel, bytes]() -> Result<void> {
            // Hardened sandboxes: the archive endpoint cannot write into the tmpfs work
            // directory, so the tar goes through an exec (PROTOCOLS.md, Docker).
            QList<TarMember> members;
            TarMember m;
            m.path = rel;
            m.data = bytes;
            members << m;
            auto tar = makeTar(members);
            if (!tar)
                return std::unexpected(tar.error());
            ExecSpec spec;
            spec.argv = {u"tar"_s, u"-x"_s,
                         u"-m"_s,  u"--no-same-owner"_s,
                         u"-C"_s,  QLatin1String(SandboxWorkDir),
                         u"-f"_s,  u"-"_s};
            spec.attachStdin = true;
            spec.stdinData = *tar;
            QByteArray errText;
            ExecIo io;
            io.onStderr = [&errText](QByteArrayView b) {
                errText += b.left(4096);
                return true;
            };
            auto r = engineNow->runtime().exec(sandboxId, spec, io, CancelToken{},
                                               Deadline::in(std::chrono::seconds(60)));
            if (!r)
                return std::unexpected(r.error());
            if (r->exitCode != 0)
                return fail(ErrorCode::IoError,
                            u"writing the file failed: "_s + QString::fromUtf8(errText).trimmed());
            return {};
        },
        [this, call, rel, size = bytes.size()](Result<void> r) {
            if (!r) {
                finishWithToolError(call, u"Upload failed: "_s + r.error().toString());
                return;
            }
            McpCallResult out;
            out.mcpResult = mcptools::structuredResult(
                u"Wrote %1 (%2 bytes) into the session's work directory."_s.arg(rel).arg(size),
                QJsonObject{{u"path"_s, rel}, {u"size"_s, size}});
            finishCall(call, std::move(out));
        });
}

void McpServer::Private::runDownload(const std::shared_ptr<Call> &call, const QJsonObject &args)
{
    QString error;
    Notebook *nb = notebookFor(call, args, &error);
    if (!nb) {
        finishWithToolError(call, error);
        return;
    }
    auto path = safeRelativePath(args.value(u"path"_s).toString());
    if (!path) {
        finishWithToolError(call, u"path: "_s + path.error().message);
        return;
    }
    const auto engineNow = currentEngine();
    if (!engineNow) {
        finishWithToolError(call, u"The container engine is not available."_s);
        return;
    }
    startCall(call);
    const QString sandboxId = nb->session->sandboxId();
    const QString rel = *path;
    async<Result<QByteArray>>(
        [engineNow, sandboxId, rel]() -> Result<QByteArray> {
            ExecSpec spec;
            spec.argv = {u"tar"_s, u"-c"_s, u"-C"_s, QLatin1String(SandboxWorkDir),
                         u"-f"_s,  u"-"_s,  u"--"_s, rel};
            QByteArray out, errText;
            bool tooBig = false;
            ExecIo io;
            io.onStdout = [&](QByteArrayView b) {
                out += b;
                tooBig = out.size() > MaxDownloadBytes + (1 << 20);
                return !tooBig;
            };
            io.onStderr = [&errText](QByteArrayView b) {
                errText += b.left(4096);
                return true;
            };
            auto r = engineNow->runtime().exec(sandboxId, spec, io, CancelToken{},
                                               Deadline::in(std::chrono::seconds(60)));
            if (!r)
                return std::unexpected(r.error());
            if (tooBig)
                return fail(ErrorCode::InvalidArgument,
                            u"%1 is larger than %2 MiB"_s.arg(rel).arg(MaxDownloadBytes >> 20));
            if (r->exitCode != 0)
                return fail(ErrorCode::NotFound, u"no such file in the session: %1 (%2)"_s.arg(
                                                     rel, QString::fromUtf8(errText).trimmed()));
            QStringList refused;
            bool truncated = false;
            auto members =
                readTar(out, TarReadLimits{MaxDownloadBytes + 1, 10}, &refused, &truncated);
            if (!members)
                return std::unexpected(members.error());
            for (const TarMember &m : *members)
                if (m.path == rel && m.type == TarMember::Type::File) {
                    if (m.data.size() > MaxDownloadBytes || truncated)
                        return fail(
                            ErrorCode::InvalidArgument,
                            u"%1 is larger than %2 MiB"_s.arg(rel).arg(MaxDownloadBytes >> 20));
                    return m.data;
                }
            return fail(
                ErrorCode::NotFound,
                u"%1 is not a regular file%2"_s.arg(
                    rel, refused.isEmpty() ? QString() : u" ("_s + refused.join(u"; "_s) + u')'));
        },
        [this, call, rel](Result<QByteArray> r) {
            if (!r) {
                finishWithToolError(call, u"Download failed: "_s + r.error().message);
                return;
            }
            finishCall(call, mcptools::downloadResult(rel, *r));
        });
}

} // namespace sandbox
