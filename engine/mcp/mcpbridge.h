// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/error.h"

#include <QLocalSocket>
#include <QObject>
#include <QString>
#include <memory>

class QIODevice;

namespace sandbox {

class McpServer;

/// Transport name of clients that reach the GUI through the stdio bridge (shown as
/// McpClientInfo::transport and McpCallInfo::transport).
inline constexpr auto McpBridgeTransport = "stdio-bridge";

/// Where the GUI listens for the stdio bridge: $SANDBOX_STUDIO_MCP_BRIDGE_SOCKET when set
/// (tests), else "$XDG_RUNTIME_DIR/sandbox-studio-mcp.sock" when XDG_RUNTIME_DIR is set,
/// else "sandbox-studio-mcp-UID" (QLocalServer places it in the temporary folder).
QString mcpBridgeSocketName();

/// Attaches a newline-delimited JSON-RPC stream (an open QIODevice: a QLocalSocket, a
/// QProcess, a pipe) to server as one client connection of the given transport name: each
/// line read is McpServer::handleMessage(), each message sent is written as one compact
/// JSON line. The connection is closed when the device closes or disconnects (the server
/// then cancels its runs and closes its sessions), or when the device is destroyed. A line
/// over 64 MiB gets a parse error and is dropped. Returns the connection id.
QString mcpAttachLineStream(McpServer *server, QIODevice *device, const QString &transport);

/// The GUI side of the stdio bridge: a QLocalServer on mcpBridgeSocketName() (owner-only
/// permissions, QLocalServer::UserAccessOption) whose connections become clients of server
/// with the transport McpBridgeTransport. Connections from another uid (SO_PEERCRED) are
/// refused. On accept the server writes one greeting line
/// {"sandboxStudioBridge":1,"pid":N}; everything after it is the client's MCP stream.
class McpBridgeServer : public QObject
{
    Q_OBJECT
public:
    explicit McpBridgeServer(McpServer *server, QObject *parent = nullptr);
    ~McpBridgeServer() override;

    /// Starts listening on name (default mcpBridgeSocketName()). A stale socket file of a
    /// crashed process is replaced; a name another live process (another window) answers
    /// on fails with IoError saying so. Listening already: no-op.
    Result<void> listen(const QString &name = {});
    /// Stops listening and disconnects every bridged client (their runs end).
    void close();
    bool isListening() const;
    /// The socket path while listening, else empty.
    QString fullServerName() const;
    /// Bridged clients connected now.
    int clientCount() const;

Q_SIGNALS:
    /// A connection was refused (another uid); reason for people.
    void connectionRefused(const QString &reason);
    /// A bridged client connected or went away.
    void clientCountChanged(int count);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

/// Tries to reach a GUI's bridge at name (default mcpBridgeSocketName()) within timeoutMs:
/// connects, checks the peer is this uid, and reads the greeting line. Returns the
/// connected socket (ready for the MCP stream), or an error saying why (no GUI, no answer,
/// another user's socket).
Result<std::unique_ptr<QLocalSocket>> mcpBridgeConnect(const QString &name = {},
                                                       int timeoutMs = 3000);

/// The CLI side of the stdio bridge: relays bytes from inFd to the socket and from the
/// socket to outFd, unchanged (newline-delimited JSON-RPC). Reads inFd on its own thread.
/// finished() is emitted once: at EOF of inFd (after the socket was flushed and closed)
/// with guiClosed false, or when the GUI closed the socket with guiClosed true.
class McpBridgeRelay : public QObject
{
    Q_OBJECT
public:
    /// Takes the socket of mcpBridgeConnect(). inFd/outFd: 0 and 1 by default.
    explicit McpBridgeRelay(std::unique_ptr<QLocalSocket> socket, int inFd = 0, int outFd = 1,
                            QObject *parent = nullptr);
    ~McpBridgeRelay() override;

    void start();
    /// Flushes what was read from inFd so far and closes the socket (SIGTERM).
    void stop();

Q_SIGNALS:
    void finished(bool guiClosed);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace sandbox
