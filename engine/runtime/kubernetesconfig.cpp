// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubernetesconfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <algorithm>
#include <yaml-cpp/yaml.h>

namespace sandbox {

namespace {

struct Doc
{
    QString path;
    YAML::Node root;
};

QString qs(const YAML::Node &n)
{
    if (!n || !n.IsScalar())
        return {};
    return QString::fromStdString(n.Scalar());
}

/// The entry named name in list key ("clusters", "users", "contexts") of the first
/// document that has one; its inner object ("cluster", "user", "context") and the path of
/// the document it came from.
std::pair<YAML::Node, QString> findNamed(const QList<Doc> &docs, const char *key, const char *inner,
                                         const QString &name)
{
    for (const Doc &d : docs) {
        const YAML::Node list = d.root[key];
        if (!list || !list.IsSequence())
            continue;
        for (const YAML::Node &entry : list)
            if (entry.IsMap() && qs(entry["name"]) == name)
                return {entry[inner], d.path};
    }
    return {YAML::Node(), QString()};
}

Result<QByteArray> readFileRelative(const QString &file, const QString &baseFile,
                                    const QString &what)
{
    QString path = file;
    if (QFileInfo(path).isRelative() && !baseFile.isEmpty())
        path = QFileInfo(baseFile).dir().filePath(path);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Cannot read the %1 file %2 named in %3: %4")
                        .arg(what, path, baseFile, f.errorString()));
    return f.readAll();
}

/// "-data" fields are base64 of the PEM text.
Result<QByteArray> dataOrFile(const YAML::Node &obj, const char *dataKey, const char *fileKey,
                              const QString &baseFile, const QString &what)
{
    const QString data = qs(obj[dataKey]);
    if (!data.isEmpty()) {
        auto decoded = QByteArray::fromBase64Encoding(data.toLatin1(),
                                                      QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded || decoded.decoded.isEmpty())
            return fail(ErrorCode::InvalidArgument, QStringLiteral("%1 in %2 is not valid base64")
                                                        .arg(QLatin1String(dataKey), baseFile));
        return decoded.decoded;
    }
    const QString file = qs(obj[fileKey]);
    if (!file.isEmpty())
        return readFileRelative(file, baseFile, what);
    return QByteArray();
}

} // namespace

QString KubernetesConnection::display() const
{
    return QStringLiteral("%1 (context %2)").arg(server, contextName);
}

