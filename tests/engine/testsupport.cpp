// SPDX-License-Identifier: GPL-3.0-or-later
#include "testsupport.h"

#include "runtime/runtime.h"

#include <QDir>

namespace sandbox::test {

QString backendUnderTest()
{
    const QString b = qEnvironmentVariable("SANDBOX_TEST_BACKEND");
    return b.isEmpty() ? QStringLiteral("docker") : b;
}

QString tlsFixtureCerts()
{
    const QString env = qEnvironmentVariable("SANDBOX_TLS_FIXTURE_CERTS");
    return env.isEmpty() ? QStringLiteral("/run/sandbox-studio-tls-dockerd/certs") : env;
}

BackendProfile profileUnderTest()
{
    const QString b = backendUnderTest();
    if (b == QLatin1String("podman"))
        return BackendProfile::localPodman();
    if (b == QLatin1String("docker-tls")) {
        BackendProfile p;
        p.name = QStringLiteral("TLS dockerd fixture");
        p.kind = QStringLiteral("docker-tls");
        p.uri = QStringLiteral("tcp://127.0.0.1:2376");
        p.certPath = tlsFixtureCerts() + QStringLiteral("/client");
        return p;
    }
    return BackendProfile::fromEnvironment();
}

namespace {
QString howToStart()
{
    const QString b = backendUnderTest();
    if (b == QLatin1String("podman"))
        return QStringLiteral("The Podman service is required: start it with `./studio.sh "
                              "services` (or `podman system service --time=0 "
                              "unix:///run/podman/podman.sock &` as root).");
    if (b == QLatin1String("docker-tls"))
        return QStringLiteral("The TLS dockerd fixture is required: start it on the host as root "
                              "with `tests/fixtures/tls-dockerd/tls-dockerd.sh start` "
                              "(`./studio.sh test` does).");
    return QStringLiteral("The Docker engine is required: start it with `./studio.sh services` "
                          "(or dockerd) first.");
}
} // namespace

std::shared_ptr<Engine> requireEngine(const QString &language)
{
    auto engine = Engine::create(profileUnderTest());
    if (!engine) {
        QTest::qFail(qPrintable(engine.error().toString() + u' ' + howToStart()), __FILE__,
                     __LINE__);
        return nullptr;
    }
    auto info = (*engine)->ping();
    if (!info) {
        QTest::qFail(qPrintable(howToStart() + u' ' + info.error().toString()), __FILE__, __LINE__);
        return nullptr;
    }
    auto image = Engine::defaultImageFor(language);
    if (!image) {
        QTest::qFail(qPrintable(image.error().toString()), __FILE__, __LINE__);
        return nullptr;
    }
    auto exists = (*engine)->runtime().imageExists(*image);
    if (!exists || !*exists) {
        const QString b = backendUnderTest();
        const QString how =
            b == QLatin1String("podman")
                ? QStringLiteral("copy it from dockerd with `docker save %1 | podman load` "
                                 "(`./studio.sh test` does)")
                      .arg(*image)
            : b == QLatin1String("docker-tls")
                ? QStringLiteral("restart the fixture, which loads it from the main dockerd "
                                 "(`tests/fixtures/tls-dockerd/tls-dockerd.sh start`)")
                : QStringLiteral("build it with `sandbox-studio images build %1`").arg(language);
        QTest::qFail(qPrintable(QStringLiteral("Image %1 is missing on %2: %3")
                                    .arg(*image, (*engine)->runtime().endpointDisplay(), how)),
                     __FILE__, __LINE__);
        return nullptr;
    }
    return *engine;
}

QString casesDir()
{
    const QString configured = QStringLiteral(SANDBOX_CASES_DIR);
    return QDir(configured).absolutePath();
}

int leftoverSandboxes(Engine &engine)
{
    auto list = engine.runtime().list(QLatin1String(labels::Owner), ownerLabel());
    return list ? int(list->size()) : -1;
}

} // namespace sandbox::test
