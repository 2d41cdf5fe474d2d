// SPDX-License-Identifier: GPL-3.0-or-later
// Widget test of the Images view against the real engine: the list with sizes and kinds, a
// Dockerfile build started from the form (log streamed, progress bar moving to 100), a
// rootfs import, a pull that fails clearly without a registry, "Use for Runs", removal,
// and the messages for missing input.
#include "imagemanager.h"
#include "images/imagerecipe.h"
#include "session/engine.h"
#include "testsupport.h"
#include "util/tarball.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <unistd.h>

using namespace sandbox;
using namespace Qt::StringLiterals;

namespace {
constexpr int BuildTimeoutMs = 180'000;

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}
} // namespace

class TestImageManager final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void listsImagesWithSizes();
    void buildsFromTheForm();
    void importsARootfs();
    void pullWithoutRegistryShowsTheError();
    void missingInputIsExplained();
    void withoutEngine();
    void cleanupTestCase();

private:
    std::shared_ptr<Engine> m_engine;
    QStringList m_created;
};

void TestImageManager::initTestCase()
{
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
}

void TestImageManager::listsImagesWithSizes()
{
    ImageManager view(m_engine);
    QSignalSpy refreshed(&view, &ImageManager::refreshed);
    view.refresh();
    QTRY_COMPARE_WITH_TIMEOUT(refreshed.size(), 1, 30'000);
    QCOMPARE(refreshed.first().first().toBool(), true);
    const QString python = *Engine::defaultImageFor(u"python"_s);
    QVERIFY2(view.imageRefs().contains(python), qPrintable(view.imageRefs().join(u", "_s)));
    QCOMPARE(view.kindOf(python), u"recipe"_s);
    QVERIFY(view.sizeOf(python) > 100'000'000);
    QVERIFY(view.statusText().contains(u"image"_s));
    // "Use for Runs" hands the selection on.
    QSignalSpy chosen(&view, &ImageManager::imageChosen);
    auto *use = view.findChild<QPushButton *>(u"useImage"_s);
    QVERIFY(use);
    QVERIFY(!use->isEnabled());
    view.selectRef(python);
    QVERIFY(use->isEnabled());
    QTest::mouseClick(use, Qt::LeftButton);
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.first().first().toString(), python);
}

void TestImageManager::buildsFromTheForm()
{
    ImageManager view(m_engine);
    QTemporaryDir ctx;
    QVERIFY(writeFile(ctx.filePath(u"hello.txt"_s), "hello from the GUI build\n"));
    QVERIFY(writeFile(ctx.filePath(u"Dockerfile"_s),
                      u"FROM %1\nCOPY hello.txt /opt/hello.txt\nRUN cat /opt/hello.txt\n"_s
                          .arg(*Engine::defaultImageFor(u"python"_s))
                          .toUtf8()));
    const QString tag = u"sandbox-studio-test/gui-build-%1:1"_s.arg(::getpid());
    view.findChild<QLineEdit *>(u"contextDir"_s)->setText(ctx.path());
    view.findChild<QLineEdit *>(u"buildTag"_s)->setText(tag);
    QSignalSpy finished(&view, &ImageManager::operationFinished);
    QSignalSpy progress(view.progressBar(), &QProgressBar::valueChanged);
    QSignalSpy refreshed(&view, &ImageManager::refreshed);
    auto *build = view.findChild<QPushButton *>(u"buildButton"_s);
    QVERIFY(build->isEnabled());
    QTest::mouseClick(build, Qt::LeftButton);
    QVERIFY(view.isBusy());
    QVERIFY(!build->isEnabled());
    QVERIFY(!view.progressBar()->isHidden());
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, BuildTimeoutMs);
    m_created << tag;
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    const QString log = view.logView()->toPlainText();
    QVERIFY2(log.contains(u"Step 2/3 : COPY hello.txt /opt/hello.txt"_s), qPrintable(log));
    QVERIFY2(log.contains(u"hello from the GUI build"_s), qPrintable(log)); // RUN's output
    QCOMPARE(view.progressBar()->value(), 100);
    // The bar moved through the steps (step 3 of 3 started: 66%) before the end.
    bool intermediate = false;
    for (const auto &args : std::as_const(progress))
        intermediate = intermediate || (args.first().toInt() > 0 && args.first().toInt() < 100);
    QVERIFY(intermediate);
    QCOMPARE(view.statusText(), u"Built %1"_s.arg(tag));
    // The list is read again and shows the new image with its size.
    QTRY_VERIFY_WITH_TIMEOUT(view.imageRefs().contains(tag), 30'000);
    QCOMPARE(view.kindOf(tag), u"image"_s);
    QVERIFY(view.sizeOf(tag) > 0);

    // Removal through the view.
    finished.clear();
    view.removeImage(tag);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60'000);
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && !view.imageRefs().contains(tag), 30'000);
    m_created.removeAll(tag);

    // A failing build names the failing step and its exit code (the same words on Docker
    // and Podman) and leaves the view usable.
    QVERIFY(
        writeFile(ctx.filePath(u"Dockerfile"_s),
                  u"FROM %1\nRUN exit 7\n"_s.arg(*Engine::defaultImageFor(u"python"_s)).toUtf8()));
    finished.clear();
    QTest::mouseClick(build, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, BuildTimeoutMs);
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY2(view.statusText().contains(u"(RUN exit 7) exited with code 7"_s),
             qPrintable(view.statusText()));
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 30'000);
    QVERIFY(build->isEnabled());
}

