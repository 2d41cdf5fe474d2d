// SPDX-License-Identifier: GPL-3.0-or-later
#include "faultproxy.h"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace sandbox::test {

namespace {

int connectUnix(const QString &path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const QByteArray p = path.toLocal8Bit();
    std::strncpy(addr.sun_path, p.constData(), sizeof addr.sun_path - 1);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool sendAll(int fd, const char *data, qsizetype size)
{
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size_t(size), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= n;
    }
    return true;
}

} // namespace

FaultProxy::FaultProxy(QString listenPath, QString upstreamPath)
    : m_listenPath(std::move(listenPath))
    , m_upstreamPath(std::move(upstreamPath))
{
    ::unlink(m_listenPath.toLocal8Bit().constData());
    m_listenFd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const QByteArray p = m_listenPath.toLocal8Bit();
    std::strncpy(addr.sun_path, p.constData(), sizeof addr.sun_path - 1);
    if (m_listenFd < 0 ||
        ::bind(m_listenFd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
        ::listen(m_listenFd, 64) != 0 || ::pipe(m_wakePipe) != 0) {
        m_error = QStringLiteral("cannot listen on %1: %2")
                      .arg(m_listenPath, QString::fromLocal8Bit(strerror(errno)));
        if (m_listenFd >= 0)
            ::close(m_listenFd);
        m_listenFd = -1;
        return;
    }
    m_acceptThread = std::thread([this] { acceptLoop(); });
}

FaultProxy::~FaultProxy()
{
    m_stop = true;
    if (m_wakePipe[1] >= 0)
        (void)!::write(m_wakePipe[1], "x", 1);
    if (m_acceptThread.joinable())
        m_acceptThread.join();
    for (std::thread &t : m_workers)
        t.join();
    if (m_listenFd >= 0)
        ::close(m_listenFd);
    for (int fd : m_wakePipe)
        if (fd >= 0)
            ::close(fd);
    ::unlink(m_listenPath.toLocal8Bit().constData());
}

void FaultProxy::arm(Fault fault, QByteArray matchA, QByteArray matchB)
{
    std::lock_guard lock(m_mutex);
    m_fault = fault;
    m_matchA = std::move(matchA);
    m_matchB = std::move(matchB);
}

void FaultProxy::acceptLoop()
{
    while (!m_stop) {
        pollfd p[2] = {{m_listenFd, POLLIN, 0}, {m_wakePipe[0], POLLIN, 0}};
        if (::poll(p, 2, -1) < 0 && errno != EINTR)
            return;
        if (m_stop || (p[1].revents & POLLIN))
            return;
        if (!(p[0].revents & POLLIN))
            continue;
        const int client = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0)
            continue;
        std::lock_guard lock(m_mutex);
        m_workers.emplace_back([this, client] { serve(client); });
    }
}

void FaultProxy::serve(int client)
{
    const int upstream = connectUnix(m_upstreamPath);
    if (upstream < 0) {
        ::close(client);
        return;
    }
    Fault fault = Fault::None;
    bool decided = false;
    QByteArray requestHead;
    QByteArray responseHead; // until "\r\n\r\n"; then the stream
    bool headDone = false;
    QByteArray streamSeen;
    char buf[65536];
    bool open = true;
    const int generation = m_cutGeneration.load();
    while (open && !m_stop) {
        if (m_cutGeneration.load() != generation)
            break;
        pollfd p[2] = {{client, POLLIN, 0}, {upstream, POLLIN, 0}};
        const int n = ::poll(p, 2, 50);
        if (n < 0 && errno != EINTR)
            break;
        if (n <= 0)
            continue;
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t got = ::recv(client, buf, sizeof buf, 0);
            if (got <= 0) {
                ::shutdown(upstream, SHUT_WR); // half-close (exec stdin EOF) passes through
                p[0].fd = -1;
                if (got < 0)
                    break;
            } else {
                if (!decided) {
                    requestHead.append(buf, got);
                    const qsizetype eol = requestHead.indexOf("\r\n");
                    if (eol >= 0) {
                        decided = true;
                        const QByteArray line = requestHead.left(eol);
                        std::lock_guard lock(m_mutex);
                        if (m_fault != Fault::None && line.contains(m_matchA) &&
                            (m_matchB.isEmpty() || line.contains(m_matchB))) {
                            fault = std::exchange(m_fault, Fault::None);
                        }
                    }
                }
                if (!sendAll(upstream, buf, got))
                    break;
            }
        }
        if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t got = ::recv(upstream, buf, sizeof buf, 0);
            if (got <= 0) {
                ::shutdown(client, SHUT_WR);
                break;
            }
            QByteArray data(buf, got);
            if (fault != Fault::None) {
                if (!headDone) {
                    responseHead += data;
                    const qsizetype end = responseHead.indexOf("\r\n\r\n");
                    if (end < 0)
                        continue; // hold the head until complete
                    headDone = true;
                    data = responseHead.mid(end + 4);
                    if (!sendAll(client, responseHead.constData(), end + 4))
                        break;
                }
                streamSeen += data;
                if (fault == Fault::TruncateFrameHeader) {
                    if (streamSeen.size() < 5)
                        continue;
                    sendAll(client, streamSeen.constData(), 5);
                    m_fired++;
                    open = false;
                    break;
                }
                // CutAfterFirstFrame: forward whole frames once one carries payload.
                qsizetype pos = 0;
                while (streamSeen.size() - pos >= 8) {
                    const auto *h =
                        reinterpret_cast<const unsigned char *>(streamSeen.constData() + pos);
                    const quint32 len = (quint32(h[4]) << 24) | (quint32(h[5]) << 16) |
                                        (quint32(h[6]) << 8) | quint32(h[7]);
                    if (streamSeen.size() - pos - 8 < qsizetype(len))
                        break;
                    pos += 8 + len;
                }
                if (pos > 0) {
                    sendAll(client, streamSeen.constData(), pos);
                    m_fired++;
                    open = false;
                    break;
                }
                continue;
            }
            if (!sendAll(client, data.constData(), data.size()))
                break;
        }
    }
    ::close(client);
    ::close(upstream);
}

} // namespace sandbox::test
