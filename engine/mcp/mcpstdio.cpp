// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcpstdio.h"

#include "mcp/mcpserver.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPointer>
#include <cerrno>
#include <mutex>
#include <thread>
#include <unistd.h>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcMcpStdio, "sandbox.mcp.stdio")

namespace sandbox {

namespace {
/// A line longer than this is answered with a parse error and dropped (bytes).
constexpr qsizetype MaxLineBytes = 64ll << 20;

/// What the reader thread shares with the transport (which may be gone first).
struct ReaderState
{
    std::mutex mutex;
    QPointer<McpStdioTransport> transport;
};
} // namespace

struct McpStdioTransport::Private
{
    McpServer *server = nullptr;
    int inFd = 0;
    int outFd = 1;
    QString connectionId;
    std::shared_ptr<ReaderState> state = std::make_shared<ReaderState>();
    bool ended = false;

    void write(const QJsonValue &v)
    {
        QByteArray line = v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                      : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
        line += '\n';
        qsizetype off = 0;
        while (off < line.size()) {
            const ssize_t n = ::write(outFd, line.constData() + off, size_t(line.size() - off));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                qCWarning(lcMcpStdio) << "stdout closed:" << strerror(errno);
                return;
            }
            off += n;
        }
    }
};

McpStdioTransport::McpStdioTransport(McpServer *server, int inFd, int outFd, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->server = server;
    d->inFd = inFd;
    d->outFd = outFd;
    d->state->transport = this;
}

McpStdioTransport::~McpStdioTransport()
{
    std::lock_guard lock(d->state->mutex);
    d->state->transport = nullptr;
}

QString McpStdioTransport::connectionId() const
{
    return d->connectionId;
}

void McpStdioTransport::start()
{
    if (!d->connectionId.isEmpty())
        return;
    Private *p = d.get();
    d->connectionId =
        d->server->openConnection(u"stdio"_s, [p](const QJsonValue &v) { p->write(v); });
    auto state = d->state;
    const int fd = d->inFd;
    // Blocking reads on a thread of their own: works for pipes, files and terminals alike.
    // Detached: at exit it may still sit in read(); it touches only its shared state.
    std::thread([state, fd] {
        auto deliver = [state](std::function<void(McpStdioTransport *)> fn) {
            std::lock_guard lock(state->mutex);
            QPointer<McpStdioTransport> t = state->transport;
            if (!t)
                return false;
            QMetaObject::invokeMethod(
                t.data(),
                [t, fn = std::move(fn)] {
                    if (t)
                        fn(t.data());
                },
                Qt::QueuedConnection);
            return true;
        };
        QByteArray buffer;
        char chunk[65536];
        bool overlong = false;
        for (;;) {
            const ssize_t n = ::read(fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            buffer.append(chunk, n);
            qsizetype nl;
            while ((nl = buffer.indexOf('\n')) >= 0) {
                QByteArray line = buffer.left(nl);
                buffer.remove(0, nl + 1);
                if (overlong) {
                    overlong = false;
                    continue;
                }
                if (line.endsWith('\r'))
                    line.chop(1);
                if (line.trimmed().isEmpty())
                    continue;
                if (!deliver([line](McpStdioTransport *t) {
                        t->d->server->handleMessage(
                            t->d->connectionId, line,
                            [p = t->d.get()](const QJsonValue &v) { p->write(v); });
                    }))
                    return;
            }
            if (buffer.size() > MaxLineBytes) {
                buffer.clear();
                overlong = true;
                deliver([](McpStdioTransport *t) {
                    t->d->server->handleMessage(
                        t->d->connectionId, QByteArray("{"),
                        [p = t->d.get()](const QJsonValue &v) { p->write(v); });
                });
            }
        }
        if (!buffer.trimmed().isEmpty() && !overlong)
            deliver([line = buffer](McpStdioTransport *t) {
                t->d->server->handleMessage(t->d->connectionId, line,
                                            [p = t->d.get()](const QJsonValue &v) { p->write(v); });
            });
        deliver([](McpStdioTransport *t) {
            if (t->d->ended)
                return;
            t->d->ended = true;
            qCInfo(lcMcpStdio) << "stdin closed: the client is gone";
            Q_EMIT t->finished();
        });
    }).detach();
}

} // namespace sandbox
