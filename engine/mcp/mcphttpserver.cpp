// SPDX-License-Identifier: GPL-3.0-or-later
//
// Why QTcpServer and not QtHttpServer: QtHttpServer 6.8 can stream (chunked
// QHttpServerResponder writes), but it buffers every request body in full before a handler
// sees it (no way to refuse an oversized body with 413 before reading it), and a moved-out
// responder gives no signal when the client goes away, so open SSE streams (GET, and POST
// streams of long runs) could not be noticed and dropped. Streamable HTTP needs little of
// HTTP/1.1: Content-Length request bodies, and responses that are either complete or
// chunked SSE. That small server is below, with the limits applied while reading.
#include "mcp/mcphttpserver.h"

#include "mcp/mcpserver.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QPointer>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>
#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcMcpHttp, "sandbox.mcp.http")

namespace sandbox {

namespace {

constexpr qsizetype MaxHeaderBytes = 32 << 10;
constexpr int KeepAliveMs = 15'000;

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 411:
        return "Length Required";
    case 413:
        return "Content Too Large";
    case 415:
        return "Unsupported Media Type";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    default:
        return "Status";
    }
}

QByteArray jsonRpcErrorBody(int code, const QString &message)
{
    return QJsonDocument(
               QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                           {u"id"_s, QJsonValue::Null},
                           {u"error"_s, QJsonObject{{u"code"_s, code}, {u"message"_s, message}}}})
        .toJson(QJsonDocument::Compact);
}

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

/// Loopback names a browser page cannot rebind to (DNS rebinding protection).
bool isLoopbackHostName(const QString &host)
{
    const QString h = host.toLower();
    return h == u"localhost"_s || h == u"127.0.0.1"_s || h == u"[::1]"_s || h == u"::1"_s;
}

/// "127.0.0.1:8080" -> "127.0.0.1", "[::1]:80" -> "[::1]".
QString hostWithoutPort(const QString &hostHeader)
{
    if (hostHeader.startsWith(u'[')) {
        const qsizetype end = hostHeader.indexOf(u']');
        return end < 0 ? hostHeader : hostHeader.left(end + 1);
    }
    const qsizetype colon = hostHeader.lastIndexOf(u':');
    return colon < 0 ? hostHeader : hostHeader.left(colon);
}

/// One HTTP request read off a socket.
struct Request
{
    QByteArray method;
    QByteArray target;
    QHash<QByteArray, QByteArray> headers; ///< lower-case names
    QByteArray body;
    bool keepAlive = true;
    QByteArray header(const char *name) const { return headers.value(QByteArray(name)); }
};

} // namespace

/// A client TCP connection: parses requests, writes responses (whole or SSE).
class HttpConnection : public QObject
{
public:
    HttpConnection(QTcpSocket *socket, McpHttpServer::Private *server);
    ~HttpConnection() override;

    void respond(int status, const QList<std::pair<QByteArray, QByteArray>> &headers,
                 const QByteArray &body, const QByteArray &contentType = "application/json");
    void beginSse(const QList<std::pair<QByteArray, QByteArray>> &headers);
    void sseEvent(const QByteArray &data);
    void sseComment(const QByteArray &text);
    void endSse();
    bool streaming() const { return m_streaming; }
    bool alive() const { return m_socket && m_socket->state() == QAbstractSocket::ConnectedState; }
    void abort();

    std::function<void()> onGone; ///< the client closed while a response was open

private:
    void readMore();
    void writeRaw(const QByteArray &bytes);
    void finishResponse();

    QPointer<QTcpSocket> m_socket;
    McpHttpServer::Private *m_server;
    QByteArray m_buffer;
    Request m_request;
    bool m_haveHeaders = false;
    qint64 m_contentLength = 0;
    bool m_busy = false;      ///< a request is being answered
    bool m_streaming = false; ///< an SSE response is open
    bool m_closeAfter = false;
};

struct McpHttpServer::Private
{
    McpHttpServer *q = nullptr;
    McpServer *server = nullptr;
    McpHttpOptions options;
    QTcpServer *tcp = nullptr;
    QString token;
    /// Open GET streams per session (oldest first).
    QHash<QString, QList<QPointer<HttpConnection>>> getStreams;
    QStringList sessions;               ///< McpServer connections opened by this transport
    QHash<QString, QDateTime> lastSeen; ///< per session: the last request
    QTimer keepAlive;

