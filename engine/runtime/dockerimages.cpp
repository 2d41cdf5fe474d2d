// SPDX-License-Identifier: GPL-3.0-or-later
// DockerRuntime: image listing, Dockerfile builds, commits and archive uploads (Engine API
// v1.41 "Image" and "Container" sections; Podman's compatible tree answers the same).
#include "dockerruntime.h"

#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>
#include <nlohmann/json.hpp>

namespace sandbox {

namespace {

using json = nlohmann::json;

json parseJson(QByteArrayView body)
{
    return json::parse(body.begin(), body.end(), nullptr, false);
}

QString stringOf(const json &j, const char *key)
{
    if (j.is_object() && j.contains(key) && j[key].is_string())
        return QString::fromStdString(j[key].get<std::string>());
    return {};
}

QString networkName(NetworkMode mode)
{
    switch (mode) {
    case NetworkMode::Host:
        return QStringLiteral("host");
    case NetworkMode::Bridge:
        return QStringLiteral("bridge");
    case NetworkMode::None:
        break;
    }
    return QStringLiteral("none");
}

json toJsonObject(const QMap<QString, QString> &map)
{
    json j = json::object();
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        j[it.key().toStdString()] = it.value().toStdString();
    return j;
}

/// Podman lists fully qualified names ("localhost/x:1" for built and committed images,
/// "docker.io/x:1" for imported ones); Docker lists what was typed ("x:1"). Podman's tags
/// are given in Docker's short form so that both backends list the names used to make
/// and run the images.
QString familiarTag(const QString &tag)
{
    for (const QLatin1String prefix : {QLatin1String("docker.io/library/"),
                                       QLatin1String("docker.io/"), QLatin1String("localhost/")})
        if (tag.startsWith(prefix))
            return tag.mid(prefix.size());
    return tag;
}

} // namespace

Result<QList<ImageInfo>> DockerRuntime::listImageInfos()
{
    if (auto d = detectEngine(); !d)
        return std::unexpected(d.error());
    const QString path = api(QStringLiteral("/images/json"));
    auto resp = m_http.request("GET", path, {}, {}, 30000);
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok())
        return std::unexpected(engineError(*resp, QStringLiteral("GET ") + path));
    const json j = parseJson(resp->body);
    if (!j.is_array())
        return fail(ErrorCode::ProtocolError, QStringLiteral("image list is not an array"));
    QList<ImageInfo> out;
    for (const auto &image : j) {
        if (!image.is_object())
            continue;
        ImageInfo info;
        info.id = stringOf(image, "Id");
        if (image.contains("RepoTags") && image["RepoTags"].is_array())
            for (const auto &tag : image["RepoTags"])
                if (tag.is_string() && tag.get<std::string>() != "<none>:<none>") {
                    const QString t = QString::fromStdString(tag.get<std::string>());
                    const QString shown = m_isPodman ? familiarTag(t) : t;
                    if (!info.tags.contains(shown))
                        info.tags << shown;
                }
        if (image.contains("Size") && image["Size"].is_number())
            info.sizeBytes = image["Size"].get<qint64>();
        if (image.contains("Created") && image["Created"].is_number())
            info.created = image["Created"].get<qint64>();
        if (image.contains("Labels") && image["Labels"].is_object())
            for (auto it = image["Labels"].begin(); it != image["Labels"].end(); ++it)
                if (it.value().is_string())
                    info.labels.insert(QString::fromStdString(it.key()),
                                       QString::fromStdString(it.value().get<std::string>()));
        out.append(std::move(info));
    }
    return out;
}