Result<KubernetesConnection> parseKubeconfig(const QList<std::pair<QString, QByteArray>> &files,
                                             const QString &context)
{
    QList<Doc> docs;
    QStringList paths;
    for (const auto &[path, text] : files) {
        paths << path;
        try {
            YAML::Node root = YAML::Load(text.toStdString());
            if (root.IsNull())
                continue; // an empty file is allowed (kubectl treats it as no config)
            if (!root.IsMap())
                return fail(ErrorCode::InvalidArgument,
                            QStringLiteral("The kubeconfig %1 is not a YAML mapping").arg(path));
            docs.append({path, root});
        } catch (const YAML::Exception &e) {
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("The kubeconfig %1 is not valid YAML: %2")
                            .arg(path, QString::fromStdString(e.what())));
        }
    }
    const QString sources = paths.join(u':');
    QString ctxName = context;
    if (ctxName.isEmpty())
        for (const Doc &d : docs)
            if (!(ctxName = qs(d.root["current-context"])).isEmpty())
                break;
    if (ctxName.isEmpty())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("The kubeconfig %1 has no current-context: choose a context")
                        .arg(sources));

    KubernetesConnection c;
    c.contextName = ctxName;
    c.source = sources;
    const auto [ctx, ctxFile] = findNamed(docs, "contexts", "context", ctxName);
    if (!ctx || !ctx.IsMap()) {
        QStringList known;
        for (const Doc &d : docs)
            if (d.root["contexts"].IsSequence())
                for (const YAML::Node &e : d.root["contexts"])
                    known << qs(e["name"]);
        return fail(
            ErrorCode::InvalidArgument,
            QStringLiteral("The kubeconfig %1 has no context '%2' (contexts: %3)")
                .arg(sources, ctxName,
                     known.isEmpty() ? QStringLiteral("none") : known.join(QStringLiteral(", "))));
    }
    c.clusterName = qs(ctx["cluster"]);
    c.userName = qs(ctx["user"]);
    c.namespaceName = qs(ctx["namespace"]);

    const auto [cluster, clusterFile] = findNamed(docs, "clusters", "cluster", c.clusterName);
    if (!cluster || !cluster.IsMap())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Context '%1' in %2 names cluster '%3', which is not defined")
                        .arg(ctxName, sources, c.clusterName));
    c.server = qs(cluster["server"]);
    while (c.server.endsWith(u'/'))
        c.server.chop(1);
    if (c.server.isEmpty())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Cluster '%1' in %2 has no server").arg(c.clusterName, sources));
    if (!c.server.startsWith(QLatin1String("https://")) &&
        !c.server.startsWith(QLatin1String("http://")))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Cluster '%1' in %2 has server '%3': expected https://HOST:PORT")
                        .arg(c.clusterName, sources, c.server));
    const QString insecure = qs(cluster["insecure-skip-tls-verify"]).toLower();
    c.insecureSkipTlsVerify = insecure == QLatin1String("true");
    auto ca = dataOrFile(cluster, "certificate-authority-data", "certificate-authority",
                         clusterFile, QStringLiteral("certificate-authority"));
    if (!ca)
        return std::unexpected(ca.error());
    c.caPem = *ca;

    if (!c.userName.isEmpty()) {
        const auto [user, userFile] = findNamed(docs, "users", "user", c.userName);
        if (!user)
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("Context '%1' in %2 names user '%3', which is not defined")
                            .arg(ctxName, sources, c.userName));
        if (user.IsMap()) {
            if (user["exec"])
                return fail(ErrorCode::InvalidArgument,
                            QStringLiteral("User '%1' in %2 gets credentials from an exec plugin "
                                           "(%3), which Sandbox Studio does not run: use a "
                                           "context with a token or a client certificate")
                                .arg(c.userName, userFile, qs(user["exec"]["command"])));
            if (user["auth-provider"])
                return fail(ErrorCode::InvalidArgument,
                            QStringLiteral("User '%1' in %2 uses an auth-provider plugin, which "
                                           "Sandbox Studio does not support: use a token or a "
                                           "client certificate")
                                .arg(c.userName, userFile));
            c.token = qs(user["token"]);
            if (c.token.isEmpty() && !qs(user["tokenFile"]).isEmpty()) {
                auto t =
                    readFileRelative(qs(user["tokenFile"]), userFile, QStringLiteral("tokenFile"));
                if (!t)
                    return std::unexpected(t.error());
                c.token = QString::fromUtf8(t->trimmed());
            }
            auto cert = dataOrFile(user, "client-certificate-data", "client-certificate", userFile,
                                   QStringLiteral("client-certificate"));
            if (!cert)
                return std::unexpected(cert.error());
            auto key = dataOrFile(user, "client-key-data", "client-key", userFile,
                                  QStringLiteral("client-key"));
            if (!key)
                return std::unexpected(key.error());
            c.clientCertPem = *cert;
            c.clientKeyPem = *key;
            if (c.clientCertPem.isEmpty() != c.clientKeyPem.isEmpty())
                return fail(ErrorCode::InvalidArgument,
                            QStringLiteral("User '%1' in %2 has a client certificate without a "
                                           "key (or a key without a certificate)")
                                .arg(c.userName, userFile));
        }
    }
    return c;
}

Result<KubernetesConnection> inClusterConnection(const QString &dir)
{
    const QString host = qEnvironmentVariable("KUBERNETES_SERVICE_HOST");
    const QString port = qEnvironmentVariable("KUBERNETES_SERVICE_PORT", QStringLiteral("443"));
    if (host.isEmpty())
        return fail(ErrorCode::NotFound,
                    QStringLiteral("Not running in a Kubernetes pod (KUBERNETES_SERVICE_HOST is "
                                   "not set)"));
    QFile token(dir + QStringLiteral("/token"));
    if (!token.open(QIODevice::ReadOnly))
        return fail(ErrorCode::IoError,
                    QStringLiteral("Cannot read the service-account token %1: %2")
                        .arg(token.fileName(), token.errorString()));
    KubernetesConnection c;
    // An IPv6 service address needs brackets in a URL.
    c.server =
        QStringLiteral("https://%1:%2").arg(host.contains(u':') ? u'[' + host + u']' : host, port);
    c.token = QString::fromUtf8(token.readAll().trimmed());
    QFile ca(dir + QStringLiteral("/ca.crt"));
    if (ca.open(QIODevice::ReadOnly))
        c.caPem = ca.readAll();
    QFile ns(dir + QStringLiteral("/namespace"));
    if (ns.open(QIODevice::ReadOnly))
        c.namespaceName = QString::fromUtf8(ns.readAll().trimmed());
    c.contextName = QStringLiteral("in-cluster");
    c.clusterName = QStringLiteral("in-cluster");
    c.userName = QStringLiteral("service account");
    c.source = dir;
    return c;
}

