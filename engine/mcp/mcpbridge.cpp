// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpbridge.h"

#include "mcp/mcpserver.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QLocalSocket>
#include <QLoggingCategory>
#include <QPointer>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcMcpBridge, "sandbox.mcp.bridge")

namespace sandbox {

namespace {

constexpr qsizetype MaxLineBytes = 64ll << 20;
constexpr auto GreetingKey = "sandboxStudioBridge"_L1;

/// The uid of the process at the other end of a connected unix socket, or -1.
qint64 peerUid(qintptr fd)
{
#ifdef SO_PEERCRED
    struct ucred cred = {};
    socklen_t len = sizeof cred;
    if (fd >= 0 && ::getsockopt(int(fd), SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0)
        return qint64(cred.uid);
#else
    Q_UNUSED(fd);
#endif
    return -1;
}

QByteArray jsonLine(const QJsonValue &v)
{
    QByteArray line = v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                  : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    line += '\n';
    return line;
}

} // namespace

QString mcpBridgeSocketName()
{
    const QString forced = qEnvironmentVariable("SANDBOX_STUDIO_MCP_BRIDGE_SOCKET");
    if (!forced.isEmpty())
        return forced;
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QDir(runtime).exists())
        return QDir(runtime).filePath(u"sandbox-studio-mcp.sock"_s);
    return u"sandbox-studio-mcp-%1"_s.arg(::getuid());
}

// --- attaching a line stream --------------------------------------------------------------

QString mcpAttachLineStream(McpServer *server, QIODevice *device, const QString &transport)
{
    QPointer<QIODevice> dev(device);
    auto send = [dev](const QJsonValue &v) {
        if (dev && dev->isOpen())
            dev->write(jsonLine(v));
    };
    const QString id = server->openConnection(transport, send);
    QPointer<McpServer> srv(server);
    auto buffer = std::make_shared<QByteArray>();
    auto overlong = std::make_shared<bool>(false);
    auto closed = std::make_shared<bool>(false);
    auto close = [srv, id, closed] {
        if (*closed)
            return;
        *closed = true;
        if (srv)
            srv->closeConnection(id);
    };
    QObject::connect(device, &QIODevice::readyRead, server, [dev, srv, id, send, buffer, overlong] {
        if (!dev || !srv)
            return;
        buffer->append(dev->readAll());
        qsizetype nl;
        while ((nl = buffer->indexOf('\n')) >= 0) {
            QByteArray line = buffer->left(nl);
            buffer->remove(0, nl + 1);
            if (*overlong) {
                *overlong = false;
                continue;
            }
            if (line.endsWith('\r'))
                line.chop(1);
            if (line.trimmed().isEmpty())
                continue;
            srv->handleMessage(id, line, send);
            if (!dev)
                return;
        }
        if (buffer->size() > MaxLineBytes) {
            buffer->clear();
            *overlong = true;
            srv->handleMessage(id, QByteArray("{"), send);
        }
    });
    QObject::connect(device, &QIODevice::aboutToClose, server, close);
    QObject::connect(device, &QObject::destroyed, server, close);
    if (auto *socket = qobject_cast<QLocalSocket *>(device))
        QObject::connect(socket, &QLocalSocket::disconnected, server, close);
    // Lines that arrived before the attachment (with the greeting exchange).
    if (device->bytesAvailable() > 0)
        QMetaObject::invokeMethod(device, &QIODevice::readyRead, Qt::QueuedConnection);
    return id;
}

// --- GUI side ---------------------------------------------------------------------------

struct McpBridgeServer::Private
{
    McpServer *server = nullptr;
    std::unique_ptr<QLocalServer> listener;
    QList<QPointer<QLocalSocket>> clients;
};

McpBridgeServer::McpBridgeServer(McpServer *server, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->server = server;
}

McpBridgeServer::~McpBridgeServer()
{
    close();
}

Result<void> McpBridgeServer::listen(const QString &nameIn)
{
    if (isListening())
        return {};
    const QString name = nameIn.isEmpty() ? mcpBridgeSocketName() : nameIn;
    // A live window answers there: leave it alone (listening would replace its socket).
    // A stale file of a crashed process: remove it.
    {
        QLocalSocket probe;
        probe.connectToServer(name);
        if (probe.waitForConnected(1000)) {
            probe.abort();
            return fail(ErrorCode::IoError,
                        u"Another Sandbox Studio window already accepts runs from Claude "
                        u"Desktop (%1)."_s.arg(name));
        }
    }
    QLocalServer::removeServer(name);
    auto listener = std::make_unique<QLocalServer>();
    listener->setSocketOptions(QLocalServer::UserAccessOption);
    if (!listener->listen(name))
        return fail(ErrorCode::IoError, u"Cannot listen for the stdio bridge on %1: %2"_s.arg(
                                            name, listener->errorString()));
    connect(listener.get(), &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *socket = d->listener->nextPendingConnection()) {
            const qint64 uid = peerUid(socket->socketDescriptor());
            if (uid != qint64(::getuid())) {
                const QString why =
                    u"refused a stdio bridge connection from uid %1 (not this user)"_s.arg(uid);
                qCWarning(lcMcpBridge).noquote() << why;
                Q_EMIT connectionRefused(why);
                socket->abort();
                socket->deleteLater();
                continue;
            }
            socket->setParent(this);
            socket->write(QJsonDocument(QJsonObject{{GreetingKey, 1},
                                                    {u"pid"_s, QCoreApplication::applicationPid()}})
                              .toJson(QJsonDocument::Compact) +
                          '\n');
            mcpAttachLineStream(d->server, socket, QLatin1String(McpBridgeTransport));
            d->clients.append(socket);
            connect(socket, &QLocalSocket::disconnected, this, [this, socket] {
                d->clients.removeAll(socket);
                socket->deleteLater();
                Q_EMIT clientCountChanged(clientCount());
            });
            qCInfo(lcMcpBridge) << "stdio bridge client connected";
            Q_EMIT clientCountChanged(clientCount());
        }
    });
    d->listener = std::move(listener);
    qCInfo(lcMcpBridge).noquote() << "accepting the stdio bridge on"
                                  << d->listener->fullServerName();
    return {};
}

