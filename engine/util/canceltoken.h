// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace sandbox {

/// Cooperative cancellation shared between the caller (GUI, CLI, MCP) and a worker.
/// Copies share state. cancel() is thread-safe and idempotent; callbacks registered with
/// onCancel() run once, on the cancelling thread (or at once if already cancelled).
class CancelToken
{
public:
    CancelToken()
        : m_state(std::make_shared<State>())
    {}

    void cancel()
    {
        std::vector<std::function<void()>> callbacks;
        {
            std::lock_guard lock(m_state->mutex);
            if (m_state->cancelled.exchange(true))
                return;
            callbacks.swap(m_state->callbacks);
        }
        for (auto &cb : callbacks)
            cb();
    }

    bool isCancelled() const { return m_state->cancelled.load(); }

    void onCancel(std::function<void()> callback) const
    {
        {
            std::lock_guard lock(m_state->mutex);
            if (!m_state->cancelled) {
                m_state->callbacks.push_back(std::move(callback));
                return;
            }
        }
        callback();
    }

private:
    struct State
    {
        std::atomic<bool> cancelled{false};
        std::mutex mutex;
        std::vector<std::function<void()>> callbacks;
    };
    std::shared_ptr<State> m_state;
};

/// A point in steady time after which an operation gives up; Deadline{} never expires.
class Deadline
{
public:
    using Clock = std::chrono::steady_clock;
    Deadline() = default;
    static Deadline in(std::chrono::milliseconds ms) { return Deadline(Clock::now() + ms); }
    static Deadline never() { return Deadline(); }

    bool isNever() const { return !m_set; }
    bool expired() const { return m_set && Clock::now() >= m_at; }
    /// Milliseconds left (0 when expired), or -1 for never.
    long long remainingMs() const
    {
        if (!m_set)
            return -1;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(m_at - Clock::now());
        return left.count() > 0 ? left.count() : 0;
    }

private:
    explicit Deadline(Clock::time_point at)
        : m_at(at)
        , m_set(true)
    {}
    Clock::time_point m_at{};
    bool m_set = false;
};

} // namespace sandbox
