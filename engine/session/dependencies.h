// SPDX-License-Identifier: GPL-3.0-or-later
// Dependencies of a run: worked out from RunRequest::libraries or from the code, installed
// by the language's own package manager in a network-on step into a cached named volume,
// then mounted read-only into the run's sandbox (which keeps the network the user asked for).
#pragma once

#include "languages/language.h"
#include "runtime/runtime.h"
#include "session/runtypes.h"
#include "util/canceltoken.h"
#include "util/tarball.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <functional>

namespace sandbox {

/// Where the dependency volume is mounted, in the install sandbox (rw) and the run's (ro).
inline constexpr auto DependencyMountPoint = "/deps";
/// Where the host's CA bundle is placed inside sandboxes that trust it.
inline constexpr auto SandboxCaBundlePath = "/sandbox/.sandbox/ca-certificates.crt";
/// Bumped whenever an install script changes: part of every volume's name.
inline constexpr auto DependencyInstallerVersion = "1";

/// What a run needs installed, and how it was found.
struct DependencyPlan
{
    QString language;  ///< LanguageDescriptor::id
    QString installer; ///< "pip", "npm", "maven", "go", "cran", "apt"; empty when nothing
    /// What the package manager is given, sorted and unique: pip requirement specs, npm
    /// specs, Maven coordinates g:a:v, Go import paths (or module@version pins), R package
    /// names, Debian packages (C/C++).
    QStringList packages;
    bool fromCode = false; ///< no libraries named: packages were detected from the code
    /// Names found in the code for people ("tabulate", "github.com/google/uuid").
    QStringList detected;
    /// Things people should know: imports with no known package, ...
    QStringList notes;
    /// Non-empty when these dependencies cannot be installed for this language (C/C++: apt
    /// packages into a running non-root sandbox): the reason, for people.
    QString unsupported;

    bool needsInstall() const { return unsupported.isEmpty() && !packages.isEmpty(); }
};

/// Works out a run's dependencies. Explicit libraries win; without them the imports of the
/// code are read (standard libraries, what the default image provides and localModules --
/// files copied in with the code, without extension -- are left out). Pure: no engine.
/// Errors: InvalidArgument for a library name the package manager would misread (an
/// option, a shell or R metacharacter, a Maven coordinate without a version).
Result<DependencyPlan> planDependencies(const LanguageDescriptor &lang, const QString &code,
                                        const QStringList &libraries,
                                        const QStringList &localModules = {});

/// Name of the cached volume holding plan's packages installed for image:
/// sandbox-studio-deps-<lang>-<first 12 hex of sha256(lang|image|packages|installer
/// version|repository)>. repository only matters for R (the CRAN-style repository).
QString dependencyVolumeName(const DependencyPlan &plan, const QString &image,
                             const QString &repository);

/// The CRAN-style repository of R installs: request.cranRepo, else env SANDBOX_CRAN_REPO,
/// else https://cloud.r-project.org.
QString cranRepositoryFor(const RunRequest &request);

/// The host's CA bundle: env SANDBOX_STUDIO_CA_BUNDLE, else SSL_CERT_FILE, else
/// /etc/ssl/certs/ca-certificates.crt. Empty when none is readable; *path gets the file.
QByteArray hostCaBundle(QString *path = nullptr);

/// Makes a sandbox trust bundle: a work-directory member at SandboxCaBundlePath and the
/// variables tools read (SSL_CERT_FILE, PIP_CERT, REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS,
/// CURL_CA_BUNDLE, GIT_SSL_CAINFO, npm_config_cafile).
void addCaTrust(SandboxSpec &spec, QList<TarMember> &members, const QByteArray &bundle);

/// Where a Java run finds the host's CA certificates (javaTrustStore()).
inline constexpr auto SandboxJavaTrustStorePath = "/sandbox/.sandbox/java-trust.p12";

/// A PKCS#12 trust store for the JVM (password "changeit") holding every certificate of
/// the PEM bundle, each marked trusted for any purpose the way the JDK reads it (Oracle's
/// trusted-key-usage attribute; what `openssl pkcs12 -export -nokeys -jdktrust
/// anyExtendedKeyUsage` writes): the JVM ignores SSL_CERT_FILE, and Java images keep
/// their own store on the read-only root. Errors: InvalidArgument when no certificate
/// parses, Internal when OpenSSL cannot build the store.
Result<QByteArray> javaTrustStore(const QByteArray &pemBundle);

/// The `java` launcher options that make it use SandboxJavaTrustStorePath.
QStringList javaTrustOptions();

/// Sets NAME=value in env, replacing an existing NAME.
void setEnv(QStringList &env, const QString &name, const QString &value);

/// What ensureDependencies did.
struct PreparedDependencies
{
    QString volume;
    bool cached = false;   ///< the volume existed: nothing was installed
    QStringList installed; ///< "tabulate 0.9.0" (fresh installs only)
    qint64 installMs = 0;  ///< wall time of the install phase (0 when cached)
};

/// Options of the install phase.
struct InstallOptions
{
    QString image;
    QString cranRepo;
    bool trustHostCa = true;
    QList<VolumeMount> extraMounts; ///< e.g. a local CRAN-style repository (read-only)
    QString code;                   ///< the program (Go resolves modules from it)
    std::function<void(const QString &)> status;
};

/// Makes sure plan's packages are in their cached volume: when it exists nothing is
/// installed; otherwise the volume is created and filled by the package manager in an
/// install sandbox (hardened, kind "deps", network on). On failure the volume and the
/// sandbox are removed. Errors: DependencyFailed naming the packages with the installer's
/// own message, Cancelled, engine errors.
Result<PreparedDependencies> ensureDependencies(Runtime &runtime, const LanguageDescriptor &lang,
                                                const DependencyPlan &plan,
                                                const InstallOptions &options,
                                                const CancelToken &cancel);

/// Prepares a run's sandbox to use volume: mounted read-only at /deps, the language's
/// variables (PYTHONUSERBASE, NODE_PATH, CLASSPATH, GOMODCACHE/GOPROXY=off, R_LIBS_USER)
/// and work-directory links (node_modules, go.mod, go.sum). *linkNames gets the links'
/// names (left out of artifacts).
void useDependencies(const DependencyPlan &plan, const QString &volume, SandboxSpec &spec,
                     QList<TarMember> &members, QStringList *linkNames);

/// Label of install sandboxes: the volume they fill (other runs wait for them).
inline constexpr auto DependencyVolumeLabel = "io.sandbox-studio.deps-volume";

/// Waits until no live install sandbox (of any engine process on this engine) fills
/// volume; install sandboxes of processes that died are removed. Returns whether it
/// waited. Errors: Cancelled, Timeout (20 minutes), engine errors.
Result<bool> waitForInstalls(Runtime &runtime, const QString &volume,
                             const std::function<void(const QString &)> &status,
                             const CancelToken &cancel);

/// Marker written last by a successful install, holding the installed list.
inline constexpr auto DependencyMarker = "/deps/.sandbox-installed";

} // namespace sandbox