Result<KubernetesConnection> resolveKubernetesConnection(const KubernetesSettings &settings)
{
    QString spec = settings.kubeconfig;
    if (spec.isEmpty())
        spec = qEnvironmentVariable("KUBECONFIG");
    QStringList paths;
    for (const QString &p : spec.split(u':', Qt::SkipEmptyParts))
        paths << QDir::cleanPath(p.startsWith(QLatin1String("~/")) ? QDir::homePath() + p.mid(1)
                                                                   : p);
    if (paths.isEmpty()) {
        const QString home = QDir::home().filePath(QStringLiteral(".kube/config"));
        if (QFileInfo::exists(home))
            paths << home;
    }
    Result<KubernetesConnection> c;
    if (paths.isEmpty()) {
        c = inClusterConnection();
        if (!c && c.error().code == ErrorCode::NotFound)
            return fail(ErrorCode::NotFound,
                        QStringLiteral("No Kubernetes configuration: set a kubeconfig in the "
                                       "backend profile (or --kubeconfig, $KUBECONFIG, "
                                       "~/.kube/config), or run inside a pod"));
    } else {
        QList<std::pair<QString, QByteArray>> files;
        for (const QString &p : std::as_const(paths)) {
            QFile f(p);
            if (!f.open(QIODevice::ReadOnly)) {
                if (!settings.kubeconfig.isEmpty() || paths.size() == 1)
                    return fail(ErrorCode::InvalidArgument,
                                QStringLiteral("Cannot read the kubeconfig %1: %2")
                                    .arg(p, f.errorString()));
                continue; // $KUBECONFIG may list files that do not exist
            }
            files.append({p, f.readAll()});
        }
        c = parseKubeconfig(files, settings.context);
    }
    if (!c)
        return c;
    if (!settings.namespaceName.isEmpty())
        c->namespaceName = settings.namespaceName;
    if (c->namespaceName.isEmpty())
        c->namespaceName = QStringLiteral("default");
    return c;
}

