// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagerecipe.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <nlohmann/json.hpp>

namespace sandbox {

namespace {
// Bump when the way images are built changes (post-processing, helpers baked in).
constexpr auto BuilderVersion = "builder-2"; // debootstrap minbase, then apt-get install
} // namespace

QString ImageRecipe::tag() const
{
    const QByteArray hash = QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex();
    return u'r' + QString::fromLatin1(hash.left(12));
}

QString ImageRecipe::repository() const
{
    return QStringLiteral("sandbox-studio/") + name;
}

Result<ImageRecipe> ImageCatalog::parse(const QByteArray &data)
{
    const auto j = nlohmann::json::parse(data.constBegin(), data.constEnd(), nullptr, false);
    if (!j.is_object())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("image recipe is not a JSON object"));
    ImageRecipe r;
    auto str = [&](const char *k) {
        return j.contains(k) && j[k].is_string() ? QString::fromStdString(j[k].get<std::string>())
                                                 : QString();
    };
    auto list = [&](const char *k) {
        QStringList out;
        if (j.contains(k) && j[k].is_array())
            for (const auto &v : j[k])
                if (v.is_string())
                    out << QString::fromStdString(v.get<std::string>());
        return out;
    };
    r.name = str("name");
    r.description = str("description");
    r.suite = str("suite");
    r.packages = list("packages");
    r.changes = list("changes");
    r.run = list("run");
    if (r.name.isEmpty() || r.suite.isEmpty() || r.packages.isEmpty())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("image recipe needs name, suite and packages"));
    r.canonical = data;
    if (j.contains("files")) {
        if (!j["files"].is_array())
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("image recipe %1: \"files\" is not a list").arg(r.name));
        for (const auto &f : j["files"]) {
            ImageRecipe::File file;
            if (f.is_object()) {
                if (f.contains("path") && f["path"].is_string())
                    file.path = QString::fromStdString(f["path"].get<std::string>());
                if (f.contains("resource") && f["resource"].is_string())
                    file.resource = QString::fromStdString(f["resource"].get<std::string>());
                if (f.contains("mode")) {
                    bool ok = f["mode"].is_string();
                    if (ok)
                        file.mode =
                            QString::fromStdString(f["mode"].get<std::string>()).toInt(&ok, 8);
                    if (!ok || file.mode < 0 || file.mode > 0777)
                        return fail(ErrorCode::InvalidArgument,
                                    QStringLiteral("image recipe %1: the mode of %2 is not an "
                                                   "octal string such as \"0755\"")
                                        .arg(r.name, file.path));
                }
            }
            if (!file.path.startsWith(u'/') || file.path.contains(QLatin1String("..")) ||
                file.resource.isEmpty())
                return fail(ErrorCode::InvalidArgument,
                            QStringLiteral("image recipe %1: each file needs an absolute \"path\" "
                                           "and a \"resource\"")
                                .arg(r.name));
            QFile res(QStringLiteral(":/") + file.resource);
            if (!res.open(QIODevice::ReadOnly))
                return fail(ErrorCode::InvalidArgument,
                            QStringLiteral("image recipe %1: resource %2 is not in the application")
                                .arg(r.name, file.resource));
            file.data = res.readAll();
            r.canonical += "\nfile " + file.resource.toUtf8() + ' ' +
                           QByteArray::number(file.data.size()) + '\n' + file.data;
            r.files.append(file);
        }
    }
    r.canonical += BuilderVersion;
    return r;
}

const ImageCatalog &ImageCatalog::instance()
{
    static const ImageCatalog catalog;
    return catalog;
}

ImageCatalog::ImageCatalog()
{
    const QDir dir(QStringLiteral(":/images"));
    for (const QString &file : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile f(dir.filePath(file));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        if (auto r = parse(f.readAll()))
            m_recipes.append(*r);
    }
}

const ImageRecipe *ImageCatalog::find(const QString &name) const
{
    for (const auto &r : m_recipes)
        if (r.name == name)
            return &r;
    return nullptr;
}

} // namespace sandbox
