// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "images/imagerecipe.h"
#include "runtime/runtime.h"
#include "util/canceltoken.h"

#include <functional>

namespace sandbox {

/// Builds recipe images offline: debootstrap into a scratch directory, pack it as tar
/// (libarchive), import it through the engine (Docker: POST /images/create?fromSrc=-).
/// Needs root and debootstrap on the machine that runs it.
class ImageBuilder
{
public:
    /// percent 0-100 and a line for people ("Retrieving python3-numpy", "Importing 40%").
    using Progress = std::function<void(int percent, const QString &message)>;

    explicit ImageBuilder(Runtime &runtime)
        : m_runtime(runtime)
    {}

    /// Builds recipe unless its reference already exists (force rebuilds). Returns the
    /// image reference. Errors: IoError (debootstrap missing or failed, not root, disk),
    /// EngineError (import refused), Cancelled.
    Result<QString> ensure(const ImageRecipe &recipe, const Progress &progress,
                           const CancelToken &cancel = {}, bool force = false);

    /// Where scratch root filesystems go: $SANDBOX_STUDIO_CACHE/rootfs or
    /// /var/cache/sandbox-studio/rootfs.
    static QString scratchDir();

private:
    Runtime &m_runtime;
};

/// Packs directory dir into an uncompressed tar file (ownership, modes, links, device
/// nodes preserved; sparse files are written out in full, never as sparse entries, which
/// an image that is saved again could not reproduce). Errors: IoError.
Result<void> packDirectory(const QString &dir, const QString &tarFile, const CancelToken &cancel);

} // namespace sandbox
