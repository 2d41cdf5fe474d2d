// SPDX-License-Identifier: GPL-3.0-or-later
// Backend profiles (session/backendprofiles.h), their endpoints and the Docker client's
// environment conventions, without an engine.
#include "runtime/dockerruntime.h"
#include "runtime/kubernetesruntime.h"
#include "session/backendprofiles.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbox;
using namespace Qt::StringLiterals;

class TestBackends final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void storeRoundTrip();
    void storeRefusesBadProfiles();
    void kubernetesSettingsRoundTrip();
    void kubernetesSettingsRefused_data();
    void kubernetesSettingsRefused();
    void findByKind();
    void endpoints_data();
    void endpoints();
    void tlsFilesChecked();
    void environment();
    void unknownKindNamesProfile();
    void podmanLimitNotes();
    void tmpfsOptionsPerEngine();

private:
    QTemporaryDir m_dir;
    QString storePath() const { return m_dir.filePath(QStringLiteral("backends.conf")); }
};

void TestBackends::init()
{
    QFile::remove(storePath());
    for (const char *v : {"DOCKER_HOST", "DOCKER_CERT_PATH", "DOCKER_TLS_VERIFY", "CONTAINER_HOST"})
        qunsetenv(v);
}

void TestBackends::storeRoundTrip()
{
    BackendProfileStore store(storePath());
    QCOMPARE(store.profiles().size(), 2); // the built-ins
    QCOMPARE(store.currentName(), QStringLiteral("Local Docker"));

    BackendProfile tls;
    tls.name = QStringLiteral("build server");
    tls.kind = QStringLiteral("docker-tls");
    tls.uri = QStringLiteral("tcp://build.example:2376");
    tls.certPath = QStringLiteral("/etc/certs/build");
    tls.tlsVerify = false;
    QVERIFY_RESULT(store.save(tls));
    BackendProfile kube;
    kube.name = QStringLiteral("cluster");
    kube.kind = QStringLiteral("kubernetes");
    kube.kubernetes.kubeconfig = QStringLiteral("/root/.kube/config");
    kube.kubernetes.namespaceName = QStringLiteral("sandboxes");
    kube.kubernetes.runtimeClassName = QStringLiteral("gvisor");
    kube.options.insert(QStringLiteral("futureSetting"), 7); // kept though not modelled
    QVERIFY_RESULT(store.save(kube));
    store.setCurrentName(QStringLiteral("build server"));

    // A second store on the same file (the CLI next to the GUI) sees the same profiles.
    BackendProfileStore other(storePath());
    QCOMPARE(other.profiles().size(), 4);
    QCOMPARE(other.currentName(), QStringLiteral("build server"));
    auto found = other.find(QStringLiteral("Build Server"));
    QVERIFY_RESULT(found);
    QCOMPARE(found->kind, QStringLiteral("docker-tls"));
    QCOMPARE(found->uri, tls.uri);
    QCOMPARE(found->certPath, tls.certPath);
    QCOMPARE(found->tlsVerify, false);
    auto k = other.find(QStringLiteral("cluster"));
    QVERIFY_RESULT(k);
    QCOMPARE(k->kubernetes.namespaceName, QStringLiteral("sandboxes"));
    QCOMPARE(k->kubernetes.kubeconfig, QStringLiteral("/root/.kube/config"));
    QCOMPARE(k->kubernetes.runtimeClassName, QStringLiteral("gvisor"));
    QVERIFY(k->kubernetes.context.isEmpty());
    QCOMPARE(k->options.value(QStringLiteral("futureSetting")).toInt(), 7);

    // Edit in place, then remove; the current profile falls back to Local Docker.
    tls.uri = QStringLiteral("tcp://other.example:2376");
    QVERIFY_RESULT(other.save(tls));
    QCOMPARE(BackendProfileStore(storePath()).find(tls.name)->uri, tls.uri);
    QCOMPARE(BackendProfileStore(storePath()).profiles().size(), 4);
    QVERIFY_RESULT(other.remove(QStringLiteral("build server")));
    QCOMPARE(other.currentName(), QStringLiteral("Local Docker"));
    QCOMPARE(other.remove(QStringLiteral("build server")).error().code, ErrorCode::NotFound);
}

