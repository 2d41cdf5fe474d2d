// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/runtime.h"
#include "util/canceltoken.h"
#include "util/error.h"

#include <QString>
#include <functional>

namespace sandbox {

/// Builds, imports and lists images through a Runtime: what the CLI (`images build
/// --tag`, `images import`) and the GUI image manager use. Blocking: call from a worker.
class ImageTools
{
public:
    /// A line of the build log or pull progress, and the percentage done so far (0-100,
    /// never going back; -1 when unknown).
    using Progress = std::function<void(const QString &line, int percent)>;

    explicit ImageTools(Runtime &runtime)
        : m_runtime(runtime)
    {}

    /// Packs a build context folder into an uncompressed tar with libarchive (links that
    /// stay inside are kept, others refused; .git is left out). Errors: IoError,
    /// PathRefused, InvalidArgument (over maxBytes, or no Dockerfile named dockerfile).
    static Result<QByteArray> packContext(const QString &dir,
                                          const QString &dockerfile = QStringLiteral("Dockerfile"),
                                          qint64 maxBytes = 1ll << 30);

    /// Builds the Dockerfile of contextDir as options.tag (POST /build with the packed
    /// context, network none unless options say host). The log is streamed line by line
    /// with a percentage from the "Step N/M" lines. Works offline when FROM names a local
    /// image. Returns the image id. Errors: packContext's, Runtime::buildImage's.
    Result<QString> buildDockerfile(const QString &contextDir, const BuildOptions &options,
                                    const Progress &progress, const CancelToken &cancel = {});

    /// Imports a root filesystem tarball (a file; gzip/xz/bzip2 are accepted by the engine)
    /// as ref ("my/rootfs:1"), with Dockerfile changes applied ("ENV A=b"). Progress is
    /// the share of the file sent. Errors: InvalidArgument (bad ref), IoError (unreadable
    /// file), Runtime::importImage's.
    Result<QString> importRootfs(const QString &tarFile, const QString &ref,
                                 const QStringList &changes, const Progress &progress,
                                 const CancelToken &cancel = {});

    /// Pulls ref with progress lines. Errors: ImageMissing with an "offline" hint when no
    /// registry answers (Runtime::pullImage).
    Result<void> pull(const QString &ref, const Progress &progress, const CancelToken &cancel = {});

    /// The percentage a build log line implies ("Step 3/6 : ..." -> 33), or previous.
    static int buildPercent(const QString &line, int previous);

private:
    Runtime &m_runtime;
};

/// "1.2 GB", "751 MB", "12 kB" (decimal units, as the docker CLI shows sizes).
QString humanSize(qint64 bytes);

} // namespace sandbox