namespace {

using StringMember = QString KubernetesSettings::*;
using MapMember = QMap<QString, QString> KubernetesSettings::*;

const QList<std::pair<QString, StringMember>> &stringKeys()
{
    static const QList<std::pair<QString, StringMember>> keys = {
        {QStringLiteral("kubeconfig"), &KubernetesSettings::kubeconfig},
        {QStringLiteral("context"), &KubernetesSettings::context},
        {QStringLiteral("namespace"), &KubernetesSettings::namespaceName},
        {QStringLiteral("cpuRequest"), &KubernetesSettings::cpuRequest},
        {QStringLiteral("cpuLimit"), &KubernetesSettings::cpuLimit},
        {QStringLiteral("memoryRequest"), &KubernetesSettings::memoryRequest},
        {QStringLiteral("memoryLimit"), &KubernetesSettings::memoryLimit},
        {QStringLiteral("ephemeralStorage"), &KubernetesSettings::ephemeralStorage},
        {QStringLiteral("runtimeClassName"), &KubernetesSettings::runtimeClassName},
        {QStringLiteral("serviceAccountName"), &KubernetesSettings::serviceAccountName},
        {QStringLiteral("imagePullPolicy"), &KubernetesSettings::imagePullPolicy},
        {QStringLiteral("imageRegistry"), &KubernetesSettings::imageRegistry},
        {QStringLiteral("rawManifest"), &KubernetesSettings::rawManifest},
    };
    return keys;
}

const QList<std::pair<QString, qint64 KubernetesSettings::*>> &numberKeys()
{
    static const QList<std::pair<QString, qint64 KubernetesSettings::*>> keys = {
        {QStringLiteral("activeDeadlineSeconds"), &KubernetesSettings::activeDeadlineSeconds},
        {QStringLiteral("startTimeoutSeconds"), &KubernetesSettings::startTimeoutSeconds},
    };
    return keys;
}

const QList<std::pair<QString, MapMember>> &mapKeys()
{
    static const QList<std::pair<QString, MapMember>> keys = {
        {QStringLiteral("nodeSelector"), &KubernetesSettings::nodeSelector},
        {QStringLiteral("labels"), &KubernetesSettings::labels},
        {QStringLiteral("annotations"), &KubernetesSettings::annotations},
    };
    return keys;
}

const QString TolerationsKey = QStringLiteral("tolerations");
const QString PullSecretsKey = QStringLiteral("imagePullSecrets");

std::unexpected<Error> settingError(const QString &key, const QString &entry, const QString &why)
{
    return fail(ErrorCode::InvalidArgument,
                QStringLiteral("Kubernetes setting %1: '%2' %3").arg(key, entry, why));
}

/// Label (and annotation) keys: an optional DNS-subdomain prefix and '/', then a name of at
/// most 63 characters, alphanumeric at both ends (Kubernetes "Labels and Selectors").
bool validLabelKey(const QString &key)
{
    static const QRegularExpression re(
        QStringLiteral("^(?:[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?/"
                       ")?[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$"));
    return re.match(key).hasMatch();
}

bool validLabelValue(const QString &value)
{
    static const QRegularExpression re(
        QStringLiteral("^(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$"));
    return re.match(value).hasMatch();
}

Result<KubernetesToleration> parseToleration(const QString &text)
{
    KubernetesToleration t;
    if (text == u"*") {
        t.op = QStringLiteral("Exists");
        return t;
    }
    QString rest = text;
    if (const qsizetype at = rest.lastIndexOf(u'@'); at >= 0) {
        bool ok = false;
        t.tolerationSeconds = rest.mid(at + 1).toLongLong(&ok);
        if (!ok || t.tolerationSeconds < 0)
            return settingError(TolerationsKey, text,
                                QStringLiteral("has no whole seconds after '@'"));
        rest.truncate(at);
    }
    if (const qsizetype colon = rest.lastIndexOf(u':'); colon >= 0) {
        t.effect = rest.mid(colon + 1);
        static const QStringList effects{QStringLiteral("NoSchedule"),
                                         QStringLiteral("PreferNoSchedule"),
                                         QStringLiteral("NoExecute")};
        if (!effects.contains(t.effect))
            return settingError(
                TolerationsKey, text,
                QStringLiteral("has an unknown effect (NoSchedule, PreferNoSchedule or "
                               "NoExecute)"));
        rest.truncate(colon);
    }
    if (t.tolerationSeconds >= 0 && t.effect != u"NoExecute")
        return settingError(TolerationsKey, text, QStringLiteral("has @seconds without NoExecute"));
    if (const qsizetype eq = rest.indexOf(u'='); eq >= 0) {
        t.key = rest.left(eq);
        t.value = rest.mid(eq + 1);
        if (!validLabelValue(t.value))
            return settingError(TolerationsKey, text, QStringLiteral("has an invalid value"));
    } else {
        t.key = rest;
        t.op = QStringLiteral("Exists");
    }
    if (t.key.isEmpty() ? t.op != u"Exists" : !validLabelKey(t.key))
        return settingError(TolerationsKey, text, QStringLiteral("has an invalid key"));
    return t;
}

} // namespace

QStringList kubernetesSettingKeys()
{
    QStringList keys;
    for (const auto &[key, member] : stringKeys())
        keys << key;
    for (const auto &[key, member] : numberKeys())
        keys << key;
    keys << QStringLiteral("nodeSelector") << TolerationsKey << PullSecretsKey
         << QStringLiteral("labels") << QStringLiteral("annotations");
    return keys;
}

bool kubernetesSettingIsList(const QString &key)
{
    return key == TolerationsKey || key == PullSecretsKey ||
           std::any_of(mapKeys().cbegin(), mapKeys().cend(),
                       [&](const auto &entry) { return entry.first == key; });
}

