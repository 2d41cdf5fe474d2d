// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/error.h"

#include <QString>

namespace sandbox {

/// Where an HTTP API lives: a unix socket, or a TCP host with optional mutual TLS.
/// Follows the Docker client's conventions (PROTOCOLS.md "Docker Engine API": DOCKER_HOST,
/// DOCKER_CERT_PATH with ca.pem, cert.pem and key.pem, DOCKER_TLS_VERIFY; 2376 is the
/// TLS port, 2375 the plain one).
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

    /// Checks that the TLS files named exist and are readable, and that a client key
    /// comes with a client certificate. Errors: InvalidArgument naming the file and the
    /// endpoint.
    Result<void> checkFiles() const;

    /// unix:///path, tcp://host:port (TLS when certPath is given or tls is set),
    /// http://host:port, https://host:port. certPath is a DOCKER_CERT_PATH-style folder
    /// (ca.pem, cert.pem, key.pem; files that are absent are left unset, checkFiles()
    /// tells). Errors: InvalidArgument for other schemes, an empty socket path or no host.
    static Result<Endpoint> fromUri(const QString &uri, const QString &certPath = {},
                                    bool tlsVerify = true, bool tls = false);
    /// DOCKER_HOST / DOCKER_CERT_PATH / DOCKER_TLS_VERIFY, else unix:///var/run/docker.sock.
    /// DOCKER_TLS_VERIFY (any non-empty value) turns TLS on and verifies the server, with
    /// ~/.docker as the certificate folder when DOCKER_CERT_PATH is unset; DOCKER_CERT_PATH
    /// alone turns TLS on without verifying the server (the Docker client's --tls).
    static Result<Endpoint> fromDockerEnvironment();
};

} // namespace sandbox