void McpBridgeServer::close()
{
    if (d->listener) {
        d->listener->close();
        d->listener.reset();
    }
    const auto clients = d->clients;
    d->clients.clear();
    for (const auto &socket : clients)
        if (socket) {
            socket->abort(); // closes its McpServer connection (aboutToClose)
            socket->deleteLater();
        }
    if (!clients.isEmpty())
        Q_EMIT clientCountChanged(0);
}

bool McpBridgeServer::isListening() const
{
    return d->listener && d->listener->isListening();
}

QString McpBridgeServer::fullServerName() const
{
    return isListening() ? d->listener->fullServerName() : QString();
}

int McpBridgeServer::clientCount() const
{
    int n = 0;
    for (const auto &socket : d->clients)
        n += socket ? 1 : 0;
    return n;
}

// --- CLI side ---------------------------------------------------------------------------

Result<std::unique_ptr<QLocalSocket>> mcpBridgeConnect(const QString &nameIn, int timeoutMs)
{
    const QString name = nameIn.isEmpty() ? mcpBridgeSocketName() : nameIn;
    auto socket = std::make_unique<QLocalSocket>();
    QElapsedTimer timer;
    timer.start();
    socket->connectToServer(name);
    if (!socket->waitForConnected(timeoutMs))
        return fail(
            ErrorCode::EngineUnreachable,
            u"no Sandbox Studio window accepts runs at %1 (%2)"_s.arg(name, socket->errorString()));
    const qint64 uid = peerUid(socket->socketDescriptor());
    if (uid != qint64(::getuid()))
        return fail(
            ErrorCode::IoError,
            u"the bridge socket %1 belongs to uid %2, not to this user"_s.arg(name).arg(uid));
    QByteArray greeting;
    while (!greeting.contains('\n')) {
        const int left = timeoutMs - int(timer.elapsed());
        if (left <= 0 || !socket->waitForReadyRead(left))
            return fail(ErrorCode::Timeout,
                        u"the Sandbox Studio window at %1 did not answer"_s.arg(name));
        // Read byte by byte up to the newline: what follows belongs to the MCP stream.
        char c;
        while (socket->bytesAvailable() > 0 && socket->getChar(&c)) {
            greeting += c;
            if (c == '\n')
                break;
        }
        if (greeting.size() > 4096)
            break;
    }
    const QJsonObject hello = QJsonDocument::fromJson(greeting.trimmed()).object();
    if (hello.value(GreetingKey).toInt() != 1)
        return fail(ErrorCode::ProtocolError,
                    u"%1 is not a Sandbox Studio bridge (unexpected greeting)"_s.arg(name));
    return socket;
}

