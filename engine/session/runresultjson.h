// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/runtypes.h"
#include "util/error.h"

#include <QByteArray>

namespace sandbox {

/// RunResult as JSON (the CLI's --json, MCP's structured content):
/// {"exit_code", "stdout", "stderr", "stdout_base64"?, "stderr_base64"?, "duration_ms",
///  "total_ms", "timed_out", "oom_killed", "output_truncated", "cancelled",
///  "compile": {"ran","exit_code","output","duration_ms"}, "artifacts": [{"name",
///  "mime_type","size","data_base64"?}], "artifacts_truncated", "refused_paths",
///  "policy_findings": [{"rule","severity","action","line","message"}],
///  "policy": {"name", "blocked", "reason"}, "limits": {"memory_bytes", "cpus", "pids",
///  "timeout_ms", "output_bytes", "work_dir_bytes", "artifact_bytes", "artifact_count",
///  "network"}, "limits_hit": ["timeout"|"memory"|"output"|"artifacts"|"pids"|"work_dir"],
///  "sandbox_id", "image", "language"}.
/// Output that is not valid UTF-8 is given with U+FFFD replacements in "stdout" and
/// byte-exact in "stdout_base64". Artifact bytes are included when withArtifactData.
QByteArray runResultToJson(const RunResult &result, bool withArtifactData, int indent = 2);

/// Error as JSON: {"error": {"code": "engine_unreachable", "message", "detail"}}.
QByteArray errorToJson(const Error &error, int indent = 2);

/// True when bytes are valid UTF-8 (NUL allowed).
bool isValidUtf8(QByteArrayView bytes);

} // namespace sandbox
