// SPDX-License-Identifier: GPL-3.0-or-later
// The Kubernetes backend (engine/runtime/kubernetes*) against the Kubernetes API stand-in
// (tests/fixtures/k8s-standin), which runs every pod as a real container on the local
// dockerd: kubeconfig parsing, the pod manifest, the shared cases that need no network,
// exec over WebSocket (stdin EOF, exit codes, timeouts), the agent over pods/attach, and
// clear errors (wrong token, unknown image, unschedulable) that leave nothing running.
#include "runtime/agentchannel.h"
#include "runtime/kubernetesruntime.h"
#include "session/notebook.h"
#include "session/pool.h"
#include "testsupport.h"
#include "util/tarball.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbox;

class TestKubernetes final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void kubeconfigContexts();
    void kubeconfigFilesAndErrors();
    void inCluster();
    void podManifestRestricted();
    void podManifestSettingsAndRawMerge();
    void pingWithTokenAndClientCertificate();
    void execExitCodesStdinAndTimeout();
    void agentOverAttach();
    void interactiveExec();
    void listForReaper();
    void wrongTokenIsClearAndLeavesNothing();
    void unknownImageIsClear();
    void unschedulableIsClear();
    void activeDeadlineEndsPod();
    void volumesAreRefused();
    void unreachableAndWrongCa();
    void notebookSession();
    void pooledRuns();
    void insecureSkipTlsVerify();
    void v4OnlyServer();
    void sharedCases_data();
    void sharedCases();
    void cleanupTestCase();

private:
    std::shared_ptr<KubernetesRuntime> runtime(const QString &context = QStringLiteral("standin"),
                                               KubernetesSettings settings = {});
    int standinContainers();
    int podsLeft();

    QTemporaryDir m_state;
    QProcess m_standin;
    QString m_kubeconfig;
    QString m_instance;
    QString m_image;
    std::shared_ptr<Engine> m_docker;
};

/// Starts the stand-in with its state in dir; returns its ready line (empty on failure,
/// with the test failed).
static QJsonObject startStandin(QProcess &process, const QString &dir, const QStringList &extra)
{
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty()) {
        QTest::qFail("python3 is required to run the Kubernetes API stand-in "
                     "(tests/fixtures/k8s-standin/standin.py): install python3",
                     __FILE__, __LINE__);
        return {};
    }
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(python, QStringList{QStringLiteral(SANDBOX_K8S_STANDIN),
                                      QStringLiteral("--state-dir"), dir} +
                              extra);
    if (!process.waitForStarted(10000)) {
        QTest::qFail("the Kubernetes API stand-in did not start", __FILE__, __LINE__);
        return {};
    }
    QByteArray line;
    for (int i = 0; i < 600 && !line.contains('\n'); ++i) {
        if (process.state() == QProcess::NotRunning)
            break;
        process.waitForReadyRead(100);
        line += process.readAllStandardOutput();
    }
    const QJsonObject ready = QJsonDocument::fromJson(line).object();
    if (ready.isEmpty())
        QTest::qFail(qPrintable(QStringLiteral("the Kubernetes API stand-in did not come up "
                                               "(exit %1); see its messages above")
                                    .arg(process.exitCode())),
                     __FILE__, __LINE__);
    return ready;
}

void TestKubernetes::initTestCase()
{
    m_docker = test::requireEngine(QStringLiteral("python"));
    QVERIFY(m_docker);
    auto image = Engine::defaultImageFor(QStringLiteral("python"));
    QVERIFY_RESULT(image);
    m_image = *image;

    QVERIFY(m_state.isValid());
    const QJsonObject ready = startStandin(
        m_standin, m_state.path(), {QStringLiteral("--runtime-class"), QStringLiteral("gvisor")});
    QVERIFY(!ready.isEmpty());
    m_kubeconfig = ready.value(QStringLiteral("kubeconfig")).toString();
    m_instance = ready.value(QStringLiteral("instance")).toString();
}

std::shared_ptr<KubernetesRuntime> TestKubernetes::runtime(const QString &context,
                                                           KubernetesSettings settings)
{
    settings.kubeconfig = m_kubeconfig;
    settings.context = context;
    auto r = KubernetesRuntime::create(settings, QStringLiteral("test"));
    if (!r) {
        QTest::qFail(qPrintable(r.error().toString()), __FILE__, __LINE__);
        return nullptr;
    }
    return *r;
}

int TestKubernetes::standinContainers()
{
    auto list =
        m_docker->runtime().list(QStringLiteral("io.sandbox-studio.k8s-standin"), m_instance);
    return list ? int(list->size()) : -1;
}

int TestKubernetes::podsLeft()
{
    auto rt = runtime();
    if (!rt)
        return -1;
    auto list = rt->list(QLatin1String(labels::Owner), ownerLabel());
    return list ? int(list->size()) : -1;
}

// ------------------------------------------------------------------ kubeconfig