void TestBackends::storeRefusesBadProfiles()
{
    BackendProfileStore store(storePath());
    BackendProfile p;
    p.name = QStringLiteral("  ");
    QCOMPARE(store.save(p).error().code, ErrorCode::InvalidArgument);
    p.name = QStringLiteral("local docker");
    QCOMPARE(store.save(p).error().code, ErrorCode::InvalidArgument);
    p.name = QStringLiteral("podman");
    QCOMPARE(store.save(p).error().code, ErrorCode::InvalidArgument);
    p.name = QStringLiteral("x");
    p.kind = QStringLiteral("lxc");
    auto bad = store.save(p);
    QVERIFY(!bad);
    QVERIFY2(bad.error().message.contains(QLatin1String("lxc")), qPrintable(bad.error().message));
    p.kind = QStringLiteral("docker-tls");
    auto noHost = store.save(p);
    QVERIFY(!noHost);
    QVERIFY2(noHost.error().message.contains(QLatin1String("'x'")),
             qPrintable(noHost.error().message));
    QCOMPARE(store.remove(QStringLiteral("Local Podman")).error().code, ErrorCode::InvalidArgument);
    auto missing = store.find(QStringLiteral("nope"));
    QVERIFY(!missing);
    QVERIFY2(missing.error().message.contains(QLatin1String("Local Podman")),
             qPrintable(missing.error().message));
}

void TestBackends::kubernetesSettingsRoundTrip()
{
    // Every pod setting, lists included, through the text form and the store file.
    KubernetesSettings k;
    const QList<std::pair<QString, QString>> entries = {
        {u"cpuRequest"_s, u"250m"_s},
        {u"memoryLimit"_s, u"1Gi"_s},
        {u"runtimeClassName"_s, u"gvisor"_s},
        {u"imagePullPolicy"_s, u"Never"_s},
        {u"activeDeadlineSeconds"_s, u"600"_s},
        {u"startTimeoutSeconds"_s, u"45"_s},
        {u"nodeSelector"_s, u"disktype=ssd\nkubernetes.io/arch=amd64"_s},
        {u"tolerations"_s, u"gpu=true:NoSchedule\ndedicated:NoExecute@300\n*"_s},
        {u"imagePullSecrets"_s, u"regcred"_s},
        {u"imagePullSecrets"_s, u"mirror-cred"_s}, // list keys add
        {u"labels"_s, u"team=data"_s},
        {u"annotations"_s, u"example.com/owner=Ana, Data Team \"ops\""_s},
        {u"rawManifest"_s, u"spec:\n  priorityClassName: low\n"_s},
    };
    for (const auto &[key, value] : entries)
        QVERIFY_RESULT(setKubernetesSetting(k, key, value));
    QCOMPARE(k.nodeSelector.value(u"kubernetes.io/arch"_s), u"amd64"_s);
    QCOMPARE(k.tolerations.size(), 3);
    QCOMPARE(k.tolerations[0].op, u"Equal"_s);
    QCOMPARE(k.tolerations[0].value, u"true"_s);
    QCOMPARE(k.tolerations[1].op, u"Exists"_s);
    QCOMPARE(k.tolerations[1].tolerationSeconds, 300);
    QVERIFY(k.tolerations[2].key.isEmpty() && k.tolerations[2].op == u"Exists"_s);
    QCOMPARE(k.imagePullSecrets, QStringList({u"regcred"_s, u"mirror-cred"_s}));
    QCOMPARE(k.imagePullPolicy, u"Never"_s);
    QCOMPARE(k.activeDeadlineSeconds, 600);

    BackendProfile p;
    p.name = u"gpu cluster"_s;
    p.kind = u"kubernetes"_s;
    p.kubernetes = k;
    QVERIFY_RESULT(BackendProfileStore(storePath()).save(p));
    auto back = BackendProfileStore(storePath()).find(p.name);
    QVERIFY_RESULT(back);
    QCOMPARE(kubernetesSettingValues(back->kubernetes), kubernetesSettingValues(k));
    QCOMPARE(back->kubernetes.annotations.value(u"example.com/owner"_s),
             u"Ana, Data Team \"ops\""_s);
    QVERIFY(back->options.isEmpty()); // nothing of it mistaken for an unknown option

    // The pod built from the stored profile carries them.
    auto pod = buildPodManifest(SandboxSpec{}, back->kubernetes, u"p"_s, u"default"_s);
    QVERIFY_RESULT(pod);
    const QByteArray json = *pod;
    for (const char *needle :
         {"\"disktype\":\"ssd\"", "\"runtimeClassName\":\"gvisor\"", "\"tolerationSeconds\":300",
          "\"mirror-cred\"", "\"priorityClassName\":\"low\"", "\"team\":\"data\""})
        QVERIFY2(json.contains(needle), needle);

    // A raw manifest that is not YAML is refused when saving, naming the profile.
    p.kubernetes.rawManifest = u"spec: [unclosed"_s;
    auto bad = BackendProfileStore(storePath()).save(p);
    QVERIFY(!bad);
    QVERIFY2(bad.error().message.contains(u"'gpu cluster'"_s), qPrintable(bad.error().message));
}

