// SPDX-License-Identifier: GPL-3.0-or-later
#include "runresultjson.h"

#include <QStringDecoder>
#include <nlohmann/json.hpp>

namespace sandbox {

using json = nlohmann::json;

bool isValidUtf8(QByteArrayView bytes)
{
    QStringDecoder dec(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString decoded = dec.decode(bytes); // decoding is lazy: it runs on conversion
    return !dec.hasError();
}

namespace {
std::string text(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes).toStdString(); // invalid sequences become U+FFFD
}
} // namespace

QByteArray runResultToJson(const RunResult &r, bool withArtifactData, int indent)
{
    json j;
    j["exit_code"] = r.exitCode;
    j["stdout"] = text(r.stdoutData);
    j["stderr"] = text(r.stderrData);
    if (!isValidUtf8(r.stdoutData))
        j["stdout_base64"] = r.stdoutData.toBase64().toStdString();
    if (!isValidUtf8(r.stderrData))
        j["stderr_base64"] = r.stderrData.toBase64().toStdString();
    j["duration_ms"] = r.durationMs;
    j["total_ms"] = r.totalMs;
    j["timed_out"] = r.timedOut;
    j["oom_killed"] = r.oomKilled;
    j["output_truncated"] = r.outputTruncated;
    j["cancelled"] = r.cancelled;
    j["compile"] = {{"ran", r.compile.ran},
                    {"exit_code", r.compile.exitCode},
                    {"output", text(r.compile.output)},
                    {"duration_ms", r.compile.durationMs}};
    json arts = json::array();
    for (const Artifact &a : r.artifacts) {
        json ja{{"name", a.name.toStdString()},
                {"mime_type", a.mimeType.toStdString()},
                {"size", a.size()}};
        if (withArtifactData)
            ja["data_base64"] = a.data.toBase64().toStdString();
        arts.push_back(ja);
    }
    j["artifacts"] = arts;
    j["artifacts_truncated"] = r.artifactsTruncated;
    json refused = json::array();
    for (const QString &p : r.refusedPaths)
        refused.push_back(p.toStdString());
    j["refused_paths"] = refused;
    json notes = json::array();
    for (const QString &n : r.notes)
        notes.push_back(n.toStdString());
    j["notes"] = notes;
    json findings = json::array();
    for (const PolicyFinding &f : r.policyFindings)
        findings.push_back({{"rule", f.rule.toStdString()},
                            {"severity", f.severity.toStdString()},
                            {"action", f.action.toStdString()},
                            {"line", f.line},
                            {"message", f.message.toStdString()}});
    j["policy_findings"] = findings;
    j["policy"] = {{"name", r.policyName.toStdString()},
                   {"blocked", r.policyBlocked},
                   {"reason", r.policyReason.toStdString()}};
    const Limits &l = r.appliedLimits;
    j["limits"] = {{"memory_bytes", l.memoryBytes},
                   {"cpus", double(l.nanoCpus) / 1e9},
                   {"pids", l.pids},
                   {"timeout_ms", l.timeoutMs},
                   {"output_bytes", l.outputBytes},
                   {"work_dir_bytes", l.workDirBytes},
                   {"artifact_bytes", l.artifactBytes},
                   {"artifact_count", l.artifactCount},
                   {"network", r.appliedNetwork == NetworkMode::None   ? "none"
                               : r.appliedNetwork == NetworkMode::Host ? "host"
                                                                       : "bridge"}};
    json hits = json::array();
    for (const QString &h : r.limitsHit)
        hits.push_back(h.toStdString());
    j["limits_hit"] = hits;
    j["sandbox_id"] = r.sandboxId.toStdString();
    j["image"] = r.image.toStdString();
    j["language"] = r.language.toStdString();
    return QByteArray::fromStdString(j.dump(indent, ' ', false, json::error_handler_t::replace));
}

QByteArray errorToJson(const Error &error, int indent)
{
    json j;
    j["error"] = {{"code", errorCodeName(error.code).toStdString()},
                  {"message", error.message.toStdString()},
                  {"detail", error.detail.toStdString()}};
    return QByteArray::fromStdString(j.dump(indent, ' ', false, json::error_handler_t::replace));
}

} // namespace sandbox