void TestKubernetes::kubeconfigContexts()
{
    const QByteArray yaml = R"(apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev-cluster
  cluster:
    server: https://dev.example:6443/
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==
- name: prod-cluster
  cluster:
    server: https://prod.example:443
    insecure-skip-tls-verify: true
users:
- name: dev-user
  user:
    token: abc.def
- name: prod-user
  user:
    client-certificate-data: Q0VSVA==
    client-key-data: S0VZ
contexts:
- name: dev
  context: {cluster: dev-cluster, user: dev-user, namespace: sandboxes}
- name: prod
  context:
    cluster: prod-cluster
    user: prod-user
)";
    auto dev = parseKubeconfig({{QStringLiteral("/x/config"), yaml}}, {});
    QVERIFY_RESULT(dev);
    QCOMPARE(dev->contextName, QStringLiteral("dev"));
    QCOMPARE(dev->server, QStringLiteral("https://dev.example:6443"));
    QCOMPARE(dev->token, QStringLiteral("abc.def"));
    QCOMPARE(dev->namespaceName, QStringLiteral("sandboxes"));
    QCOMPARE(dev->caPem, QByteArray("-----BEGIN CERTIFICATE-----\n"));
    QVERIFY(!dev->insecureSkipTlsVerify);

    auto prod = parseKubeconfig({{QStringLiteral("/x/config"), yaml}}, QStringLiteral("prod"));
    QVERIFY_RESULT(prod);
    QCOMPARE(prod->server, QStringLiteral("https://prod.example:443"));
    QVERIFY(prod->insecureSkipTlsVerify);
    QCOMPARE(prod->clientCertPem, QByteArray("CERT"));
    QCOMPARE(prod->clientKeyPem, QByteArray("KEY"));
    QVERIFY(prod->token.isEmpty());
    QVERIFY(prod->namespaceName.isEmpty()); // resolveKubernetesConnection makes it "default"

    auto missing = parseKubeconfig({{QStringLiteral("/x/config"), yaml}}, QStringLiteral("qa"));
    QVERIFY(!missing);
    QVERIFY2(missing.error().message.contains(QLatin1String("no context 'qa'")) &&
                 missing.error().message.contains(QLatin1String("dev, prod")),
             qPrintable(missing.error().message));

    // $KUBECONFIG-style merge: the first file that names something wins.
    const QByteArray second = R"(current-context: other
contexts:
- name: dev
  context: {cluster: nowhere, user: nobody}
- name: other
  context: {cluster: dev-cluster, user: dev-user}
)";
    auto merged =
        parseKubeconfig({{QStringLiteral("/a"), second}, {QStringLiteral("/b"), yaml}}, {});
    QVERIFY_RESULT(merged);
    QCOMPARE(merged->contextName, QStringLiteral("other"));
    QCOMPARE(merged->server, QStringLiteral("https://dev.example:6443"));
}

void TestKubernetes::kubeconfigFilesAndErrors()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir(dir.path()).mkdir(QStringLiteral("certs"));
    auto write = [&](const QString &name, const QByteArray &data) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    };
    write(QStringLiteral("certs/ca.crt"), "CA-PEM");
    write(QStringLiteral("certs/token"), "file-token\n");
    write(QStringLiteral("certs/c.crt"), "C-PEM");
    write(QStringLiteral("certs/c.key"), "K-PEM");
    const QByteArray yaml = R"(current-context: a
clusters:
- name: c
  cluster: {server: "https://h:6443", certificate-authority: certs/ca.crt}
users:
- name: u
  user: {tokenFile: certs/token, client-certificate: certs/c.crt, client-key: certs/c.key}
- name: plugin
  user:
    exec: {command: gke-gcloud-auth-plugin, apiVersion: client.authentication.k8s.io/v1beta1}
contexts:
- name: a
  context: {cluster: c, user: u}
- name: p
  context: {cluster: c, user: plugin}
- name: broken
  context: {cluster: missing, user: u}
)";
    write(QStringLiteral("config"), yaml);
    KubernetesSettings s;
    s.kubeconfig = dir.filePath(QStringLiteral("config"));
    s.namespaceName = QStringLiteral("team-a");
    auto c = resolveKubernetesConnection(s);
    QVERIFY_RESULT(c);
    QCOMPARE(c->caPem, QByteArray("CA-PEM"));
    QCOMPARE(c->token, QStringLiteral("file-token"));
    QCOMPARE(c->clientCertPem, QByteArray("C-PEM"));
    QCOMPARE(c->clientKeyPem, QByteArray("K-PEM"));
    QCOMPARE(c->namespaceName, QStringLiteral("team-a"));

    s.context = QStringLiteral("p");
    auto plugin = resolveKubernetesConnection(s);
    QVERIFY(!plugin);
    QVERIFY2(plugin.error().message.contains(QLatin1String("exec plugin")) &&
                 plugin.error().message.contains(QLatin1String("gke-gcloud-auth-plugin")),
             qPrintable(plugin.error().message));
    s.context = QStringLiteral("broken");
    auto broken = resolveKubernetesConnection(s);
    QVERIFY(!broken);
    QVERIFY2(broken.error().message.contains(QLatin1String("cluster 'missing'")),
             qPrintable(broken.error().message));

    write(QStringLiteral("bad"), "clusters: [unclosed\n");
    s.kubeconfig = dir.filePath(QStringLiteral("bad"));
    s.context.clear();
    auto bad = resolveKubernetesConnection(s);
    QVERIFY(!bad);
    QVERIFY2(bad.error().message.contains(QLatin1String("not valid YAML")),
             qPrintable(bad.error().message));
    s.kubeconfig = dir.filePath(QStringLiteral("absent"));
    auto absent = resolveKubernetesConnection(s);
    QVERIFY(!absent);
    QVERIFY2(absent.error().message.contains(QLatin1String("Cannot read the kubeconfig")),
             qPrintable(absent.error().message));
}