Result<QString> DockerRuntime::buildImage(const QByteArray &contextTar, const BuildOptions &options,
                                          std::function<void(const QString &)> log,
                                          const CancelToken &cancel)
{
    if (options.network == NetworkMode::Bridge)
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("Builds run with network none or host here, not bridge"));
    QUrlQuery q;
    if (!options.tag.isEmpty())
        q.addQueryItem(QStringLiteral("t"), options.tag);
    q.addQueryItem(QStringLiteral("dockerfile"), options.dockerfile);
    q.addQueryItem(QStringLiteral("networkmode"), networkName(options.network));
    q.addQueryItem(QStringLiteral("rm"), QStringLiteral("1"));
    q.addQueryItem(QStringLiteral("forcerm"), QStringLiteral("1"));
    q.addQueryItem(QStringLiteral("version"), QStringLiteral("1"));
    if (options.noCache)
        q.addQueryItem(QStringLiteral("nocache"), QStringLiteral("1"));
    auto encodeJson = [](const json &j) {
        return QString::fromUtf8(QUrl::toPercentEncoding(QString::fromStdString(j.dump())));
    };
    QString query = q.toString(QUrl::FullyEncoded);
    if (!options.buildArgs.isEmpty())
        query += QStringLiteral("&buildargs=") + encodeJson(toJsonObject(options.buildArgs));
    if (!options.labels.isEmpty())
        query += QStringLiteral("&labels=") + encodeJson(toJsonObject(options.labels));
    const QString path = api(QStringLiteral("/build?") + query);

    QByteArray pending, raw;
    QString failure, imageId, lastStep, lastStepNumber;
    auto handleLine = [&](QByteArrayView line) {
        if (line.trimmed().isEmpty())
            return;
        const json j = parseJson(line);
        if (j.is_discarded()) {
            if (log)
                log(QString::fromUtf8(line).trimmed());
            return;
        }
        if (j.contains("error") || j.contains("errorDetail")) {
            failure = stringOf(j, "error");
            if (failure.isEmpty() && j["errorDetail"].is_object())
                failure = stringOf(j["errorDetail"], "message");
            if (log)
                log(QStringLiteral("ERROR: ") + failure);
            return;
        }
        if (j.contains("aux") && j["aux"].is_object()) {
            const QString id = stringOf(j["aux"], "ID");
            if (!id.isEmpty())
                imageId = id;
            return;
        }
        QString text = stringOf(j, "stream");
        if (text.isEmpty())
            text = stringOf(j, "status");
        // Colour codes of the build's programs (pip's warnings) mean nothing in a log view.
        static const QRegularExpression ansi(QStringLiteral("\x1b\\[[0-9;]*[A-Za-z]"));
        text.remove(ansi);
        for (const QString &l : text.split(u'\n', Qt::SkipEmptyParts)) {
            static const QRegularExpression step(
                QStringLiteral(R"(^(?:Step|STEP) (\d+/\d+) ?: ?(.*)$)"));
            if (const auto m = step.match(l); m.hasMatch()) {
                lastStepNumber = m.captured(1);
                lastStep = m.captured(2);
            }
            if (l.startsWith(QLatin1String("Successfully built ")) && imageId.isEmpty())
                imageId = l.mid(19).trimmed();
            if (log)
                log(l);
        }
    };
    HttpClient::StreamOptions opts;
    opts.body = contextTar;
    opts.contentType = "application/x-tar";
    opts.cancel = cancel;
    opts.onData = [&](QByteArrayView data) {
        pending += data;
        if (raw.size() < 4096)
            raw += data.first(qMin<qsizetype>(data.size(), 4096));
        qsizetype nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            handleLine(QByteArrayView(pending).first(nl));
            pending.remove(0, nl + 1);
        }
        return true;
    };
    auto resp = m_http.stream("POST", path, std::move(opts));
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok()) {
        HttpResponse answered = *resp;
        answered.body = raw;
        Error e = engineError(answered, QStringLiteral("POST /build"));
        e.message = QStringLiteral("Building %1 failed: %2")
                        .arg(options.tag.isEmpty() ? QStringLiteral("the image") : options.tag,
                             stringOf(parseJson(raw), "message").isEmpty()
                                 ? e.message
                                 : stringOf(parseJson(raw), "message"));
        if (e.code == ErrorCode::NotFound)
            e.code = ErrorCode::ImageMissing; // FROM names an image that is not here
        return std::unexpected(e);
    }
    handleLine(pending);
    if (!failure.isEmpty()) {
        failure = failure.trimmed();
        const QString target = options.tag.isEmpty() ? QStringLiteral("the image") : options.tag;
        // A RUN step whose command failed. Docker says "The command '/bin/sh -c ...' returned
        // a non-zero code: 3", Podman (buildah) "building at STEP \"RUN ...\": while running
        // runtime: exit status 3": one message for both, the engine's own in the detail.
        static const QRegularExpression exitCode(
            QStringLiteral(R"((?:returned a non-zero code|exit status):? (\d+)\s*$)"));
        if (const auto m = exitCode.match(failure);
            m.hasMatch() && !lastStep.startsWith(QLatin1String("FROM "), Qt::CaseInsensitive))
            return fail(ErrorCode::EngineError,
                        QStringLiteral("Building %1 failed: step %2 (%3) exited with code %4")
                            .arg(target,
                                 lastStepNumber.isEmpty() ? QStringLiteral("?") : lastStepNumber,
                                 lastStep, m.captured(1)),
                        QStringLiteral("POST /build: ") + failure);
        ErrorCode code = ErrorCode::EngineError;
        // FROM an image that is neither local nor pullable (no registry here).
        if (failure.contains(QLatin1String("pull access denied")) ||
            failure.contains(QLatin1String("not found")) ||
            failure.contains(QLatin1String("no such host")) ||
            failure.contains(QLatin1String("dial tcp")))
            code = ErrorCode::ImageMissing;
        if (lastStep.startsWith(QLatin1String("FROM "), Qt::CaseInsensitive))
            failure = QStringLiteral("the base image %1 is not here and could not be pulled "
                                     "(build or import it first; no registry may be reachable "
                                     "from here): %2")
                          .arg(lastStep.mid(5).section(u' ', 0, 0), failure);
        return fail(code, QStringLiteral("Building %1 failed: %2").arg(target, failure),
                    QStringLiteral("POST /build"));
    }
    if (imageId.isEmpty())
        imageId = options.tag;
    return imageId;
}

