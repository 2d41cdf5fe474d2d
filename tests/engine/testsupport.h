// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/engine.h"

#include <QJsonObject>
#include <QList>
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

/// The shared cases of casesDir()/cases.json, in file order: all of them, or only those
/// whose language is in $SANDBOX_CASE_LANGUAGES ("python,go") when set, and without the
/// "network" ones (their installs need network and a dependency volume) when offline.
/// Empty when the file cannot be read.
QList<QJsonObject> sharedCases(bool offline);

/// The request a shared case describes: its code, its input files (by base name), its
/// libraries, a 120 s timeout and network none (a "network" case reaches registries in the
/// install step only). Errors: IoError naming the file that cannot be read.
Result<RunRequest> sharedCaseRequest(const QJsonObject &testCase);

/// Checks r against testCase's "expect": exit_code / exit_code_nonzero, stdout_lines
/// (exact lines, in order, others between), stdout_contains, stderr_contains,
/// stdout_not_contains, artifacts_min (per MIME type; PNGs must be real images), files_out
/// (artifact name -> exact text). Returns the first expectation that fails, followed by
/// context; empty when all hold.
QString sharedCaseMismatch(const QJsonObject &testCase, const RunResult &r, const QString &context);

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
