// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <memory>

namespace sandbox {

class McpServer;

/// The MCP stdio transport (MCP "Transports", stdio): one JSON-RPC message per line on
/// stdin, one per line on stdout, nothing else on stdout (logs go to stderr). Reads stdin
/// on its own thread; writes from the server's thread. One connection ("stdio") per
/// instance. finished() is emitted once at stdin EOF (or read error); the owner then calls
/// McpServer::shutdown() and exits.
class McpStdioTransport : public QObject
{
    Q_OBJECT
public:
    /// inFd/outFd: file descriptors to read and write (0 and 1 by default; tests use pipes).
    explicit McpStdioTransport(McpServer *server, int inFd = 0, int outFd = 1,
                               QObject *parent = nullptr);
    ~McpStdioTransport() override;

    /// Opens the connection and starts reading.
    void start();
    /// The McpServer connection id (empty before start()).
    QString connectionId() const;

Q_SIGNALS:
    /// stdin reached EOF: the client is gone.
    void finished();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace sandbox