void TestKubernetes::inCluster()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const auto &[name, data] :
         {std::pair{QStringLiteral("token"), QByteArray("sa-token\n")},
          std::pair{QStringLiteral("ca.crt"), QByteArray("SA-CA")},
          std::pair{QStringLiteral("namespace"), QByteArray("jobs\n")}}) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    }
    const QByteArray oldHost = qgetenv("KUBERNETES_SERVICE_HOST");
    qunsetenv("KUBERNETES_SERVICE_HOST");
    QCOMPARE(inClusterConnection(dir.path()).error().code, ErrorCode::NotFound);
    qputenv("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    qputenv("KUBERNETES_SERVICE_PORT", "443");
    auto c = inClusterConnection(dir.path());
    if (oldHost.isEmpty())
        qunsetenv("KUBERNETES_SERVICE_HOST");
    else
        qputenv("KUBERNETES_SERVICE_HOST", oldHost);
    QVERIFY_RESULT(c);
    QCOMPARE(c->server, QStringLiteral("https://10.96.0.1:443"));
    QCOMPARE(c->token, QStringLiteral("sa-token"));
    QCOMPARE(c->caPem, QByteArray("SA-CA"));
    QCOMPARE(c->namespaceName, QStringLiteral("jobs"));
}

// ------------------------------------------------------------------ pod manifest

static QJsonObject manifest(const SandboxSpec &spec, const KubernetesSettings &settings,
                            QStringList *notes = nullptr)
{
    auto m =
        buildPodManifest(spec, settings, QStringLiteral("sandbox-x"), QStringLiteral("ns"), notes);
    if (!m) {
        QTest::qFail(qPrintable(m.error().toString()), __FILE__, __LINE__);
        return {};
    }
    return QJsonDocument::fromJson(*m).object();
}

void TestKubernetes::podManifestRestricted()
{
    SandboxSpec spec;
    spec.image = QStringLiteral("img:1");
    spec.command = {QStringLiteral("sleep"), QStringLiteral("infinity")};
    spec.env = {QStringLiteral("HOME=/sandbox"), QStringLiteral("A=b=c")};
    spec.memoryBytes = 256ll << 20;
    spec.nanoCpus = 500'000'000;
    spec.pidsLimit = 64;
    spec.labels = {
        {QStringLiteral("io.sandbox-studio.owner"), QStringLiteral("host/1234")},
        {QStringLiteral("io.sandbox-studio.created"), QStringLiteral("2026-11-30T07:00:00Z")}};
    QStringList notes;
    const QJsonObject pod = manifest(spec, {}, &notes);
    const QJsonObject podSpec = pod[u"spec"].toObject();
    QCOMPARE(podSpec[u"restartPolicy"].toString(), QStringLiteral("Never"));
    QCOMPARE(podSpec[u"automountServiceAccountToken"].toBool(true), false);
    QVERIFY(podSpec[u"activeDeadlineSeconds"].toInt() > 0);
    QCOMPARE(podSpec[u"securityContext"][u"runAsNonRoot"].toBool(), true);
    QCOMPARE(podSpec[u"securityContext"][u"seccompProfile"][u"type"].toString(),
             QStringLiteral("RuntimeDefault"));
    const QJsonObject c = podSpec[u"containers"].toArray().first().toObject();
    const QJsonObject sc = c[u"securityContext"].toObject();
    QCOMPARE(sc[u"allowPrivilegeEscalation"].toBool(true), false);
    QCOMPARE(sc[u"readOnlyRootFilesystem"].toBool(), true);
    QCOMPARE(sc[u"runAsUser"].toInt(), 65534);
    QCOMPARE(sc[u"capabilities"][u"drop"].toArray(), QJsonArray{QStringLiteral("ALL")});
    QCOMPARE(c[u"resources"][u"limits"][u"memory"].toString(), QString::number(256ll << 20));
    QCOMPARE(c[u"resources"][u"limits"][u"cpu"].toString(), QStringLiteral("500m"));
    QCOMPARE(c[u"resources"][u"requests"][u"cpu"].toString(), QStringLiteral("500m"));
    QCOMPARE(c[u"env"].toArray()[1][u"value"].toString(), QStringLiteral("b=c"));
    const QJsonArray volumes = podSpec[u"volumes"].toArray();
    QCOMPARE(volumes.size(), 2);
    QCOMPARE(volumes[0][u"emptyDir"][u"medium"].toString(), QStringLiteral("Memory"));
    // Label values must be valid; the exact values travel as annotations.
    QCOMPARE(pod[u"metadata"][u"labels"][u"io.sandbox-studio.owner"].toString(),
             QStringLiteral("host_1234"));
    QCOMPARE(pod[u"metadata"][u"labels"][u"io.sandbox-studio.created"].toString(),
             QStringLiteral("2026-11-30T07_00_00Z"));
    QCOMPARE(pod[u"metadata"][u"annotations"][u"io.sandbox-studio.owner"].toString(),
             QStringLiteral("host/1234"));
    QVERIFY2(notes.join(u' ').contains(QLatin1String("podPidsLimit")),
             qPrintable(notes.join(u' ')));
    QVERIFY2(notes.join(u' ').contains(QLatin1String("NetworkPolicy")),
             qPrintable(notes.join(u' ')));
    QCOMPARE(pod[u"metadata"][u"labels"][u"io.sandbox-studio.network"].toString(),
             QStringLiteral("none"));

    SandboxSpec root = spec;
    root.user = QStringLiteral("0:0");
    auto refused = buildPodManifest(root, {}, QStringLiteral("x"), QStringLiteral("ns"));
    QVERIFY(!refused);
    QVERIFY(refused.error().message.contains(QLatin1String("root")));
}

