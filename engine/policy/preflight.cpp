// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/preflight.h"

#include "languages/language.h"

namespace sandbox {

Result<void> validateLimitsFor(const Limits &limits, const QString &language)
{
    if (auto v = limits.validate(); !v)
        return v;
    const LanguageDescriptor *lang = LanguageRegistry::instance().find(language);
    if (!lang)
        return fail(
            ErrorCode::UnknownLanguage,
            QStringLiteral("Unknown language '%1'. Known: %2")
                .arg(language, LanguageRegistry::instance().ids().join(QStringLiteral(", "))));
    if (limits.memoryBytes != 0 && limits.memoryBytes < lang->minMemoryBytes)
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("memory limit %1 MiB is below what %2 needs (at least %3 MiB)")
                        .arg(limits.memoryBytes >> 20)
                        .arg(lang->displayName)
                        .arg(lang->minMemoryBytes >> 20));
    return {};
}

Result<Preflight> preflightRun(const RunRequest &request, const Policy &active,
                               const PolicyAskHandler &ask, const RunObserver &observer)
{
    if (auto v = validateLimitsFor(request.limits, request.language); !v)
        return std::unexpected(v.error());
    const LanguageDescriptor *lang = LanguageRegistry::instance().find(request.language);
    const Policy &policy = request.policy ? *request.policy : active;
    Preflight out;
    out.policyName = policy.name();
    out.verdict = evaluatePolicy(policy, lang->id, request.code);
    bool stop = out.verdict.action == PolicyAction::Block;
    QString reason = out.verdict.reason;
    if (out.verdict.action == PolicyAction::Ask) {
        QList<PolicyFinding> asking;
        for (const PolicyFinding &f : std::as_const(out.verdict.findings))
            if (f.action == QLatin1String("ask"))
                asking.append(f);
        bool approved = false;
        if (observer.onPolicyAsk)
            approved = observer.onPolicyAsk(asking);
        else if (ask)
            approved = ask(request, asking);
        else
            reason += QStringLiteral(" (nobody was asked: no approval hook)");
        if (!approved) {
            stop = true;
            reason.replace(QStringLiteral("needs approval by"),
                           QStringLiteral("not approved under"));
        }
    }
    if (stop) {
        RunResult r;
        r.language = lang->id;
        r.policyBlocked = true;
        r.policyReason = reason;
        r.policyFindings = out.verdict.findings;
        r.policyName = out.policyName;
        r.appliedLimits = request.limits;
        r.appliedNetwork = request.network;
        r.exitCode = -1;
        r.notes.append(QStringLiteral("the run did not start: ") + reason);
        r.stderrData =
            QByteArray("sandbox-studio: the run did not start: ") + reason.toUtf8() + '\n';
        if (observer.onStatus)
            observer.onStatus(QStringLiteral("blocked by policy"));
        out.stopped = std::move(r);
    }
    return out;
}

void completeReport(RunResult &result, const RunRequest &request, const Preflight &preflight)
{
    result.policyFindings = preflight.verdict.findings;
    result.policyName = preflight.policyName;
    result.appliedLimits = request.limits;
    result.appliedNetwork = request.network;
    auto hit = [&](bool cond, const char *name) {
        const QString n = QLatin1String(name);
        if (cond && !result.limitsHit.contains(n))
            result.limitsHit.append(n);
    };
    hit(result.timedOut, "timeout");
    hit(result.oomKilled, "memory");
    hit(result.outputTruncated, "output");
    hit(result.artifactsTruncated, "artifacts");
    // A program that writes 100,000 files must not make the result that long as well.
    constexpr qsizetype MaxRefused = 200;
    if (result.refusedPaths.size() > MaxRefused) {
        const qsizetype more = result.refusedPaths.size() - MaxRefused;
        result.refusedPaths.resize(MaxRefused);
        result.refusedPaths.append(
            QStringLiteral("... and %1 more paths not brought back").arg(more));
    }
}

} // namespace sandbox