void TestBackends::kubernetesSettingsRefused_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("messageHas");
    QTest::newRow("unknown key") << u"cpuQuota"_s << u"1"_s << u"known: kubeconfig"_s;
    QTest::newRow("map without =") << u"labels"_s << u"team"_s << u"key=value"_s;
    QTest::newRow("label value with space")
        << u"labels"_s << u"team=data science"_s << u"invalid value"_s;
    QTest::newRow("label key with space")
        << u"nodeSelector"_s << u"disk type=ssd"_s << u"invalid key"_s;
    QTest::newRow("unknown effect") << u"tolerations"_s << u"gpu:NoRun"_s << u"unknown effect"_s;
    QTest::newRow("seconds without NoExecute")
        << u"tolerations"_s << u"gpu:NoSchedule@30"_s << u"without NoExecute"_s;
    QTest::newRow("deadline not a number")
        << u"activeDeadlineSeconds"_s << u"1h"_s << u"whole number"_s;
    QTest::newRow("pull policy") << u"imagePullPolicy"_s << u"Sometimes"_s << u"IfNotPresent"_s;
    QTest::newRow("secret with slash") << u"imagePullSecrets"_s << u"ns/cred"_s << u"secret name"_s;
}

void TestBackends::kubernetesSettingsRefused()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, messageHas);
    KubernetesSettings k;
    auto r = setKubernetesSetting(k, key, value);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(r.error().message.contains(messageHas), qPrintable(r.error().message));
}

void TestBackends::findByKind()
{
    BackendProfileStore store(storePath());
    QCOMPARE(store.find(QStringLiteral("podman"))->kind, QStringLiteral("podman"));
    QCOMPARE(store.find(QStringLiteral("docker"))->kind, QStringLiteral("docker"));
    qputenv("DOCKER_HOST", "tcp://10.255.255.1:2376");
    qputenv("DOCKER_CERT_PATH", QFile::encodeName(m_dir.path()));
    auto tls = store.find(QStringLiteral("docker-tls"));
    QVERIFY_RESULT(tls);
    QCOMPARE(tls->kind, QStringLiteral("docker-tls"));
    QCOMPARE(tls->uri, QStringLiteral("tcp://10.255.255.1:2376"));
    QCOMPARE(tls->certPath, m_dir.path());
}

void TestBackends::endpoints_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("uri");
    QTest::addColumn<QString>("display");
    QTest::addColumn<bool>("tls");
    QTest::newRow("docker default") << QStringLiteral("docker") << QStringLiteral("")
                                    << QStringLiteral("unix:///var/run/docker.sock") << false;
    QTest::newRow("docker tcp") << QStringLiteral("docker")
                                << QStringLiteral("tcp://127.0.0.1:2375")
                                << QStringLiteral("tcp://127.0.0.1:2375") << false;
    QTest::newRow("podman rootful") << QStringLiteral("podman") << QStringLiteral("")
                                    << QStringLiteral("unix:///run/podman/podman.sock") << false;
    QTest::newRow("podman socket")
        << QStringLiteral("podman") << QStringLiteral("unix:///tmp/p.sock")
        << QStringLiteral("unix:///tmp/p.sock") << false;
    QTest::newRow("tls default port")
        << QStringLiteral("docker-tls") << QStringLiteral("tcp://127.0.0.1")
        << QStringLiteral("tcp://127.0.0.1:2376") << true;
    QTest::newRow("tls https") << QStringLiteral("docker-tls")
                               << QStringLiteral("https://localhost:3000")
                               << QStringLiteral("tcp://localhost:3000") << true;
}

void TestBackends::endpoints()
{
    QFETCH(QString, kind);
    QFETCH(QString, uri);
    QFETCH(QString, display);
    QFETCH(bool, tls);
    BackendProfile p;
    p.kind = kind;
    p.uri = uri;
    auto ep = p.endpoint();
    QVERIFY_RESULT(ep);
    QCOMPARE(ep->display(), display);
    QCOMPARE(ep->isTls(), tls);
}

void TestBackends::tlsFilesChecked()
{
    // A certificate folder with only ca.pem: the client pair is left unset (as the Docker
    // client does), so a server that requires one refuses the handshake.
    QFile ca(m_dir.filePath(QStringLiteral("ca.pem")));
    QVERIFY(ca.open(QIODevice::WriteOnly));
    ca.write("not really a certificate\n");
    ca.close();
    BackendProfile p;
    p.name = QStringLiteral("remote");
    p.kind = QStringLiteral("docker-tls");
    p.uri = QStringLiteral("tcp://127.0.0.1:2376");
    p.certPath = m_dir.path();
    auto ep = p.endpoint();
    QVERIFY_RESULT(ep);
    QCOMPARE(ep->caFile, ca.fileName());
    QVERIFY(ep->certFile.isEmpty());

    // Files named one by one must exist; messages name the profile, the file, the endpoint.
    p.certFile = m_dir.filePath(QStringLiteral("missing-cert.pem"));
    p.keyFile = m_dir.filePath(QStringLiteral("missing-key.pem"));
    auto missing = p.endpoint();
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, ErrorCode::InvalidArgument);
    for (const QString &want :
         {QStringLiteral("Profile 'remote'"), QStringLiteral("missing-cert.pem"),
          QStringLiteral("tcp://127.0.0.1:2376")})
        QVERIFY2(missing.error().message.contains(want), qPrintable(missing.error().message));

    p.certFile.clear();
    p.keyFile.clear();
    p.certPath = m_dir.filePath(QStringLiteral("no-such-folder"));
    auto noFolder = Engine::create(p);
    QVERIFY(!noFolder);
    QVERIFY2(noFolder.error().message.contains(QLatin1String("no-such-folder")),
             qPrintable(noFolder.error().message));

    // TLS needs a TCP host.
    p.certPath.clear();
    p.uri = QStringLiteral("unix:///var/run/docker.sock");
    QVERIFY(!p.endpoint());
    p.uri = QStringLiteral("http://127.0.0.1:2375");
    QVERIFY(!p.endpoint());
}