void TestKubernetes::podManifestSettingsAndRawMerge()
{
    SandboxSpec spec;
    spec.image = QStringLiteral("img:1");
    spec.memoryBytes = 256ll << 20;
    KubernetesSettings s;
    s.cpuRequest = QStringLiteral("250m");
    s.cpuLimit = QStringLiteral("2");
    s.memoryRequest = QStringLiteral("128Mi");
    s.ephemeralStorage = QStringLiteral("1Gi");
    s.runtimeClassName = QStringLiteral("gvisor");
    s.nodeSelector = {{QStringLiteral("pool"), QStringLiteral("sandboxes")}};
    s.tolerations = {{QStringLiteral("dedicated"), QStringLiteral("Equal"),
                      QStringLiteral("sandbox"), QStringLiteral("NoSchedule"), -1}};
    s.serviceAccountName = QStringLiteral("runner");
    s.imagePullSecrets = {QStringLiteral("regcred")};
    s.imageRegistry = QStringLiteral("registry.example.com/team/");
    s.labels = {{QStringLiteral("team"), QStringLiteral("data")}};
    s.annotations = {{QStringLiteral("note"), QStringLiteral("any text: ok")}};
    s.rawManifest = QStringLiteral(R"(
metadata:
  name: ignored
  labels: {extra: "yes"}
spec:
  priorityClassName: low
  activeDeadlineSeconds: 60
  enableServiceLinks: null
  containers:
  - name: sandbox
    env:
    - {name: FROM_RAW, value: "1"}
    resources:
      limits: {nvidia.com/gpu: 1}
)");
    const QJsonObject pod = manifest(spec, s);
    const QJsonObject sp = pod[u"spec"].toObject();
    QCOMPARE(pod[u"metadata"][u"name"].toString(), QStringLiteral("sandbox-x"));
    QCOMPARE(pod[u"metadata"][u"labels"][u"team"].toString(), QStringLiteral("data"));
    QCOMPARE(pod[u"metadata"][u"labels"][u"extra"].toString(), QStringLiteral("yes"));
    QCOMPARE(pod[u"metadata"][u"annotations"][u"note"].toString(), QStringLiteral("any text: ok"));
    QCOMPARE(sp[u"runtimeClassName"].toString(), QStringLiteral("gvisor"));
    QCOMPARE(sp[u"nodeSelector"][u"pool"].toString(), QStringLiteral("sandboxes"));
    QCOMPARE(sp[u"tolerations"][0][u"effect"].toString(), QStringLiteral("NoSchedule"));
    QCOMPARE(sp[u"serviceAccountName"].toString(), QStringLiteral("runner"));
    QCOMPARE(sp[u"imagePullSecrets"][0][u"name"].toString(), QStringLiteral("regcred"));
    QCOMPARE(sp[u"containers"][0][u"image"].toString(),
             QStringLiteral("registry.example.com/team/img:1"));
    QCOMPARE(sp[u"priorityClassName"].toString(), QStringLiteral("low"));
    QCOMPARE(sp[u"activeDeadlineSeconds"].toInt(), 60);
    QVERIFY(!sp.contains(u"enableServiceLinks"));
    const QJsonObject c = sp[u"containers"].toArray().first().toObject();
    QCOMPARE(c[u"env"].toArray().first()[u"name"].toString(), QStringLiteral("FROM_RAW"));
    QCOMPARE(c[u"resources"][u"limits"][u"nvidia.com/gpu"].toInt(), 1);
    QCOMPARE(c[u"resources"][u"limits"][u"cpu"].toString(), QStringLiteral("2"));
    QCOMPARE(c[u"resources"][u"requests"][u"cpu"].toString(), QStringLiteral("250m"));
    QCOMPARE(c[u"resources"][u"requests"][u"memory"].toString(), QStringLiteral("128Mi"));
    QCOMPARE(c[u"resources"][u"limits"][u"ephemeral-storage"].toString(), QStringLiteral("1Gi"));
    QCOMPARE(c[u"securityContext"][u"readOnlyRootFilesystem"].toBool(), true);

    s.rawManifest = QStringLiteral(R"({"kind": "Deployment"})");
    auto wrong = buildPodManifest(spec, s, QStringLiteral("x"), QStringLiteral("ns"));
    QVERIFY(!wrong);
    QVERIFY(wrong.error().message.contains(QLatin1String("not a Pod")));
    s.rawManifest = QStringLiteral("{broken");
    QVERIFY(!buildPodManifest(spec, s, QStringLiteral("x"), QStringLiteral("ns")));
}

// ------------------------------------------------------------------ against the stand-in

void TestKubernetes::pingWithTokenAndClientCertificate()
{
    for (const QString &context : {QStringLiteral("standin"), QStringLiteral("standin-cert")}) {
        auto rt = runtime(context);
        QVERIFY(rt);
        auto info = rt->ping();
        QVERIFY_RESULT(info);
        QCOMPARE(info->name, QStringLiteral("Kubernetes"));
        QVERIFY2(info->version.startsWith(QLatin1String("v1.")), qPrintable(info->version));
        QVERIFY(rt->endpointDisplay().contains(context));
    }
}

