// SPDX-License-Identifier: GPL-3.0-or-later
#include "httpclient.h"

#include <QUrl>
#include <cstring>
#include <curl/curl.h>
#include <mutex>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>

Q_LOGGING_CATEGORY(lcHttp, "sandbox.transport.http", QtInfoMsg)

namespace sandbox {

namespace {

void globalInit()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct CurlHandle
{
    CURL *h = nullptr;
    curl_slist *headers = nullptr;
    char errbuf[CURL_ERROR_SIZE] = {};
    CurlHandle()
    {
        globalInit();
        h = curl_easy_init();
    }
    ~CurlHandle()
    {
        if (headers)
            curl_slist_free_all(headers);
        if (h)
            curl_easy_cleanup(h);
    }
    CurlHandle(const CurlHandle &) = delete;
    CurlHandle &operator=(const CurlHandle &) = delete;
    void addHeader(const QByteArray &line)
    {
        headers = curl_slist_append(headers, line.constData());
    }
};

void applyEndpoint(CurlHandle &c, const Endpoint &ep)
{
    curl_easy_setopt(c.h, CURLOPT_ERRORBUFFER, c.errbuf);
    curl_easy_setopt(c.h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c.h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    if (!ep.unixSocket.isEmpty())
        curl_easy_setopt(c.h, CURLOPT_UNIX_SOCKET_PATH, ep.unixSocket.toLocal8Bit().constData());
    if (ep.isTls()) {
        if (!ep.caFile.isEmpty())
            curl_easy_setopt(c.h, CURLOPT_CAINFO, ep.caFile.toLocal8Bit().constData());
        if (!ep.certFile.isEmpty())
            curl_easy_setopt(c.h, CURLOPT_SSLCERT, ep.certFile.toLocal8Bit().constData());
        if (!ep.keyFile.isEmpty())
            curl_easy_setopt(c.h, CURLOPT_SSLKEY, ep.keyFile.toLocal8Bit().constData());
        curl_easy_setopt(c.h, CURLOPT_SSL_VERIFYPEER, ep.verifyPeer ? 1L : 0L);
        curl_easy_setopt(c.h, CURLOPT_SSL_VERIFYHOST, ep.verifyPeer ? 2L : 0L);
    }
}

size_t collectBody(char *ptr, size_t size, size_t nmemb, void *userdata)
{
    static_cast<QByteArray *>(userdata)->append(ptr, qsizetype(size * nmemb));
    return size * nmemb;
}

size_t collectHeader(char *ptr, size_t size, size_t nmemb, void *userdata)
{
    auto *resp = static_cast<HttpResponse *>(userdata);
    QByteArray line(ptr, qsizetype(size * nmemb));
    const int colon = line.indexOf(':');
    if (line.startsWith("HTTP/"))
        resp->headers.clear(); // a new response (after 100 Continue)
    else if (colon > 0)
        resp->headers.append({line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    return size * nmemb;
}

void setMethod(CurlHandle &c, QByteArrayView method, const QByteArray &body, bool hasUpload)
{
    if (method == "GET") {
        curl_easy_setopt(c.h, CURLOPT_HTTPGET, 1L);
    } else if (method == "HEAD") {
        curl_easy_setopt(c.h, CURLOPT_NOBODY, 1L);
    } else if (hasUpload) {
        curl_easy_setopt(c.h, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(c.h, CURLOPT_CUSTOMREQUEST, QByteArray(method).constData());
    } else {
        curl_easy_setopt(c.h, CURLOPT_POST, 1L);
        curl_easy_setopt(c.h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
        curl_easy_setopt(c.h, CURLOPT_COPYPOSTFIELDS, body.constData());
        if (method != "POST")
            curl_easy_setopt(c.h, CURLOPT_CUSTOMREQUEST, QByteArray(method).constData());
    }
}

} // namespace

QByteArray HttpResponse::header(QByteArrayView name) const
{
    for (const auto &[k, v] : headers)
        if (k.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

HttpClient::HttpClient(Endpoint endpoint)
    : m_endpoint(std::move(endpoint))
{}

namespace {

/// A TLS failure in words: which side refused what, naming the endpoint.
Error tlsError(CURLcode code, const QString &detail, const Endpoint &ep)
{
    const QString d = detail.toLower();
    QString why;
    if (d.contains(QLatin1String("wrong version number")) ||
        d.contains(QLatin1String("packet length too long")) ||
        d.contains(QLatin1String("record layer failure")) ||
        d.contains(QLatin1String("http request")))
        why = QStringLiteral("it does not speak TLS (a plain-HTTP endpoint? use tcp:// without "
                             "certificates for those, port 2375)");
    else if (code == CURLE_PEER_FAILED_VERIFICATION ||
             d.contains(QLatin1String("certificate verify failed")) ||
             d.contains(QLatin1String("self-signed")) || d.contains(QLatin1String("self signed")))
        why =
            QStringLiteral("its certificate is not signed by the CA given (%1): wrong CA?")
                .arg(ep.caFile.isEmpty() ? QStringLiteral("the system's trust store") : ep.caFile);
    else if (d.contains(QLatin1String("certificate required")) ||
             (ep.certFile.isEmpty() && (d.contains(QLatin1String("handshake failure")) ||
                                        d.contains(QLatin1String("bad certificate")))))
        why = QStringLiteral("it requires a client certificate and none was given (cert.pem and "
                             "key.pem in the certificate folder)");
    else if (d.contains(QLatin1String("unknown ca")) ||
             d.contains(QLatin1String("bad certificate")) ||
             d.contains(QLatin1String("certificate unknown")) ||
             d.contains(QLatin1String("decrypt error")))
        why = QStringLiteral("it refused the client certificate %1 (signed by another CA?)")
                  .arg(ep.certFile);
    else if (code == CURLE_SSL_CERTPROBLEM)
        why = QStringLiteral("the client certificate or key could not be loaded (%1, %2)")
                  .arg(ep.certFile, ep.keyFile);
    else if (code == CURLE_SSL_CACERT_BADFILE)
        why = QStringLiteral("the CA file %1 could not be read").arg(ep.caFile);
    else
        why = QStringLiteral("check the CA, the client certificate and the key");
    return Error{ErrorCode::TlsError,
                 QStringLiteral("TLS with %1 failed: %2").arg(ep.display(), why), detail};
}

} // namespace

Error HttpClient::transportError(int curlCode, const char *errorBuffer, const Endpoint &ep,
                                 const QString &what)
{
    const auto code = CURLcode(curlCode);
    QString detail =
        what + QStringLiteral(": ") +
        QString::fromUtf8(errorBuffer && *errorBuffer ? errorBuffer : curl_easy_strerror(code));
    switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
        return Error{ErrorCode::EngineUnreachable,
                     QStringLiteral("The container engine at %1 is not reachable. Is it running?")
                         .arg(ep.display()),
                     detail};
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_USE_SSL_FAILED:
        return tlsError(code, detail, ep);
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
        // TLS 1.3 servers refuse a client certificate after the handshake: the refusal
        // arrives as an alert on the first read.
        if (ep.isTls() && (detail.contains(QLatin1String("alert")) ||
                           detail.contains(QLatin1String("SSL_read")) ||
                           detail.contains(QLatin1String("SSL_write"))))
            return tlsError(code, detail, ep);
        return Error{ErrorCode::IoError,
                     QStringLiteral("The connection to %1 broke off").arg(ep.display()), detail};
    case CURLE_OPERATION_TIMEDOUT:
        return Error{
            ErrorCode::Timeout,
            QStringLiteral("The container engine at %1 did not answer in time").arg(ep.display()),
            detail};
    case CURLE_ABORTED_BY_CALLBACK:
        return Error{ErrorCode::Cancelled, QStringLiteral("Cancelled"), detail};
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
        return Error{ErrorCode::IoError,
                     QStringLiteral("The connection to %1 broke off").arg(ep.display()), detail};
    default:
        return Error{ErrorCode::IoError, QStringLiteral("Talking to %1 failed").arg(ep.display()),
                     detail};
    }
}

Result<HttpResponse> HttpClient::request(QByteArrayView method, const QString &path,
                                         const QByteArray &body, QByteArrayView contentType,
                                         long timeoutMs) const
{
    CurlHandle c;
    if (!c.h)
        return fail(ErrorCode::Internal, QStringLiteral("curl_easy_init failed"));
    applyEndpoint(c, m_endpoint);
    const QByteArray url = (m_endpoint.baseUrl + path).toUtf8();
    curl_easy_setopt(c.h, CURLOPT_URL, url.constData());
    HttpResponse resp;
    curl_easy_setopt(c.h, CURLOPT_WRITEFUNCTION, collectBody);
    curl_easy_setopt(c.h, CURLOPT_WRITEDATA, &resp.body);
    curl_easy_setopt(c.h, CURLOPT_HEADERFUNCTION, collectHeader);
    curl_easy_setopt(c.h, CURLOPT_HEADERDATA, &resp);
    if (timeoutMs > 0)
        curl_easy_setopt(c.h, CURLOPT_TIMEOUT_MS, timeoutMs);
    if (method != "GET" && method != "HEAD" && !contentType.isEmpty())
        c.addHeader("Content-Type: " + contentType.toByteArray());
    c.addHeader("Expect:");
    curl_easy_setopt(c.h, CURLOPT_HTTPHEADER, c.headers);
    setMethod(c, method, body, false);
    const CURLcode rc = curl_easy_perform(c.h);
    const QString what = QString::fromLatin1(method.toByteArray()) + u' ' + path;
    if (rc != CURLE_OK)
        return std::unexpected(transportError(rc, c.errbuf, m_endpoint, what));
    curl_easy_getinfo(c.h, CURLINFO_RESPONSE_CODE, &resp.status);
    qCDebug(lcHttp) << what << "->" << resp.status;
    return resp;
}

namespace {
struct StreamCtx
{
    HttpClient::StreamOptions *opts;
    HttpResponse *resp;
    bool stoppedByReader = false;
};

size_t streamWrite(char *ptr, size_t size, size_t nmemb, void *userdata)
{
    auto *ctx = static_cast<StreamCtx *>(userdata);
    const size_t n = size * nmemb;
    if (ctx->opts->onData) {
        if (!ctx->opts->onData(QByteArrayView(ptr, qsizetype(n)))) {
            ctx->stoppedByReader = true;
            return 0; // aborts the transfer
        }
    } else {
        ctx->resp->body.append(ptr, qsizetype(n));
    }
    return n;
}

size_t streamRead(char *buffer, size_t size, size_t nitems, void *userdata)
{
    auto *ctx = static_cast<StreamCtx *>(userdata);
    if (ctx->opts->cancel.isCancelled())
        return CURL_READFUNC_ABORT;
    return ctx->opts->upload(buffer, size * nitems);
}

int streamProgress(void *userdata, curl_off_t, curl_off_t dlnow, curl_off_t, curl_off_t ulnow)
{
    auto *ctx = static_cast<StreamCtx *>(userdata);
    if (ctx->opts->progress)
        ctx->opts->progress(ulnow, dlnow);
    return ctx->opts->cancel.isCancelled() ? 1 : 0;
}
} // namespace

Result<HttpResponse> HttpClient::stream(QByteArrayView method, const QString &path,
                                        StreamOptions options) const
{
    CurlHandle c;
    if (!c.h)
        return fail(ErrorCode::Internal, QStringLiteral("curl_easy_init failed"));
    applyEndpoint(c, m_endpoint);
    const QByteArray url = (m_endpoint.baseUrl + path).toUtf8();
    curl_easy_setopt(c.h, CURLOPT_URL, url.constData());
    HttpResponse resp;
    StreamCtx ctx{&options, &resp};
    curl_easy_setopt(c.h, CURLOPT_WRITEFUNCTION, streamWrite);
    curl_easy_setopt(c.h, CURLOPT_WRITEDATA, &ctx);
    curl_easy_setopt(c.h, CURLOPT_HEADERFUNCTION, collectHeader);
    curl_easy_setopt(c.h, CURLOPT_HEADERDATA, &resp);
    curl_easy_setopt(c.h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c.h, CURLOPT_XFERINFOFUNCTION, streamProgress);
    curl_easy_setopt(c.h, CURLOPT_XFERINFODATA, &ctx);
    if (!options.contentType.isEmpty() && method != "GET")
        c.addHeader("Content-Type: " + options.contentType.toByteArray());
    c.addHeader("Expect:");
    if (options.upload) {
        curl_easy_setopt(c.h, CURLOPT_READFUNCTION, streamRead);
        curl_easy_setopt(c.h, CURLOPT_READDATA, &ctx);
        c.addHeader("Transfer-Encoding: chunked");
    }
    curl_easy_setopt(c.h, CURLOPT_HTTPHEADER, c.headers);
    setMethod(c, method, options.body, bool(options.upload));
    const CURLcode rc = curl_easy_perform(c.h);
    curl_easy_getinfo(c.h, CURLINFO_RESPONSE_CODE, &resp.status);
    const QString what = QString::fromLatin1(method.toByteArray()) + u' ' + path;
    if (rc == CURLE_WRITE_ERROR && ctx.stoppedByReader)
        return resp;
    if (options.cancel.isCancelled())
        return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled"), what);
    if (rc != CURLE_OK)
        return std::unexpected(transportError(rc, c.errbuf, m_endpoint, what));
    return resp;
}

namespace {

/// A hijacked connection: libcurl connected (and did TLS); we speak raw bytes on it.
class CurlRawStream final : public RawStream
{
public:
    CurlRawStream(std::unique_ptr<CurlHandle> handle, curl_socket_t fd, QByteArray initial,
                  bool tls)
        : m_c(std::move(handle))
        , m_fd(fd)
        , m_initial(std::move(initial))
        , m_tls(tls)
    {}

    Result<void> write(QByteArrayView data) override
    {
        qsizetype off = 0;
        while (off < data.size()) {
            size_t sent = 0;
            const CURLcode rc =
                curl_easy_send(m_c->h, data.data() + off, size_t(data.size() - off), &sent);
            if (rc == CURLE_AGAIN) {
                pollfd p{m_fd, POLLOUT, 0};
                ::poll(&p, 1, 1000);
                continue;
            }
            if (rc != CURLE_OK)
                return fail(ErrorCode::IoError, QStringLiteral("writing to the engine failed"),
                            QString::fromUtf8(curl_easy_strerror(rc)));
            off += qsizetype(sent);
        }
        return {};
    }

    Result<void> closeWrite() override
    {
        if (m_tls) {
            // The Docker client's CloseWrite on TLS: send close_notify and keep reading;
            // dockerd sees EOF on stdin and still sends the rest of the output.
            curl_tlssessioninfo *info = nullptr;
            if (curl_easy_getinfo(m_c->h, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || !info ||
                info->backend != CURLSSLBACKEND_OPENSSL || !info->internals)
                return fail(ErrorCode::ProtocolError,
                            QStringLiteral("cannot half-close this TLS stream (libcurl is not "
                                           "built with OpenSSL)"));
            SSL *ssl = static_cast<SSL *>(info->internals);
            for (int attempt = 0; attempt < 50; ++attempt) {
                const int rc = SSL_shutdown(ssl);
                if (rc >= 0)
                    return {}; // 0: our close_notify is sent, the peer's is still to come
                const int err = SSL_get_error(ssl, rc);
                if (err != SSL_ERROR_WANT_WRITE && err != SSL_ERROR_WANT_READ)
                    return fail(ErrorCode::IoError,
                                QStringLiteral("sending TLS close_notify failed"));
                pollfd p{m_fd, short(err == SSL_ERROR_WANT_WRITE ? POLLOUT : POLLIN), 0};
                ::poll(&p, 1, 100);
            }
            return fail(ErrorCode::Timeout, QStringLiteral("sending TLS close_notify timed out"));
        }
        if (::shutdown(m_fd, SHUT_WR) != 0)
            return fail(ErrorCode::IoError, QStringLiteral("shutdown(SHUT_WR) failed"),
                        QString::fromLocal8Bit(strerror(errno)));
        return {};
    }

    Result<QByteArray> read(int timeoutMs, bool *eof) override
    {
        *eof = false;
        if (!m_initial.isEmpty())
            return std::exchange(m_initial, {});
        char buf[65536];
        for (int attempt = 0; attempt < 2; ++attempt) {
            size_t got = 0;
            const CURLcode rc = curl_easy_recv(m_c->h, buf, sizeof buf, &got);
            if (rc == CURLE_OK) {
                if (got == 0)
                    *eof = true;
                return QByteArray(buf, qsizetype(got));
            }
            if (rc != CURLE_AGAIN)
                return fail(ErrorCode::IoError, QStringLiteral("reading from the engine failed"),
                            QString::fromUtf8(curl_easy_strerror(rc)));
            if (attempt == 1)
                break;
            pollfd p{m_fd, POLLIN, 0};
            const int n = ::poll(&p, 1, timeoutMs);
            if (n == 0)
                return QByteArray();
            if (n < 0 && errno != EINTR)
                return fail(ErrorCode::IoError, QStringLiteral("poll failed"));
        }
        return QByteArray();
    }

    QByteArray takeInitialBytes() override { return std::exchange(m_initial, {}); }
    void setInitialBytes(QByteArray bytes) { m_initial = std::move(bytes); }

private:
    std::unique_ptr<CurlHandle> m_c;
    curl_socket_t m_fd;
    QByteArray m_initial;
    bool m_tls;
};

} // namespace

Result<std::unique_ptr<RawStream>> HttpClient::upgrade(QByteArrayView method, const QString &path,
                                                       const QByteArray &body,
                                                       QByteArrayView contentType,
                                                       long connectTimeoutMs) const
{
    auto c = std::make_unique<CurlHandle>();
    if (!c->h)
        return fail(ErrorCode::Internal, QStringLiteral("curl_easy_init failed"));
    applyEndpoint(*c, m_endpoint);
    curl_easy_setopt(c->h, CURLOPT_CONNECTTIMEOUT_MS, connectTimeoutMs);
    const QByteArray url = (m_endpoint.baseUrl + path).toUtf8();
    curl_easy_setopt(c->h, CURLOPT_URL, url.constData());
    curl_easy_setopt(c->h, CURLOPT_CONNECT_ONLY, 1L);
    const QString what =
        QString::fromLatin1(method.toByteArray()) + u' ' + path + QStringLiteral(" (upgrade)");
    CURLcode rc = curl_easy_perform(c->h);
    if (rc != CURLE_OK)
        return std::unexpected(transportError(rc, c->errbuf, m_endpoint, what));
    curl_socket_t fd = CURL_SOCKET_BAD;
    curl_easy_getinfo(c->h, CURLINFO_ACTIVESOCKET, &fd);
    if (fd == CURL_SOCKET_BAD)
        return fail(ErrorCode::Internal, QStringLiteral("no socket after connect"), what);

    QUrl u(m_endpoint.baseUrl);
    QByteArray req = method.toByteArray() + ' ' + path.toUtf8() + " HTTP/1.1\r\n";
    req +=
        "Host: " + (m_endpoint.unixSocket.isEmpty() ? u.authority().toUtf8() : "docker") + "\r\n";
    req += "User-Agent: sandbox-studio/" SANDBOX_STUDIO_VERSION "\r\n";
    req += "Connection: Upgrade\r\nUpgrade: tcp\r\n";
    if (!body.isEmpty() || method == "POST") {
        req += "Content-Type: " + contentType.toByteArray() + "\r\n";
        req += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    }
    req += "\r\n";
    req += body;

    auto stream =
        std::make_unique<CurlRawStream>(std::move(c), fd, QByteArray(), m_endpoint.isTls());
    if (auto w = stream->write(req); !w)
        return std::unexpected(w.error());

    // Read the response head; whatever follows "\r\n\r\n" belongs to the stream.
    QByteArray head;
    const Deadline deadline = Deadline::in(std::chrono::milliseconds(connectTimeoutMs));
    qsizetype end = -1;
    while ((end = head.indexOf("\r\n\r\n")) < 0) {
        bool eof = false;
        auto chunk = stream->read(100, &eof);
        if (!chunk)
            return std::unexpected(chunk.error());
        head += *chunk;
        if (eof)
            return fail(ErrorCode::ProtocolError,
                        QStringLiteral("the engine closed the connection before answering"), what);
        if (deadline.expired())
            return fail(ErrorCode::Timeout,
                        QStringLiteral("the engine did not answer the upgrade in time"), what);
        if (head.size() > 1 << 20)
            return fail(ErrorCode::ProtocolError, QStringLiteral("response head too large"), what);
    }
    QByteArray rest = head.mid(end + 4);
    head.truncate(end);
    const QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
    const int status = statusLine.value(1).toInt();
    if (status != 101 && status != 200) {
        // Error answers carry a body (JSON {"message": ...}); it may be partial here.
        QByteArray errBody = rest;
        for (int i = 0; i < 20 && !errBody.contains('}'); ++i) {
            bool eof = false;
            auto chunk = stream->read(100, &eof);
            if (!chunk || eof)
                break;
            errBody += *chunk;
        }
        return fail(ErrorCode::EngineError,
                    QStringLiteral("The engine refused the request (HTTP %1)").arg(status),
                    what + QStringLiteral(": ") + QString::fromUtf8(errBody.trimmed()));
    }
    stream->setInitialBytes(std::move(rest));
    return std::unique_ptr<RawStream>(std::move(stream));
}

} // namespace sandbox
