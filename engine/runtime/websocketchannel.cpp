// SPDX-License-Identifier: GPL-3.0-or-later
#include "websocketchannel.h"

#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QSslKey>
#include <QThread>
#include <QWebSocket>
#include <QWebSocketHandshakeOptions>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>

namespace sandbox {

struct WebSocketChannel::State
{
    std::mutex m;
    std::condition_variable cv;
    std::deque<QByteArray> queue;
    bool connected = false;
    bool closed = false;
    bool failed = false;
    bool tlsProblem = false;
    QAbstractSocket::SocketError error = QAbstractSocket::UnknownSocketError;
    QString errorString;
    QString sslErrors;
    QString protocol;
    int closeCode = 0;
    QString closeReasonText;

    QThread *thread = nullptr;
    QObject *ctx = nullptr;       ///< lives in thread; parent of the socket
    QWebSocket *socket = nullptr; ///< touched only in thread
    bool stopped = false;

    void stop()
    {
        if (stopped)
            return;
        {
            std::lock_guard lock(m);
            stopped = true;
            cv.notify_all();
        }
        QMetaObject::invokeMethod(
            ctx,
            [this] {
                socket = nullptr;
                delete ctx;
                ctx = nullptr;
            },
            Qt::BlockingQueuedConnection);
        thread->quit();
        thread->wait();
        delete thread;
        thread = nullptr;
    }
};

namespace {

QSslKey keyFromPem(const QByteArray &pem)
{
    for (QSsl::KeyAlgorithm alg : {QSsl::Ec, QSsl::Rsa, QSsl::Dsa}) {
        QSslKey key(pem, alg, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return key;
    }
    return {};
}

} // namespace

WebSocketChannel::WebSocketChannel()
    : m_state(std::make_shared<State>())
{}

WebSocketChannel::~WebSocketChannel()
{
    m_state->stop();
}

Result<std::unique_ptr<WebSocketChannel>> WebSocketChannel::open(const WebSocketOptions &options)
{
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    if (options.url.scheme() == QLatin1String("wss")) {
        if (!options.caPem.isEmpty()) {
            const QList<QSslCertificate> cas = QSslCertificate::fromData(options.caPem, QSsl::Pem);
            if (cas.isEmpty())
                return fail(ErrorCode::TlsError,
                            QStringLiteral("The CA certificate for %1 is not valid PEM")
                                .arg(options.url.host()));
            ssl.setCaCertificates(cas);
        }
        if (!options.clientCertPem.isEmpty()) {
            const QList<QSslCertificate> certs =
                QSslCertificate::fromData(options.clientCertPem, QSsl::Pem);
            const QSslKey key = keyFromPem(options.clientKeyPem);
            if (certs.isEmpty() || key.isNull())
                return fail(ErrorCode::TlsError,
                            QStringLiteral("The client certificate or key for %1 is not valid "
                                           "PEM")
                                .arg(options.url.host()));
            ssl.setLocalCertificate(certs.first());
            ssl.setPrivateKey(key);
        }
        if (options.insecure)
            ssl.setPeerVerifyMode(QSslSocket::VerifyNone);
    }

    std::unique_ptr<WebSocketChannel> ch(new WebSocketChannel());
    std::shared_ptr<State> st = ch->m_state;
    st->thread = new QThread();
    st->thread->setObjectName(QStringLiteral("websocket"));
    st->thread->start();
    st->ctx = new QObject();
    st->ctx->moveToThread(st->thread);
    const bool insecure = options.insecure;
    QMetaObject::invokeMethod(
        st->ctx,
        [st, options, ssl, insecure] {
            auto *ws = new QWebSocket(QString(), QWebSocketProtocol::VersionLatest, st->ctx);
            st->socket = ws;
            if (options.url.scheme() == QLatin1String("wss"))
                ws->setSslConfiguration(ssl);
            QObject::connect(ws, &QWebSocket::connected, ws, [st, ws] {
                std::lock_guard lock(st->m);
                st->connected = true;
                st->protocol = ws->subprotocol();
                st->cv.notify_all();
            });
            QObject::connect(ws, &QWebSocket::binaryMessageReceived, ws,
                             [st](const QByteArray &message) {
                                 std::lock_guard lock(st->m);
                                 st->queue.push_back(message);
                                 st->cv.notify_all();
                             });
            QObject::connect(ws, &QWebSocket::textMessageReceived, ws,
                             [st](const QString &message) {
                                 std::lock_guard lock(st->m);
                                 st->queue.push_back(message.toUtf8());
                                 st->cv.notify_all();
                             });
            QObject::connect(ws, &QWebSocket::disconnected, ws, [st, ws] {
                std::lock_guard lock(st->m);
                st->closed = true;
                st->closeCode = int(ws->closeCode());
                st->closeReasonText = ws->closeReason();
                st->cv.notify_all();
            });
            QObject::connect(ws, &QWebSocket::errorOccurred, ws,
                             [st, ws](QAbstractSocket::SocketError e) {
                                 std::lock_guard lock(st->m);
                                 if (!st->failed) {
                                     st->failed = true;
                                     st->error = e;
                                     st->errorString = ws->errorString();
                                 }
                                 st->cv.notify_all();
                             });
            QObject::connect(ws, &QWebSocket::sslErrors, ws,
                             [st, ws, insecure](const QList<QSslError> &errors) {
                                 if (insecure) {
                                     ws->ignoreSslErrors();
                                     return;
                                 }
                                 std::lock_guard lock(st->m);
                                 st->tlsProblem = true;
                                 for (const QSslError &e : errors)
                                     st->sslErrors += e.errorString() + u';';
                             });
            QNetworkRequest request(options.url);
            for (const auto &[name, value] : options.headers)
                request.setRawHeader(name, value);
            QWebSocketHandshakeOptions handshake;
            handshake.setSubprotocols(options.subprotocols);
            ws->open(request, handshake);
        },
        Qt::QueuedConnection);

    std::unique_lock lock(st->m);
    const bool done = st->cv.wait_for(lock, std::chrono::milliseconds(options.connectTimeoutMs),
                                      [&] { return st->connected || st->failed || st->closed; });
    const QString where = options.url.toString(QUrl::RemoveQuery);
    if (!done) {
        lock.unlock();
        return fail(
            ErrorCode::Timeout,
            QStringLiteral("The WebSocket handshake with %1 did not finish in time").arg(where));
    }
    if (!st->connected) {
        const QString detail = where + QStringLiteral(": ") + st->errorString +
                               (st->sslErrors.isEmpty() ? QString() : u' ' + st->sslErrors);
        ErrorCode code = ErrorCode::EngineError;
        QString message = QStringLiteral("The server refused the WebSocket upgrade");
        if (st->tlsProblem || st->error == QAbstractSocket::SslHandshakeFailedError ||
            st->error == QAbstractSocket::SslInvalidUserDataError) {
            code = ErrorCode::TlsError;
            message = QStringLiteral("TLS with %1 failed: check the CA and client certificate")
                          .arg(options.url.host());
        } else if (st->error == QAbstractSocket::ConnectionRefusedError ||
                   st->error == QAbstractSocket::HostNotFoundError ||
                   st->error == QAbstractSocket::NetworkError) {
            code = ErrorCode::EngineUnreachable;
            message = QStringLiteral("%1 is not reachable").arg(where);
        }
        lock.unlock();
        return fail(code, message, detail);
    }
    return ch;
}

QString WebSocketChannel::subprotocol() const
{
    std::lock_guard lock(m_state->m);
    return m_state->protocol;
}

Result<void> WebSocketChannel::send(const QByteArray &message)
{
    {
        std::lock_guard lock(m_state->m);
        if (m_state->closed || m_state->stopped)
            return fail(ErrorCode::IoError, QStringLiteral("The WebSocket connection is closed"),
                        m_state->errorString);
    }
    std::shared_ptr<State> st = m_state;
    QMetaObject::invokeMethod(
        st->ctx,
        [st, message] {
            if (st->socket)
                st->socket->sendBinaryMessage(message);
        },
        Qt::QueuedConnection);
    return {};
}

Result<std::optional<QByteArray>> WebSocketChannel::receive(int timeoutMs, bool *closed)
{
    *closed = false;
    std::unique_lock lock(m_state->m);
    auto ready = [&] { return !m_state->queue.empty() || m_state->closed || m_state->stopped; };
    if (timeoutMs < 0)
        m_state->cv.wait(lock, ready);
    else
        m_state->cv.wait_for(lock, std::chrono::milliseconds(timeoutMs), ready);
    if (!m_state->queue.empty()) {
        QByteArray m = std::move(m_state->queue.front());
        m_state->queue.pop_front();
        return std::optional<QByteArray>(std::move(m));
    }
    if (m_state->closed || m_state->stopped) {
        *closed = true;
        const bool abnormal = m_state->failed &&
                              m_state->error != QAbstractSocket::RemoteHostClosedError &&
                              m_state->closeCode != QWebSocketProtocol::CloseCodeNormal;
        if (abnormal)
            return fail(ErrorCode::IoError, QStringLiteral("The WebSocket connection broke"),
                        m_state->errorString);
    }
    return std::optional<QByteArray>();
}

void WebSocketChannel::close()
{
    std::shared_ptr<State> st = m_state;
    {
        std::lock_guard lock(st->m);
        if (st->stopped)
            return;
    }
    QMetaObject::invokeMethod(
        st->ctx,
        [st] {
            if (st->socket && st->socket->state() == QAbstractSocket::ConnectedState)
                st->socket->close(QWebSocketProtocol::CloseCodeNormal);
        },
        Qt::QueuedConnection);
}

QString WebSocketChannel::closeReason() const
{
    std::lock_guard lock(m_state->m);
    return QStringLiteral("%1 %2").arg(m_state->closeCode).arg(m_state->closeReasonText);
}

} // namespace sandbox