void TestKubernetes::execExitCodesStdinAndTimeout()
{
    auto rt = runtime();
    QVERIFY(rt);
    SandboxSpec spec = AgentChannel::hardenedSpec(m_image);
    spec.command = {QStringLiteral("sleep"), QStringLiteral("infinity")};
    spec.labels.insert(QLatin1String(labels::Kind), QStringLiteral("oneshot"));
    auto id = rt->create(spec);
    QVERIFY_RESULT(id);
    auto guard = qScopeGuard([&] { rt->remove(*id); });
    QVERIFY_RESULT(rt->start(*id));

    auto run = [&](const ExecSpec &e, QByteArray *out, QByteArray *err, Deadline deadline) {
        ExecIo io;
        io.onStdout = [&](QByteArrayView d) {
            out->append(d);
            return true;
        };
        io.onStderr = [&](QByteArrayView d) {
            err->append(d);
            return true;
        };
        return rt->exec(*id, e, io, {}, deadline);
    };
    ExecSpec e;
    e.argv = {QStringLiteral("sh"), QStringLiteral("-c"),
              QStringLiteral("echo out; echo err >&2; id -u; exit 42")};
    QByteArray out, err;
    auto r = run(e, &out, &err, Deadline::in(std::chrono::seconds(30)));
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 42);
    QCOMPARE(out, QByteArray("out\n65534\n"));
    QCOMPARE(err, QByteArray("err\n"));

    // Stdin: 3 MB through v5 with its close frame as EOF; sha256 computed inside.
    QByteArray big(3 << 20, '\0');
    for (qsizetype i = 0; i < big.size(); ++i)
        big[i] = char((i * 7919) >> 3);
    e.argv = {QStringLiteral("sha256sum")};
    e.attachStdin = true;
    e.stdinData = big;
    out.clear();
    err.clear();
    r = run(e, &out, &err, Deadline::in(std::chrono::seconds(60)));
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 0);
    QCOMPARE(out.left(64), QCryptographicHash::hash(big, QCryptographicHash::Sha256).toHex());

    // env and working directory, which pods/exec lacks, arrive through env(1) and sh.
    ExecSpec envSpec;
    envSpec.argv = {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("echo $X $(pwd)")};
    envSpec.env = {QStringLiteral("X=from-env")};
    envSpec.workDir = QStringLiteral("/tmp");
    out.clear();
    r = run(envSpec, &out, &err, Deadline::in(std::chrono::seconds(30)));
    QVERIFY_RESULT(r);
    QCOMPARE(out, QByteArray("from-env /tmp\n"));

    // A command that does not exist: not a hang, a failure with a message.
    ExecSpec missing;
    missing.argv = {QStringLiteral("/no/such/program")};
    out.clear();
    err.clear();
    r = run(missing, &out, &err, Deadline::in(std::chrono::seconds(30)));
    QVERIFY_RESULT(r);
    QVERIFY2(r->exitCode != 0, qPrintable(QString::number(r->exitCode)));

    // Deadline: the exec is abandoned and reported as such; kill() stops the program.
    ExecSpec slow;
    slow.argv = {QStringLiteral("sleep"), QStringLiteral("30")};
    QElapsedTimer t;
    t.start();
    r = run(slow, &out, &err, Deadline::in(std::chrono::milliseconds(800)));
    QVERIFY_RESULT(r);
    QVERIFY(r->deadlineExceeded);
    QVERIFY2(t.elapsed() < 10'000, "the deadline was not honoured");
    QVERIFY_RESULT(rt->kill(*id));
    out.clear();
    ExecSpec ps;
    ps.argv = {QStringLiteral("sh"), QStringLiteral("-c"),
               QStringLiteral("for p in /proc/[0-9]*; do cat $p/comm; done")};
    r = run(ps, &out, &err, Deadline::in(std::chrono::seconds(30)));
    QVERIFY_RESULT(r);
    // Only PID 1 (sleep infinity, which signals from inside cannot reach) is left.
    QVERIFY2(out.split('\n').count("sleep") == 1, qPrintable(QString::fromUtf8(out)));
}

void TestKubernetes::agentOverAttach()
{
    auto rt = runtime();
    QVERIFY(rt);
    SandboxSpec spec = AgentChannel::hardenedSpec(m_image);
    auto channel = AgentChannel::open(*rt, spec, QStringLiteral(SANDBOX_AGENT_BINARY));
    QVERIFY_RESULT(channel);
    QCOMPARE((*channel)->helloInfo().uid, 65534);
    AgentRunSpec run;
    run.argv = {QStringLiteral("python3"), QStringLiteral("-c"),
                QStringLiteral("import sys; print(input().upper()); sys.exit(3)")};
    run.attachStdin = true;
    run.stdinData = "hello agent\n";
    QByteArray out;
    ExecIo io;
    io.onStdout = [&](QByteArrayView d) {
        out.append(d);
        return true;
    };
    auto r = (*channel)->run(run, io, {}, Deadline::in(std::chrono::seconds(30)));
    QVERIFY_RESULT(r);
    QCOMPARE(r->exitCode, 3);
    QCOMPARE(out, QByteArray("HELLO AGENT\n"));
    QVERIFY_RESULT((*channel)->putTar(
        QStringLiteral("/sandbox"),
        *makeTar({{QStringLiteral("f.txt"), TarMember::Type::File, "content", 0644, {}}})));
    auto back = (*channel)->getTar(QStringLiteral("/sandbox"));
    QVERIFY_RESULT(back);
    QVERIFY(back->contains("content"));
    QVERIFY_RESULT((*channel)->close());
}

void TestKubernetes::interactiveExec()
{
    auto rt = runtime();
    QVERIFY(rt);
    SandboxSpec spec = AgentChannel::hardenedSpec(m_image);
    spec.command = {QStringLiteral("sleep"), QStringLiteral("infinity")};
    auto id = rt->create(spec);
    QVERIFY_RESULT(id);
    auto guard = qScopeGuard([&] { rt->remove(*id); });
    ExecSpec e;
    e.argv = {QStringLiteral("python3"), QStringLiteral("-u"), QStringLiteral("-c"),
              QStringLiteral("import sys\nfor l in sys.stdin:\n    print(int(l) * 2)\n    "
                             "if int(l) == 0: sys.exit(5)")};
    auto ch = rt->execInteractive(*id, e);
    QVERIFY_RESULT(ch);
    QByteArray out, err;
    for (int n : {21, 50}) {
        QVERIFY_RESULT((*ch)->write(QByteArray(QByteArray::number(n) + "\n")));
        const QByteArray want = QByteArray::number(n * 2) + '\n';
        for (int i = 0; i < 100 && !out.endsWith(want); ++i)
            QVERIFY_RESULT((*ch)->read(100, &out, &err));
        QVERIFY2(out.endsWith(want), qPrintable(QString::fromUtf8(out + err)));
    }
    QVERIFY_RESULT((*ch)->write("0\n"));
    bool more = true;
    for (int i = 0; i < 100 && more; ++i) {
        auto r = (*ch)->read(100, &out, &err);
        QVERIFY_RESULT(r);
        more = *r;
    }
    QVERIFY(!more);
    QCOMPARE(*(*ch)->exitCode(), 5);
}

