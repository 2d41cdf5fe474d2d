// SPDX-License-Identifier: GPL-3.0-or-later
#include "endpoint.h"

#include <QDir>
#include <QFileInfo>
#include <QUrl>

namespace sandbox {

QString Endpoint::display() const
{
    if (!unixSocket.isEmpty())
        return QStringLiteral("unix://") + unixSocket;
    QUrl url(baseUrl);
    return QStringLiteral("tcp://%1:%2").arg(url.host()).arg(url.port(isTls() ? 2376 : 2375));
}

Result<void> Endpoint::checkFiles() const
{
    if (!isTls())
        return {};
    auto check = [&](const QString &file, const QString &what) -> Result<void> {
        if (file.isEmpty())
            return {};
        const QFileInfo fi(file);
        if (!fi.exists())
            return fail(
                ErrorCode::InvalidArgument,
                QStringLiteral("The %1 %2 for %3 does not exist").arg(what, file, display()));
        if (!fi.isReadable() || !fi.isFile())
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("The %1 %2 for %3 is not a readable file")
                            .arg(what, file, display()));
        return {};
    };
    if (auto r = check(caFile, QStringLiteral("CA certificate")); !r)
        return r;
    if (auto r = check(certFile, QStringLiteral("client certificate")); !r)
        return r;
    if (auto r = check(keyFile, QStringLiteral("client key")); !r)
        return r;
    if (certFile.isEmpty() != keyFile.isEmpty())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Mutual TLS with %1 needs both a client certificate and its "
                                   "key (cert.pem and key.pem)")
                        .arg(display()));
    return {};
}

Result<Endpoint> Endpoint::fromUri(const QString &uri, const QString &certPath, bool tlsVerify,
                                   bool tls)
{
    Endpoint ep;
    if (uri.startsWith(QLatin1String("unix://"))) {
        ep.unixSocket = uri.mid(7);
        ep.baseUrl = QStringLiteral("http://localhost");
        if (ep.unixSocket.isEmpty())
            return fail(ErrorCode::InvalidArgument, QStringLiteral("empty unix socket path"), uri);
        return ep;
    }
    QUrl url(uri);
    const QString scheme = url.scheme();
    if (scheme != QLatin1String("tcp") && scheme != QLatin1String("http") &&
        scheme != QLatin1String("https"))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("unsupported endpoint '%1': use unix://PATH or tcp://HOST:PORT")
                        .arg(uri));
    if (url.host().isEmpty())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("endpoint '%1' has no host").arg(uri));
    if (scheme == QLatin1String("http") && (tls || !certPath.isEmpty()))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("endpoint '%1' is plain HTTP but TLS certificates were given: "
                                   "use tcp:// or https://")
                        .arg(uri));
    const bool useTls = scheme == QLatin1String("https") || tls || !certPath.isEmpty();
    const int port = url.port(useTls ? 2376 : 2375);
    ep.baseUrl = QStringLiteral("%1://%2:%3")
                     .arg(useTls ? QStringLiteral("https") : QStringLiteral("http"), url.host())
                     .arg(port);
    if (!certPath.isEmpty()) {
        const QDir dir(certPath);
        // The Docker client's file names; the CA may be missing when the system's trust
        // store signs the server, and the client pair when the server does not ask for it.
        auto present = [&](const char *name) {
            const QString f = dir.filePath(QLatin1String(name));
            return QFileInfo::exists(f) ? f : QString();
        };
        ep.caFile = present("ca.pem");
        ep.certFile = present("cert.pem");
        ep.keyFile = present("key.pem");
        if (!QFileInfo(certPath).isDir())
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("The certificate folder %1 for %2 does not exist")
                            .arg(certPath, ep.display()));
    }
    ep.verifyPeer = tlsVerify;
    return ep;
}

Result<Endpoint> Endpoint::fromDockerEnvironment()
{
    const QString host = qEnvironmentVariable("DOCKER_HOST");
    if (host.isEmpty())
        return fromUri(QStringLiteral("unix:///var/run/docker.sock"));
    QString certPath = qEnvironmentVariable("DOCKER_CERT_PATH");
    const bool verify = !qEnvironmentVariable("DOCKER_TLS_VERIFY").isEmpty();
    if (certPath.isEmpty() && verify)
        certPath = QDir::home().filePath(QStringLiteral(".docker"));
    return fromUri(host, certPath, verify, verify || !certPath.isEmpty());
}

} // namespace sandbox
