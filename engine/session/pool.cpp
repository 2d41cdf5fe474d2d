// SPDX-License-Identifier: GPL-3.0-or-later
#include "pool.h"

#include "languages/language.h"
#include "session/engine.h"
#include "session/sandboxsetup.h"
#include "util/latencystats.h"
#include "util/tarball.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

Q_LOGGING_CATEGORY(lcPool, "sandbox.pool", QtInfoMsg)

namespace sandbox {

bool zygotesByDefault()
{
    return qEnvironmentVariableIntValue("SANDBOX_STUDIO_NO_ZYGOTE") != 1;
}

QStringList PoolOptions::zygotePreloadFor(const QString &language, const QString &image) const
{
    if (auto it = zygotePreload.constFind(image); it != zygotePreload.constEnd())
        return *it;
    const QString recipe = image.section(u'/', -1).section(u':', 0, 0); // sandbox-studio/python:r..
    if (auto it = zygotePreload.constFind(recipe); it != zygotePreload.constEnd())
        return *it;
    if (language != QLatin1String("python") ||
        !image.startsWith(QLatin1String("sandbox-studio/python:")))
        return {};
    static const QStringList defaults = [] {
        QStringList out;
        QFile f(QStringLiteral(":/helpers/python/zygote-preload.txt"));
        if (f.open(QIODevice::ReadOnly))
            for (const QByteArray &line : f.readAll().split('\n')) {
                const QByteArray name = line.trimmed();
                if (!name.isEmpty() && !name.startsWith('#'))
                    out.append(QString::fromUtf8(name));
            }
        return out;
    }();
    return defaults;
}

namespace {

using Clock = std::chrono::steady_clock;

/// Empties the work directory (all but the running agent) and /tmp, SIGKILLs anything
/// left but the agent's zygotes and spares (KEEP_PIDS: the agent checked them, and they
/// never ran a program), then lists what survived: any output means the reset did not work.
constexpr auto ResetScript = R"SH(cd /
find /sandbox -mindepth 1 -maxdepth 1 ! -name .agent -exec rm -rf {} + 2>/dev/null
find /tmp -mindepth 1 -maxdepth 1 -exec rm -rf {} + 2>/dev/null
for p in /proc/[0-9]*; do
  p=${p#/proc/}
  case " 1 $$ $PPID $AGENT_PID $KEEP_PIDS " in *" $p "*) continue ;; esac
  kill -9 "$p" 2>/dev/null
done
for p in /proc/[0-9]*; do
  p=${p#/proc/}
  case " 1 $$ $PPID $AGENT_PID $KEEP_PIDS " in *" $p "*) continue ;; esac
  read -r s < "/proc/$p/stat" 2>/dev/null || continue
  case "$s" in *") Z "*) ;; *) echo "process $p: $s" ;; esac
