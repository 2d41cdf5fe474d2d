// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "util/error.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

/// A sandbox image made offline from distribution packages (resources/images/NAME.json):
/// debootstrap of `suite` with `packages`, then imported into the engine with `changes`
/// (Dockerfile instructions such as "ENV A=b", "WORKDIR /sandbox").
struct ImageRecipe
{
    QString name; ///< "python"
    QString description;
    QString suite; ///< Debian suite, "trixie"
    QStringList packages;
    QStringList changes;
    QByteArray canonical; ///< the recipe file's bytes plus the builder version: hashed

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

    /// Parses a recipe. Errors: InvalidArgument naming the missing field.
    static Result<ImageRecipe> parse(const QByteArray &json);

private:
    ImageCatalog();
    QList<ImageRecipe> m_recipes;
};

} // namespace sandbox