void TestBackends::environment()
{
    // DOCKER_TLS_VERIFY without DOCKER_CERT_PATH: ~/.docker, TLS, verified.
    qputenv("DOCKER_HOST", "tcp://127.0.0.1:2376");
    qputenv("DOCKER_TLS_VERIFY", "1");
    BackendProfile p = BackendProfile::fromEnvironment();
    QCOMPARE(p.kind, QStringLiteral("docker-tls"));
    QCOMPARE(p.certPath, QDir::home().filePath(QStringLiteral(".docker")));
    QVERIFY(p.tlsVerify);
    // DOCKER_CERT_PATH alone: TLS with the client pair, the server not verified (--tls).
    qunsetenv("DOCKER_TLS_VERIFY");
    qputenv("DOCKER_CERT_PATH", QFile::encodeName(m_dir.path()));
    p = BackendProfile::fromEnvironment();
    QCOMPARE(p.kind, QStringLiteral("docker-tls"));
    QVERIFY(!p.tlsVerify);
    auto ep = Endpoint::fromDockerEnvironment();
    QVERIFY_RESULT(ep);
    QVERIFY(ep->isTls());
    QVERIFY(!ep->verifyPeer);
    // Neither: plain TCP.
    qunsetenv("DOCKER_CERT_PATH");
    p = BackendProfile::fromEnvironment();
    QCOMPARE(p.kind, QStringLiteral("docker"));
    QVERIFY(!Endpoint::fromDockerEnvironment()->isTls());
    // Podman's CONTAINER_HOST.
    qputenv("CONTAINER_HOST", "unix:///tmp/podman-elsewhere.sock");
    QCOMPARE(BackendProfile::localPodman().endpointDisplay(),
             QStringLiteral("unix:///tmp/podman-elsewhere.sock"));
}

void TestBackends::unknownKindNamesProfile()
{
    BackendProfile p;
    p.name = QStringLiteral("my lxc");
    p.kind = QStringLiteral("lxc");
    auto e = Engine::create(p);
    QVERIFY(!e);
    QCOMPARE(e.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(e.error().message.contains(QLatin1String("'my lxc'")), qPrintable(e.error().message));
}

void TestBackends::podmanLimitNotes()
{
    SandboxSpec spec;
    spec.memoryBytes = 256ll << 20;
    spec.nanoCpus = 500'000'000;
    spec.pidsLimit = 64;
    QVERIFY(DockerRuntime::podmanUnappliedLimits(false, QStringLiteral("v1"), spec).isEmpty());
    QVERIFY(DockerRuntime::podmanUnappliedLimits(true, QStringLiteral("v2"), spec).isEmpty());
    const QStringList notes =
        DockerRuntime::podmanUnappliedLimits(true, QStringLiteral("v1"), spec);
    QCOMPARE(notes.size(), 1);
    for (const QString &want : {QStringLiteral("memory 256 MiB"), QStringLiteral("CPU 0.5"),
                                QStringLiteral("processes 64"), QStringLiteral("rootless")})
        QVERIFY2(notes[0].contains(want), qPrintable(notes[0]));
    QVERIFY(
        DockerRuntime::podmanUnappliedLimits(true, QStringLiteral("v1"), SandboxSpec{}).isEmpty());
}

void TestBackends::tmpfsOptionsPerEngine()
{
    // Before detection the body is Docker's: uid/gid for the work directory.
    DockerRuntime docker(*Endpoint::fromUri(QStringLiteral("unix:///nonexistent.sock")));
    SandboxSpec spec;
    const QByteArray body = docker.createBody(spec);
    QVERIFY2(body.contains("uid=65534,gid=65534"), body.constData());
    QVERIFY2(!body.contains(",U\""), body.constData());
}

QTEST_GUILESS_MAIN(TestBackends)
#include "tst_backends.moc"