    void handle(HttpConnection *conn, const Request &req);
    /// A POST whose body is a modern (MCP 2026-07-28) request or notification: validated
    /// and served without a session, on a connection that lives for this request only.
    void handleModern(HttpConnection *conn, const Request &req, const QJsonObject &msg);
    /// Who owns the notebook sessions of stateless clients: the bearer token in use.
    QString statelessOwner() const
    {
        if (!options.requireAuth)
            return u"http:open"_s;
        return u"http:token-"_s +
               QString::fromLatin1(
                   QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256)
                       .toHex()
                       .left(16));
    }
    void refuse(HttpConnection *conn, int status, const QString &message,
                const QList<std::pair<QByteArray, QByteArray>> &extra = {})
    {
        qCInfo(lcMcpHttp).noquote() << "refused" << status << message;
        Q_EMIT q->requestRefused(status, message);
        const int code = status == 400 && message.startsWith(u"Parse error"_s) ? -32700
                         : status == 404                                       ? -32001
                                                                               : -32600;
        conn->respond(status, extra, jsonRpcErrorBody(code, message));
    }
    /// Delivers a server->client message on the session's GET stream, if one is open.
    void notifySession(const QString &sid, const QJsonValue &v)
    {
        auto &streams = getStreams[sid];
        streams.removeIf([](const QPointer<HttpConnection> &c) { return !c || !c->alive(); });
        if (streams.isEmpty())
            return; // no stream: the message is dropped (Streamable HTTP allows it)
        const QByteArray data = v.isArray()
                                    ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                    : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
        streams.constLast()->sseEvent(data);
    }
    void endSession(const QString &sid)
    {
        for (const auto &c : getStreams.take(sid))
            if (c)
                c->endSse();
        sessions.removeAll(sid);
        lastSeen.remove(sid);
        server->closeConnection(sid);
    }
    void expireIdleSessions()
    {
        if (options.idleTimeoutMs <= 0)
            return;
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QHash<QString, int> busy;
        for (const McpClientInfo &c : server->clients())
            busy.insert(c.connectionId, c.callsInFlight);
        const QStringList all = sessions;
        for (const QString &sid : all) {
            auto &streams = getStreams[sid];
            streams.removeIf([](const QPointer<HttpConnection> &c) { return !c || !c->alive(); });
            if (busy.value(sid) > 0 || !streams.isEmpty())
                continue;
            if (lastSeen.value(sid, now).msecsTo(now) > options.idleTimeoutMs) {
                qCInfo(lcMcpHttp).noquote() << "session" << sid.left(8) << "idle: ended";
                endSession(sid);
            }
        }
    }
};

HttpConnection::HttpConnection(QTcpSocket *socket, McpHttpServer::Private *server)
    : QObject(socket)
    , m_socket(socket)
    , m_server(server)
{
    connect(socket, &QTcpSocket::readyRead, this, &HttpConnection::readMore);
    connect(socket, &QTcpSocket::disconnected, this, [this] {
        if (m_busy && onGone) {
            // Taken out first: what it runs may end the response and reset onGone.
            auto gone = std::move(onGone);
            onGone = nullptr;
            gone();
        }
        m_socket->deleteLater();
    });
}

HttpConnection::~HttpConnection() = default;

void HttpConnection::abort()
{
    if (m_socket)
        m_socket->abort();
}

