// SPDX-License-Identifier: GPL-3.0-or-later
#include "testsupport.h"

#include "runtime/runtime.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

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

namespace {

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out << s.toString();
    return out;
}

} // namespace

QList<QJsonObject> sharedCases(bool offline)
{
    const QStringList languages =
        qEnvironmentVariable("SANDBOX_CASE_LANGUAGES").split(u',', Qt::SkipEmptyParts);
    QFile f(casesDir() + QStringLiteral("/cases.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QJsonObject> out;
    for (const QJsonValue &v :
         QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("cases")).toArray()) {
        const QJsonObject c = v.toObject();
        if (!languages.isEmpty() &&
            !languages.contains(c.value(QStringLiteral("language")).toString()))
            continue;
        if (offline && c.value(QStringLiteral("network")).toBool())
            continue;
        out.append(c);
    }
    return out;
}

Result<RunRequest> sharedCaseRequest(const QJsonObject &testCase)
{
    const QString dir = casesDir();
    auto read = [&](const QString &path) -> Result<QByteArray> {
        QFile f(dir + u'/' + path);
        if (!f.open(QIODevice::ReadOnly))
            return fail(ErrorCode::IoError,
                        QStringLiteral("cannot read %1: %2").arg(f.fileName(), f.errorString()));
        return f.readAll();
    };
    RunRequest req;
    req.origin = RunOrigin::Test;
    req.language = testCase.value(QStringLiteral("language")).toString();
    auto code = read(testCase.value(QStringLiteral("file")).toString());
    if (!code)
        return std::unexpected(code.error());
    req.code = QString::fromUtf8(*code);
    for (const QString &path : strings(testCase.value(QStringLiteral("files")))) {
        auto data = read(path);
        if (!data)
            return std::unexpected(data.error());
        req.files.append({path.section(u'/', -1), *data});
    }
    req.libraries = strings(testCase.value(QStringLiteral("libraries")));
    req.limits.timeoutMs = 120'000;
    req.network = NetworkMode::None;
    return req;
}

QString sharedCaseMismatch(const QJsonObject &testCase, const RunResult &r, const QString &context)
{
    const QString out = QString::fromUtf8(r.stdoutData);
    const QString err = QString::fromUtf8(r.stderrData);
    const QJsonObject expect = testCase.value(QStringLiteral("expect")).toObject();
    if (expect.contains(QStringLiteral("exit_code")) &&
        r.exitCode != expect.value(QStringLiteral("exit_code")).toInt())
        return QStringLiteral("exit code %1, expected %2")
                   .arg(r.exitCode)
                   .arg(expect.value(QStringLiteral("exit_code")).toInt()) +
               context;
    if (expect.value(QStringLiteral("exit_code_nonzero")).toBool() && r.exitCode == 0)
        return QStringLiteral("exit code 0, expected non-zero") + context;

    const QStringList lines = out.split(u'\n');
    qsizetype at = 0;
    for (const QString &want : strings(expect.value(QStringLiteral("stdout_lines")))) {
        const qsizetype found = lines.indexOf(want, at);
        if (found < 0)
            return QStringLiteral("line '%1' missing or out of order").arg(want) + context;
        at = found + 1;
    }
    for (const QString &want : strings(expect.value(QStringLiteral("stdout_contains"))))
        if (!out.contains(want))
            return QStringLiteral("stdout lacks '%1'").arg(want) + context;
    for (const QString &want : strings(expect.value(QStringLiteral("stderr_contains"))))
        if (!err.contains(want))
            return QStringLiteral("stderr lacks '%1'").arg(want) + context;
    for (const QString &bad : strings(expect.value(QStringLiteral("stdout_not_contains"))))
        if (out.contains(bad))
            return QStringLiteral("stdout has '%1'").arg(bad) + context;

    const QJsonObject artifactsMin = expect.value(QStringLiteral("artifacts_min")).toObject();
    for (auto it = artifactsMin.begin(); it != artifactsMin.end(); ++it) {
        int count = 0;
        for (const Artifact &a : r.artifacts) {
            if (a.mimeType != it.key())
                continue;
            if (a.mimeType == QLatin1String("image/png")) {
                if (!a.data.startsWith("\x89PNG\r\n\x1a\n"))
                    return a.name + QStringLiteral(" is not a PNG") + context;
                if (a.size() <= 1000)
                    return a.name + QStringLiteral(" is too small") + context;
            }
            ++count;
        }
        if (count < it.value().toInt())
            return QStringLiteral("%1 artifacts of type %2, expected at least %3")
                       .arg(count)
                       .arg(it.key())
                       .arg(it.value().toInt()) +
                   context;
    }
    const QJsonObject filesOut = expect.value(QStringLiteral("files_out")).toObject();
    for (auto it = filesOut.begin(); it != filesOut.end(); ++it) {
        const Artifact *found = nullptr;
        for (const Artifact &a : r.artifacts)
            if (a.name == it.key())
                found = &a;
        if (!found)
            return QStringLiteral("file %1 not brought back").arg(it.key()) + context;
        if (QString::fromUtf8(found->data) != it.value().toString())
            return QStringLiteral("file %1 holds '%2', expected '%3'")
                       .arg(it.key(), QString::fromUtf8(found->data.left(200)),
                            it.value().toString()) +
                   context;
    }
    return {};
}

int leftoverSandboxes(Engine &engine)
{
    auto list = engine.runtime().list(QLatin1String(labels::Owner), ownerLabel());
    return list ? int(list->size()) : -1;
}

} // namespace sandbox::test