void TestKubernetes::listForReaper()
{
    auto rt = runtime();
    QVERIFY(rt);
    SandboxSpec spec = AgentChannel::hardenedSpec(m_image);
    spec.command = {QStringLiteral("sleep"), QStringLiteral("infinity")};
    auto id = rt->create(spec);
    QVERIFY_RESULT(id);
    auto list = rt->list(QLatin1String(labels::Owner), ownerLabel());
    QVERIFY_RESULT(list);
    QCOMPARE(list->size(), 1);
    QCOMPARE(list->first().id, *id);
    QCOMPARE(list->first().state, QStringLiteral("running"));
    // Exact values come back (label values had to be rewritten).
    QCOMPARE(list->first().labels.value(QLatin1String(labels::Owner)), ownerLabel());
    QVERIFY_RESULT(rt->remove(*id));
    QVERIFY_RESULT(rt->remove(*id)); // absent is fine
    QCOMPARE(podsLeft(), 0);
}

void TestKubernetes::wrongTokenIsClearAndLeavesNothing()
{
    const int containersBefore = standinContainers();
    BackendProfile profile;
    profile.name = QStringLiteral("Cluster A");
    profile.kind = QStringLiteral("kubernetes");
    profile.kubernetes.kubeconfig = m_kubeconfig;
    profile.kubernetes.context = QStringLiteral("standin-wrong-token");
    auto engine = Engine::create(profile);
    QVERIFY_RESULT(engine);
    auto ping = (*engine)->ping();
    QVERIFY(!ping);
    const QString msg = ping.error().message;
    QVERIFY2(msg.contains(QLatin1String("401")) &&
                 msg.contains(QLatin1String("standin-wrong-token")) &&
                 msg.contains(QLatin1String("https://127.0.0.1:")) &&
                 msg.contains(QLatin1String("Cluster A")),
             qPrintable(msg));
    RunRequest req;
    req.language = QStringLiteral("python");
    req.code = QStringLiteral("print(1)");
    auto run = (*engine)->runBlocking(req);
    QVERIFY(!run);
    QVERIFY2(run.error().message.contains(QLatin1String("401")) &&
                 run.error().message.contains(QLatin1String("standin-wrong-token")) &&
                 !run.error().message.contains(QLatin1String("NetworkPolicy")),
             qPrintable(run.error().message));
    QCOMPARE(podsLeft(), 0);
    QCOMPARE(standinContainers(), containersBefore);
}

void TestKubernetes::unknownImageIsClear()
{
    BackendProfile profile;
    profile.kind = QStringLiteral("kubernetes");
    profile.kubernetes.kubeconfig = m_kubeconfig;
    auto engine = Engine::create(profile);
    QVERIFY_RESULT(engine);
    RunRequest req;
    req.language = QStringLiteral("python");
    req.code = QStringLiteral("print(1)");
    req.image = QStringLiteral("sandbox-studio/no-such-image:never");
    auto run = (*engine)->runBlocking(req);
    QVERIFY(!run);
    QCOMPARE(run.error().code, ErrorCode::ImageMissing);
    QVERIFY2(run.error().message.contains(QLatin1String("no-such-image")) &&
                 (run.error().message.contains(QLatin1String("ImagePullBackOff")) ||
                  run.error().message.contains(QLatin1String("ErrImagePull"))),
             qPrintable(run.error().toString()));
    QCOMPARE(podsLeft(), 0);
}

void TestKubernetes::unschedulableIsClear()
{
    KubernetesSettings s;
    s.nodeSelector = {{QStringLiteral("disktype"), QStringLiteral("ssd")}};
    auto rt = runtime(QStringLiteral("standin"), s);
    QVERIFY(rt);
    auto id = rt->create(AgentChannel::hardenedSpec(m_image));
    QVERIFY(!id);
    QVERIFY2(id.error().message.contains(QLatin1String("Unschedulable")) &&
                 id.error().message.contains(QLatin1String("node")),
             qPrintable(id.error().toString()));
    KubernetesSettings gpu;
    gpu.runtimeClassName = QStringLiteral("kata");
    rt = runtime(QStringLiteral("standin"), gpu);
    id = rt->create(AgentChannel::hardenedSpec(m_image));
    QVERIFY(!id);
    QVERIFY2(id.error().message.contains(QLatin1String("RuntimeClass")),
             qPrintable(id.error().toString()));
    QCOMPARE(podsLeft(), 0);
}

void TestKubernetes::activeDeadlineEndsPod()
{
    KubernetesSettings s;
    s.activeDeadlineSeconds = 2;
    auto rt = runtime(QStringLiteral("standin"), s);
    QVERIFY(rt);
    SandboxSpec spec = AgentChannel::hardenedSpec(m_image);
    spec.command = {QStringLiteral("sleep"), QStringLiteral("infinity")};
    auto id = rt->create(spec);
    QVERIFY_RESULT(id);
    auto guard = qScopeGuard([&] { rt->remove(*id); });
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            auto l = rt->list(QLatin1String(labels::Owner), ownerLabel());
            return l && !l->isEmpty() && l->first().state == QLatin1String("exited");
        }(),
        15000);
}

