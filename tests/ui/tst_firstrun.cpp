// SPDX-License-Identifier: GPL-3.0-or-later
// The first-run check against the real engine: it finds the running dockerd, reports a
// missing engine with how to get it, lists the images, and builds a missing image (a tiny
// recipe, so the test takes about a minute) with the progress bar moving to 100 %.
#include "firstrundialog.h"
#include "images/imagerecipe.h"
#include "testsupport.h"

#include <QDateTime>
#include <QLabel>
#include <QLoggingCategory>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTreeWidget>
#include <unistd.h>

using namespace Qt::StringLiterals;
using namespace sandbox;

class TestFirstRun final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void findsTheRunningEngineAndSaysWhatIsMissing();
    void listsImagesOfTheCatalog();
    void buildsAMissingImageWithProgress();

private:
    std::shared_ptr<Engine> m_engine;
};

void TestFirstRun::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLoggingCategory::setFilterRules(u"sandbox.*.debug=false"_s);
    m_engine = test::requireEngine(u"python"_s);
    QVERIFY(m_engine);
}

void TestFirstRun::findsTheRunningEngineAndSaysWhatIsMissing()
{
    FirstRunDialog dialog(m_engine);
    const QString dockerUri = qEnvironmentVariable("DOCKER_HOST", u"unix:///var/run/docker.sock"_s);
    dialog.setCandidates({{u"Docker"_s, dockerUri},
                          {u"Podman"_s, u"unix:///nonexistent/sandbox-studio-test/podman.sock"_s}});
    dialog.setRecipes({});
    dialog.show();
    QSignalSpy done(&dialog, &FirstRunDialog::detectionFinished);
    dialog.startDetection();
    // The answer may come before startDetection() returns (nothing to wait for).
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30'000);

    const auto probes = dialog.probes();
    QCOMPARE(probes.size(), 2);
    QVERIFY2(probes[0].reachable, qPrintable(probes[0].problem));
    QVERIFY2(probes[0].version.startsWith(u"Docker "_s) ||
                 probes[0].version.startsWith(u"Podman "_s),
             qPrintable(probes[0].version));
    QVERIFY(!probes[1].present);
    QVERIFY(!probes[1].reachable);
    QVERIFY2(probes[1].hint.contains(u"apt install podman"_s), qPrintable(probes[1].hint));

    // What the user sees.
    QTreeWidget *engines = dialog.enginesView();
    QCOMPARE(engines->topLevelItemCount(), 2);
    QVERIFY(engines->topLevelItem(0)->text(1).startsWith(u"Running: "_s));
    QVERIFY(engines->topLevelItem(1)->text(1).startsWith(u"Not found"_s));
    QVERIFY(engines->topLevelItem(1)->text(1).contains(u"apt install podman"_s));
    QVERIFY2(dialog.summaryLabel()->text().startsWith(u"Found: "_s),
             qPrintable(dialog.summaryLabel()->text()));

    // Nothing answers: the summary says what to do.
    FirstRunDialog none(nullptr);
    none.setCandidates({{u"Docker"_s, u"unix:///nonexistent/sandbox-studio-test/docker.sock"_s}});
    QSignalSpy noneDone(&none, &FirstRunDialog::detectionFinished);
    none.startDetection();
    QTRY_COMPARE_WITH_TIMEOUT(noneDone.count(), 1, 30'000);
    QVERIFY(none.probes().value(0).hint.contains(u"apt install docker.io"_s));
    QVERIFY(none.summaryLabel()->text().contains(u"No container engine answers"_s));
    QVERIFY(none.images().value(0).known == false);
    QVERIFY(!none.buildButton()->isEnabled());
}

void TestFirstRun::listsImagesOfTheCatalog()
{
    FirstRunDialog dialog(m_engine);
    QSignalSpy done(&dialog, &FirstRunDialog::detectionFinished);
    dialog.startDetection();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30'000);
    const auto images = dialog.images();
    QCOMPARE(images.size(), ImageCatalog::instance().all().size());
    QCOMPARE(dialog.imagesView()->topLevelItemCount(), images.size());
    bool pythonSeen = false;
    for (const auto &s : images) {
        QVERIFY(s.known);
        if (s.recipe.name == u"python") {
            pythonSeen = true;
            QVERIFY2(s.present, "the python image is present (requireEngine checked it)");
        }
    }
    QVERIFY(pythonSeen);
    QVERIFY(!dialog.missingImages().contains(u"python"_s));
    QCOMPARE(dialog.buildButton()->isEnabled(), !dialog.missingImages().isEmpty());
}

void TestFirstRun::buildsAMissingImageWithProgress()
{
    if (::geteuid() != 0)
        QFAIL("building images needs root (debootstrap): run the test as root, in the build root");
    // A recipe of its own, unique per run, so the image is missing and is ours to remove.
    const QByteArray json = R"({"name": "firstrun-test", "description": "first-run test",
        "suite": "trixie", "packages": ["tar"], "changes": ["WORKDIR /sandbox"],
        "nonce": ")" + QByteArray::number(QDateTime::currentMSecsSinceEpoch()) +
                            "\"}";
    auto recipe = ImageCatalog::parse(json);
    QVERIFY_RESULT(recipe);
    const QString ref = recipe->reference();

    FirstRunDialog dialog(m_engine);
    dialog.setRecipes({*recipe});
    dialog.show();
    QSignalSpy detected(&dialog, &FirstRunDialog::detectionFinished);
    dialog.startDetection();
    QTRY_COMPARE_WITH_TIMEOUT(detected.count(), 1, 30'000);
    QCOMPARE(dialog.missingImages(), QStringList{u"firstrun-test"_s});
    QVERIFY(dialog.buildButton()->isEnabled());
    QVERIFY(dialog.imagesView()->topLevelItem(0)->text(1) == u"Missing"_s);

    QSignalSpy finished(&dialog, &FirstRunDialog::buildFinished);
    QList<int> values;
    connect(dialog.progressBar(), &QProgressBar::valueChanged, this,
            [&values](int v) { values.append(v); });
    dialog.buildButton()->click();
    QVERIFY(dialog.isBuilding());
    QVERIFY(dialog.progressBar()->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 600'000);
    const bool ok = finished.first().first().toBool();
    QVERIFY2(ok, qPrintable(dialog.buildStatusLabel()->text()));
    QCOMPARE(dialog.progressBar()->value(), 100);
    QVERIFY2(values.size() >= 3, "the progress bar moved in steps");
    QVERIFY(std::is_sorted(values.cbegin(), values.cend()));
    QVERIFY(dialog.missingImages().isEmpty());
    QVERIFY(dialog.imagesView()->topLevelItem(0)->text(1).startsWith(u"Present"_s));
    auto exists = m_engine->runtime().imageExists(ref);
    QVERIFY_RESULT(exists);
    QVERIFY(*exists);
    QVERIFY_RESULT(m_engine->runtime().removeImage(ref));
}

QTEST_MAIN(TestFirstRun)
#include "tst_firstrun.moc"
