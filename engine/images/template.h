// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "languages/language.h"
#include "runtime/runtime.h"
#include "util/error.h"
#include "util/tarball.h"

#include <QString>
#include <QStringList>

namespace sandbox {

class NotebookSession;

/// Where a template image keeps the saved work directory. Sandboxes mount a tmpfs at
/// /sandbox, which neither commit nor the image layers can hold, so a template carries the
/// files here (a normal image path) and every sandbox started from it copies them back
/// into /sandbox before anything runs.
inline constexpr auto TemplateWorkDir = "/opt/sandbox-studio-template/workdir";

/// Image labels of a template.
namespace templatelabels {
inline constexpr auto Template = "io.sandbox-studio.template"; ///< "true"
inline constexpr auto Language = "io.sandbox-studio.language"; ///< "python"
inline constexpr auto Source = "io.sandbox-studio.source";     ///< the image it was made from
} // namespace templatelabels

/// Programs the language's steps start ("python3"; "g++" for C++; "go"): what a custom
/// image must have. Steps that run the compiled program (/sandbox/...) are left out.
QStringList toolchainOf(const LanguageDescriptor &lang);

/// argv (sh -c) of the step every sandbox of a custom image runs before the program or
/// kernel: checks that each of tools is on PATH (exit 97, the missing name on stdout),
/// then copies a template's saved work directory (TemplateWorkDir) into /sandbox.
QStringList customImagePrepArgv(const QStringList &tools);

/// Turns the prep step's outcome into an error for people. Errors: InvalidArgument
/// ("python3 not found in image X: ..."), IoError (the restore failed; tar's message),
/// InvalidArgument when the image has no /bin/sh.
Result<void> customImagePrepResult(int exitCode, const QByteArray &out, const QByteArray &err,
                                   const QString &image, const LanguageDescriptor &lang);

/// Saves a notebook session as template image ref ("sandbox-studio-templates/pandas:v1"):
/// its image plus its work directory (files, packages installed with pip --user into
/// ~/.local, which is the work directory) under TemplateWorkDir, committed with
/// POST /commit from a helper container (the session's own root is read-only and its
/// work directory a tmpfs, so neither can be committed as they are), labelled
/// templatelabels. Starting a session or a run with image = ref restores the files.
/// Returns the image id. Errors: NotSupported (backends without commit: Kubernetes),
/// InvalidArgument (bad reference, the work directory over limits), the session's and
/// the engine's errors.
Result<QString> saveTemplate(Runtime &runtime, NotebookSession &session, const QString &ref,
                             const TransferLimits &limits = {});

/// Splits "repo:tag" (a registry port is not a tag); tag defaults to "latest".
/// Errors: InvalidArgument for an empty or malformed reference.
Result<std::pair<QString, QString>> splitImageReference(const QString &ref);

} // namespace sandbox