Result<QString> DockerRuntime::commit(const QString &id, const QString &repo, const QString &tag,
                                      const QStringList &changes)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("container"), id);
    q.addQueryItem(QStringLiteral("repo"), repo);
    q.addQueryItem(QStringLiteral("tag"), tag);
    q.addQueryItem(QStringLiteral("pause"), QStringLiteral("true"));
    for (const QString &c : changes)
        q.addQueryItem(QStringLiteral("changes"), c);
    const QString path = api(QStringLiteral("/commit?") + q.toString(QUrl::FullyEncoded));
    auto resp = m_http.request("POST", path, QByteArrayLiteral("{}"), "application/json", 300000);
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok())
        return std::unexpected(engineError(*resp, QStringLiteral("POST /commit")));
    const QString imageId = stringOf(parseJson(resp->body), "Id");
    return imageId.isEmpty() ? repo + u':' + tag : imageId;
}

Result<void> DockerRuntime::putArchive(const QString &id, const QString &path,
                                       const QByteArray &tar)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("path"), path);
    const QString url = api(QStringLiteral("/containers/%1/archive?")
                                .arg(QString::fromUtf8(QUrl::toPercentEncoding(id))) +
                            q.toString(QUrl::FullyEncoded));
    auto resp = m_http.request("PUT", url, tar, "application/x-tar", 300000);
    if (!resp)
        return std::unexpected(resp.error());
    if (!resp->ok())
        return std::unexpected(engineError(*resp, QStringLiteral("PUT archive ") + path));
    return {};
}

} // namespace sandbox
