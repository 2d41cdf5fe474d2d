// SPDX-License-Identifier: GPL-3.0-or-later
#include "testsupport.h"

#include "runtime/runtime.h"

#include <QDir>

namespace sandbox::test {

std::shared_ptr<Engine> requireEngine(const QString &language)
{
    auto engine = Engine::create(BackendProfile::fromEnvironment());
    if (!engine) {
        QTest::qFail(qPrintable(engine.error().toString()), __FILE__, __LINE__);
        return nullptr;
    }
    auto info = (*engine)->ping();
    if (!info) {
        QTest::qFail(qPrintable(QStringLiteral("The Docker engine is required: %1 Start it with "
                                               "`./studio.sh services` (or dockerd) first.")
                                    .arg(info.error().toString())),
                     __FILE__, __LINE__);
        return nullptr;
    }
    auto image = Engine::defaultImageFor(language);
    if (!image) {
        QTest::qFail(qPrintable(image.error().toString()), __FILE__, __LINE__);
        return nullptr;
    }
    auto exists = (*engine)->runtime().imageExists(*image);
    if (!exists || !*exists) {
        QTest::qFail(qPrintable(QStringLiteral("Image %1 is missing: build it with "
                                               "`sandbox-studio images build %2`")
                                    .arg(*image, language)),
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