namespace {
struct RelayState
{
    std::mutex mutex;
    QPointer<McpBridgeRelay> relay;
};
} // namespace

struct McpBridgeRelay::Private
{
    std::unique_ptr<QLocalSocket> socket;
    int inFd = 0;
    int outFd = 1;
    std::shared_ptr<RelayState> state = std::make_shared<RelayState>();
    bool ended = false;

    void writeOut(const QByteArray &bytes)
    {
        qsizetype off = 0;
        while (off < bytes.size()) {
            const ssize_t n = ::write(outFd, bytes.constData() + off, size_t(bytes.size() - off));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                qCWarning(lcMcpBridge) << "stdout closed:" << strerror(errno);
                return;
            }
            off += n;
        }
    }
};

McpBridgeRelay::McpBridgeRelay(std::unique_ptr<QLocalSocket> socket, int inFd, int outFd,
                               QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->socket = std::move(socket);
    d->inFd = inFd;
    d->outFd = outFd;
    d->state->relay = this;
}

McpBridgeRelay::~McpBridgeRelay()
{
    {
        std::lock_guard lock(d->state->mutex);
        d->state->relay = nullptr;
    }
    if (d->socket)
        d->socket->abort();
}

void McpBridgeRelay::start()
{
    QLocalSocket *socket = d->socket.get();
    auto forward = [this] {
        const QByteArray bytes = d->socket->readAll();
        if (!bytes.isEmpty())
            d->writeOut(bytes);
    };
    connect(socket, &QLocalSocket::readyRead, this, forward);
    connect(socket, &QLocalSocket::disconnected, this, [this, forward] {
        forward();
        if (d->ended)
            return;
        d->ended = true;
        Q_EMIT finished(true);
    });
    if (socket->bytesAvailable() > 0)
        forward();

    auto state = d->state;
    const int fd = d->inFd;
    // Blocking reads on a thread of their own (pipes, files and terminals alike), as
    // McpStdioTransport does; detached: it touches only its shared state.
    std::thread([state, fd] {
        auto deliver = [state](std::function<void(McpBridgeRelay *)> fn) {
            std::lock_guard lock(state->mutex);
            QPointer<McpBridgeRelay> r = state->relay;
            if (!r)
                return false;
            QMetaObject::invokeMethod(
                r.data(),
                [r, fn = std::move(fn)] {
                    if (r)
                        fn(r.data());
                },
                Qt::QueuedConnection);
            return true;
        };
        char chunk[65536];
        for (;;) {
            const ssize_t n = ::read(fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            if (!deliver([bytes = QByteArray(chunk, n)](McpBridgeRelay *r) {
                    if (r->d->socket && r->d->socket->state() == QLocalSocket::ConnectedState)
                        r->d->socket->write(bytes);
                }))
                return;
        }
        deliver([](McpBridgeRelay *r) {
            qCInfo(lcMcpBridge) << "stdin closed: the client is gone";
            r->stop();
        });
    }).detach();
}

void McpBridgeRelay::stop()
{
    if (d->ended)
        return;
    d->ended = true;
    if (d->socket && d->socket->state() == QLocalSocket::ConnectedState) {
        d->socket->flush();
        d->socket->disconnectFromServer();
        if (d->socket->state() != QLocalSocket::UnconnectedState)
            d->socket->waitForDisconnected(5000);
    }
    Q_EMIT finished(false);
}

} // namespace sandbox