void TestKubernetes::volumesAreRefused()
{
    auto rt = runtime();
    QVERIFY(rt);
    SandboxSpec spec = AgentChannel::hardenedSpec(m_image);
    spec.volumes.append(
        {VolumeMount::Type::Volume, QStringLiteral("deps"), QStringLiteral("/deps"), true});
    auto id = rt->create(spec);
    QVERIFY(!id);
    QVERIFY2(id.error().message.contains(QLatin1String("Docker or Podman")),
             qPrintable(id.error().message));
    auto commit = rt->commit(QStringLiteral("x"), QStringLiteral("r"), QStringLiteral("t"));
    QVERIFY(!commit);
    QVERIFY(commit.error().message.contains(QLatin1String("cannot commit")));
}

void TestKubernetes::unreachableAndWrongCa()
{
    auto good = runtime();
    QVERIFY(good);
    KubernetesConnection c = good->connection();
    c.server = QStringLiteral("https://127.0.0.1:1");
    KubernetesRuntime down(c, {}, QStringLiteral("Lab cluster"));
    auto ping = down.ping();
    QVERIFY(!ping);
    QCOMPARE(ping.error().code, ErrorCode::EngineUnreachable);
    QVERIFY2(ping.error().message.contains(QLatin1String("https://127.0.0.1:1")) &&
                 ping.error().message.contains(QLatin1String("Lab cluster")),
             qPrintable(ping.error().message));

    // A CA that did not sign the server: refused, never "insecure" by accident.
    KubernetesConnection wrongCa = good->connection();
    QFile otherCa(QStringLiteral("/etc/ssl/certs/ca-certificates.crt"));
    QVERIFY(otherCa.open(QIODevice::ReadOnly));
    wrongCa.caPem = otherCa.read(1 << 20).left(4000);
    wrongCa.caPem = wrongCa.caPem.left(wrongCa.caPem.indexOf("-----END CERTIFICATE-----") + 26);
    KubernetesRuntime untrusted(wrongCa, {}, {});
    ping = untrusted.ping();
    QVERIFY(!ping);
    QCOMPARE(ping.error().code, ErrorCode::TlsError);
    // The same over WebSocket (exec) for an existing pod.
    SandboxSpec spec = AgentChannel::hardenedSpec(m_image);
    spec.command = {QStringLiteral("sleep"), QStringLiteral("infinity")};
    auto id = good->create(spec);
    QVERIFY_RESULT(id);
    auto guard = qScopeGuard([&] { good->remove(*id); });
    ExecSpec e;
    e.argv = {QStringLiteral("true")};
    auto r = untrusted.exec(*id, e, {}, {}, Deadline::in(std::chrono::seconds(20)));
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::TlsError);
}

void TestKubernetes::notebookSession()
{
    // The kernel runs under the agent, placed over pods/attach.
    qputenv("SANDBOX_AGENT_PATH", SANDBOX_AGENT_BINARY);
    auto rt = runtime();
    QVERIFY(rt);
    auto session = NotebookSession::start(rt, QStringLiteral("python"));
    QVERIFY_RESULT(session);
    QCOMPARE((*session)->transport(), QStringLiteral("agent"));
    auto a = (*session)->execute(QStringLiteral("x = 20\nprint('set')"));
    QVERIFY_RESULT(a);
    QCOMPARE(a->streamText(QStringLiteral("stdout")), QStringLiteral("set\n"));
    auto b = (*session)->execute(QStringLiteral("x + 22"));
    QVERIFY_RESULT(b);
    QCOMPARE(b->resultText(), QStringLiteral("42"));
    auto c = (*session)->execute(QStringLiteral("1/0"));
    QVERIFY_RESULT(c);
    QCOMPARE(c->status, QStringLiteral("error"));
    (*session)->close();
    QCOMPARE(podsLeft(), 0);
}

void TestKubernetes::pooledRuns()
{
    auto rt = runtime();
    QVERIFY(rt);
    PoolOptions options;
    options.agentPath = QStringLiteral(SANDBOX_AGENT_BINARY);
    options.minWarm = 1;
    options.maxSize = 2;
    auto pool = SandboxPool::create(rt, options);
    Engine engine(rt);
    engine.setPool(pool);
    for (int i = 0; i < 3; ++i) {
        RunRequest req;
        req.language = QStringLiteral("python");
        req.code = QStringLiteral("import os\nprint(len(os.listdir('.')), %1)").arg(i);
        QStringList statuses;
        RunObserver obs;
        obs.onStatus = [&](const QString &st) { statuses << st; };
        auto r = engine.runBlocking(req, obs);
        QVERIFY_RESULT(r);
        QCOMPARE(r->exitCode, 0);
        QVERIFY2(statuses.contains(QStringLiteral("borrowing a warm sandbox")),
                 qPrintable(statuses.join(u',')));
        QVERIFY2(r->stdoutData.endsWith(QByteArray(QByteArray::number(i) + '\n')),
                 r->stdoutData.constData());
    }
    pool->shutdown();
    QTRY_COMPARE_WITH_TIMEOUT(podsLeft(), 0, 30000);
}

