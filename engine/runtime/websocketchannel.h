// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/error.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <memory>
#include <optional>

namespace sandbox {

/// How to open a WebSocket client connection (ws:// or wss://).
struct WebSocketOptions
{
    QUrl url;
    QList<std::pair<QByteArray, QByteArray>> headers; ///< e.g. {"Authorization", "Bearer x"}
    QStringList subprotocols;                         ///< offered in order of preference
    QByteArray caPem;         ///< CA bundle the server must chain to; empty = system CAs
    QByteArray clientCertPem; ///< mutual TLS
    QByteArray clientKeyPem;
    bool insecure = false; ///< skip server certificate verification
    int connectTimeoutMs = 15000;
};

/// A blocking WebSocket client for worker threads, built on QtWebSockets: the QWebSocket
/// lives in a private thread with an event loop (ARCHITECTURE.md "Threading"), and this
/// object hands messages across. Binary messages only are queued; text messages are
/// queued as if binary. Not thread-safe: one thread at a time.
class WebSocketChannel
{
public:
    /// Connects and completes the handshake. Errors: EngineUnreachable (connect failed),
    /// TlsError (certificate problems), EngineError (the server refused the upgrade, with
    /// its HTTP status), Timeout.
    static Result<std::unique_ptr<WebSocketChannel>> open(const WebSocketOptions &options);

    ~WebSocketChannel();
    WebSocketChannel(const WebSocketChannel &) = delete;
    WebSocketChannel &operator=(const WebSocketChannel &) = delete;

    /// The subprotocol the server chose ("" when none).
    QString subprotocol() const;

    /// Queues one binary message. Errors: IoError once the connection is closed.
    Result<void> send(const QByteArray &message);

    /// The next message, waiting at most timeoutMs (-1: forever); std::nullopt on timeout or
    /// once the connection closed and every message was taken (then *closed is true).
    /// Errors: IoError when the connection broke abnormally (after queued messages).
    Result<std::optional<QByteArray>> receive(int timeoutMs, bool *closed);

    /// Sends a close frame (normal closure) and stops. Idempotent.
    void close();

    /// The close code and reason the peer sent, for messages ("1000 normal").
    QString closeReason() const;

    struct State;

private:
    WebSocketChannel();
    std::shared_ptr<State> m_state;
};

} // namespace sandbox