void TestImageManager::importsARootfs()
{
    ImageManager view(m_engine);
    QTemporaryDir tmp;
    auto tar = makeTar({{u"etc"_s, TarMember::Type::Directory, {}, 0755, {}},
                        {u"etc/motd"_s, TarMember::Type::File, "tiny\n", 0644, {}}});
    QVERIFY_RESULT(tar);
    QVERIFY(writeFile(tmp.filePath(u"rootfs.tar"_s), *tar));
    const QString ref = u"sandbox-studio-test/gui-rootfs-%1:1"_s.arg(::getpid());
    view.findChild<QLineEdit *>(u"rootfsFile"_s)->setText(tmp.filePath(u"rootfs.tar"_s));
    view.findChild<QLineEdit *>(u"importRef"_s)->setText(ref);
    QSignalSpy finished(&view, &ImageManager::operationFinished);
    QTest::mouseClick(view.findChild<QPushButton *>(u"importButton"_s), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60'000);
    m_created << ref;
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QVERIFY(view.logView()->toPlainText().contains(u"Imported "_s + ref));
    QTRY_VERIFY_WITH_TIMEOUT(view.imageRefs().contains(ref), 30'000);
}

void TestImageManager::pullWithoutRegistryShowsTheError()
{
    ImageManager view(m_engine);
    view.findChild<QLineEdit *>(u"pullRef"_s)->setText(u"docker.io/library/busybox:1.36"_s);
    QSignalSpy finished(&view, &ImageManager::operationFinished);
    QTest::mouseClick(view.findChild<QPushButton *>(u"pullButton"_s), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120'000);
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY2(view.statusText().contains(u"No registry may be reachable from here"_s),
             qPrintable(view.statusText()));
    auto *status = view.findChild<QLabel *>(u"imageStatus"_s);
    QVERIFY(status && status->text() == view.statusText());
}

void TestImageManager::missingInputIsExplained()
{
    ImageManager view(m_engine);
    QSignalSpy finished(&view, &ImageManager::operationFinished);
    QTest::mouseClick(view.findChild<QPushButton *>(u"buildButton"_s), Qt::LeftButton);
    QCOMPARE(finished.size(), 1);
    QVERIFY(view.statusText().contains(u"Name a context folder"_s));
    QTest::mouseClick(view.findChild<QPushButton *>(u"importButton"_s), Qt::LeftButton);
    QVERIFY(view.statusText().contains(u"Name a root filesystem tarball"_s));
    QTest::mouseClick(view.findChild<QPushButton *>(u"pullButton"_s), Qt::LeftButton);
    QVERIFY(view.statusText().contains(u"Name an image to pull"_s));
    // A context without a Dockerfile.
    QTemporaryDir empty;
    finished.clear();
    view.buildFromDirectory(empty.path(), u"x/y:1"_s);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
    QVERIFY2(view.statusText().startsWith(u"There is no Dockerfile in"_s),
             qPrintable(view.statusText()));
}

void TestImageManager::withoutEngine()
{
    ImageManager view(nullptr);
    QVERIFY(view.statusText().contains(u"No container engine"_s));
    QVERIFY(!view.findChild<QPushButton *>(u"buildButton"_s)->isEnabled());
    QSignalSpy finished(&view, &ImageManager::operationFinished);
    view.pull(u"python:3"_s);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.first().at(0).toBool(), false);
}

void TestImageManager::cleanupTestCase()
{
    if (m_engine)
        for (const QString &ref : std::as_const(m_created))
            (void)m_engine->runtime().removeImage(ref);
}

QTEST_MAIN(TestImageManager)
#include "tst_imagemanager.moc"
