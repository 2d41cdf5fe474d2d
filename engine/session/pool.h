// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/agentchannel.h"
#include "runtime/runtime.h"
#include "session/runtypes.h"
#include "util/canceltoken.h"
#include "util/error.h"

#include <QHash>
#include <QList>
#include <QString>
#include <chrono>
#include <memory>

namespace sandbox {

struct LanguageDescriptor;

/// Label holding the hash of a pool sandbox's key (PoolKey::hash()).
inline constexpr auto PoolLabel = "io.sandbox-studio.pool";

/// What makes two sandboxes interchangeable: the backend, image and language (its helpers
/// and environment), the resource limits the container was created with, and the network.
struct PoolKey
{
    QString backend;
    QString image;
    QString language;
    qint64 memoryBytes = 0;
    qint64 nanoCpus = 0;
    qint64 pids = 0;
    qint64 workDirBytes = 0;
    NetworkMode network = NetworkMode::None;

    static PoolKey from(const QString &backend, const QString &language, const QString &image,
                        const Limits &limits, NetworkMode network);
    /// Short stable hash (12 hex digits), the value of the pool label.
    QString hash() const;
    bool operator==(const PoolKey &) const = default;
};

/// What to do when every sandbox of a key is busy and the maximum is reached.
enum class PoolExhaustion
{
    Wait,     ///< wait up to waitTimeout for one to come back, then fail (Timeout)
    FailFast, ///< fail at once (Timeout, "pool exhausted")
    Temporary ///< create a sandbox outside the pool, removed after its use
};

/// Whether pools keep zygotes unless told otherwise: true, except when the environment
/// has SANDBOX_STUDIO_NO_ZYGOTE=1 (what `sandbox-studio --no-zygote ...` sets).
bool zygotesByDefault();

struct PoolOptions
{
    int minWarm = 1;                               ///< per key, created in the background
    int maxSize = 4;                               ///< per key: warm + busy + being made
    std::chrono::milliseconds idleTimeout{60'000}; ///< idle sandboxes above minWarm go
    std::chrono::milliseconds maxLifetime{600'000};
    int maxUses = 100; ///< lends before a sandbox is recycled; 0 = unlimited
    PoolExhaustion exhaustion = PoolExhaustion::Wait;
    std::chrono::milliseconds waitTimeout{30'000};
    QString agentPath; ///< empty = AgentChannel::findAgentBinary()
    /// Per-language override of minWarm ("python" -> 2, "r" -> 0).
    QHash<QString, int> minWarmByLanguage;
    /// Preloaded interpreters ("zygotes", agent/protocol.h): each Python sandbox keeps
    /// one with the modules of zygotePreloadFor() imported, and one-shot runs fork from it
    /// (Engine::runBlocking) instead of starting a fresh interpreter. Off = every run execs.
    /// Default: on, unless SANDBOX_STUDIO_NO_ZYGOTE=1 (set by the `--no-zygote` flag).
    bool zygotes = zygotesByDefault();
    /// Modules a zygote preloads, by image reference ("sandbox-studio/python:r...") or
    /// image recipe name ("python"); an empty list = no zygote for that image. Images
    /// not listed use resources/helpers/python/zygote-preload.txt.
    QHash<QString, QStringList> zygotePreload;

    /// The modules language's zygote preloads in image; empty = that image gets none.
    QStringList zygotePreloadFor(const QString &language, const QString &image) const;

    /// Warm sandboxes to keep for key: its language's override, else minWarm.
    int minWarmFor(const PoolKey &key) const
    {
        return std::max(0, minWarmByLanguage.value(key.language, minWarm));
    }
};

/// One key's counts, for a status panel.
struct PoolStats
{
    QString key; ///< PoolKey::hash()
    QString image;
    QString language;
    int warm = 0;      ///< idle, reset, ready to lend
    int busy = 0;      ///< lent out, or being reset
    int creating = 0;  ///< being created
    int unhealthy = 0; ///< failed a health check or a reset, being removed
    int temporary = 0; ///< lent outside the maximum (PoolExhaustion::Temporary)
    qint64 lends = 0;
    qint64 created = 0;
    qint64 recycled = 0;   ///< removed for age, uses, idleness or bad health
    int zygotesReady = 0;  ///< warm sandboxes whose zygote came up
    int zygotesFailed = 0; ///< sandboxes whose zygote failed (their runs exec)
};

class SandboxPool;

/// A borrowed sandbox. Destroying it returns the sandbox: it is reset in the background
/// (every process killed, work directory and /tmp emptied, helpers restored) or, when the
/// reset fails, the lease was marked broken, or it was temporary, removed.
class PoolLease
{
public:
    ~PoolLease();
    PoolLease(const PoolLease &) = delete;
    PoolLease &operator=(const PoolLease &) = delete;

    AgentChannel &channel();
    QString sandboxId() const;
    /// The language whose zygote runs may fork from (AgentRunSpec::zygote); empty when
    /// the pool keeps none for this sandbox.
    QString zygoteLanguage() const;
    bool temporary() const;
    /// The sandbox is not reused: removed instead of reset when returned.
    void discard();

private:
    friend class SandboxPool;
    struct Impl;
    explicit PoolLease(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

/// Warm sandboxes per PoolKey, each an AgentChannel (agent placed at creation), labelled
/// managed/owner/kind=pool/created and io.sandbox-studio.pool=<key hash>. Thread-safe. A
/// background thread keeps minWarm ready per key seen, removes idle, old and worn-out ones;
/// resets run on background threads. Create with create(); call shutdown() (or drop the
/// last reference) to remove every sandbox.
class SandboxPool : public std::enable_shared_from_this<SandboxPool>
{
public:
    static std::shared_ptr<SandboxPool> create(std::shared_ptr<Runtime> runtime,
                                               PoolOptions options = {});
    ~SandboxPool();
    SandboxPool(const SandboxPool &) = delete;
    SandboxPool &operator=(const SandboxPool &) = delete;

    const PoolOptions &options() const;

    /// Registers key so minWarm sandboxes are kept ready for it (created in the background).
    /// Errors: UnknownLanguage.
    Result<void> prewarm(const PoolKey &key);
    /// Blocks until key has minWarm warm sandboxes or deadline passes. Errors: Timeout,
    /// the last creation error.
    Result<void> waitWarm(const PoolKey &key, Deadline deadline);

    /// Lends a healthy (agent answers "hello") sandbox of key, creating one when none is
    /// warm and the maximum allows. At the maximum: the exhaustion policy. Errors: Timeout
    /// (exhausted), Cancelled, AgentChannel::open's errors, UnknownLanguage, IoError after
    /// shutdown().
    Result<std::unique_ptr<PoolLease>> acquire(const PoolKey &key, const CancelToken &cancel = {});

    /// One snapshot per key seen.
    QList<PoolStats> stats() const;

    /// Stops the background work and removes every sandbox; sandboxes lent out are removed
    /// when they come back. Idempotent.
    void shutdown();

private:
    friend class PoolLease;
    struct State;
    SandboxPool(std::shared_ptr<Runtime> runtime, PoolOptions options);
    std::shared_ptr<State> m_state;
};

class Engine;

/// What benchmarkPool measures.
struct PoolBenchOptions
{
    int iterations = 30;       ///< sequential pooled runs (after warm-up)
    int coldIterations = 5;    ///< runs on the plain path (fresh sandbox each)
    int throughputPool = 4;    ///< sandboxes in the throughput pool
    int throughputSeconds = 5; ///< how long trivial runs are fired at it
    int concurrentRuns = 50;   ///< launched at once against the throughput pool
    QString agentPath;         ///< empty = AgentChannel::findAgentBinary()
};

/// The pool's speed on python `print(1)`, as JSON (`sandbox-studio bench pool`,
/// bench_pool): pooled one-shot p50/p90, the cold path, a plain Docker exec in a warm
/// container, throughput with a pool of throughputPool, and concurrentRuns at once (none
/// may be lost). Leaves no sandbox behind. Errors: the first failed run's.
Result<QByteArray> benchmarkPool(Engine &engine, const PoolBenchOptions &options = {});

/// What benchmarkZygote measures.
struct ZygoteBenchOptions
{
    int iterations = 20;    ///< timed runs per script on each warm path (after 2 warm-ups)
    int coldIterations = 3; ///< timed runs per script on the cold path
    QString agentPath;      ///< empty = AgentChannel::findAgentBinary()
    /// The shared cases folder (cases.json, python/sales_summary.py); empty or missing =
    /// the py-sales-summary script is not measured.
    QString casesDir;
};

/// One-shot Python runs through the engine (Engine::runBlocking, end to end: borrow,
/// copy in, run, artifacts) as JSON (`sandbox-studio bench zygote`, bench_zygote):
/// `import pandas; print(1)` and the shared case py-sales-summary (pandas + a matplotlib
/// PNG), each forked from the zygote of a warm pool sandbox, spawned as a fresh
/// `python3 main.py` in the same kind of warm sandbox (zygotes off), and in a cold
/// sandbox (no pool). Per path: latency stats of the whole run, of the program alone
/// (RunResult::durationMs) and, through the agent, of its CPU time. Each warm run starts with its
/// pool warm again (the reset of the previous run is not timed). Leaves no sandbox behind. Errors:
/// a failed run's.
Result<QByteArray> benchmarkZygote(Engine &engine, const ZygoteBenchOptions &options = {});

} // namespace sandbox