Result<void> setKubernetesSetting(KubernetesSettings &settings, const QString &key,
                                  const QString &value)
{
    for (const auto &[k, member] : stringKeys()) {
        if (k != key)
            continue;
        const QString v = key == u"rawManifest" ? value : value.trimmed();
        if (key == u"imagePullPolicy" && !v.isEmpty() &&
            !QStringList{QStringLiteral("Always"), QStringLiteral("IfNotPresent"),
                         QStringLiteral("Never")}
                 .contains(v))
            return settingError(key, v, QStringLiteral("is not Always, IfNotPresent or Never"));
        // Requests and limits are Kubernetes quantities ("250m", "1.5", "512Mi", "2G").
        static const QRegularExpression quantity(QStringLiteral(
            R"(^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$)"));
        if ((key.endsWith(u"Request") || key.endsWith(u"Limit") || key == u"ephemeralStorage") &&
            !v.isEmpty() && !quantity.match(v).hasMatch())
            return settingError(
                key, v, QStringLiteral("is not a Kubernetes quantity (e.g. 250m, 2, 512Mi, 1Gi)"));
        settings.*member =
            v.isEmpty() && key == u"imagePullPolicy" ? KubernetesSettings{}.imagePullPolicy : v;
        return {};
    }
    for (const auto &[k, member] : numberKeys()) {
        if (k != key)
            continue;
        bool ok = false;
        const qint64 n = value.trimmed().toLongLong(&ok);
        if (!ok || n < 0)
            return settingError(key, value, QStringLiteral("is not a whole number of seconds"));
        settings.*member = n;
        return {};
    }
    if (!kubernetesSettingIsList(key))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Unknown Kubernetes setting '%1' (known: %2)")
                        .arg(key, kubernetesSettingKeys().join(QStringLiteral(", "))));
    const QStringList entries = value.split(u'\n');
    for (QString entry : entries) {
        entry = entry.trimmed();
        if (entry.isEmpty())
            continue;
        if (key == TolerationsKey) {
            auto t = parseToleration(entry);
            if (!t)
                return std::unexpected(t.error());
            settings.tolerations.append(*t);
            continue;
        }
        if (key == PullSecretsKey) {
            if (!validLabelKey(entry) || entry.contains(u'/'))
                return settingError(key, entry, QStringLiteral("is not a secret name"));
            if (!settings.imagePullSecrets.contains(entry))
                settings.imagePullSecrets.append(entry);
            continue;
        }
        const qsizetype eq = entry.indexOf(u'=');
        if (eq <= 0)
            return settingError(key, entry, QStringLiteral("is not key=value"));
        const QString k = entry.left(eq).trimmed();
        const QString v = entry.mid(eq + 1).trimmed();
        if (!validLabelKey(k))
            return settingError(key, entry, QStringLiteral("has an invalid key"));
        if (key != u"annotations" && !validLabelValue(v))
            return settingError(
                key, entry,
                QStringLiteral("has an invalid value (at most 63 letters, digits, '-', '_' or "
                               "'.', alphanumeric at both ends)"));
        for (const auto &[mk, member] : mapKeys())
            if (mk == key)
                (settings.*member).insert(k, v);
    }
    return {};
}

QString formatKubernetesToleration(const KubernetesToleration &t)
{
    if (t.key.isEmpty() && t.op == u"Exists" && t.effect.isEmpty() && t.tolerationSeconds < 0)
        return QStringLiteral("*");
    QString text = t.key;
    if (t.op != u"Exists")
        text += u'=' + t.value;
    if (!t.effect.isEmpty())
        text += u':' + t.effect;
    if (t.tolerationSeconds >= 0)
        text += u'@' + QString::number(t.tolerationSeconds);
    return text;
}

QList<std::pair<QString, QStringList>> kubernetesSettingValues(const KubernetesSettings &settings)
{
    const KubernetesSettings defaults;
    QList<std::pair<QString, QStringList>> out;
    for (const auto &[key, member] : stringKeys())
        if (settings.*member != defaults.*member)
            out.append({key, {settings.*member}});
    for (const auto &[key, member] : numberKeys())
        if (settings.*member != defaults.*member)
            out.append({key, {QString::number(settings.*member)}});
    for (const QString &key : kubernetesSettingKeys()) {
        QStringList entries;
        if (key == TolerationsKey) {
            for (const KubernetesToleration &t : settings.tolerations)
                entries << formatKubernetesToleration(t);
        } else if (key == PullSecretsKey) {
            entries = settings.imagePullSecrets;
        } else {
            for (const auto &[mk, member] : mapKeys())
                if (mk == key)
                    for (auto it = (settings.*member).cbegin(); it != (settings.*member).cend();
                         ++it)
                        entries << it.key() + u'=' + it.value();
        }
        if (!entries.isEmpty())
            out.append({key, entries});
    }
    return out;
}

} // namespace sandbox