void HttpConnection::readMore()
{
    if (!m_socket)
        return;
    m_buffer += m_socket->readAll();
    while (!m_busy) {
        if (!m_haveHeaders) {
            const qsizetype end = m_buffer.indexOf("\r\n\r\n");
            if (end < 0) {
                if (m_buffer.size() > MaxHeaderBytes) {
                    m_closeAfter = true;
                    m_busy = true;
                    respond(431, {}, jsonRpcErrorBody(-32600, u"Request headers too large"_s));
                }
                return;
            }
            const QList<QByteArray> lines = m_buffer.left(end).split('\n');
            m_buffer.remove(0, end + 4);
            m_request = Request{};
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            if (first.size() != 3 || !first[2].startsWith("HTTP/1.")) {
                m_closeAfter = true;
                m_busy = true;
                respond(400, {}, jsonRpcErrorBody(-32600, u"Malformed HTTP request line"_s));
                return;
            }
            m_request.method = first[0];
            m_request.target = first[1];
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const QByteArray line = lines[i].trimmed();
                const qsizetype colon = line.indexOf(':');
                if (colon <= 0)
                    continue;
                const QByteArray name = line.left(colon).trimmed().toLower();
                const QByteArray value = line.mid(colon + 1).trimmed();
                // Repeated headers are joined as RFC 9110 allows for lists.
                if (m_request.headers.contains(name))
                    m_request.headers[name] += ", " + value;
                else
                    m_request.headers.insert(name, value);
            }
            const QByteArray connHeader = m_request.header("connection").toLower();
            m_request.keepAlive = first[2] == "HTTP/1.1" ? !connHeader.contains("close")
                                                         : connHeader.contains("keep-alive");
            if (m_request.header("transfer-encoding").toLower().contains("chunked")) {
                m_closeAfter = true;
                m_busy = true;
                respond(411, {}, jsonRpcErrorBody(-32600, u"Send the body with Content-Length"_s));
                return;
            }
            bool ok = true;
            const QByteArray cl = m_request.header("content-length");
            m_contentLength = cl.isEmpty() ? 0 : cl.toLongLong(&ok);
            if (!ok || m_contentLength < 0) {
                m_closeAfter = true;
                m_busy = true;
                respond(400, {}, jsonRpcErrorBody(-32600, u"Bad Content-Length"_s));
                return;
            }
            // Refused before the body is read: an oversized body never reaches memory.
            if (m_contentLength > m_server->options.maxBodyBytes) {
                m_closeAfter = true;
                m_busy = true;
                m_server->refuse(
                    this, 413,
                    u"Request body of %1 bytes exceeds the limit of %2 bytes"_s.arg(m_contentLength)
                        .arg(m_server->options.maxBodyBytes));
                return;
            }
            m_haveHeaders = true;
        }
        if (m_buffer.size() < m_contentLength)
            return;
        m_request.body = m_buffer.left(m_contentLength);
        m_buffer.remove(0, m_contentLength);
        m_haveHeaders = false;
        m_busy = true;
        m_closeAfter = !m_request.keepAlive;
        m_server->handle(this, m_request);
    }
}

void HttpConnection::writeRaw(const QByteArray &bytes)
{
    if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
        m_socket->write(bytes);
}

void HttpConnection::respond(int status, const QList<std::pair<QByteArray, QByteArray>> &headers,
                             const QByteArray &body, const QByteArray &contentType)
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    if (!body.isEmpty())
        out += "Content-Type: " + contentType + "\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    for (const auto &[k, v] : headers)
        out += k + ": " + v + "\r\n";
    if (m_closeAfter)
        out += "Connection: close\r\n";
    out += "\r\n" + body;
    writeRaw(out);
    finishResponse();
}

void HttpConnection::beginSse(const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    QByteArray out = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                     "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n";
    for (const auto &[k, v] : headers)
        out += k + ": " + v + "\r\n";
    if (m_closeAfter)
        out += "Connection: close\r\n";
    out += "\r\n";
    writeRaw(out);
    m_streaming = true;
}

void HttpConnection::sseEvent(const QByteArray &data)
{
    if (!m_streaming)
        return;
    const QByteArray event = "event: message\ndata: " + data + "\n\n";
    writeRaw(QByteArray::number(event.size(), 16) + "\r\n" + event + "\r\n");
}

void HttpConnection::sseComment(const QByteArray &text)
{
    if (!m_streaming)
        return;
    const QByteArray event = ": " + text + "\n\n";
    writeRaw(QByteArray::number(event.size(), 16) + "\r\n" + event + "\r\n");
}

void HttpConnection::endSse()
{
    if (!m_streaming)
        return;
    m_streaming = false;
    writeRaw("0\r\n\r\n");
    finishResponse();
}

