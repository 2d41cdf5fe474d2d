// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/error.h"

#include <QString>

namespace sandbox {

/// Where an HTTP API lives: a unix socket, or a TCP host with optional mutual TLS.
/// Follows the Docker client's conventions (DOCKER_HOST, DOCKER_CERT_PATH with ca.pem,
/// cert.pem and key.pem, DOCKER_TLS_VERIFY).
struct Endpoint
{
    QString unixSocket; ///< path of a unix socket; empty for TCP
    QString baseUrl;    ///< "http://localhost" for sockets, "https://host:2376" for TLS
    QString caFile;     ///< PEM CA bundle that must sign the server (TLS only)
    QString certFile;   ///< PEM client certificate (mutual TLS)
    QString keyFile;    ///< PEM client key (mutual TLS)
    bool verifyPeer = true;

    bool isTls() const { return baseUrl.startsWith(QLatin1String("https://")); }
    /// "unix:///var/run/docker.sock" or "tcp://host:2376", for messages.
    QString display() const;

    /// unix:///path, tcp://host:port (TLS when certPath is given), http(s)://host:port.
    /// Errors: InvalidArgument for other schemes.
    static Result<Endpoint> fromUri(const QString &uri, const QString &certPath = {},
                                    bool tlsVerify = true);
    /// DOCKER_HOST / DOCKER_CERT_PATH / DOCKER_TLS_VERIFY, else unix:///var/run/docker.sock.
    static Result<Endpoint> fromDockerEnvironment();
};

} // namespace sandbox
