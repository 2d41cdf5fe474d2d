// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/error.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

/// A sandbox image made offline from distribution packages (resources/images/NAME.json):
/// debootstrap of `suite` with `packages`, then `files` copied in and the `run` commands
/// run in the new root, then imported into the engine with `changes` (Dockerfile
/// instructions such as "ENV A=b", "WORKDIR /sandbox").
struct ImageRecipe
{
    /// A file of the application's resources put into the image before the run steps.
    struct File
    {
        QString path;     ///< absolute path in the image, "/usr/lib/sandbox-studio/x.go"
        QString resource; ///< resource name under :/ ("images/go/gocacheprog.go")
        QByteArray data;  ///< its bytes (read when the recipe is parsed)
        int mode = 0644;  ///< permission bits; the file is root's
    };

    QString name; ///< "python"
    QString description;
    QString suite; ///< Debian suite, "trixie"
    QStringList packages;
    QList<File> files; ///< "files": [{"path": ..., "resource": ..., "mode": "0755"}]
    /// "run": shell commands (/bin/sh -e -c) run one after the other as root in the new
    /// root (chroot) after the packages and files, with /proc mounted, no network name
    /// service and the environment PATH, HOME=/root, LANG=C.UTF-8 only (not the image's
    /// ENV changes): build-time work such as compiling helpers or prebuilding caches. A
    /// failing command fails the build.
    QStringList run;
    QStringList changes;
    /// The recipe file's bytes, the bytes of its files and the builder version: hashed, so
    /// a change to any of them (a helper's source, too) gives a new tag.
    QByteArray canonical;

    /// "r" + first 12 hex digits of sha256(canonical): a changed recipe gives a new tag.
    QString tag() const;
    /// "sandbox-studio/NAME".
    QString repository() const;
    /// "sandbox-studio/NAME:TAG".
    QString reference() const { return repository() + u':' + tag(); }
};

/// The recipes compiled into the application (qrc :/images/*.json).
class ImageCatalog
{
public:
    static const ImageCatalog &instance();
    /// nullptr when there is no recipe of that name.
    const ImageRecipe *find(const QString &name) const;
    const QList<ImageRecipe> &all() const { return m_recipes; }

    /// Parses a recipe; its files' resources are read from the application (:/RESOURCE).
    /// Errors: InvalidArgument naming the missing field, a relative file path, a bad mode
    /// or a resource that is not there.
    static Result<ImageRecipe> parse(const QByteArray &json);

private:
    ImageCatalog();
    QList<ImageRecipe> m_recipes;
};

} // namespace sandbox
