// SPDX-License-Identifier: GPL-3.0-or-later
#include "endpoint.h"

#include <QDir>
#include <QUrl>

namespace sandbox {

QString Endpoint::display() const
{
    if (!unixSocket.isEmpty())
        return QStringLiteral("unix://") + unixSocket;
    QUrl url(baseUrl);
    return QStringLiteral("tcp://%1:%2").arg(url.host()).arg(url.port(isTls() ? 2376 : 2375));
}

Result<Endpoint> Endpoint::fromUri(const QString &uri, const QString &certPath, bool tlsVerify)
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
    const bool tls = scheme == QLatin1String("https") || !certPath.isEmpty();
    const int port = url.port(tls ? 2376 : 2375);
    ep.baseUrl = QStringLiteral("%1://%2:%3")
                     .arg(tls ? QStringLiteral("https") : QStringLiteral("http"), url.host())
                     .arg(port);
    if (!certPath.isEmpty()) {
        const QDir dir(certPath);
        ep.caFile = dir.filePath(QStringLiteral("ca.pem"));
        ep.certFile = dir.filePath(QStringLiteral("cert.pem"));
        ep.keyFile = dir.filePath(QStringLiteral("key.pem"));
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
    return fromUri(host, certPath, verify || certPath.isEmpty());
}

} // namespace sandbox