void TestKubernetes::insecureSkipTlsVerify()
{
    auto good = runtime();
    QVERIFY(good);
    KubernetesConnection c = good->connection();
    c.caPem.clear(); // the system CAs do not know the stand-in's CA
    KubernetesRuntime strict(c, {}, {});
    auto refused = strict.ping();
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, ErrorCode::TlsError);
    c.insecureSkipTlsVerify = true;
    auto rt = std::make_shared<KubernetesRuntime>(c, KubernetesSettings{}, QString());
    QVERIFY_RESULT(rt->ping());
    SandboxSpec spec = AgentChannel::hardenedSpec(m_image);
    spec.command = {QStringLiteral("sleep"), QStringLiteral("infinity")};
    auto id = rt->create(spec);
    QVERIFY_RESULT(id);
    auto guard = qScopeGuard([&] { rt->remove(*id); });
    ExecSpec e;
    e.argv = {QStringLiteral("echo"), QStringLiteral("insecure ok")};
    QByteArray out;
    ExecIo io;
    io.onStdout = [&](QByteArrayView d) {
        out += d;
        return true;
    };
    auto r = rt->exec(*id, e, io, {}, Deadline::in(std::chrono::seconds(20)));
    QVERIFY_RESULT(r);
    QCOMPARE(out, QByteArray("insecure ok\n"));
}

void TestKubernetes::v4OnlyServer()
{
    // An API server before 1.30 offers v4.channel.k8s.io only: no stdin close frame, so
    // stdin is cut at its length inside the sandbox; everything else is the same.
    QTemporaryDir dir;
    QProcess process;
    const QJsonObject ready =
        startStandin(process, dir.path(),
                     {QStringLiteral("--protocols"), QStringLiteral("v4.channel.k8s.io"),
                      QStringLiteral("--forbid-networkpolicies")});
    QVERIFY(!ready.isEmpty());
    auto stop = qScopeGuard([&] {
        process.terminate();
        process.waitForFinished(30000);
    });
    BackendProfile profile;
    profile.kind = QStringLiteral("kubernetes");
    profile.kubernetes.kubeconfig = ready.value(QStringLiteral("kubeconfig")).toString();
    auto engine = Engine::create(profile);
    QVERIFY_RESULT(engine);
    RunRequest req;
    req.language = QStringLiteral("python");
    req.code = QStringLiteral("print(open('in.txt').read().upper(), end='')\n"
                              "open('output/o.txt', 'w').write('written')");
    req.files.append({QStringLiteral("in.txt"), QByteArray("through v4\n")});
    // This user may not create NetworkPolicies: network off cannot be in place, so the run
    // is refused (fail closed) with what to create, and no pod is made.
    auto closed = (*engine)->runBlocking(req);
    QVERIFY(!closed);
    QVERIFY2(closed.error().message.contains(QLatin1String("sandbox-studio-deny-all")) &&
                 closed.error().message.contains(QLatin1String("forbids")),
             qPrintable(closed.error().toString()));
    auto pods = (*engine)->runtime().list(QLatin1String(labels::Owner), ownerLabel());
    QVERIFY_RESULT(pods);
    QCOMPARE(pods->size(), 0);
    // The pod network (the stand-in still gives the container network none).
    req.network = NetworkMode::Bridge;
    auto result = (*engine)->runBlocking(req);
    QVERIFY_RESULT(result);
    QCOMPARE(result->exitCode, 0);
    QCOMPARE(result->stdoutData, QByteArray("THROUGH V4\n"));
    bool found = false;
    for (const Artifact &a : result->artifacts)
        found = found || (a.name == QLatin1String("output/o.txt") && a.data == "written");
    QVERIFY(found);
    QFile log(dir.filePath(QStringLiteral("streams.log")));
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray streams = log.readAll();
    QVERIFY2(streams.contains("\"protocol\": \"v4.channel.k8s.io\"") &&
                 !streams.contains("v5.channel.k8s.io\", \"offered"),
             streams.constData());
}

// ------------------------------------------------------------------ shared cases

void TestKubernetes::sharedCases_data()
{
    // Not the network cases: installs need a dependency volume, which a cluster does not have.
    QTest::addColumn<QJsonObject>("testCase");
    const QList<QJsonObject> cases = test::sharedCases(true);
    for (const QJsonObject &c : cases)
        QTest::newRow(qPrintable(c.value(QStringLiteral("id")).toString())) << c;
    QVERIFY2(!cases.isEmpty(), "no shared cases selected");
}

void TestKubernetes::sharedCases()
{
    QFETCH(QJsonObject, testCase);
    BackendProfile profile;
    profile.kind = QStringLiteral("kubernetes");
    profile.kubernetes.kubeconfig = m_kubeconfig;
    auto engine = Engine::create(profile);
    QVERIFY_RESULT(engine);
    auto req = test::sharedCaseRequest(testCase);
    QVERIFY_RESULT(req);
    auto result = (*engine)->runBlocking(*req);
    QVERIFY_RESULT(result);
    const RunResult &r = *result;
    const QString context = QStringLiteral("\n--- stdout:\n%1\n--- stderr:\n%2\n--- notes:\n%3")
                                .arg(QString::fromUtf8(r.stdoutData),
                                     QString::fromUtf8(r.stderrData), r.notes.join(u'\n'));
    const QString mismatch = test::sharedCaseMismatch(testCase, r, context);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    QCOMPARE(podsLeft(), 0);
}

void TestKubernetes::cleanupTestCase()
{
    if (m_standin.state() == QProcess::NotRunning)
        return;
    const int pods = podsLeft();
    m_standin.terminate();
    QVERIFY2(m_standin.waitForFinished(30000), "the stand-in did not stop");
    QCOMPARE(pods, 0);
    if (m_docker)
        QCOMPARE(standinContainers(), 0);
}

QTEST_GUILESS_MAIN(TestKubernetes)
#include "tst_kubernetes.moc"
