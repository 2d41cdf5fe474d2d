// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "languages/language.h"
#include "runtime/runtime.h"
#include "session/runtypes.h"
#include "util/tarball.h"

namespace sandbox {

/// Work directory inside every sandbox (a tmpfs).
inline constexpr auto SandboxWorkDir = "/sandbox";

/// "Network on" prefers an isolated bridge; an engine started without one (as on machines
/// where private address ranges are off limits) gets host networking, and a note says so.
/// Errors: engine errors.
Result<NetworkMode> resolveNetwork(Runtime &runtime, NetworkMode wanted, QStringList *notes);

/// The hardened sandbox of every session: user 65534, read-only root, tmpfs work dir and
/// /tmp, no capabilities, no-new-privileges, limits, labels (managed, owner, kind, created).
SandboxSpec hardenedSpec(const LanguageDescriptor &lang, const QString &image, const Limits &limits,
                         NetworkMode network, const QString &kind);

/// Directories and in-sandbox helpers every sandbox of lang starts with (output/,
/// .sandbox/, the Python matplotlib backend and kernel, ...).
QList<TarMember> helperMembers(const LanguageDescriptor &lang);

/// Extracts tar into the work directory with `tar -x` fed on stdin (works on a read-only
/// root with a tmpfs work directory, where the archive endpoint cannot). With requiredFile,
/// that file (absolute path inside the sandbox) must exist first; its contents go to
/// *requiredContent. Errors: IoError with tar's message, NotFound when requiredFile is
/// missing, Cancelled, engine errors.
Result<void> copyIntoSandbox(Runtime &runtime, const QString &id, const QByteArray &tar,
                             const CancelToken &cancel, const QString &requiredFile = {},
                             QByteArray *requiredContent = nullptr);

} // namespace sandbox