void HttpConnection::finishResponse()
{
    m_busy = false;
    onGone = nullptr;
    if (m_closeAfter) {
        if (m_socket)
            m_socket->disconnectFromHost();
        return;
    }
    // The next request of a keep-alive connection may already be buffered.
    QMetaObject::invokeMethod(this, &HttpConnection::readMore, Qt::QueuedConnection);
}

// --- request handling -------------------------------------------------------------------

void McpHttpServer::Private::handle(HttpConnection *conn, const Request &req)
{
    const QUrl url(QString::fromLatin1(req.target));
    // DNS rebinding: a page on evil.example resolved to 127.0.0.1 still says Host: evil.example.
    const QString host = QString::fromLatin1(req.header("host"));
    if (host.isEmpty() || !isLoopbackHostName(hostWithoutPort(host))) {
        refuse(conn, 403,
               u"Forbidden: Host %1 is not this machine's loopback name"_s.arg(
                   host.isEmpty() ? u"(missing)"_s : host));
        return;
    }
    const QByteArray origin = req.header("origin");
    if (!origin.isEmpty()) {
        const QUrl o(QString::fromLatin1(origin));
        const bool local =
            (o.scheme() == u"http"_s || o.scheme() == u"https"_s) &&
            isLoopbackHostName(o.host().contains(u':') ? u"[%1]"_s.arg(o.host()) : o.host());
        if (!local && !options.allowedOrigins.contains(QString::fromLatin1(origin))) {
            refuse(conn, 403,
                   u"Forbidden: Origin %1 is not allowed"_s.arg(QString::fromLatin1(origin)));
            return;
        }
    }
    if (url.path() != u"/mcp"_s) {
        refuse(conn, 404, u"Not found: the MCP endpoint is /mcp"_s);
        return;
    }
    if (options.requireAuth) {
        const QByteArray auth = req.header("authorization");
        const QByteArray expected = "Bearer " + token.toLatin1();
        if (!constantTimeEquals(auth, expected)) {
            refuse(conn, 401,
                   auth.isEmpty() ? u"Unauthorized: send Authorization: Bearer TOKEN (Sandbox "
                                    u"Studio shows the token)"_s
                                  : u"Unauthorized: wrong bearer token"_s,
                   {{"WWW-Authenticate", "Bearer realm=\"sandbox-studio\""}});
            return;
        }
    }
    const QByteArray protocolHeader = req.header("mcp-protocol-version");
    // The 2025-era rule (a sent header names a negotiated revision); POSTs of modern
    // requests are checked by the 2026-07-28 rules in handleModern().
    auto legacyProtocolHeaderOk = [&] {
        if (protocolHeader.isEmpty() ||
            mcpLegacyProtocolVersions().contains(QString::fromLatin1(protocolHeader)))
            return true;
        refuse(conn, 400,
               u"Bad Request: unsupported MCP-Protocol-Version %1 (supported: %2)"_s.arg(
                   QString::fromLatin1(protocolHeader), mcpLegacyProtocolVersions().join(u", "_s)));
        return false;
    };
    if (req.method != "POST" && !legacyProtocolHeaderOk())
        return;
    const QString sid = QString::fromLatin1(req.header("mcp-session-id"));
    const QByteArray accept = req.header("accept").toLower();
    const bool acceptsSse = accept.contains("text/event-stream") || accept.contains("*/*");
    const bool acceptsJson = accept.contains("application/json") || accept.contains("*/*");

    if (req.method == "GET") {
        if (!accept.contains("text/event-stream")) {
            refuse(conn, 406,
                   u"Not Acceptable: GET opens an SSE stream (Accept: text/event-stream)"_s);
            return;
        }
        if (sid.isEmpty()) {
            refuse(conn, 400, u"Bad Request: Mcp-Session-Id header is required"_s);
            return;
        }
        if (!sessions.contains(sid) || !server->hasConnection(sid)) {
            refuse(conn, 404, u"Session not found: start a new one with initialize"_s);
            return;
        }
        auto &streams = getStreams[sid];
        streams.removeIf([](const QPointer<HttpConnection> &c) { return !c || !c->alive(); });
        while (streams.size() >= std::max(1, options.maxStreamsPerSession)) {
            if (auto oldest = streams.takeFirst())
                oldest->endSse();
        }
        conn->beginSse({{"Mcp-Session-Id", sid.toLatin1()}});
        conn->sseComment("stream open");
        streams.append(conn);
        return;
    }
    if (req.method == "DELETE") {
        if (sid.isEmpty()) {
            refuse(conn, 400, u"Bad Request: Mcp-Session-Id header is required"_s);
            return;
        }
        if (!sessions.contains(sid)) {
            refuse(conn, 404, u"Session not found"_s);
            return;
        }
        endSession(sid);
        conn->respond(200, {}, {});
        return;
    }
    if (req.method != "POST") {
        conn->respond(405, {{"Allow", "GET, POST, DELETE"}},
                      jsonRpcErrorBody(-32600, u"Method not allowed"_s));
        return;
    }
    if (!acceptsJson && !acceptsSse) {
        refuse(conn, 406, u"Not Acceptable: accept application/json and text/event-stream"_s);
        return;
    }
    const QByteArray ctype = req.header("content-type").toLower();
    if (!ctype.startsWith("application/json")) {
        refuse(conn, 415, u"Unsupported Media Type: POST a JSON-RPC message as application/json"_s);
        return;
    }
    // Classify the body before the session checks: only initialize may come without a
    // session id, and a body that is not JSON is a parse error whatever the session.
    QJsonParseError perr{};
    const QJsonDocument doc = QJsonDocument::fromJson(req.body, &perr);
    if (perr.error != QJsonParseError::NoError || (!doc.isObject() && !doc.isArray())) {
        refuse(conn, 400,
               u"Parse error: %1"_s.arg(perr.error != QJsonParseError::NoError
                                            ? perr.errorString()
                                            : u"expected a JSON object"_s));
        return;
    }
    // MCP 2026-07-28 (basic/versioning, dual-era server): a body carrying the per-request
    // _meta envelope, or a request whose MCP-Protocol-Version names a modern revision, is
    // served statelessly; everything else is 2025-era traffic, answered as before.
    auto isModern = [](const QJsonValue &v) {
        const QJsonObject o = v.toObject();
        return o.contains(u"method"_s) && mcpIsModernRequest(o.value(u"params"_s).toObject());
    };
    const QString headerVersion = QString::fromLatin1(protocolHeader);
    const bool modernHeader = mcpModernProtocolVersions().contains(headerVersion) ||
                              (headerVersion.size() == 10 && headerVersion > u"2026-07-28"_s);
    if (doc.isArray()) {
        const QJsonArray items = doc.array();
        if (modernHeader || std::ranges::any_of(items, isModern)) {
            refuse(conn, 400,
                   u"Invalid Request: protocol 2026-07-28 has no JSON-RPC batches; POST one "
                   u"request per HTTP request"_s);
            return;
        }
    } else if (isModern(doc.object()) || (modernHeader && doc.object().contains(u"method"_s))) {
        handleModern(conn, req, doc.object());
        return;
    }
    if (!legacyProtocolHeaderOk())
        return;
    const bool isInitialize = doc.isObject() && doc.object().value(u"method"_s) == u"initialize"_s;
    QString session = sid;
    bool opened = false;
    if (!sid.isEmpty() && sessions.contains(sid))
        lastSeen.insert(sid, QDateTime::currentDateTimeUtc());
    if (isInitialize && sid.isEmpty()) {
        // The session's own GET streams carry what the server sends outside requests.
        auto holder = std::make_shared<QString>();
        session = server->openConnection(
            u"http"_s, [this, holder](const QJsonValue &v) { notifySession(*holder, v); });
        *holder = session;
        sessions << session;
        lastSeen.insert(session, QDateTime::currentDateTimeUtc());
        opened = true;
    } else if (sid.isEmpty()) {
        refuse(conn, 400,
               u"Bad Request: Mcp-Session-Id header is required (send initialize first)"_s);
        return;
    } else if (!sessions.contains(sid) || !server->hasConnection(sid)) {
        refuse(conn, 404, u"Session not found: start a new one with initialize"_s);
        return;
    }

    const bool sse = acceptsSse;
    const QList<std::pair<QByteArray, QByteArray>> headers = {
        {"Mcp-Session-Id", session.toLatin1()}};
    QPointer<HttpConnection> guard(conn);
    auto collected = std::make_shared<QJsonValue>();
    auto started = std::make_shared<bool>(false);
    auto reply = [guard, sse, collected, started, headers](const QJsonValue &v) {
        if (!guard)
            return;
        if (sse) {
            if (!*started) {
                guard->beginSse(headers);
                *started = true;
            }
            guard->sseEvent(v.isArray()
                                ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
            return;
        }
        // JSON mode: only the response (or batch of responses) is kept.
        const bool response = v.isArray() || v.toObject().contains(u"id"_s);
        if (response)
            *collected = v;
    };
    // Calls can end after this transport is gone (the GUI switched HTTP off mid-run).
    QPointer<McpHttpServer> owner(q);
    auto done = [this, owner, guard, sse, collected, started, headers, session, opened] {
        if (!owner)
            return;
        if (opened && server->protocolVersion(session).isEmpty()) {
            // initialize failed: no session comes of it.
            sessions.removeAll(session);
            server->closeConnection(session);
        }
        if (!guard)
            return;
        const auto hdrs = opened && !server->hasConnection(session)
                              ? QList<std::pair<QByteArray, QByteArray>>{}
                              : headers;
        if (sse && *started) {
            guard->endSse();
            return;
        }
        const QByteArray body =
            collected->isArray()
                ? QJsonDocument(collected->toArray()).toJson(QJsonDocument::Compact)
            : collected->isObject()
                ? QJsonDocument(collected->toObject()).toJson(QJsonDocument::Compact)
                : QByteArray();
        guard->respond(body.isEmpty() ? 202 : 200, hdrs, body);
    };
    server->handleMessage(session, req.body, reply, done);
}

namespace {

/// Mcp-Name / Mcp-Param-* values: plain visible ASCII, or the Base64 sentinel
/// "=?base64?...?=" around UTF-8 (MCP 2026-07-28, Streamable HTTP, "Value Encoding").
/// Returns false when the value has characters a header value may not carry or the
/// sentinel does not decode.
bool decodeHeaderValue(const QByteArray &raw, QString *out)
{
    for (const char ch : raw) {
        const auto c = static_cast<unsigned char>(ch);
        if (c != '\t' && (c < 0x20 || c > 0x7e))
            return false;
    }
    if (raw.startsWith("=?base64?") && raw.endsWith("?=") && raw.size() >= 11) {
        auto decoded = QByteArray::fromBase64Encoding(raw.mid(9, raw.size() - 11),
                                                      QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return false;
        *out = QString::fromUtf8(*decoded);
        return true;
    }
    *out = QString::fromLatin1(raw);
    return true;
}

QByteArray compactJson(const QJsonValue &v)
{
    return v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                       : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
}

} // namespace

void McpHttpServer::Private::handleModern(HttpConnection *conn, const Request &req,
                                          const QJsonObject &msg)
{
    const bool isRequest = msg.contains(u"id"_s);
    const QJsonValue id = msg.value(u"id"_s);
    const QString method = msg.value(u"method"_s).toString();
    const QJsonObject params = msg.value(u"params"_s).toObject();
    const QJsonObject meta = params.value(u"_meta"_s).toObject();
    const QString headerVersion = QString::fromLatin1(req.header("mcp-protocol-version"));
    // Errors of the validation ladder carry the request id and an HTTP status (Streamable
    // HTTP 2026-07-28, "Server Validation": 400 for header mismatches, unsupported
    // versions and a malformed envelope).
    auto reject = [&](int status, int code, const QString &message, const QJsonValue &data = {}) {
        qCInfo(lcMcpHttp).noquote() << "refused" << status << message;
        Q_EMIT q->requestRefused(status, message);
        QJsonObject err{{u"code"_s, code}, {u"message"_s, message}};
        if (!data.isUndefined() && !data.isNull())
            err.insert(u"data"_s, data);
        conn->respond(status, {},
                      compactJson(QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                                              {u"id"_s, isRequest ? id : QJsonValue::Null},
                                              {u"error"_s, err}}));
    };
    const QJsonValue bodyVersion = meta.value(QLatin1String(McpMetaProtocolVersion));
    if (isRequest) {
        if (headerVersion.isEmpty()) {
            reject(400, McpErrorHeaderMismatch,
                   u"Header mismatch: the MCP-Protocol-Version header is required (the body "
                   u"declares %1)"_s.arg(bodyVersion.toString()));
            return;
        }
        if (bodyVersion.isString() && bodyVersion.toString() != headerVersion) {
            reject(400, McpErrorHeaderMismatch,
                   u"Header mismatch: MCP-Protocol-Version header value '%1' does not match "
                   u"body value '%2'"_s.arg(headerVersion, bodyVersion.toString()));
            return;
        }
    }
    if (const McpRequestError err = mcpCheckModernEnvelope(params); err.isError()) {
        reject(400, err.code, err.message, err.data);
        return;
    }
    if (isRequest) {
        const QByteArray methodHeader = req.header("mcp-method");
        if (methodHeader.isEmpty() || QString::fromLatin1(methodHeader) != method) {
            reject(
                400, McpErrorHeaderMismatch,
                methodHeader.isEmpty()
                    ? u"Header mismatch: the Mcp-Method header is required (body: %1)"_s.arg(method)
                    : u"Header mismatch: Mcp-Method header value '%1' does not match body "
                      u"value '%2'"_s.arg(QString::fromLatin1(methodHeader), method));
            return;
        }
        const QString nameField = method == u"tools/call"_s || method == u"prompts/get"_s
                                      ? u"name"_s
                                  : method == u"resources/read"_s ? u"uri"_s
                                                                  : QString();
        const QJsonValue nameValue = params.value(nameField);
        if (!nameField.isEmpty() && nameValue.isString()) {
            const QByteArray raw = req.header("mcp-name");
            QString decoded;
            if (raw.isEmpty()) {
                reject(400, McpErrorHeaderMismatch,
                       u"Header mismatch: the Mcp-Name header is required for %1"_s.arg(method));
                return;
            }
            if (!decodeHeaderValue(raw, &decoded)) {
                reject(400, McpErrorHeaderMismatch,
                       u"Header mismatch: the Mcp-Name header value is malformed"_s);
                return;
            }
            if (decoded != nameValue.toString()) {
                reject(400, McpErrorHeaderMismatch,
                       u"Header mismatch: Mcp-Name header value '%1' does not match body value "
                       u"'%2'"_s.arg(decoded, nameValue.toString()));
                return;
            }
        }
    }

    // No session: the request gets a connection of its own for as long as it runs. Its
    // notebook sessions belong to the bearer token (explicit session_id handles).
    McpConnectionOptions opts;
    opts.owner = statelessOwner();
    opts.ephemeral = true;
    const QString cid = server->openConnection(u"http"_s, {}, opts);
    QPointer<HttpConnection> guard(conn);
    QPointer<McpServer> srv(server);
    // Closing the response stream is the client's cancellation (2026-07-28, Cancellation).
    conn->onGone = [srv, cid] {
        if (srv)
            srv->closeConnection(cid);
    };
    auto held = std::make_shared<std::optional<QJsonValue>>();
    auto streaming = std::make_shared<bool>(false);
    const QList<std::pair<QByteArray, QByteArray>> sseHeaders = {{"X-Accel-Buffering", "no"}};
    // The answer is one JSON body when nothing precedes the response, else an SSE stream
    // (progress and log notifications, then the response).
    auto reply = [guard, held, streaming, sseHeaders](const QJsonValue &v) {
        if (!guard)
            return;
        const bool response =
            v.isObject() && v.toObject().contains(u"id"_s) && !v.toObject().contains(u"method"_s);
        if (!*streaming && response && !held->has_value()) {
            *held = v;
            return;
        }
        if (!*streaming) {
            guard->beginSse(sseHeaders);
            *streaming = true;
        }
        guard->sseEvent(compactJson(v));
    };
    QPointer<McpHttpServer> owner(q);
    auto done = [owner, srv, guard, held, streaming, cid] {
        if (srv)
            srv->closeConnection(cid);
        if (!owner || !guard)
            return;
        if (*streaming) {
            if (held->has_value())
                guard->sseEvent(compactJson(**held));
            guard->endSse();
            return;
        }
        if (!held->has_value()) {
            guard->respond(202, {}, {});
            return;
        }
        // An unknown method is 404 with the -32601 body (2026-07-28, "Protocol Version
        // Header"); every other error of a handler stays in-band.
        const int code = (*held)->toObject().value(u"error"_s).toObject().value(u"code"_s).toInt();
        guard->respond(code == -32601 ? 404 : 200, {}, compactJson(**held));
    };
    server->handleMessage(cid, QJsonDocument(msg).toJson(QJsonDocument::Compact), reply, done);
}

// --- McpHttpServer ----------------------------------------------------------------------

McpHttpServer::McpHttpServer(McpServer *server, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->server = server;
    d->keepAlive.setInterval(KeepAliveMs);
    connect(&d->keepAlive, &QTimer::timeout, this, [this] {
        for (auto &streams : d->getStreams)
            for (const auto &c : streams)
                if (c)
                    c->sseComment("keep-alive");
        d->expireIdleSessions();
    });
}

McpHttpServer::~McpHttpServer()
{
    stop();
}

QString McpHttpServer::generateToken()
{
    QByteArray raw(32, Qt::Uninitialized);
    for (auto &c : raw)
        c = char(QRandomGenerator::system()->bounded(256));
    return QString::fromLatin1(
        raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

Result<void> McpHttpServer::start(const McpHttpOptions &options)
{
    stop();
    if (options.maxBodyBytes < 1024)
        return fail(ErrorCode::InvalidArgument, u"maxBodyBytes must be at least 1024"_s);
    d->options = options;
    d->token = options.requireAuth ? (options.token.isEmpty() ? generateToken() : options.token)
                                   : QString();
    d->tcp = new QTcpServer(this);
    // Loopback only: the endpoint runs code; nothing off this machine may reach it.
    if (!d->tcp->listen(QHostAddress::LocalHost, options.port)) {
        const QString why = d->tcp->errorString();
        delete d->tcp;
        d->tcp = nullptr;
        return fail(ErrorCode::IoError,
                    u"Cannot listen on 127.0.0.1:%1: %2"_s.arg(options.port).arg(why));
    }
    connect(d->tcp, &QTcpServer::pendingConnectionAvailable, this, [this] {
        while (d->tcp && d->tcp->hasPendingConnections()) {
            QTcpSocket *s = d->tcp->nextPendingConnection();
            new HttpConnection(s, d.get());
        }
    });
    d->keepAlive.start();
    if (!options.requireAuth)
        qCWarning(lcMcpHttp).noquote()
            << "AUTHENTICATION IS OFF: any local process can run code through" << url();
    qCInfo(lcMcpHttp).noquote() << "listening on" << url();
    Q_EMIT started(url());
    return {};
}

void McpHttpServer::stop()
{
    if (!d->tcp)
        return;
    d->keepAlive.stop();
    d->tcp->close();
    const QStringList sessions = d->sessions;
    for (const QString &sid : sessions)
        d->endSession(sid);
    const auto sockets = d->tcp->findChildren<QTcpSocket *>();
    for (QTcpSocket *s : sockets)
        s->abort();
    delete d->tcp;
    d->tcp = nullptr;
    Q_EMIT stopped();
}

bool McpHttpServer::isRunning() const
{
    return d->tcp && d->tcp->isListening();
}

quint16 McpHttpServer::port() const
{
    return isRunning() ? d->tcp->serverPort() : 0;
}

QString McpHttpServer::url() const
{
    return isRunning() ? u"http://127.0.0.1:%1/mcp"_s.arg(port()) : QString();
}

QString McpHttpServer::token() const
{
    return d->token;
}

bool McpHttpServer::requiresAuth() const
{
    return d->options.requireAuth;
}

QString McpHttpServer::rotateToken()
{
    d->options.requireAuth = true;
    d->token = generateToken();
    Q_EMIT tokenChanged(d->token);
    return d->token;
}

} // namespace sandbox
