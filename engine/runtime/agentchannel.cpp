// SPDX-License-Identifier: GPL-3.0-or-later
#include "agentchannel.h"

#include "agent/protocol.h"
#include "runtime/dockerstream.h"
#include "session/engine.h" // ownerLabel()

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <csignal>
#include <mutex>
#include <nlohmann/json.hpp>

Q_LOGGING_CATEGORY(lcAgent, "sandbox.agent", QtInfoMsg)

using json = nlohmann::json;

namespace sandbox {

namespace {

/// How long one read waits before the waiting thread re-checks cancel and deadlines. Also
/// the longest a concurrent writer waits for the reading thread to release the stream.
constexpr int SliceMs = 20;
/// After SIGKILLing a run, how long its "exit" may take before the agent counts as stuck.
constexpr auto KillGrace = std::chrono::seconds(5);
constexpr qsizetype StderrKeep = 4096;

json stringArray(const QStringList &list)
{
    json a = json::array();
    for (const QString &s : list)
        a.push_back(s.toStdString());
    return a;
}

qint64 num(const json &j, const char *key, qint64 def = 0)
{
    auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<qint64>() : def;
}

bool flag(const json &j, const char *key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_boolean() && it->get<bool>();
}

QString str(const json &j, const char *key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                            : QString();
}

} // namespace

/// Reader-side state: Docker's multiplexing outside, agent frames inside.
struct AgentChannel::Decoding
{
    agent::FrameDecoder frames;
    QByteArray stderrBytes; ///< the agent's stderr since the last dispatch
    FrameDemuxer demux{[this](FrameDemuxer::Stream which, QByteArrayView data) {
        if (which == FrameDemuxer::Stream::Stdout)
            frames.feed(data.data(), size_t(data.size()));
        else
            stderrBytes += data; // stderr and daemon errors: diagnostics
        return true;
    }};
};

Result<QString> AgentChannel::findAgentBinary()
{
    const QString fromEnv = qEnvironmentVariable("SANDBOX_AGENT_PATH");
    if (!fromEnv.isEmpty()) {
        if (QFileInfo(fromEnv).isFile())
            return fromEnv;
        return fail(
            ErrorCode::NotFound,
            QStringLiteral("SANDBOX_AGENT_PATH names %1, which is not a file.").arg(fromEnv));
    }
    QStringList looked;
    if (QCoreApplication::instance()) {
        const QString dir = QCoreApplication::applicationDirPath();
        const QStringList candidates = {
            QString(dir + QStringLiteral("/sandbox-agent")),
            QDir::cleanPath(dir + QStringLiteral("/../libexec/sandbox-studio/sandbox-agent"))};
        for (const QString &candidate : candidates) {
            if (QFileInfo(candidate).isFile())
                return candidate;
            looked << candidate;
        }
    }
    return fail(ErrorCode::NotFound,
                QStringLiteral("The sandbox agent (sandbox-agent) was not found; set "
                               "SANDBOX_AGENT_PATH or build the sandbox-agent target. Runs fall "
                               "back to plain exec."),
                QStringLiteral("looked in: ") + looked.join(QStringLiteral(", ")));
}

SandboxSpec AgentChannel::hardenedSpec(const QString &image)
{
    // The same hardening and environment as a one-shot run's sandbox (session/engine.cpp).
    SandboxSpec spec;
    spec.image = image;
    spec.env = {QStringLiteral("HOME=/sandbox"), QStringLiteral("TMPDIR=/tmp"),
                QStringLiteral("LANG=C.UTF-8"),
                QStringLiteral("SANDBOX_OUTPUT_DIR=/sandbox/output"),
                QStringLiteral("XDG_CACHE_HOME=/sandbox/.sandbox/cache")};
    spec.network = NetworkMode::None;
    spec.readOnlyRoot = true;
    spec.labels = {
        {QLatin1String(labels::Managed), QStringLiteral("true")},
        {QLatin1String(labels::Owner), ownerLabel()},
        {QLatin1String(labels::Kind), QStringLiteral("pool")},
        {QLatin1String(labels::Created), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
    return spec;
}

namespace {
std::mutex g_unremovedMutex;
QStringList g_unremoved;

void rememberUnremoved(const QString &id)
{
    std::lock_guard lock(g_unremovedMutex);
    if (!g_unremoved.contains(id))
        g_unremoved.append(id);
}
} // namespace

QStringList takeUnremovedSandboxes()
{
    std::lock_guard lock(g_unremovedMutex);
    return std::exchange(g_unremoved, {});
}

AgentChannel::AgentChannel(Runtime &runtime, QString id, std::unique_ptr<RawStream> stream)
    : m_runtime(runtime)
    , m_id(std::move(id))
    , m_stream(std::move(stream))
    , m_control(std::make_shared<Waiter>())
    , m_decoding(std::make_unique<Decoding>())
{}

AgentChannel::~AgentChannel()
{
    if (auto r = close(); !r) {
        qCWarning(lcAgent).noquote() << "could not remove sandbox" << m_id << r.error().toString();
        rememberUnremoved(m_id);
    }
}

Result<std::unique_ptr<AgentChannel>> AgentChannel::open(Runtime &runtime, SandboxSpec spec,
                                                         const QString &agentPath,
                                                         const CancelToken &cancel,
                                                         Deadline deadline)
{
    QString path = agentPath;
    if (path.isEmpty()) {
        auto found = findAgentBinary();
        if (!found)
            return std::unexpected(found.error());
        path = *found;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(
            ErrorCode::NotFound,
            QStringLiteral("Cannot read the sandbox agent %1: %2").arg(path, file.errorString()));
    const QByteArray binary = file.readAll();
    if (binary.isEmpty())
        return fail(ErrorCode::NotFound, QStringLiteral("The sandbox agent %1 is empty").arg(path));

    // PLATFORM.md "Placing an agent": PID 1's shell copies exactly N bytes of stdin into
    // the exec-able tmpfs work directory and becomes the agent; the rest of stdin is ours.
    const QString target = spec.workDir + QStringLiteral("/.agent");
    spec.openStdin = true;
    // The agent is PID 1 itself (it reaps with wait4(-1) and reads signals from a signalfd):
    // an engine init would be a process of the sandbox's uid that programs could ptrace and
    // so leave code behind in a pooled sandbox for its next borrower. PID 1 cannot be
    // SIGKILLed from inside its namespace, and the agent is not dumpable.
    spec.init = false;
    spec.command = {QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                    QStringLiteral("head -c %1 > %2 && chmod 700 %2 && exec %2")
                        .arg(binary.size())
                        .arg(target)};
    auto created = runtime.create(spec);
    if (!created)
        return std::unexpected(created.error());
    const QString id = *created;
    auto removeGuard = qScopeGuard([&] {
        if (auto r = runtime.remove(id); !r) {
            qCWarning(lcAgent).noquote()
                << "could not remove sandbox" << id << r.error().toString();
            rememberUnremoved(id);
        }
    });
    if (cancel.isCancelled())
        return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled while creating the sandbox"));
    auto stream = runtime.attach(id);
    if (!stream)
        return std::unexpected(stream.error());
    if (auto s = runtime.start(id); !s)
        return std::unexpected(s.error());
    removeGuard.dismiss();
    std::unique_ptr<AgentChannel> channel(new AgentChannel(runtime, id, std::move(*stream)));

    auto failed = [&](Error e) -> Result<std::unique_ptr<AgentChannel>> {
        // Collect what the container said (e.g. "head: not found") before removing it.
        {
            std::unique_lock lock(channel->m_state);
            for (int i = 0; i < 10 && !channel->m_broken; ++i)
                channel->pump(lock, 50);
            const QString tail = channel->stderrTail();
            if (!tail.isEmpty() && !e.detail.contains(tail)) // setBroken may have added it
                e.detail += QStringLiteral("; agent stderr: ") + tail;
        }
        channel->close();
        return std::unexpected(e);
    };
    {
        std::lock_guard io(channel->m_io);
        if (auto w = channel->m_stream->write(binary); !w) {
            Error e = w.error();
            e.message = QStringLiteral("Could not copy the agent into the sandbox: ") + e.message;
            return failed(e);
        }
    }
    auto hi = channel->hello(deadline);
    if (!hi) {
        Error e = hi.error();
        if (e.code != ErrorCode::Cancelled)
            e.message = QStringLiteral("The sandbox agent did not come up: ") + e.message;
        return failed(e);
    }
    if (hi->version != agent::ProtocolVersion)
        return failed(Error{ErrorCode::ProtocolError,
                            QStringLiteral("The sandbox agent speaks protocol %1, not %2")
                                .arg(hi->version)
                                .arg(agent::ProtocolVersion),
                            path});
    channel->m_hello = *hi;
    qCDebug(lcAgent).noquote() << "agent up in" << id.left(12) << "pid" << hi->pid << "uid"
                               << hi->uid;
    return channel;
}

std::optional<Error> AgentChannel::brokenError() const
{
    std::lock_guard lock(m_state);
    return m_broken;
}

QString AgentChannel::stderrTail() const
{
    return QString::fromUtf8(m_stderr.right(StderrKeep)).trimmed();
}

void AgentChannel::setBroken(Error e)
{
    if (m_broken)
        return;
    const QString tail = stderrTail();
    if (!tail.isEmpty())
        e.detail += QStringLiteral("; agent stderr: ") + tail;
    qCWarning(lcAgent).noquote() << "agent stream of" << m_id.left(12) << "broken:" << e.toString();
    m_broken = std::move(e);
    m_cv.notify_all();
}

Result<void> AgentChannel::send(const std::string &header, QByteArrayView payload)
{
    {
        std::lock_guard lock(m_state);
        if (m_broken)
            return std::unexpected(*m_broken);
    }
    std::string frame;
    if (!agent::appendFrame(frame, header,
                            std::string_view(payload.data(), size_t(payload.size()))))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("A request to the sandbox agent is too large"));
    Result<void> w;
    {
        std::lock_guard io(m_io);
        if (!m_stream)
            return fail(ErrorCode::IoError, QStringLiteral("The agent channel is closed"));
        w = m_stream->write(QByteArrayView(frame.data(), qsizetype(frame.size())));
    }
    if (!w) {
        std::lock_guard lock(m_state);
        setBroken(w.error());
    }
    return w;
}

void AgentChannel::pump(std::unique_lock<std::mutex> &lock, int sliceMs)
{
    if (m_broken)
        return;
    if (m_reading) {
        m_cv.wait_for(lock, std::chrono::milliseconds(sliceMs));
        return;
    }
    m_reading = true;
    lock.unlock();

    bool eof = false;
    Result<QByteArray> chunk;
    {
        std::lock_guard io(m_io);
        if (m_stream)
            chunk = m_stream->read(sliceMs, &eof);
        else
            chunk = fail(ErrorCode::IoError, QStringLiteral("The agent channel is closed"));
    }
    std::optional<Error> error;
    std::vector<std::pair<qint64, Item>> items;
    Decoding &d = *m_decoding;
    if (!chunk) {
        error = chunk.error();
    } else if (!chunk->isEmpty()) {
        if (!d.demux.feed(*chunk) && d.demux.malformed())
            error = Error{ErrorCode::ProtocolError,
                          QStringLiteral("The engine sent a malformed attach stream"), m_id};
        std::string_view header, payload;
        while (!error) {
            const auto st = d.frames.next(header, payload);
            if (st == agent::FrameDecoder::Status::NeedMore)
                break;
            if (st == agent::FrameDecoder::Status::Broken) {
                error = Error{ErrorCode::ProtocolError,
                              QStringLiteral("The sandbox agent sent a malformed frame"),
                              QString::fromStdString(d.frames.error())};
                break;
            }
            const json j = json::parse(header.begin(), header.end(), nullptr, false);
            if (!j.is_object()) {
                error = Error{ErrorCode::ProtocolError,
                              QStringLiteral("The sandbox agent sent a malformed header"),
                              QString::fromUtf8(header.data(),
                                                qsizetype(std::min<size_t>(header.size(), 300)))};
                break;
            }
            const QString ev = str(j, "ev");
            Item item;
            const qint64 id = num(j, "id");
            if (ev == QLatin1String("stdout") || ev == QLatin1String("stderr")) {
                item.kind = ev == QLatin1String("stdout") ? Item::Kind::Stdout : Item::Kind::Stderr;
                item.payload = QByteArray(payload.data(), qsizetype(payload.size()));
            } else if (ev == QLatin1String("started")) {
                item.kind = Item::Kind::Started;
                item.exit.pid = num(j, "pid");
                item.exit.viaZygote = flag(j, "zygote");
                item.exit.zygoteWhy = str(j, "zygote_why");
            } else if (ev == QLatin1String("exit")) {
                item.kind = Item::Kind::Exit;
                item.exit.exitCode = int(num(j, "exit_code", -1));
                item.exit.signal = int(num(j, "signal"));
                item.exit.timedOut = flag(j, "timed_out");
                item.exit.outputTruncated = flag(j, "output_truncated");
                item.exit.durationMs = num(j, "duration_ms");
                item.exit.maxRssKb = num(j, "max_rss_kb");
                item.exit.userMs = num(j, "user_ms");
                item.exit.sysMs = num(j, "sys_ms");
            } else if (ev == QLatin1String("error")) {
                item.kind = Item::Kind::Error;
                item.message = str(j, "message");
            } else if (ev == QLatin1String("hello")) {
                item.kind = Item::Kind::Hello;
                item.hello.version = int(num(j, "version"));
                item.hello.pid = num(j, "pid");
                item.hello.uid = num(j, "uid", -1);
            } else if (ev == QLatin1String("killed_all")) {
                item.kind = Item::Kind::KilledAll;
                if (auto keep = j.find("keep"); keep != j.end() && keep->is_array())
                    for (const json &p : *keep)
                        if (p.is_string())
                            item.kept.append(
                                QString::fromStdString(p.get<std::string>()).toLongLong());
            } else if (ev == QLatin1String("zygote")) {
                item.kind = Item::Kind::Zygote;
                item.zygote.language = str(j, "language");
                item.zygote.state = str(j, "state");
                item.zygote.message = str(j, "message");
                item.zygote.pid = num(j, "pid");
                item.zygote.sparePid = std::max<qint64>(0, num(j, "spare"));
                item.zygote.preloadMs = num(j, "preload_ms");
                item.zygote.modules = num(j, "modules");
                item.zygote.forks = num(j, "forks");
                if (item.zygote.state == QLatin1String("failed"))
                    qCInfo(lcAgent).noquote() << m_id.left(12) << item.zygote.language
                                              << "zygote failed:" << item.zygote.message;
            } else {
                qCDebug(lcAgent).noquote() << "ignoring agent event" << ev;
                continue;
            }
            items.emplace_back(id, std::move(item));
        }
    }
    const QByteArray diagnostics = std::exchange(d.stderrBytes, {});

    lock.lock();
    if (!diagnostics.isEmpty()) {
        m_stderr += diagnostics;
        if (m_stderr.size() > 4 * StderrKeep)
            m_stderr = m_stderr.right(StderrKeep);
        for (const QByteArray &line : diagnostics.trimmed().split('\n'))
            qCInfo(lcAgent).noquote() << m_id.left(12) << QString::fromUtf8(line);
    }
    for (auto &[id, item] : items) {
        if (id > 0) {
            auto it = m_waiters.find(id);
            if (it != m_waiters.end())
                it->second->items.push_back(std::move(item));
            // else: a run nobody waits for any more (abandoned): drop.
        } else {
            if (item.kind == Item::Kind::Error)
                qCWarning(lcAgent).noquote() << "agent error:" << item.message;
            m_control->items.push_back(std::move(item));
        }
    }
    if (!error && eof)
        error =
            Error{ErrorCode::IoError,
                  QStringLiteral("The connection to the sandbox ended: the sandbox stopped (killed "
                                 "or out of memory) or the engine went away"),
                  m_id};
    if (error)
        setBroken(*error);
    m_reading = false;
    m_cv.notify_all();
}

Result<AgentChannel::Item> AgentChannel::awaitControl(const char *ev, const CancelToken &cancel,
                                                      Deadline deadline)
{
    const Item::Kind want = qstrcmp(ev, "hello") == 0        ? Item::Kind::Hello
                            : qstrcmp(ev, "killed_all") == 0 ? Item::Kind::KilledAll
                                                             : Item::Kind::Zygote;
    std::unique_lock lock(m_state);
    for (;;) {
        while (!m_control->items.empty()) {
            Item item = std::move(m_control->items.front());
            m_control->items.pop_front();
            if (item.kind == want)
                return item;
        }
        if (m_broken)
            return std::unexpected(*m_broken);
        if (cancel.isCancelled())
            return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled"));
        if (deadline.expired())
            return fail(ErrorCode::Timeout,
                        QStringLiteral("The sandbox agent did not answer \"%1\" in time")
                            .arg(QLatin1String(ev)),
                        m_id);
        const long long left = deadline.remainingMs();
        pump(lock, int(left < 0 ? SliceMs : std::min<long long>(left, SliceMs)));
    }
}

Result<AgentHello> AgentChannel::hello(Deadline deadline)
{
    std::lock_guard ops(m_controlOps);
    {
        std::lock_guard lock(m_state);
        m_control->items.clear();
    }
    if (auto s = send(json{{"op", "hello"}}.dump()); !s)
        return std::unexpected(s.error());
    auto item = awaitControl("hello", {}, deadline);
    if (!item)
        return std::unexpected(item.error());
    return item->hello;
}

Result<QList<qint64>> AgentChannel::killAll(Deadline deadline)
{
    std::lock_guard ops(m_controlOps);
    {
        std::lock_guard lock(m_state);
        m_control->items.clear();
    }
    if (auto s = send(json{{"op", "kill_all"}}.dump()); !s)
        return std::unexpected(s.error());
    auto item = awaitControl("killed_all", {}, deadline);
    if (!item)
        return std::unexpected(item.error());
    return item->kept;
}

Result<AgentZygoteInfo> AgentChannel::startZygote(const QString &language, const QStringList &argv,
                                                  Deadline deadline)
{
    std::lock_guard ops(m_controlOps);
    {
        std::lock_guard lock(m_state);
        m_control->items.clear();
    }
    if (auto s = send(json{
            {"op", "zygote"}, {"language", language.toStdString()}, {"argv", stringArray(argv)}}
                          .dump());
        !s)
        return std::unexpected(s.error());
    for (;;) {
        auto item = awaitControl("zygote", {}, deadline);
        if (!item)
            return std::unexpected(item.error());
        if (item->zygote.language == language && item->zygote.state != QLatin1String("starting"))
            return item->zygote;
    }
}

Result<void> AgentChannel::stopZygote(const QString &language)
{
    std::lock_guard ops(m_controlOps);
    return send(json{{"op", "zygote_stop"}, {"language", language.toStdString()}}.dump());
}

Result<AgentRunResult> AgentChannel::run(const AgentRunSpec &spec, const ExecIo &io,
                                         const CancelToken &cancel, Deadline deadline)
{
    if (spec.argv.isEmpty() || spec.argv.first().isEmpty())
        return fail(ErrorCode::InvalidArgument, QStringLiteral("A run needs a program to start"));
    auto waiter = std::make_shared<Waiter>();
    qint64 id = 0;
    {
        std::lock_guard lock(m_state);
        if (m_broken)
            return std::unexpected(*m_broken);
        id = m_nextId++;
        m_waiters[id] = waiter;
    }
    auto unregister = qScopeGuard([&] {
        std::lock_guard lock(m_state);
        m_waiters.erase(id);
    });

    json request{{"op", "run"},
                 {"id", id},
                 {"argv", stringArray(spec.argv)},
                 {"env", stringArray(spec.env)},
                 {"stdin", spec.attachStdin},
                 {"timeout_ms", std::max<qint64>(0, spec.timeoutMs)},
                 {"output_limit", std::max<qint64>(0, spec.outputLimit)}};
    if (!spec.workDir.isEmpty())
        request["cwd"] = spec.workDir.toStdString();
    if (!spec.zygote.isEmpty())
        request["zygote"] = spec.zygote.toStdString();
    if (auto s = send(request.dump()); !s)
        return std::unexpected(s.error());
    if (spec.attachStdin) {
        if (auto s = sendStdin(id, spec.stdinData); !s)
            return std::unexpected(s.error());
        if (auto s = send(json{{"op", "stdin_close"}, {"id", id}}.dump()); !s)
            return std::unexpected(s.error());
    }

    AgentRunResult result;
    std::optional<Deadline> killDeadline;
    auto killRun = [&]() -> Result<void> {
        if (killDeadline)
            return {};
        killDeadline = Deadline::in(KillGrace);
        return send(json{{"op", "signal"}, {"id", id}, {"signal", SIGKILL}}.dump());
    };

    std::unique_lock lock(m_state);
    for (;;) {
        while (!waiter->items.empty()) {
            Item item = std::move(waiter->items.front());
            waiter->items.pop_front();
            lock.unlock();
            switch (item.kind) {
            case Item::Kind::Started:
                result.pid = item.exit.pid;
                result.viaZygote = item.exit.viaZygote;
                result.zygoteWhy = item.exit.zygoteWhy;
                if (spec.onStarted)
                    spec.onStarted(id, result.pid);
                break;
            case Item::Kind::Stdout:
            case Item::Kind::Stderr: {
                if (result.stoppedByReader)
                    break;
                const auto &sink = item.kind == Item::Kind::Stdout ? io.onStdout : io.onStderr;
                if (sink && !sink(item.payload)) {
                    result.stoppedByReader = true;
                    if (auto k = killRun(); !k)
                        return std::unexpected(k.error());
                }
                break;
            }
            case Item::Kind::Error:
                result.error +=
                    (result.error.isEmpty() ? QString() : QStringLiteral("; ")) + item.message;
                break;
            case Item::Kind::Exit: {
                AgentRunResult done = item.exit;
                done.pid = result.pid;
                done.error = result.error;
                done.cancelled = result.cancelled;
                done.deadlineExceeded = result.deadlineExceeded;
                done.stoppedByReader = result.stoppedByReader;
                done.viaZygote = result.viaZygote;
                done.zygoteWhy = result.zygoteWhy;
                return done;
            }
            case Item::Kind::Hello:
            case Item::Kind::KilledAll:
            case Item::Kind::Zygote:
                break;
            }
            lock.lock();
        }
        if (m_broken)
            return std::unexpected(*m_broken);
        if (!killDeadline && (cancel.isCancelled() || deadline.expired())) {
            result.cancelled = cancel.isCancelled();
            result.deadlineExceeded = !result.cancelled;
            lock.unlock();
            if (auto k = killRun(); !k)
                return std::unexpected(k.error());
            lock.lock();
            continue;
        }
        if (killDeadline && killDeadline->expired())
            return fail(ErrorCode::Timeout,
                        QStringLiteral("The sandbox agent did not report the end of a killed run"),
                        m_id);
        int slice = SliceMs;
        if (!killDeadline && !deadline.isNever())
            slice = int(std::min<long long>(deadline.remainingMs(), SliceMs));
        pump(lock, std::max(slice, 1));
    }
}

Result<void> AgentChannel::sendStdin(qint64 id, QByteArrayView data)
{
    const std::string chunkHeader = json{{"op", "stdin"}, {"id", id}}.dump();
    for (qsizetype off = 0; off < data.size(); off += qsizetype(agent::ChunkBytes)) {
        const QByteArrayView part = data.sliced(off).first(
            std::min<qsizetype>(qsizetype(agent::ChunkBytes), data.size() - off));
        if (auto s = send(chunkHeader, part); !s)
            return s;
    }
    return {};
}

Result<void> AgentChannel::signal(qint64 runId, int signal)
{
    return send(json{{"op", "signal"}, {"id", runId}, {"signal", signal}}.dump());
}

Result<std::unique_ptr<AgentInteractiveRun>>
AgentChannel::startInteractive(const AgentRunSpec &spec, Deadline startDeadline)
{
    if (spec.argv.isEmpty() || spec.argv.first().isEmpty())
        return fail(ErrorCode::InvalidArgument, QStringLiteral("A run needs a program to start"));
    auto waiter = std::make_shared<Waiter>();
    qint64 id = 0;
    {
        std::lock_guard lock(m_state);
        if (m_broken)
            return std::unexpected(*m_broken);
        id = m_nextId++;
        m_waiters[id] = waiter;
    }
    // From here on the handle owns the registration: its destructor unregisters (and
    // SIGKILLs the run if it started).
    std::unique_ptr<AgentInteractiveRun> handle(new AgentInteractiveRun(*this, id, waiter));

    json request{{"op", "run"},
                 {"id", id},
                 {"argv", stringArray(spec.argv)},
                 {"env", stringArray(spec.env)},
                 {"stdin", true},
                 {"timeout_ms", std::max<qint64>(0, spec.timeoutMs)},
                 {"output_limit", std::max<qint64>(0, spec.outputLimit)}};
    if (!spec.workDir.isEmpty())
        request["cwd"] = spec.workDir.toStdString();
    if (auto s = send(request.dump()); !s)
        return std::unexpected(s.error());
    if (!spec.stdinData.isEmpty())
        if (auto s = sendStdin(id, spec.stdinData); !s)
            return std::unexpected(s.error());

    // "started" comes first; a refused request gets "error" and "exit" instead. Output
    // that follows stays queued for read().
    std::unique_lock lock(m_state);
    for (;;) {
        for (auto it = waiter->items.begin(); it != waiter->items.end(); ++it) {
            if (it->kind == Item::Kind::Started) {
                handle->m_pid = it->exit.pid;
                waiter->items.erase(it);
                return handle;
            }
            if (it->kind == Item::Kind::Exit) {
                QString why;
                for (const Item &item : waiter->items)
                    if (item.kind == Item::Kind::Error)
                        why += (why.isEmpty() ? QString() : QStringLiteral("; ")) + item.message;
                handle->m_finished = true; // nothing to kill
                return fail(
                    ErrorCode::ProtocolError,
                    QStringLiteral("The sandbox agent refused to start %1").arg(spec.argv.first()),
                    why);
            }
        }
        if (m_broken)
            return std::unexpected(*m_broken);
        if (startDeadline.expired())
            return fail(
                ErrorCode::Timeout,
                QStringLiteral("The sandbox agent did not start %1 in time").arg(spec.argv.first()),
                m_id);
        int slice = SliceMs;
        if (!startDeadline.isNever())
            slice = int(std::min<long long>(startDeadline.remainingMs(), SliceMs));
        pump(lock, std::max(slice, 1));
    }
}

AgentInteractiveRun::AgentInteractiveRun(AgentChannel &channel, qint64 id,
                                         std::shared_ptr<AgentChannel::Waiter> w)
    : m_channel(channel)
    , m_id(id)
    , m_waiter(std::move(w))
{}

AgentInteractiveRun::~AgentInteractiveRun()
{
    if (!m_finished) {
        // Nobody will read the program any more: stop it. After its exit the agent answers
        // "no such run", which nobody waits for either (dropped).
        if (auto k = m_channel.signal(m_id, SIGKILL); !k)
            qCDebug(lcAgent).noquote() << "could not stop run" << m_id << k.error().toString();
    }
    std::lock_guard lock(m_channel.m_state);
    m_channel.m_waiters.erase(m_id);
}

Result<void> AgentInteractiveRun::write(QByteArrayView data)
{
    if (m_finished)
        return fail(ErrorCode::IoError,
                    QStringLiteral("The program has exited (exit %1)").arg(m_result.exitCode));
    if (m_stdinClosed)
        return fail(ErrorCode::IoError, QStringLiteral("The program's stdin is closed"));
    return m_channel.sendStdin(m_id, data);
}

Result<void> AgentInteractiveRun::closeStdin()
{
    if (m_finished || m_stdinClosed)
        return {};
    m_stdinClosed = true;
    return m_channel.send(json{{"op", "stdin_close"}, {"id", m_id}}.dump());
}

Result<void> AgentInteractiveRun::signal(int sig)
{
    if (m_finished)
        return {};
    return m_channel.signal(m_id, sig);
}

Result<bool> AgentInteractiveRun::read(int timeoutMs, QByteArray *out, QByteArray *err)
{
    using Item = AgentChannel::Item;
    if (m_finished)
        return false;
    const Deadline deadline =
        timeoutMs < 0 ? Deadline::never() : Deadline::in(std::chrono::milliseconds(timeoutMs));
    std::unique_lock lock(m_channel.m_state);
    for (;;) {
        bool got = false;
        while (!m_waiter->items.empty()) {
            Item item = std::move(m_waiter->items.front());
            m_waiter->items.pop_front();
            switch (item.kind) {
            case Item::Kind::Stdout:
                if (out)
                    out->append(item.payload);
                got = true;
                break;
            case Item::Kind::Stderr:
                if (err)
                    err->append(item.payload);
                got = true;
                break;
            case Item::Kind::Started:
                m_pid = item.exit.pid;
                break;
            case Item::Kind::Error:
                m_error += (m_error.isEmpty() ? QString() : QStringLiteral("; ")) + item.message;
                break;
            case Item::Kind::Exit:
                m_result = item.exit;
                m_result.pid = m_pid;
                m_result.error = m_error;
                m_finished = true;
                break;
            case Item::Kind::Hello:
            case Item::Kind::KilledAll:
            case Item::Kind::Zygote:
                break;
            }
        }
        // Output that came with the exit is returned first; the next call says "ended".
        if (got)
            return true;
        if (m_finished)
            return false;
        if (m_channel.m_broken)
            return std::unexpected(*m_channel.m_broken);
        if (deadline.expired())
            return true;
        int slice = SliceMs;
        if (!deadline.isNever())
            slice = int(std::min<long long>(deadline.remainingMs(), SliceMs));
        m_channel.pump(lock, std::max(slice, 0));
    }
}

Result<int> AgentInteractiveRun::exitCode()
{
    return m_finished ? m_result.exitCode : -1;
}

Result<void> AgentChannel::putTar(const QString &dir, const QByteArray &tar, Deadline deadline)
{
    AgentRunSpec spec;
    spec.argv = {QStringLiteral("tar"), QStringLiteral("-x"), QStringLiteral("-f"),
                 QStringLiteral("-"),   QStringLiteral("-C"), dir};
    spec.attachStdin = true;
    spec.stdinData = tar;
    QByteArray err;
    ExecIo io;
    io.onStderr = [&](QByteArrayView d) {
        if (err.size() < 8192)
            err += d;
        return true;
    };
    auto r = run(spec, io, {}, deadline);
    if (!r)
        return std::unexpected(r.error());
    if (r->deadlineExceeded)
        return fail(ErrorCode::Timeout,
                    QStringLiteral("Copying files into the sandbox took too long"));
    if (r->exitCode != 0)
        return fail(ErrorCode::IoError, QStringLiteral("Copying files into the sandbox failed"),
                    QStringLiteral("tar -x -C %1 exited %2: %3")
                        .arg(dir)
                        .arg(r->exitCode)
                        .arg(QString::fromUtf8(err).trimmed() + r->error));
    return {};
}

Result<QByteArray> AgentChannel::getTar(const QString &dir, qint64 maxBytes, Deadline deadline)
{
    AgentRunSpec spec;
    spec.argv = {QStringLiteral("tar"), QStringLiteral("-c"), QStringLiteral("-f"),
                 QStringLiteral("-"),   QStringLiteral("-C"), dir,
                 QStringLiteral(".")};
    spec.outputLimit = maxBytes + 1; // one byte more tells "too large"
    QByteArray out, err;
    ExecIo io;
    io.onStdout = [&](QByteArrayView d) {
        out += d;
        return true;
    };
    io.onStderr = [&](QByteArrayView d) {
        if (err.size() < 8192)
            err += d;
        return true;
    };
    auto r = run(spec, io, {}, deadline);
    if (!r)
        return std::unexpected(r.error());
    if (r->deadlineExceeded)
        return fail(ErrorCode::Timeout,
                    QStringLiteral("Copying files out of the sandbox took too long"));
    if (r->outputTruncated || out.size() > maxBytes)
        return fail(
            ErrorCode::IoError,
            QStringLiteral("The files in %1 are larger than %2 bytes").arg(dir).arg(maxBytes));
    if (r->exitCode != 0)
        return fail(ErrorCode::IoError, QStringLiteral("Copying files out of the sandbox failed"),
                    QStringLiteral("tar -c -C %1 exited %2: %3")
                        .arg(dir)
                        .arg(r->exitCode)
                        .arg(QString::fromUtf8(err).trimmed() + r->error));
    return out;
}

Result<void> AgentChannel::close()
{
    {
        std::lock_guard lock(m_state);
        if (m_closed)
            return {};
        m_closed = true;
        if (!m_broken)
            m_broken =
                Error{ErrorCode::IoError, QStringLiteral("The agent channel is closed"), m_id};
        m_cv.notify_all();
    }
    // Removing the container kills the agent; the stream then ends.
    auto removed = m_runtime.remove(m_id);
    {
        std::lock_guard io(m_io);
        m_stream.reset();
    }
    return removed;
}

} // namespace sandbox