done
for f in /sandbox/* /sandbox/.[!.]* /sandbox/..?* /tmp/* /tmp/.[!.]* /tmp/..?*; do
  [ -e "$f" ] || [ -L "$f" ] || continue
  [ "$f" = /sandbox/.agent ] || echo "left: $f"
done
exit 0
)SH";

struct Slot
{
    std::unique_ptr<AgentChannel> channel;
    QString zygote; ///< language of a ready zygote in this sandbox; empty = none
    Clock::time_point created = Clock::now();
    Clock::time_point idleSince = Clock::now();
    int uses = 0;
};

struct KeyState
{
    PoolKey key;
    QString hash;
    const LanguageDescriptor *lang = nullptr;
    QByteArray helpersTar;
    QStringList zygoteArgv; ///< empty = no zygote for this key
    int zygotesFailed = 0;
    std::deque<std::unique_ptr<Slot>> idle;
    int busy = 0;      // lent out
    int resetting = 0; // back from a borrower, being reset
    int creating = 0;
    int unhealthy = 0;
    int temporary = 0;
    qint64 lends = 0, created = 0, recycled = 0;
    std::optional<Error> lastError;
    Clock::time_point lastFailure{};
};

} // namespace

struct SandboxPool::State : std::enable_shared_from_this<SandboxPool::State>
{
    std::shared_ptr<Runtime> runtime;
    PoolOptions opt;
    mutable std::mutex m;
    std::condition_variable cv;
    std::map<QString, KeyState> keys; // by hash
    bool stopping = false;
    int tasks = 0;
    std::thread maintainer;

    /// Runs fn on a new thread; shutdown() waits for every such task.
    void spawn(std::function<void()> fn)
    {
        // Caller holds m.
        ++tasks;
        std::thread([self = shared_from_this(), fn = std::move(fn)] {
            fn();
            std::lock_guard lock(self->m);
            --self->tasks;
            self->cv.notify_all();
        }).detach();
    }

    Result<KeyState *> keyFor(const PoolKey &key)
    {
        // Caller holds m.
        const QString h = key.hash();
        auto it = keys.find(h);
        if (it != keys.end())
            return &it->second;
        const LanguageDescriptor *lang = LanguageRegistry::instance().find(key.language);
        if (!lang)
            return fail(ErrorCode::UnknownLanguage,
                        QStringLiteral("Unknown language '%1'").arg(key.language));
        auto tar = makeTar(helperMembers(*lang));
        if (!tar)
            return std::unexpected(tar.error());
        KeyState &ks = keys[h];
        ks.key = key;
        ks.hash = h;
        ks.lang = lang;
        ks.helpersTar = *tar;
        if (opt.zygotes && lang->id == QLatin1String("python")) {
            const QStringList preload = opt.zygotePreloadFor(lang->id, key.image);
            if (!preload.isEmpty())
                ks.zygoteArgv = QStringList{QStringLiteral("python3"),
                                            QStringLiteral("/sandbox/.sandbox/python/"
                                                           "sandbox_zygote.py")} +
                                preload;
        }
        cv.notify_all();
        return &ks;
    }

    /// Creates a sandbox for ks (no lock held). withZygote: start its zygote and wait for
    /// it (background creation); a borrower waiting for the sandbox does not wait for
    /// preloading, and the zygote starts at the sandbox's first reset.
    Result<std::unique_ptr<Slot>> make(const KeyState &ks, const CancelToken &cancel = {},
                                       bool withZygote = true)
    {
        Limits limits;
        limits.memoryBytes = ks.key.memoryBytes;
        limits.nanoCpus = ks.key.nanoCpus;
        limits.pids = ks.key.pids;
        limits.workDirBytes = ks.key.workDirBytes;
        SandboxSpec spec =
            hardenedSpec(*ks.lang, ks.key.image, limits, ks.key.network, QStringLiteral("pool"));
        spec.labels.insert(QLatin1String(PoolLabel), ks.hash);
        auto channel = AgentChannel::open(*runtime, spec, opt.agentPath, cancel);
        if (!channel)
            return std::unexpected(channel.error());
        if (auto put = (*channel)->putTar(QLatin1String(SandboxWorkDir), ks.helpersTar); !put)
            return std::unexpected(put.error()); // the channel's destructor removes it
        auto slot = std::make_unique<Slot>();
        slot->channel = std::move(*channel);
        if (withZygote)
            ensureZygote(ks, *slot);
        return slot;
    }

    /// Starts ks's zygote in slot (or checks it is still there) and waits until it is
    /// ready. A zygote that fails is no failure of the sandbox: its runs exec.
    void ensureZygote(const KeyState &ks, Slot &slot)
    {
        slot.zygote.clear();
        if (ks.zygoteArgv.isEmpty())
            return;
        auto z = slot.channel->startZygote(ks.key.language, ks.zygoteArgv,
                                           Deadline::in(std::chrono::seconds(90)));
        if (z && z->state == QLatin1String("ready")) {
            slot.zygote = ks.key.language;
            return;
        }
        qCInfo(lcPool).noquote() << "no zygote in pool sandbox"
                                 << slot.channel->sandboxId().left(12) << ":"
                                 << (z ? z->message : z.error().toString());
        std::lock_guard lock(m);
        ++const_cast<KeyState &>(ks).zygotesFailed;
    }

    /// Makes a used sandbox like new. Errors: whatever step failed or could not be verified.
    Result<void> reset(const KeyState &ks, Slot &slot)
    {
        AgentChannel &ch = *slot.channel;
        auto kept = ch.killAll(Deadline::in(std::chrono::seconds(10)));
        if (!kept)
            return std::unexpected(kept.error());
        QStringList keep;
        for (qint64 pid : *kept)
            keep.append(QString::number(pid));
        AgentRunSpec spec;
        spec.argv = {QStringLiteral("sh"), QStringLiteral("-c"), QLatin1String(ResetScript)};
        spec.env = {QStringLiteral("AGENT_PID=%1").arg(ch.helloInfo().pid),
                    QStringLiteral("KEEP_PIDS=%1").arg(keep.join(u' '))};
        spec.timeoutMs = 10'000;
        spec.outputLimit = 8192;
        QByteArray out;
        ExecIo io;
        io.onStdout = [&](QByteArrayView d) {
            out += d;
            return true;
        };
        io.onStderr = io.onStdout;
        auto r = ch.run(spec, io, {}, Deadline::in(std::chrono::seconds(15)));
        if (!r)
            return std::unexpected(r.error());
        if (r->exitCode != 0 || !out.isEmpty())
            return fail(ErrorCode::IoError, QStringLiteral("The sandbox could not be reset"),
                        QString::fromUtf8(out.left(2000)) + r->error);
        if (auto put = ch.putTar(QLatin1String(SandboxWorkDir), ks.helpersTar); !put)
            return put;
        // The zygote survives a reset only when the agent found nothing a run could have
        // done to it; otherwise it was stopped and a fresh one starts here.
        ensureZygote(ks, slot);
        return {};
    }

    void destroyLater(std::unique_ptr<Slot> slot)
    {
        // Caller holds m.
        if (!slot)
            return;
        spawn([s = std::shared_ptr<Slot>(std::move(slot))] {
            if (auto r = s->channel->close(); !r)
                qCWarning(lcPool).noquote()
                    << "could not remove pool sandbox" << r.error().toString();
        });
    }

    bool worn(const Slot &s, Clock::time_point now) const
    {
        return (opt.maxUses > 0 && s.uses >= opt.maxUses) || now - s.created >= opt.maxLifetime;
    }

    void release(const QString &hash, std::unique_ptr<Slot> slot, bool discard, bool temporary)
    {
        std::lock_guard lock(m);
        KeyState &ks = keys[hash];
        if (temporary) {
            --ks.temporary;
            destroyLater(std::move(slot));
            cv.notify_all();
            return;
        }
        --ks.busy;
        if (discard || stopping || !slot || worn(*slot, Clock::now())) {
            ++ks.recycled;
            destroyLater(std::move(slot));
            cv.notify_all();
            return;
        }
        ++ks.resetting;
        spawn([this, hash, s = std::shared_ptr<Slot>(std::move(slot))]() mutable {
            KeyState *k = nullptr;
            {
                std::lock_guard l(m);
                k = &keys[hash];
            }
            auto r = reset(*k, *s);
            std::unique_ptr<Slot> owned(new Slot(std::move(*s)));
            std::lock_guard l(m);
            --k->resetting;
            if (!r || stopping) {
                if (!r)
                    qCInfo(lcPool).noquote()
                        << "replacing pool sandbox" << owned->channel->sandboxId() << ":"
                        << r.error().toString();
                ++k->recycled;
                destroyLater(std::move(owned));
            } else {
                owned->idleSince = Clock::now();
                k->idle.push_back(std::move(owned));
            }
            cv.notify_all();
        });
    }

    /// One pass of the background thread. Caller holds m.
    void maintain()
    {
        const auto now = Clock::now();
        for (auto &[hash, ks] : keys) {
            // Old, worn or (above the minimum) idle for too long: remove.
            for (auto it = ks.idle.begin(); it != ks.idle.end();) {
                const bool surplus = int(ks.idle.size()) > opt.minWarmFor(ks.key);
                if (worn(**it, now) || (surplus && now - (*it)->idleSince >= opt.idleTimeout)) {
                    ++ks.recycled;
                    destroyLater(std::move(*it));
                    it = ks.idle.erase(it);
                } else {
                    ++it;
                }
            }
            if (now - ks.lastFailure < std::chrono::seconds(2))
                continue; // back off after a failed creation
            const int ready = int(ks.idle.size()) + ks.resetting + ks.creating;
            const int total = int(ks.idle.size()) + ks.busy + ks.resetting + ks.creating;
            int want = std::min(opt.minWarmFor(ks.key) - ready, opt.maxSize - total);
            for (; want > 0; --want) {
                ++ks.creating;
                KeyState *k = &ks;
                spawn([this, k] {
                    auto made = make(*k);
                    std::lock_guard l(m);
                    --k->creating;
                    if (!made) {
                        k->lastError = made.error();
                        k->lastFailure = Clock::now();
                        qCWarning(lcPool).noquote()
                            << "could not create a pool sandbox:" << made.error().toString();
                    } else if (stopping) {
                        destroyLater(std::move(*made));
                    } else {
                        ++k->created;
                        k->idle.push_back(std::move(*made));
                    }
                    cv.notify_all();
                });
            }
        }
    }
};

// ---------------------------------------------------------------------------------------

PoolKey PoolKey::from(const QString &backend, const QString &language, const QString &image,
                      const Limits &limits, NetworkMode network)
{
    PoolKey k;
    k.backend = backend;
    k.language = language;
    k.image = image;
    k.memoryBytes = limits.memoryBytes;
    k.nanoCpus = limits.nanoCpus;
    k.pids = limits.pids;
    k.workDirBytes = limits.workDirBytes;
    k.network = network;
    return k;
}

QString PoolKey::hash() const
{
    const QString text = QStringLiteral("%1\n%2\n%3\n%4\n%5\n%6\n%7\n%8")
                             .arg(backend, image, language)
                             .arg(memoryBytes)
                             .arg(nanoCpus)
                             .arg(pids)
                             .arg(workDirBytes)
                             .arg(int(network));
    return QString::fromLatin1(
        QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex().left(12));
}

struct PoolLease::Impl
{
    std::shared_ptr<SandboxPool::State> state;
    QString hash;
    std::unique_ptr<Slot> slot;
    bool temporary = false;
    bool discard = false;
};

PoolLease::PoolLease(std::unique_ptr<Impl> impl)
    : d(std::move(impl))
{}

PoolLease::~PoolLease()
{
    d->state->release(d->hash, std::move(d->slot), d->discard, d->temporary);
}

AgentChannel &PoolLease::channel()
{
    return *d->slot->channel;
}

QString PoolLease::sandboxId() const
{
    return d->slot->channel->sandboxId();
}

QString PoolLease::zygoteLanguage() const
{
    return d->slot->zygote;
}

bool PoolLease::temporary() const
{
    return d->temporary;
}

void PoolLease::discard()
{
    d->discard = true;
}

// ---------------------------------------------------------------------------------------

std::shared_ptr<SandboxPool> SandboxPool::create(std::shared_ptr<Runtime> runtime,
                                                 PoolOptions options)
{
    std::shared_ptr<SandboxPool> pool(new SandboxPool(std::move(runtime), std::move(options)));
    std::weak_ptr<State> weak = pool->m_state;
    pool->m_state->maintainer = std::thread([weak] {
        for (;;) {
            auto st = weak.lock();
            if (!st)
                return;
            std::unique_lock lock(st->m);
            if (st->stopping)
                return;
            st->maintain();
            st->cv.wait_for(lock, std::chrono::milliseconds(200));
            if (st->stopping)
                return;
        }
    });
    return pool;
}

SandboxPool::SandboxPool(std::shared_ptr<Runtime> runtime, PoolOptions options)
    : m_state(std::make_shared<State>())
{
    m_state->runtime = std::move(runtime);
    m_state->opt = std::move(options);
    m_state->opt.minWarm = std::max(0, m_state->opt.minWarm);
    m_state->opt.maxSize = std::max(1, m_state->opt.maxSize);
}

SandboxPool::~SandboxPool()
{
    shutdown();
}

const PoolOptions &SandboxPool::options() const
{
    return m_state->opt;
}

Result<void> SandboxPool::prewarm(const PoolKey &key)
{
    std::lock_guard lock(m_state->m);
    auto ks = m_state->keyFor(key);
    if (!ks)
        return std::unexpected(ks.error());
    return {};
}

Result<void> SandboxPool::waitWarm(const PoolKey &key, Deadline deadline)
{
    if (auto p = prewarm(key); !p)
        return p;
    State &st = *m_state;
    std::unique_lock lock(st.m);
    KeyState &ks = *st.keyFor(key).value();
    const int want = std::min(st.opt.minWarmFor(key), st.opt.maxSize);
    while (int(ks.idle.size()) < want) {
        if (deadline.expired())
            return fail(ErrorCode::Timeout,
                        QStringLiteral("The pool did not get %1 warm sandboxes in time").arg(want),
                        ks.lastError ? ks.lastError->toString() : QString());
        st.cv.wait_for(lock, std::chrono::milliseconds(50));
    }
    return {};
}

Result<std::unique_ptr<PoolLease>> SandboxPool::acquire(const PoolKey &key,
                                                        const CancelToken &cancel)
{
    State &st = *m_state;
    const auto waitUntil = Clock::now() + st.opt.waitTimeout;
    std::unique_lock lock(st.m);
    auto found = st.keyFor(key);
    if (!found)
        return std::unexpected(found.error());
    KeyState &ks = **found;
    auto lease = [&](std::unique_ptr<Slot> slot, bool temporary) {
        ++slot->uses;
        ++ks.lends;
        auto impl = std::make_unique<PoolLease::Impl>();
        impl->state = m_state;
        impl->hash = ks.hash;
        impl->slot = std::move(slot);
        impl->temporary = temporary;
        return std::unique_ptr<PoolLease>(new PoolLease(std::move(impl)));
    };
    for (;;) {
        if (st.stopping)
            return fail(ErrorCode::IoError, QStringLiteral("The sandbox pool is shut down"));
        if (cancel.isCancelled())
            return fail(ErrorCode::Cancelled,
                        QStringLiteral("Cancelled while waiting for a pool sandbox"));
        if (!ks.idle.empty()) {
            std::unique_ptr<Slot> slot = std::move(ks.idle.back()); // the most recently used
            ks.idle.pop_back();
            ++ks.busy;
            lock.unlock();
            // Health check: the agent answers.
            auto hello = slot->channel->hello(Deadline::in(std::chrono::seconds(2)));
            lock.lock();
            if (hello && !st.worn(*slot, Clock::now()))
                return lease(std::move(slot), false);
            --ks.busy;
            ++ks.recycled;
            if (!hello) {
                qCInfo(lcPool).noquote() << "pool sandbox" << slot->channel->sandboxId()
                                         << "failed its health check:" << hello.error().toString();
                ++ks.unhealthy;
                auto s = std::shared_ptr<Slot>(std::move(slot));
                KeyState *k = &ks;
                st.spawn([&st, k, s] {
                    s->channel->close();
                    std::lock_guard l(st.m);
                    --k->unhealthy;
                    st.cv.notify_all();
                });
            } else {
                st.destroyLater(std::move(slot));
            }
            st.cv.notify_all();
            continue;
        }
        const int total = int(ks.idle.size()) + ks.busy + ks.resetting + ks.creating;
        const bool room = total < st.opt.maxSize;
        if (room || st.opt.exhaustion == PoolExhaustion::Temporary) {
            // Nothing warm: make one for this borrower.
            int &counter = room ? ks.creating : ks.temporary;
            ++counter;
            lock.unlock();
            auto made = st.make(ks, cancel, false);
            lock.lock();
            if (room)
                --counter;
            if (!made) {
                if (!room)
                    --counter;
                st.cv.notify_all();
                return std::unexpected(made.error());
            }
            if (room) {
                ++ks.created;
                ++ks.busy;
            }
            return lease(std::move(*made), !room);
        }
        if (st.opt.exhaustion == PoolExhaustion::FailFast)
            return fail(ErrorCode::Timeout,
                        QStringLiteral("The sandbox pool is exhausted: all %1 sandboxes for %2 "
                                       "are busy")
                            .arg(st.opt.maxSize)
                            .arg(key.image));
        if (Clock::now() >= waitUntil)
            return fail(ErrorCode::Timeout,
                        QStringLiteral("No pool sandbox became free within %1 ms: all %2 "
                                       "sandboxes for %3 are busy")
                            .arg(st.opt.waitTimeout.count())
                            .arg(st.opt.maxSize)
                            .arg(key.image));
        st.cv.wait_until(lock, std::min(waitUntil, Clock::now() + std::chrono::milliseconds(50)));
    }
}

QList<PoolStats> SandboxPool::stats() const
{
    std::lock_guard lock(m_state->m);
    QList<PoolStats> out;
    for (const auto &[hash, ks] : m_state->keys) {
        PoolStats s;
        s.key = hash;
        s.image = ks.key.image;
        s.language = ks.key.language;
        s.warm = int(ks.idle.size());
        s.busy = ks.busy + ks.resetting;
        s.creating = ks.creating;
        s.unhealthy = ks.unhealthy;
        s.temporary = ks.temporary;
        s.lends = ks.lends;
        s.created = ks.created;
        s.recycled = ks.recycled;
        s.zygotesFailed = ks.zygotesFailed;
        for (const auto &slot : ks.idle)
            if (!slot->zygote.isEmpty())
                ++s.zygotesReady;
        out.append(s);
    }
    return out;
}

void SandboxPool::shutdown()
{
    State &st = *m_state;
    std::thread maintainer;
    {
        std::unique_lock lock(st.m);
        st.stopping = true;
        for (auto &[hash, ks] : st.keys) {
            for (auto &slot : ks.idle)
                st.destroyLater(std::move(slot));
            ks.idle.clear();
        }
        st.cv.notify_all();
        maintainer = std::move(st.maintainer);
    }
    if (maintainer.joinable())
        maintainer.join();
    std::unique_lock lock(st.m);
    st.cv.wait(lock, [&] { return st.tasks == 0; });
}

namespace {

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

} // namespace

Result<QByteArray> benchmarkPool(Engine &engine, const PoolBenchOptions &options)
{
    auto image = Engine::defaultImageFor(QStringLiteral("python"));
    if (!image)
        return std::unexpected(image.error());
    RunRequest req;
    req.language = QStringLiteral("python");
    req.code = QStringLiteral("print(1)\n");
    const PoolKey key = PoolKey::from(engine.runtime().backend(), req.language, *image, req.limits,
                                      NetworkMode::None);
    auto runOnce = [&](Engine &e) -> Result<double> {
        QElapsedTimer t;
        t.start();
        auto r = e.runBlocking(req);
        if (!r)
            return std::unexpected(r.error());
        if (r->stdoutData.trimmed() != "1" || r->exitCode != 0)
            return fail(ErrorCode::Internal, QStringLiteral("print(1) printed something else"),
                        QString::fromUtf8(r->stdoutData + r->stderrData).left(500));
        return msSince(t);
    };
    QJsonObject out{{QStringLiteral("benchmark"), QStringLiteral("pool")},
                    {QStringLiteral("image"), *image},
                    {QStringLiteral("code"), QStringLiteral("print(1)")},
                    {QStringLiteral("host_cpus"), QThread::idealThreadCount()}};

    // 1. Pooled one-shot runs, one after the other (two warm sandboxes: one is reset in
    // the background while the other serves).
    {
        PoolOptions o;
        o.agentPath = options.agentPath;
        o.minWarm = 2;
        o.maxSize = 2;
        auto pool = SandboxPool::create(engine.runtimePtr(), o);
        Engine pooled(engine.runtimePtr());
        pooled.setPool(pool);
        QElapsedTimer warm;
        warm.start();
        if (auto w = pool->waitWarm(key, Deadline::in(std::chrono::seconds(120))); !w)
            return std::unexpected(w.error());
        out.insert(QStringLiteral("pool_warm_up_ms"), msSince(warm));
        QList<double> ms;
        for (int i = 0; i < options.iterations + 3; ++i) {
            auto r = runOnce(pooled);
            if (!r)
                return std::unexpected(r.error());
            if (i >= 3)
                ms << *r;
        }
        QJsonObject st = latencyStats(ms);
        st.insert(QStringLiteral("goal_p50_ms"), 30);
        out.insert(QStringLiteral("pooled_oneshot"), st);
        pool->shutdown();
    }

    // 2. The plain path: a fresh hardened sandbox per run.
    {
        QList<double> ms;
        for (int i = 0; i < options.coldIterations + 1; ++i) {
            auto r = runOnce(engine);
            if (!r)
                return std::unexpected(r.error());
            if (i >= 1)
                ms << *r;
        }
        out.insert(QStringLiteral("cold_oneshot"), latencyStats(ms));
    }

    // 3. A plain Docker exec of python3 -c 'print(1)' in a warm container.
    {
        const LanguageDescriptor *lang = LanguageRegistry::instance().find(req.language);
        SandboxSpec spec =
            hardenedSpec(*lang, *image, req.limits, NetworkMode::None, QStringLiteral("pool"));
        auto id = engine.runtime().create(spec);
        if (!id)
            return std::unexpected(id.error());
        QList<double> ms;
        Result<void> failed;
        if (auto s = engine.runtime().start(*id); !s) {
            failed = s;
        } else {
            for (int i = 0; i < options.iterations + 3 && failed; ++i) {
                ExecSpec exec;
                exec.argv = {QStringLiteral("python3"), QStringLiteral("-c"),
                             QStringLiteral("print(1)")};
                QByteArray text;
                ExecIo io;
                io.onStdout = [&](QByteArrayView d) {
                    text += d;
                    return true;
                };
                QElapsedTimer t;
                t.start();
                auto r = engine.runtime().exec(*id, exec, io, {},
                                               Deadline::in(std::chrono::seconds(30)));
                if (!r)
                    failed = std::unexpected(r.error());
                else if (i >= 3)
                    ms << msSince(t);
            }
        }
        engine.runtime().remove(*id);
        if (!failed)
            return std::unexpected(failed.error());
        out.insert(QStringLiteral("docker_exec_warm_container"), latencyStats(ms));
    }

    // 4. Throughput and 5. concurrent runs, against a pool of throughputPool.
    {
        PoolOptions o;
        o.agentPath = options.agentPath;
        o.minWarm = options.throughputPool;
        o.maxSize = options.throughputPool;
        o.waitTimeout = std::chrono::seconds(120);
        auto pool = SandboxPool::create(engine.runtimePtr(), o);
        Engine pooled(engine.runtimePtr());
        pooled.setPool(pool);
        if (auto w = pool->waitWarm(key, Deadline::in(std::chrono::seconds(120))); !w)
            return std::unexpected(w.error());

        std::atomic<int> done{0}, failures{0};
        std::mutex errMutex;
        QString firstError;
        auto noteError = [&](const QString &e) {
            ++failures;
            std::lock_guard l(errMutex);
            if (firstError.isEmpty())
                firstError = e;
        };
        const int workers = options.throughputPool;
        QElapsedTimer t;
        t.start();
        const qint64 until = qint64(options.throughputSeconds) * 1000;
        {
            std::vector<std::jthread> threads;
            for (int w = 0; w < workers; ++w)
                threads.emplace_back([&] {
                    while (t.elapsed() < until) {
                        if (auto r = runOnce(pooled); r)
                            ++done;
                        else
                            noteError(r.error().toString());
                    }
                });
        }
        const double seconds = msSince(t) / 1000.0;
        out.insert(QStringLiteral("throughput"),
                   QJsonObject{{QStringLiteral("pool_size"), workers},
                               {QStringLiteral("client_threads"), workers},
                               {QStringLiteral("seconds"), seconds},
                               {QStringLiteral("runs"), done.load()},
                               {QStringLiteral("failed"), failures.load()},
                               {QStringLiteral("runs_per_s"), double(done.load()) / seconds},
                               {QStringLiteral("goal_runs_per_s"), 25}});

        done = 0;
        failures = 0;
        QList<double> ms;
        std::mutex msMutex;
        t.restart();
        {
            std::vector<std::jthread> threads;
            for (int i = 0; i < options.concurrentRuns; ++i)
                threads.emplace_back([&] {
                    if (auto r = runOnce(pooled); r) {
                        ++done;
                        std::lock_guard l(msMutex);
                        ms << *r;
                    } else {
                        noteError(r.error().toString());
                    }
                });
        }
        QJsonObject conc = latencyStats(ms);
        conc.insert(QStringLiteral("launched"), options.concurrentRuns);
        conc.insert(QStringLiteral("completed"), done.load());
        conc.insert(QStringLiteral("lost"), options.concurrentRuns - done.load());
        conc.insert(QStringLiteral("wall_ms"), msSince(t));
        out.insert(QStringLiteral("concurrent"), conc);
        if (!firstError.isEmpty())
            out.insert(QStringLiteral("first_error"), firstError);
        const PoolStats st = pool->stats().value(0);
        out.insert(QStringLiteral("pool_stats"),
                   QJsonObject{{QStringLiteral("lends"), st.lends},
                               {QStringLiteral("created"), st.created},
                               {QStringLiteral("recycled"), st.recycled}});
        pool->shutdown();
    }
    return QJsonDocument(out).toJson(QJsonDocument::Indented);
}

Result<QByteArray> benchmarkZygote(Engine &engine, const ZygoteBenchOptions &options)
{
    auto image = Engine::defaultImageFor(QStringLiteral("python"));
    if (!image)
        return std::unexpected(image.error());
    struct Script
    {
        QString name;
        RunRequest req;
        QByteArray expect; ///< stdout must contain it
        int pngs = 0;      ///< at least this many PNG artifacts
    };
    QList<Script> scripts;
    {
        Script s;
        s.name = QStringLiteral("import_pandas_print1");
        s.req.code = QStringLiteral("import pandas; print(1)\n");
        s.expect = "1\n";
        scripts.append(s);
    }
    QFile sales(options.casesDir + QStringLiteral("/python/sales_summary.py"));
    const bool haveSales = !options.casesDir.isEmpty() && sales.open(QIODevice::ReadOnly);
    if (haveSales) {
        Script s;
        s.name = QStringLiteral("py_sales_summary");
        s.req.code = QString::fromUtf8(sales.readAll());
        s.expect = "Grand total: 92,000";
        s.pngs = 1;
        scripts.append(s);
    }
    for (Script &s : scripts) {
        s.req.language = QStringLiteral("python");
        s.req.image = *image;
    }
    const PoolKey key = PoolKey::from(engine.runtime().backend(), QStringLiteral("python"), *image,
                                      Limits{}, NetworkMode::None);

    struct Sample
    {
        double totalMs = 0;
        double programMs = 0;
        double cpuMs = -1; ///< user + system CPU of the program (agent runs only)
        bool viaZygote = false;
    };
    auto runOnce = [&](Engine &e, const Script &s) -> Result<Sample> {
        Sample out;
        RunObserver obs;
        out.cpuMs = -1;
        obs.onStatus = [&](const QString &st) {
            static const QLatin1String cpu("program CPU time: ");
            if (st == QLatin1String("ran in a preloaded interpreter"))
                out.viaZygote = true;
            else if (st.startsWith(cpu))
                out.cpuMs = st.mid(cpu.size()).section(u' ', 0, 0).toDouble();
        };
        QElapsedTimer t;
        t.start();
        auto r = e.runBlocking(s.req, obs);
        if (!r)
            return std::unexpected(r.error());
        out.totalMs = msSince(t);
        out.programMs = double(r->durationMs);
        int pngs = 0;
        for (const Artifact &a : r->artifacts)
            pngs += a.mimeType == QLatin1String("image/png");
        if (r->exitCode != 0 || !r->stdoutData.contains(s.expect) || pngs < s.pngs)
            return fail(ErrorCode::Internal,
                        QStringLiteral("%1 did not give the expected result").arg(s.name),
                        QString::fromUtf8(r->stdoutData + r->stderrData).left(800));
        return out;
    };
    auto measure = [&](Engine &e, const Script &s, int iterations, int warmUps, SandboxPool *pool,
                       bool wantZygote) -> Result<QJsonObject> {
        QList<double> total, program, cpu;
        int forked = 0;
        for (int i = 0; i < iterations + warmUps; ++i) {
            if (pool)
                if (auto w = pool->waitWarm(key, Deadline::in(std::chrono::seconds(120))); !w)
                    return std::unexpected(w.error());
            auto r = runOnce(e, s);
            if (!r)
                return std::unexpected(r.error());
            if (i < warmUps)
                continue;
            total << r->totalMs;
            program << r->programMs;
            if (r->cpuMs >= 0)
                cpu << r->cpuMs;
            forked += r->viaZygote;
        }
        if (wantZygote && forked != iterations)
            return fail(ErrorCode::Internal,
                        QStringLiteral("only %1 of %2 runs of %3 forked from the zygote")
                            .arg(forked)
                            .arg(iterations)
                            .arg(s.name));
        QJsonObject o{{QStringLiteral("run_ms"), latencyStats(total)},
                      {QStringLiteral("program_ms"), latencyStats(program)},
                      {QStringLiteral("forked_from_zygote"), forked}};
        if (!cpu.isEmpty()) // wall time on a loaded machine waits for the CPU; this does not
            o.insert(QStringLiteral("program_cpu_ms"), latencyStats(cpu));
        return o;
    };

    QJsonObject out{{QStringLiteral("benchmark"), QStringLiteral("zygote")},
                    {QStringLiteral("image"), *image},
                    {QStringLiteral("host_cpus"), QThread::idealThreadCount()}};
    {
        QFile load(QStringLiteral("/proc/loadavg"));
        if (load.open(QIODevice::ReadOnly))
            out.insert(QStringLiteral("host_loadavg"),
                       QString::fromLatin1(load.readAll().trimmed()));
    }
    QJsonObject results;
    for (const Script &s : scripts)
        results.insert(s.name, QJsonObject{});
    for (const bool zygotes : {true, false}) {
        PoolOptions o;
        o.agentPath = options.agentPath;
        o.minWarm = 2;
        o.maxSize = 2;
        o.zygotes = zygotes;
        auto pool = SandboxPool::create(engine.runtimePtr(), o);
        Engine pooled(engine.runtimePtr());
        pooled.setPool(pool);
        QElapsedTimer warm;
        warm.start();
        if (auto w = pool->waitWarm(key, Deadline::in(std::chrono::seconds(180))); !w)
            return std::unexpected(w.error());
        const double warmMs = msSince(warm);
        if (zygotes && pool->stats().value(0).zygotesReady < 1)
            return fail(ErrorCode::Internal, QStringLiteral("no zygote came up in the pool"));
        for (const Script &s : scripts) {
            auto m = measure(pooled, s, options.iterations, 2, pool.get(), zygotes);
            if (!m)
                return std::unexpected(m.error());
            QJsonObject entry = results.value(s.name).toObject();
            QJsonObject stats = *m;
            if (zygotes && s.pngs > 0)
                stats.insert(QStringLiteral("goal_p50_run_ms"), 60);
            entry.insert(zygotes ? QStringLiteral("zygote_warm_pool")
                                 : QStringLiteral("plain_spawn_warm_pool"),
                         stats);
            results.insert(s.name, entry);
        }
        out.insert(zygotes ? QStringLiteral("pool_warm_up_ms_with_zygotes")
                           : QStringLiteral("pool_warm_up_ms_without_zygotes"),
                   warmMs);
        pool->shutdown();
    }
    for (const Script &s : scripts) {
        auto m = measure(engine, s, options.coldIterations, 1, nullptr, false);
        if (!m)
            return std::unexpected(m.error());
        QJsonObject entry = results.value(s.name).toObject();
        entry.insert(QStringLiteral("cold_sandbox"), *m);
        results.insert(s.name, entry);
    }
    out.insert(QStringLiteral("scripts"), results);
    if (!haveSales)
        out.insert(QStringLiteral("note"),
                   QStringLiteral("py-sales-summary not measured: no cases folder (--cases DIR)"));
    return QJsonDocument(out).toJson(QJsonDocument::Indented);
}

} // namespace sandbox
