// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/error.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

namespace sandbox {

class McpServer;
class HttpConnection;

/// Settings of the Streamable HTTP endpoint.
struct McpHttpOptions
{
    quint16 port = 0; ///< 0 = any free port (see McpHttpServer::port())
    /// Bearer token clients must send (Authorization: Bearer TOKEN). Empty with
    /// requireAuth = a generated one (McpHttpServer::token()).
    QString token;
    /// Off only for local test runners that cannot send a token (the conformance runner):
    /// the endpoint then serves any local process. The server logs a loud warning.
    bool requireAuth = true;
    /// Bodies larger than this get 413 (bytes).
    qint64 maxBodyBytes = 8ll << 20;
    /// Origins accepted besides http(s)://localhost|127.0.0.1|[::1][:port]
    /// ("https://app.example"). A request with any other Origin header gets 403.
    QStringList allowedOrigins;
    /// Open GET streams per session; a further GET closes the oldest one.
    int maxStreamsPerSession = 4;
    /// A session with no request, no call in flight and no open GET stream for this long
    /// is ended (its notebook sandboxes removed), in milliseconds; 0 = never.
    qint64 idleTimeoutMs = 30 * 60 * 1000;
};

/// The MCP Streamable HTTP transport (MCP 2025-03-26/2025-06-18/2025-11-25 and 2026-07-28,
/// "Transports"),
/// bound to 127.0.0.1 only, at http://127.0.0.1:PORT/mcp.
///
/// POST a JSON-RPC message (Accept: application/json, text/event-stream): notifications and
/// responses get 202; a request gets an SSE stream (text/event-stream) carrying its
/// progress and log notifications and then its response, or a single JSON body when the
/// client accepts only application/json. The initialize result carries Mcp-Session-Id;
/// later requests must send it (missing: 400, unknown or ended: 404). GET opens the
/// session's server-to-client SSE stream; DELETE ends the session (its runs are
/// cancelled and its notebook sandboxes removed). MCP-Protocol-Version, when sent, must be
/// a supported revision (else 400).
///
/// The same endpoint serves the stateless revision 2026-07-28 ("Streamable HTTP" of that
/// revision): a POST whose body carries the per-request _meta envelope needs no session
/// (an Mcp-Session-Id header is ignored and none is issued). Its MCP-Protocol-Version,
/// Mcp-Method and (tools/call) Mcp-Name headers must match the body (else 400 with
/// -32020 HeaderMismatch); an unsupported revision gets 400 with -32022 and the supported
/// ones; a malformed envelope 400 with -32602; an unknown method 404 with -32601. The
/// answer is one JSON body, or an SSE stream when progress or log notifications precede
/// it; closing that stream cancels the request. Notebook sessions of such requests belong
/// to the bearer token (McpConnectionOptions::owner), so a session_id works for clients
/// holding the same token only, and ends with close_session or after the server's
/// stateless idle timeout. Batches with a modern element get 400.
///
/// Security: every request needs Authorization: Bearer TOKEN (401 with
/// WWW-Authenticate otherwise) unless requireAuth is off; a Host header that is not
/// localhost/127.0.0.1/[::1] (DNS rebinding) and a foreign Origin get 403; bodies over
/// maxBodyBytes get 413. Errors carry a JSON-RPC error body.
///
/// Lives in the thread of its McpServer. Can be started and stopped repeatedly (the GUI's
/// on/off switch); stopping ends every HTTP session.
class McpHttpServer : public QObject
{
    Q_OBJECT
public:
    explicit McpHttpServer(McpServer *server, QObject *parent = nullptr);
    ~McpHttpServer() override;

    /// Listens on 127.0.0.1:options.port. Errors: IoError when the port cannot be bound
    /// (in use: the message says so), InvalidArgument for a bad option.
    Result<void> start(const McpHttpOptions &options);
    /// Stops listening, ends all sessions and open streams. Idempotent.
    void stop();
    bool isRunning() const;

    /// The bound port (0 when stopped).
    quint16 port() const;
    /// "http://127.0.0.1:PORT/mcp" (empty when stopped).
    QString url() const;
    /// The bearer token in use (empty when authentication is off).
    QString token() const;
    bool requiresAuth() const;
    /// Replaces the token with a fresh one (the old one stops working at once; open sessions
    /// stay) and returns it. Turns authentication on if it was off.
    QString rotateToken();
    /// 32 random bytes, base64url without padding (43 characters).
    static QString generateToken();

Q_SIGNALS:
    void started(const QString &url);
    void stopped();
    void tokenChanged(const QString &token);
    /// A request was refused (401, 403, 404, 413, ...): for the log and the GUI.
    void requestRefused(int status, const QString &reason);

private:
    friend class HttpConnection;
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace sandbox
