// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/policy.h"
#include "session/runtypes.h"
#include "util/error.h"

#include <optional>

namespace sandbox {

struct LanguageDescriptor;

/// Limits checked for a language: Limits::validate plus the language's minimum memory
/// (LanguageDescriptor::minMemoryBytes, e.g. 128 MiB for Java). Errors: InvalidArgument
/// with a message that names the limit, the language and the minimum; UnknownLanguage.
Result<void> validateLimitsFor(const Limits &limits, const QString &language);

/// What the checks before a run decided.
struct Preflight
{
    /// Set when the run must not start: a RunResult with policyBlocked, the findings and
    /// the reason in notes and stderr.
    std::optional<RunResult> stopped;
    PolicyVerdict verdict;
    QString policyName;
};

/// The checks every run goes through before anything is created (Engine::runBlocking):
/// limits for the language, then the policy (request.policy, else active). block stops the
/// run; ask calls observer.onPolicyAsk, else ask (the engine's hook), and stops the run when
/// neither exists or the answer is no; warn lets it run with the findings.
/// Errors: those of validateLimitsFor.
Result<Preflight> preflightRun(const RunRequest &request, const Policy &active,
                               const PolicyAskHandler &ask, const RunObserver &observer);

/// Fills what preflight and the run learnt into result: findings, policy name, the limits
/// that applied and which of them were hit.
void completeReport(RunResult &result, const RunRequest &request, const Preflight &preflight);

} // namespace sandbox
