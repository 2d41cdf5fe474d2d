// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <atomic>
#include <list>
#include <mutex>
#include <thread>

namespace sandbox::test {

/// A fault-injecting proxy between the engine and dockerd: listens on a unix socket and
/// forwards every connection to the upstream unix socket byte for byte, except the next
/// connection whose request line contains `match` (e.g. "/exec/" + "/start") once a fault is
/// armed. Faults act on the upstream -> client direction after the response head
/// ("\r\n\r\n"), i.e. on the hijacked multiplexed stream (Docker Engine API, "Stream format").
class FaultProxy
{
public:
    enum class Fault
    {
        None,
        /// Forward the head and the first complete frame(s) (at least one payload byte), then
        /// close both sides: the socket goes away mid-stream.
        CutAfterFirstFrame,
        /// Forward the head and only the first 5 bytes of the first 8-byte frame header,
        /// then close: a truncated multiplexed frame.
        TruncateFrameHeader,
    };

    /// Listens on listenPath (removed first) and forwards to upstreamPath.
    FaultProxy(QString listenPath, QString upstreamPath);
    ~FaultProxy();

    /// Whether listening worked; errorString() says why not.
    bool isListening() const { return m_listenFd >= 0; }
    QString errorString() const { return m_error; }
    QString uri() const { return QStringLiteral("unix://") + m_listenPath; }

    /// Arms fault for the next connection whose request line contains both parts.
    void arm(Fault fault, QByteArray matchA, QByteArray matchB = {});
    /// Closes every connection open now (both sides), as if the engine's socket went away;
    /// new connections are served as before.
    void cutAll() { m_cutGeneration++; }
    /// How many times an armed fault fired.
    int fired() const { return m_fired.load(); }

private:
    void acceptLoop();
    void serve(int client);

    QString m_listenPath;
    QString m_upstreamPath;
    QString m_error;
    int m_listenFd = -1;
    int m_wakePipe[2] = {-1, -1};
    std::atomic<bool> m_stop{false};
    std::thread m_acceptThread;
    std::mutex m_mutex;
    Fault m_fault = Fault::None;
    QByteArray m_matchA, m_matchB;
    std::atomic<int> m_fired{0};
    std::atomic<int> m_cutGeneration{0};
    std::list<std::thread> m_workers;
};

} // namespace sandbox::test
