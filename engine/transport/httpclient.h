// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "transport/endpoint.h"
#include "util/canceltoken.h"
#include "util/error.h"

#include <QByteArray>
#include <QList>
#include <QLoggingCategory>
#include <QString>
#include <functional>
#include <memory>

Q_DECLARE_LOGGING_CATEGORY(lcHttp)

namespace sandbox {

/// A complete HTTP response. Headers are kept raw, lower-cased names.
struct HttpResponse
{
    long status = 0;
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;

    QByteArray header(QByteArrayView name) const;
    bool ok() const { return status >= 200 && status < 300; }
};

/// A raw bidirectional byte stream left after an HTTP/1.1 connection upgrade (Docker's
/// hijacked exec/attach: "Upgrade: tcp", answered 101). Not thread-safe; one user at a time.
class RawStream
{
public:
    virtual ~RawStream() = default;
    /// Writes all of data. Errors: IoError when the peer is gone.
    virtual Result<void> write(QByteArrayView data) = 0;
    /// Half-closes the write side so the remote process sees EOF on stdin.
    /// Over TLS this sends close_notify (as the Docker client does) and keeps reading.
    /// Errors: IoError; ProtocolError when libcurl is not built with OpenSSL.
    virtual Result<void> closeWrite() = 0;
    /// Reads what is available, waiting at most timeoutMs (-1: forever). Returns an empty
    /// array on timeout; sets *eof at end of stream. Errors: IoError.
    virtual Result<QByteArray> read(int timeoutMs, bool *eof) = 0;
    /// Bytes that arrived with the upgrade response, before read() was first called.
    virtual QByteArray takeInitialBytes() = 0;
};

/// HTTP/1.1 client for container engine APIs over a unix socket, TCP or mutual TLS,
/// built on libcurl. Each call is blocking: call it from a worker thread. Thread-safe:
/// each call uses its own curl handle.
class HttpClient
{
public:
    explicit HttpClient(Endpoint endpoint);

    const Endpoint &endpoint() const { return m_endpoint; }

    /// Sends one request and buffers the whole answer. timeoutMs 0 = no limit.
    /// Errors: EngineUnreachable (connect failed), TlsError, Timeout, IoError.
    /// An HTTP error status is NOT an error here; callers inspect HttpResponse::status.
    Result<HttpResponse> request(QByteArrayView method, const QString &path,
                                 const QByteArray &body = {},
                                 QByteArrayView contentType = "application/json",
                                 long timeoutMs = 0) const;

    /// Streams the response body to onData as it arrives (return false to stop), and,
    /// when upload is set, streams the request body from it (return the bytes copied into
    /// the buffer, 0 at end). progress receives (uploaded, downloaded) byte counts. The
    /// call ends early with Cancelled when cancel fires.
    struct StreamOptions
    {
        std::function<bool(QByteArrayView)> onData;
        std::function<size_t(char *buffer, size_t size)> upload;
        std::function<void(qint64 up, qint64 down)> progress;
        QByteArray body;
        QByteArrayView contentType = "application/json";
        CancelToken cancel;
    };
    Result<HttpResponse> stream(QByteArrayView method, const QString &path,
                                StreamOptions options) const;

    /// Sends a request with "Connection: Upgrade, Upgrade: tcp" and returns the raw stream
    /// once the server answers 101 (or 200 with a raw stream, as some engines do).
    /// Errors: as request(); EngineError with the server's message for other statuses.
    Result<std::unique_ptr<RawStream>> upgrade(QByteArrayView method, const QString &path,
                                               const QByteArray &body = {},
                                               QByteArrayView contentType = "application/json",
                                               long connectTimeoutMs = 10000) const;

    /// Human text for a curl failure, naming the endpoint and what to do.
    static Error transportError(int curlCode, const char *errorBuffer, const Endpoint &ep,
                                const QString &what);

private:
    Endpoint m_endpoint;
};

} // namespace sandbox
