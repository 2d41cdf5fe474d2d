// SPDX-License-Identifier: GPL-3.0-or-later
// Plots and files come back as artifacts: every figure once and in order, libraries that
// draw through matplotlib or save files, limits with a flag, names that cannot escape.
#include "testsupport.h"

#include <QTest>

using namespace sandbox;

class TestArtifacts final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void figureLeftOpenAtExit();
    void showThenOpenFigureEachOnce();
    void seabornThroughMatplotlib();
    void plotlyFigure();
    void pilImageSavedToFile();
    void outputDirectoryFilesWithMimeAndSize();
    void countAndSizeCapsAreFlagged();
    void workDirFilesAreConfigurable();
    void symlinksAreRefused();
    void rGgsaveAndPrintEachOnce();
    void cleanupTestCase();

private:
    Result<RunResult> run(const QString &language, const QString &code, Limits limits = {})
    {
        RunRequest req;
        req.language = language;
        req.code = code;
        req.limits = limits;
        req.limits.timeoutMs = 120'000;
        req.origin = RunOrigin::Test;
        return m_engine->runBlocking(req);
    }
    static QStringList names(const RunResult &r)
    {
        QStringList out;
        for (const Artifact &a : r.artifacts)
            out << a.name;
        return out;
    }
    static bool isPng(const Artifact &a)
    {
        return a.data.startsWith("\x89PNG\r\n\x1a\n") && a.size() > 500;
    }
    std::shared_ptr<Engine> m_engine;
};

void TestArtifacts::initTestCase()
{
    m_engine = test::requireEngine();
    QVERIFY(m_engine);
}

void TestArtifacts::figureLeftOpenAtExit()
{
    auto r = run(QStringLiteral("python"),
                 QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1, 2, 4])\n"));
    QVERIFY_RESULT(r);
    QCOMPARE(names(*r), QStringList{QStringLiteral("output/figure-001.png")});
    QVERIFY(isPng(r->artifacts[0]));
}

void TestArtifacts::showThenOpenFigureEachOnce()
{
    auto r = run(QStringLiteral("python"),
                 QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1])\nplt.show()\n"
                                "plt.figure()\nplt.plot([2])\nplt.savefig('saved.png')\n"
                                "plt.figure()\nplt.plot([3])\n"));
    QVERIFY_RESULT(r);
    // Shown once, saved once (not written again at exit), left open once.
    QCOMPARE(names(*r),
             QStringList({QStringLiteral("output/figure-001.png"),
                          QStringLiteral("output/figure-002.png"), QStringLiteral("saved.png")}));
    for (const Artifact &a : r->artifacts)
        QVERIFY(isPng(a));
}

void TestArtifacts::seabornThroughMatplotlib()
{
    auto r = run(QStringLiteral("python"),
                 QStringLiteral("import seaborn as sns\nimport matplotlib.pyplot as plt\n"
                                "sns.histplot([1, 2, 2, 3, 3, 3])\nplt.show()\n"));
    QVERIFY_RESULT(r);
    QVERIFY2(r->exitCode == 0, r->stderrData.constData());
    QCOMPARE(names(*r), QStringList{QStringLiteral("output/figure-001.png")});
}

