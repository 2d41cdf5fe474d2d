// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/engine.h"

#include <QString>
#include <QTest>
#include <memory>

namespace sandbox::test {

/// The backend the suite runs on: $SANDBOX_TEST_BACKEND ("docker" (default), "podman",
/// "docker-tls"), so one case list runs per backend (ctest registers one test each).
QString backendUnderTest();
/// Its profile: the Docker environment, Local Podman, or the TLS dockerd fixture
/// (tcp://127.0.0.1:2376 with tlsFixtureCerts()/client).
BackendProfile profileUnderTest();
/// Certificates of the TLS dockerd fixture (tests/fixtures/tls-dockerd): ca.pem, client/,
/// wrong-ca/. $SANDBOX_TLS_FIXTURE_CERTS, else /run/sandbox-studio-tls-dockerd/certs.
QString tlsFixtureCerts();

/// The engine under test (profileUnderTest()). Returns nullptr and records a failure that
/// says what to start when it is unreachable, or when the language's image is missing.
/// Tests never pass without the engine.
std::shared_ptr<Engine> requireEngine(const QString &language = QStringLiteral("python"));

/// Folder of the shared cases (../shared/cases next to the repository).
QString casesDir();

/// Containers that this test process created and left behind (must be none).
int leftoverSandboxes(Engine &engine);

} // namespace sandbox::test

/// Like QVERIFY, but prints the Error of a failed Result.
#define QVERIFY_RESULT(expr)                                                                       \
    do {                                                                                           \
        const auto &r_ = (expr);                                                                   \
        if (!r_)                                                                                   \
            QFAIL(qPrintable(QStringLiteral("%1 failed: %2")                                       \
                                 .arg(QStringLiteral(#expr), r_.error().toString())));             \
    } while (false)