void TestArtifacts::plotlyFigure()
{
    auto r =
        run(QStringLiteral("python"),
            QStringLiteral("import plotly.express as px\n"
                           "fig = px.bar(x=['a', 'b'], y=[3, 5], title='plotly in a sandbox')\n"
                           "fig.show()\n"));
    QVERIFY_RESULT(r);
    QVERIFY2(r->exitCode == 0, r->stderrData.constData());
    QCOMPARE(r->artifacts.size(), 1);
    const Artifact &a = r->artifacts[0];
    // A static image needs kaleido, which Debian does not package: then a standalone page.
    if (a.name.endsWith(QLatin1String(".png"))) {
        QVERIFY(isPng(a));
    } else {
        QCOMPARE(a.name, QStringLiteral("output/plotly-001.html"));
        QCOMPARE(a.mimeType, QStringLiteral("text/html"));
        QVERIFY(a.data.contains("plotly in a sandbox"));
        QVERIFY(a.size() > 100'000); // plotly.js is inlined: the page works offline
    }
}

void TestArtifacts::pilImageSavedToFile()
{
    auto r = run(QStringLiteral("python"),
                 QStringLiteral("from PIL import Image\n"
                                "Image.new('RGB', (40, 30), 'teal').save('output/swatch.png')\n"
                                "Image.new('RGB', (10, 10), 'red').save('thumb.jpg')\n"));
    QVERIFY_RESULT(r);
    QCOMPARE(names(*r),
             QStringList({QStringLiteral("output/swatch.png"), QStringLiteral("thumb.jpg")}));
    QCOMPARE(r->artifacts[0].mimeType, QStringLiteral("image/png"));
    QCOMPARE(r->artifacts[1].mimeType, QStringLiteral("image/jpeg"));
}

void TestArtifacts::outputDirectoryFilesWithMimeAndSize()
{
    auto r = run(QStringLiteral("javascript"),
                 QStringLiteral(
                     "const fs = require('fs');\n"
                     "fs.writeFileSync('output/report.csv', 'a,b\\n1,2\\n');\n"
                     "fs.mkdirSync('output/nested');\n"
                     "fs.writeFileSync('output/nested/data.json', JSON.stringify({ok: true}));\n"));
    QVERIFY_RESULT(r);
    QCOMPARE(names(*r), QStringList({QStringLiteral("output/nested/data.json"),
                                     QStringLiteral("output/report.csv")}));
    QCOMPARE(r->artifacts[0].mimeType, QStringLiteral("application/json"));
    QCOMPARE(r->artifacts[1].mimeType, QStringLiteral("text/csv"));
    QCOMPARE(r->artifacts[1].size(), 8);
}

void TestArtifacts::countAndSizeCapsAreFlagged()
{
    Limits few;
    few.artifactCount = 3;
    auto many = run(
        QStringLiteral("python"),
        QStringLiteral("for i in range(10):\n    open(f'output/f{i}.txt', 'w').write('x')\n"), few);
    QVERIFY_RESULT(many);
    QCOMPARE(many->artifacts.size(), 3);
    QVERIFY(many->artifactsTruncated);

    Limits small;
    small.artifactBytes = 100'000;
    auto big = run(QStringLiteral("python"),
                   QStringLiteral("open('output/big.bin', 'wb').write(b'x' * 5_000_000)\n"
                                  "open('output/small.txt', 'w').write('ok')\n"),
                   small);
    QVERIFY_RESULT(big);
    QVERIFY(big->artifactsTruncated);
    qint64 total = 0;
    for (const Artifact &a : big->artifacts)
        total += a.size();
    QVERIFY(total <= 100'000);
}

void TestArtifacts::workDirFilesAreConfigurable()
{
    RunRequest req;
    req.language = QStringLiteral("python");
    req.code = QStringLiteral("open('scratch.txt', 'w').write('work dir')\n"
                              "open('output/kept.txt', 'w').write('output dir')\n");
    auto both = m_engine->runBlocking(req);
    QVERIFY_RESULT(both);
    QCOMPARE(names(*both),
             QStringList({QStringLiteral("output/kept.txt"), QStringLiteral("scratch.txt")}));
    req.collectWorkDirFiles = false;
    auto outputOnly = m_engine->runBlocking(req);
    QVERIFY_RESULT(outputOnly);
    QCOMPARE(names(*outputOnly), QStringList{QStringLiteral("output/kept.txt")});
}

void TestArtifacts::symlinksAreRefused()
{
    auto r = run(QStringLiteral("python"),
                 QStringLiteral("import os\nos.symlink('/etc/passwd', 'output/passwd')\n"
                                "os.symlink('../../../../etc', 'output/etc')\n"
                                "open('output/fine.txt', 'w').write('fine')\n"));
    QVERIFY_RESULT(r);
    QCOMPARE(names(*r), QStringList{QStringLiteral("output/fine.txt")});
    QCOMPARE(r->refusedPaths.size(), 2);
    for (const QString &why : r->refusedPaths)
        QVERIFY2(why.contains(QStringLiteral("symbolic link")), qPrintable(why));
}

void TestArtifacts::rGgsaveAndPrintEachOnce()
{
    auto r = run(QStringLiteral("r"),
                 QStringLiteral(
                     "library(ggplot2)\n"
                     "p <- ggplot(data.frame(x = 1:3, y = c(2, 4, 3)), aes(x, y)) + geom_point()\n"
                     "print(p)\n"
                     "ggsave('output/saved.png', p, width = 4, height = 3, dpi = 72)\n"
                     "plot(1:5)\n"));
    QVERIFY_RESULT(r);
    QVERIFY2(r->exitCode == 0, r->stderrData.constData());
    QCOMPARE(names(*r), QStringList({QStringLiteral("output/plot-001.png"),
                                     QStringLiteral("output/plot-002.png"),
                                     QStringLiteral("output/saved.png")}));
    for (const Artifact &a : r->artifacts)
        QVERIFY(isPng(a));
}

void TestArtifacts::cleanupTestCase()
{
    if (m_engine)
        QCOMPARE(test::leftoverSandboxes(*m_engine), 0);
}

QTEST_GUILESS_MAIN(TestArtifacts)
#include "tst_artifacts.moc"
