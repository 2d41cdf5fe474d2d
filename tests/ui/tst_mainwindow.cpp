// SPDX-License-Identifier: GPL-3.0-or-later
// Widget tests of the main window, the editor, the console and the limits panel. The runs
// go to the real engine (Docker at DOCKER_HOST or /var/run/docker.sock): a test that
// needs it fails, saying what to start, when it is not there.
#include "artifactgallery.h"
#include "codeeditor.h"
#include "enginebanner.h"
#include "limitspanel.h"
#include "mainwindow.h"
#include "outputconsole.h"
#include "poolpanel.h"
#include "session/engine.h"
#include "session/pool.h"
#include "testsupport.h"

#include <QAction>
#include <QBuffer>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QListWidget>
#include <QLoggingCategory>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QThread>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace {

constexpr int RunTimeoutMs = 60'000;

/// The first fragment of the console's document that contains text, or an invalid one.
QTextFragment findFragment(const QTextDocument *document, const QString &text)
{
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().text().contains(text))
                return it.fragment();
    return {};
}

} // namespace

class TestMainWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void runsCodeInTheRealEngine();
    void showsStderrDistinctly();
    void runsEveryLanguage_data();
    void runsEveryLanguage();
    void stopsARun();
    void showsArtifactsInline();
    void consoleListsRefusedAndTruncatedArtifacts();
    void reportsMissingEngine();
    void reportsUnreachableEndpoint();
    void restoresCodeAfterRestart();
    void switchesLanguage();
    void backendPickerListsProfiles();
    void limitsPanelConvertsUnits();
    void consoleDecodesRawBytes();
    void consoleKeepsLinesWhole();
    void consoleCapsAFlood();
    void poolPanelShowsAWarmPool();

private:
    /// The real engine; fails the calling test with what to start if it is not usable.
    std::shared_ptr<sandbox::Engine> requireEngine();
    void typeAndRun(MainWindow &window, const QString &code);

    std::shared_ptr<sandbox::Engine> m_engine;
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    // The window's sandbox pool places the agent built with this tree.
    if (!qEnvironmentVariableIsSet("SANDBOX_AGENT_PATH"))
        qputenv("SANDBOX_AGENT_PATH", SANDBOX_AGENT_BINARY);
    QLoggingCategory::setFilterRules(u"sandbox.*.debug=false"_s);
}

void TestMainWindow::init()
{
    // Every test starts without drafts and settings (test mode: under ~/.qttest).
    for (auto location : {QStandardPaths::AppDataLocation, QStandardPaths::AppConfigLocation}) {
        const QString dir = QStandardPaths::writableLocation(location);
        QVERIFY(dir.contains(u".qttest"_s));
        QDir(dir).removeRecursively();
    }
}

std::shared_ptr<sandbox::Engine> TestMainWindow::requireEngine()
{
    // The shared check: fails (never skips) with what to start or build.
    if (!m_engine)
        m_engine = sandbox::test::requireEngine(u"python"_s);
    return m_engine;
}

void TestMainWindow::typeAndRun(MainWindow &window, const QString &code)
{
    window.setLanguage(u"python"_s);
    QCOMPARE(window.language(), u"python"_s);
    QCOMPARE(window.editor()->highlightingDefinition(), u"Python"_s);

    window.editor()->clear();
    window.editor()->setFocus();
    QTest::keyClicks(window.editor(), code);
    QCOMPARE(window.editor()->toPlainText(), code);
}

void TestMainWindow::runsCodeInTheRealEngine()
{
    auto engine = requireEngine();
    if (!engine)
        return;

    MainWindow window(engine);
    QSignalSpy checked(&window, &MainWindow::engineChecked);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // The start-up check reports the engine in the status bar and keeps the banner hidden.
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 10'000);
    QCOMPARE(checked.first().first().toBool(), true);
    auto *banner = window.findChild<EngineBanner *>(u"engineBanner"_s);
    QVERIFY(banner);
    QVERIFY(banner->isHidden());
    auto *status = window.findChild<QLabel *>(u"backendStatus"_s);
    QVERIFY(status);
    QVERIFY2(status->text().contains(engine->runtime().endpointDisplay()),
             qPrintable(status->text()));

    const QString code = uR"(print("hello from the widget test"))"_s;
    typeAndRun(window, code);

    auto *runButton = window.findChild<QToolButton *>(u"runButton"_s);
    auto *stopButton = window.findChild<QToolButton *>(u"stopButton"_s);
    QVERIFY(runButton);
    QVERIFY(stopButton);
    QVERIFY(runButton->isEnabled());
    QVERIFY(!stopButton->isEnabled());

    QSignalSpy started(&window, &MainWindow::runStarted);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QTest::mouseClick(runButton, Qt::LeftButton);
    QCOMPARE(started.count(), 1);
    QVERIFY(window.isRunning());
    QVERIFY(!runButton->isEnabled());
    QVERIFY(stopButton->isEnabled());

    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, RunTimeoutMs);
    const QString text = window.console()->toPlainText();
    qInfo().noquote() << u"console:\n"_s + text;
    QVERIFY2(finished.first().first().toBool(), qPrintable(text));
    QVERIFY2(text.contains(u"hello from the widget test"_s), qPrintable(text));
    QVERIFY2(text.contains(u"exit 0"_s), qPrintable(text));
    QVERIFY(!window.isRunning());
    QVERIFY(runButton->isEnabled());
    QVERIFY(!stopButton->isEnabled());
}

void TestMainWindow::showsStderrDistinctly()
{
    auto engine = requireEngine();
    if (!engine)
        return;

    MainWindow window(engine);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));

    typeAndRun(window,
               uR"(import sys; print("fine"); print("oops", file=sys.stderr); sys.exit(2))"_s);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    // The keyboard path: Ctrl+Return in the editor runs, and does not add a line.
    QTest::keyClick(window.editor(), Qt::Key_Return, Qt::ControlModifier);
    QVERIFY(window.isRunning());
    QVERIFY(!window.editor()->toPlainText().contains(u'\n'));

    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, RunTimeoutMs);
    OutputConsole *console = window.console();
    const QString text = console->toPlainText();
    qInfo().noquote() << u"console:\n"_s + text;
    QVERIFY2(finished.first().first().toBool(), qPrintable(text));
    QVERIFY2(text.contains(u"exit 2"_s), qPrintable(text));

    const QTextFragment oops = findFragment(console->document(), u"oops"_s);
    QVERIFY2(oops.isValid(), qPrintable(text));
    QCOMPARE(oops.charFormat().foreground().color(), console->stderrColor());
    QCOMPARE(oops.charFormat().property(OutputConsole::StreamProperty).toInt(),
             int(OutputConsole::Kind::Stderr));
    const QTextFragment fine = findFragment(console->document(), u"fine"_s);
    QVERIFY(fine.isValid());
    QVERIFY(fine.charFormat().foreground().color() != console->stderrColor());
    QCOMPARE(fine.charFormat().property(OutputConsole::StreamProperty).toInt(),
             int(OutputConsole::Kind::Stdout));
}

void TestMainWindow::runsEveryLanguage_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("expected");
    QTest::newRow("python") << u"python"_s << u"print(sum(range(5)))"_s << u"10"_s;
    QTest::newRow("javascript") << u"javascript"_s
                                << u"console.log([1, 2, 3].map(x => x * 2).join(','))"_s
                                << u"2,4,6"_s;
    QTest::newRow("java")
        << u"java"_s
        << u"public class Hello { public static void main(String[] a) { System.out.println(\"hello \" + (6 * 7)); } }"_s
        << u"hello 42"_s;
    QTest::newRow("cpp")
        << u"cpp"_s
        << u"#include <iostream>\nint main() { std::cout << \"cpp \" << 6 * 7 << '\\n'; }"_s
        << u"cpp 42"_s;
    QTest::newRow("go")
        << u"go"_s
        << u"package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"go\", 6*7) }"_s
        << u"go 42"_s;
    QTest::newRow("r") << u"r"_s << u"cat('r', 6 * 7, '\\n')"_s << u"r 42"_s;
}

void TestMainWindow::runsEveryLanguage()
{
    // Each language can be picked and run from the window (the images of all six exist).
    QFETCH(QString, language);
    QFETCH(QString, code);
    QFETCH(QString, expected);
    auto engine = requireEngine();
    if (!engine)
        return;
    const auto image = sandbox::Engine::defaultImageFor(language);
    QVERIFY(image);
    const auto exists = engine->runtime().imageExists(*image);
    QVERIFY2(exists && *exists, qPrintable(u"image "_s + *image +
                                           u" is missing: run "
                                           u"`sandbox-studio images ensure "_s +
                                           language + u'`'));
    MainWindow window(engine);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.setLanguage(language);
    QCOMPARE(window.language(), language);
    window.editor()->setPlainText(code);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runCode();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, RunTimeoutMs);
    const QString text = window.console()->toPlainText();
    QVERIFY2(finished.first().first().toBool(), qPrintable(text));
    QVERIFY2(text.contains(expected), qPrintable(text));
    QVERIFY2(text.contains(u"exit 0"_s), qPrintable(text));
}

void TestMainWindow::showsArtifactsInline()
{
    auto engine = requireEngine();
    if (!engine)
        return;

    MainWindow window(engine);
    window.resize(1100, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.setLanguage(u"python"_s);
    // Two figures (shown by plt.show(), which the sandbox turns into PNG files) and a CSV.
    const QByteArray csv = "x,y\n1,1\n2,4\n3,9\n";
    window.editor()->setPlainText(
        u"import matplotlib.pyplot as plt\n"
        u"plt.figure(figsize=(6.4, 4.8))\nplt.plot([1, 2, 3], [1, 4, 9])\n"
        u"plt.figure(figsize=(12, 3))\nplt.bar(['a', 'b'], [3, 5])\n"
        u"plt.show()\n"
        u"with open('data.csv', 'w') as f:\n    f.write('x,y\\n1,1\\n2,4\\n3,9\\n')\n"
        u"print('written')\n"_s);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runCode();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, RunTimeoutMs);
    OutputConsole *console = window.console();
    const QString text = console->toPlainText();
    qInfo().noquote() << u"console:\n"_s + text;
    QVERIFY2(finished.first().first().toBool(), qPrintable(text));
    QVERIFY2(text.contains(u"exit 0"_s), qPrintable(text));

    // Two images inline, decoded, and shown no larger than the console (nor enlarged).
    const QList<QImage> images = console->inlineImages();
    QCOMPARE(images.size(), 2);
    for (const QImage &image : images) {
        QVERIFY(!image.isNull());
        const QSizeF shown = console->displaySize(image);
        QVERIFY2(shown.width() <= console->viewport()->width(),
                 qPrintable(u"%1 > %2"_s.arg(shown.width()).arg(console->viewport()->width())));
        QVERIFY(shown.width() <= image.width() && shown.height() <= image.height());
    }
    // The wide figure (1200 px) is scaled down to the console's width.
    QVERIFY(console->displaySize(images.at(1)).width() < images.at(1).width());
    QVERIFY2(text.contains(u"figure-001.png · image/png"_s), qPrintable(text));
    // The CSV as a line with its name, MIME type and size (and Open / Save As links).
    const QString csvLine = u"data.csv · text/csv · "_s + QLocale().formattedDataSize(csv.size());
    QVERIFY2(text.contains(csvLine), qPrintable(text));
    QVERIFY2(text.contains(u"Open  Save As…"_s), qPrintable(text));
    const QList<sandbox::Artifact> shown = console->shownArtifacts();
    QCOMPARE(shown.size(), 3);
    QCOMPARE(shown.at(0).name, u"data.csv"_s); // in the order of their names
    QCOMPARE(shown.at(0).data, csv);

    // The images are painted: the first, scrolled to, is on screen and not blank.
    console->scrollToInlineImage(0);
    QApplication::processEvents();
    const QRect imageRect = console->inlineImageRect(0);
    QVERIFY2(console->viewport()->rect().contains(imageRect),
             qPrintable(u"image at %1,%2 %3x%4 outside the viewport"_s.arg(imageRect.x())
                            .arg(imageRect.y())
                            .arg(imageRect.width())
                            .arg(imageRect.height())));
    const QImage painted = console->viewport()->grab().toImage();
    const QPoint centre = imageRect.center();
    QSet<QRgb> colours;
    for (int dx = -imageRect.width() / 3; dx <= imageRect.width() / 3; dx += 2)
        colours.insert(painted.pixel((centre + QPoint(dx, 0)) * painted.devicePixelRatio()));
    QVERIFY2(colours.size() > 2, "the inline image was not painted");

    // A click on the image opens it full size.
    QVERIFY(console->isImageAt(centre));
    QTest::mouseClick(console->viewport(), Qt::LeftButton, {}, centre);
    QDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<QDialog *>(u"imageDialog"_s)));
    dialog->close();

    // The gallery: three items, newest first, each with the run it came from.
    ArtifactGallery *gallery = window.artifactGallery();
    QVERIFY(gallery);
    QCOMPARE(gallery->count(), 3);
    // The run's last artifact comes first.
    QCOMPARE(gallery->item(0).artifact.name, u"output/figure-002.png"_s);
    QVERIFY(gallery->item(0).isImage());
    QVERIFY(gallery->item(1).isImage());
    QCOMPARE(gallery->item(0).imageSize, QSize(1200, 300));
    QVERIFY(!gallery->image(1).isNull());
    QCOMPARE(gallery->item(2).artifact.name, u"data.csv"_s);
    QVERIFY(!gallery->item(2).isImage());
    QCOMPARE(gallery->item(2).artifact.data, csv);
    QVERIFY2(gallery->item(0).source.startsWith(u"Run 1"_s), qPrintable(gallery->item(0).source));
    QVERIFY(!gallery->view()->item(1)->icon().isNull());
    // Opening an image item shows it full size; the dock is in the View menu.
    QTRY_COMPARE(window.findChildren<QDialog *>(u"imageDialog"_s).size(), 0);
    gallery->open(1);
    QTRY_COMPARE(window.findChildren<QDialog *>(u"imageDialog"_s).size(), 1);
    window.findChild<QDialog *>(u"imageDialog"_s)->close();
    bool inViewMenu = false;
    for (QAction *menu : window.menuBar()->actions())
        if (menu->text() == u"&View"_s && menu->menu())
            inViewMenu =
                menu->menu()->actions().contains(window.artifactsDock()->toggleViewAction());
    QVERIFY(inViewMenu);
    QVERIFY(window.artifactsDock()->isVisible());

    // Save All writes them all to a folder.
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QString error;
    QCOMPARE(gallery->saveAllTo(folder.path(), &error), 3);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QFile saved(folder.filePath(u"data.csv"_s));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(saved.readAll(), csv);
    // Names that clash (the same figure of another run) are kept apart.
    QCOMPARE(gallery->saveAllTo(folder.path(), &error), 3);
    QVERIFY(QFile::exists(folder.filePath(u"data (2).csv"_s)));
}

void TestMainWindow::consoleListsRefusedAndTruncatedArtifacts()
{
    OutputConsole console;
    console.show();
    QVERIFY(QTest::qWaitForWindowExposed(&console));
    sandbox::RunResult result;
    result.exitCode = 0;
    result.artifactsTruncated = true;
    result.refusedPaths << u"link.txt: symbolic link to '/etc/passwd'"_s;
    result.artifacts << sandbox::Artifact{u"broken.png"_s, u"image/png"_s, "not a png"};
    console.beginRun(u"test"_s);
    console.appendResult(result);
    const QString text = console.toPlainText();
    QVERIFY2(text.contains(u"Artifact limit reached"_s), qPrintable(text));
    QVERIFY2(text.contains(u"refused: link.txt: symbolic link to '/etc/passwd'"_s),
             qPrintable(text));
    // An image that does not decode is listed as a file.
    QVERIFY2(text.contains(u"broken.png · image/png"_s), qPrintable(text));
    QVERIFY(console.inlineImages().isEmpty());
    QCOMPARE(console.shownArtifacts().size(), 1);

    console.clearOutput();
    QVERIFY(console.shownArtifacts().isEmpty());

    // An image inline; it leaves with its text when a flood pushes that out of the console.
    QImage picture(300, 200, QImage::Format_RGB32);
    picture.fill(Qt::darkCyan);
    QByteArray png;
    QBuffer buffer(&png);
    QVERIFY(buffer.open(QIODevice::WriteOnly));
    QVERIFY(picture.save(&buffer, "PNG"));
    sandbox::RunResult withImage;
    withImage.exitCode = 0;
    withImage.artifacts << sandbox::Artifact{u"plot.png"_s, u"image/png"_s, png};
    console.setMaximumCharacters(100'000);
    console.beginRun(u"image"_s);
    console.appendResult(withImage);
    QCOMPARE(console.inlineImages().size(), 1);
    QCOMPARE(console.inlineImages().first().size(), QSize(300, 200));
    QVERIFY(console.displaySize(picture).width() <= 300);
    const QByteArray line = QByteArray(99, 'z') + '\n';
    for (int i = 0; i < 3000; ++i)
        console.appendStdout(line);
    console.flush();
    QVERIFY(console.inlineImages().isEmpty());
    QVERIFY(console.shownArtifacts().isEmpty());
}

void TestMainWindow::stopsARun()
{
    auto engine = requireEngine();
    if (!engine)
        return;

    MainWindow window(engine);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.setLanguage(u"python"_s);
    window.editor()->setPlainText(
        u"import time\nprint('started', flush=True)\ntime.sleep(60)\nprint('not reached')\n"_s);

    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runCode();
    // Output streams in while the program runs.
    QTRY_VERIFY_WITH_TIMEOUT(window.console()->toPlainText().contains(u"started"_s), 30'000);
    QVERIFY(window.isRunning());
    QCOMPARE(finished.count(), 0);

    auto *stopButton = window.findChild<QToolButton *>(u"stopButton"_s);
    QVERIFY(stopButton && stopButton->isEnabled());
    QElapsedTimer timer;
    timer.start();
    QTest::mouseClick(stopButton, Qt::LeftButton);
    QVERIFY(!stopButton->isEnabled()); // no second stop while stopping
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20'000);
    qInfo("stopped after %lld ms", timer.elapsed());

    const QString text = window.console()->toPlainText();
    qInfo().noquote() << u"console:\n"_s + text;
    QVERIFY2(!text.contains(u"not reached"_s), qPrintable(text));
    if (finished.first().first().toBool())
        QVERIFY2(text.contains(u"stopped"_s), qPrintable(text));
    QVERIFY(!window.isRunning());
    QVERIFY(window.findChild<QToolButton *>(u"runButton"_s)->isEnabled());
}

void TestMainWindow::reportsMissingEngine()
{
    MainWindow window(nullptr);
    window.setEngineError(sandbox::Error{sandbox::ErrorCode::InvalidArgument,
                                         u"DOCKER_HOST has an unsupported scheme"_s,
                                         u"ftp://example"_s});
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    auto *banner = window.findChild<EngineBanner *>(u"engineBanner"_s);
    QVERIFY(banner);
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->headline().contains(u"DOCKER_HOST has an unsupported scheme"_s),
             qPrintable(banner->headline()));

    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runCode();
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(finished.first().first().toBool(), false);
    const QString text = window.console()->toPlainText();
    QVERIFY2(text.contains(u"Error: DOCKER_HOST has an unsupported scheme"_s), qPrintable(text));
    QVERIFY(!window.isRunning());
}

void TestMainWindow::reportsUnreachableEndpoint()
{
    sandbox::BackendProfile profile;
    profile.uri = u"unix:///nonexistent.sock"_s;
    auto created = sandbox::Engine::create(profile);
    QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));

    MainWindow window(*created);
    QSignalSpy checked(&window, &MainWindow::engineChecked);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 10'000);
    QCOMPARE(checked.first().first().toBool(), false);
    QVERIFY(!window.isEngineReachable());

    // Visible in the window itself, not only in a tooltip, and it says what to do.
    auto *banner = window.findChild<EngineBanner *>(u"engineBanner"_s);
    QVERIFY(banner);
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->headline().contains(u"unix:///nonexistent.sock"_s),
             qPrintable(banner->headline()));
    QVERIFY2(banner->headline().contains(u"Retry"_s), qPrintable(banner->headline()));
    auto *status = window.findChild<QLabel *>(u"backendStatus"_s);
    QVERIFY(status);
    QVERIFY2(status->text().contains(u"not reachable"_s), qPrintable(status->text()));

    // Retry asks again (and fails again).
    auto *retry = banner->findChild<QPushButton *>(u"retryButton"_s);
    QVERIFY(retry);
    QTest::mouseClick(retry, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 2, 10'000);
    QCOMPARE(checked.last().first().toBool(), false);

    // Run gives an error line, and the window recovers.
    window.editor()->setPlainText(u"print(1)"_s);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.runCode();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30'000);
    QCOMPARE(finished.first().first().toBool(), false);
    const QString text = window.console()->toPlainText();
    QVERIFY2(text.contains(u"Error: "_s), qPrintable(text));
    QVERIFY(!window.isRunning());
    QVERIFY(window.findChild<QToolButton *>(u"runButton"_s)->isEnabled());
}

void TestMainWindow::restoresCodeAfterRestart()
{
    const QString code = u"console.log('this survives a restart');\n// é ✓\n"_s;
    {
        MainWindow window(nullptr);
        window.setLanguage(u"javascript"_s);
        window.editor()->setPlainText(code);
        auto limits = window.limitsPanel()->limits();
        limits.memoryBytes = 1024ll << 20;
        limits.timeoutMs = 12'000;
        window.limitsPanel()->setLimits(limits);
        window.limitsPanel()->setNetworkEnabled(true);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.close();
    }
    {
        MainWindow window(nullptr);
        QCOMPARE(window.language(), u"javascript"_s);
        QCOMPARE(window.editor()->toPlainText(), code);
        QCOMPARE(window.editor()->highlightingDefinition(), u"JavaScript"_s);
        QCOMPARE(window.limitsPanel()->limits().memoryBytes, 1024ll << 20);
        QCOMPARE(window.limitsPanel()->limits().timeoutMs, qint64(12'000));
        QVERIFY(window.limitsPanel()->networkEnabled());

        // The autosave runs about a second after the last edit, without a close.
        window.editor()->setPlainText(u"console.log(2);\n"_s);
        QTest::qWait(1500);
        MainWindow other(nullptr);
        QCOMPARE(other.editor()->toPlainText(), u"console.log(2);\n"_s);
    }
}

void TestMainWindow::switchesLanguage()
{
    MainWindow window(nullptr);
    auto *picker = window.findChild<QComboBox *>(u"languagePicker"_s);
    QVERIFY(picker);
    QCOMPARE(picker->count(), 6);
    const QStringList expected{u"python"_s, u"javascript"_s, u"java"_s, u"cpp"_s, u"go"_s, u"r"_s};
    for (const QString &id : expected)
        QVERIFY2(picker->findData(id) >= 0, qPrintable(id));

    // Untouched sample code follows the language, and so does the highlighting.
    window.setLanguage(u"python"_s);
    const QString pythonSample = window.editor()->toPlainText();
    QVERIFY(!pythonSample.isEmpty());
    picker->setCurrentIndex(picker->findData(u"go"_s));
    QCOMPARE(window.language(), u"go"_s);
    QCOMPARE(window.editor()->highlightingDefinition(), u"Go"_s);
    QVERIFY(window.editor()->toPlainText().contains(u"package main"_s));

    // Code the user wrote stays when the language changes.
    window.editor()->setPlainText(u"fmt.Println(42)"_s);
    window.setLanguage(u"cpp"_s);
    QCOMPARE(window.editor()->toPlainText(), u"fmt.Println(42)"_s);
    QCOMPARE(window.editor()->highlightingDefinition(), u"C++"_s);

    // Aliases work; unknown ids change nothing.
    window.setLanguage(u"py"_s);
    QCOMPARE(window.language(), u"python"_s);
    window.setLanguage(u"cobol"_s);
    QCOMPARE(window.language(), u"python"_s);

    // An unknown highlighting name falls back to plain text.
    window.editor()->setLanguage(u"No Such Language"_s);
    QCOMPARE(window.editor()->highlightingDefinition(), u"None"_s);
}

void TestMainWindow::backendPickerListsProfiles()
{
    MainWindow window(nullptr);
    auto *picker = window.findChild<QComboBox *>(u"backendPicker"_s);
    QVERIFY(picker);
    // Built-ins, the user's profiles, a separator and "Manage profiles…", all usable.
    QVERIFY(picker->count() >= 4);
    QCOMPARE(picker->itemText(0), u"Local Docker"_s);
    QCOMPARE(picker->itemText(1), u"Local Podman"_s);
    QCOMPARE(picker->itemText(picker->count() - 1), u"Manage profiles…"_s);
    auto *model = qobject_cast<QStandardItemModel *>(picker->model());
    QVERIFY(model);
    for (int i = 0; i < picker->count(); ++i) {
        if (picker->itemText(i).isEmpty())
            continue; // the separator
        QVERIFY2(model->item(i)->isEnabled(), qPrintable(picker->itemText(i)));
        QVERIFY2(!model->item(i)->text().contains(u"not available"_s),
                 qPrintable(model->item(i)->text()));
    }
    for (const char *name :
         {"editor", "console", "runButton", "stopButton", "limitsPanel", "engineBanner"})
        QVERIFY2(window.findChild<QWidget *>(QString::fromLatin1(name)), name);
}

void TestMainWindow::limitsPanelConvertsUnits()
{
    LimitsPanel panel;
    const sandbox::Limits defaults;
    QCOMPARE(panel.limits().nanoCpus, defaults.nanoCpus);
    QCOMPARE(panel.limits().memoryBytes, defaults.memoryBytes);
    QCOMPARE(panel.limits().pids, defaults.pids);
    QCOMPARE(panel.limits().timeoutMs, defaults.timeoutMs);
    QCOMPARE(panel.limits().outputBytes, defaults.outputBytes);
    QVERIFY(!panel.networkEnabled());

    sandbox::Limits limits;
    limits.nanoCpus = 1'500'000'000;
    limits.memoryBytes = 256ll << 20;
    limits.pids = 64;
    limits.timeoutMs = 5'000;
    limits.outputBytes = 64ll << 10;
    limits.workDirBytes = 32ll << 20; // no control: carried through
    QSignalSpy changed(&panel, &LimitsPanel::limitsChanged);
    panel.setLimits(limits);
    QVERIFY(changed.count() > 0);
    const auto back = panel.limits();
    if (QThread::idealThreadCount() >= 2)
        QCOMPARE(back.nanoCpus, qint64(1'500'000'000));
    QCOMPARE(back.memoryBytes, 256ll << 20);
    QCOMPARE(back.pids, qint64(64));
    QCOMPARE(back.timeoutMs, qint64(5'000));
    QCOMPARE(back.outputBytes, 64ll << 10);
    QCOMPARE(back.workDirBytes, 32ll << 20);

    for (auto *control : panel.findChildren<QWidget *>()) {
        if (qobject_cast<QAbstractSpinBox *>(control) || qobject_cast<QAbstractButton *>(control))
            QVERIFY2(!control->accessibleName().isEmpty(), qPrintable(control->objectName()));
    }

    // Libraries are split on commas and spaces; the standard picker follows the language.
    panel.setLibraries({QStringLiteral("humanize"), QStringLiteral("tabulate==0.9.0")});
    QCOMPARE(panel.libraries(),
             QStringList({QStringLiteral("humanize"), QStringLiteral("tabulate==0.9.0")}));
    panel.setStandards({QStringLiteral("c++17"), QStringLiteral("c++20")}, QStringLiteral("c++20"));
    QCOMPARE(panel.standard(), QStringLiteral("c++20"));
    panel.setStandards({}, {});
    QVERIFY(panel.standard().isEmpty());

    panel.resetToDefaults();
    QCOMPARE(panel.limits().memoryBytes, defaults.memoryBytes);
}

void TestMainWindow::consoleDecodesRawBytes()
{
    OutputConsole console;
    console.beginRun(u"bytes"_s);
    console.appendStdout(QByteArrayView("a\0b\n", 4));
    // "é" split across two chunks, then an invalid byte.
    console.appendStdout(QByteArrayView("caf\xc3", 4));
    console.appendStdout(QByteArrayView("\xa9 \xff!\r", 5));
    console.appendStdout(QByteArrayView("\n\x1b[31mred\x1b[0m\n", 14));
    console.appendStderr(QByteArrayView("warn\n", 5));
    sandbox::RunResult result;
    result.exitCode = 137;
    result.durationMs = 1234;
    result.timedOut = true;
    result.outputTruncated = true;
    console.appendResult(result);

    const QString text = console.toPlainText();
    QVERIFY2(text.contains(u"a\u2400b\n"_s), qPrintable(text));
    QVERIFY2(text.contains(u"café \uFFFD!\nred\n"_s), qPrintable(text));
    QVERIFY2(text.contains(u"exit 137"_s), qPrintable(text));
    QVERIFY2(text.contains(u"timed out"_s), qPrintable(text));
    QVERIFY2(text.contains(u"output truncated"_s), qPrintable(text));
    QVERIFY2(!text.contains(u"\x1b"_s), qPrintable(text));
    const QTextFragment warn = findFragment(console.document(), u"warn"_s);
    QVERIFY(warn.isValid());
    QCOMPARE(warn.charFormat().foreground().color(), console.stderrColor());
}

void TestMainWindow::consoleKeepsLinesWhole()
{
    OutputConsole console;
    console.beginRun(u"lines"_s);
    // A line is shown once complete, so the streams do not mix mid-line.
    console.appendStdout("abc");
    console.appendStderr("err\n");
    console.appendStdout("def\n");
    console.flush();
    QVERIFY2(console.toPlainText().endsWith(u"err\nabcdef\n"_s), qPrintable(console.toPlainText()));

    // A prompt without a newline still shows up after a moment.
    console.appendStdout("name? ");
    QTRY_VERIFY(console.toPlainText().endsWith(u"name? "_s));

    // Status lines start on a line of their own.
    console.appendStatus(u"status"_s);
    console.flush();
    QVERIFY2(console.toPlainText().endsWith(u"name? \nstatus\n"_s),
             qPrintable(console.toPlainText()));
}

void TestMainWindow::consoleCapsAFlood()
{
    OutputConsole console;
    console.setMaximumCharacters(200'000);
    console.show();
    QVERIFY(QTest::qWaitForWindowExposed(&console));

    // 20,000 small chunks (2 MB): appends are cheap, the document is written in batches.
    const QByteArray line = QByteArray(99, 'x') + '\n';
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 20'000; ++i)
        console.appendStdout(line);
    console.appendStdout(QByteArray(50'000, 'y')); // one long line, broken for layout
    console.appendStdout("\nlast line\n");
    qInfo("appending 2 MB in 20,000 chunks took %lld ms", timer.elapsed());
    QTRY_VERIFY(console.toPlainText().contains(u"last line"_s));

    QVERIFY2(console.document()->characterCount() <= 200'000 + 1000,
             qPrintable(QString::number(console.document()->characterCount())));
    QVERIFY(console.toPlainText().startsWith(u"[earlier output removed"_s));
    for (QTextBlock block = console.document()->begin(); block.isValid(); block = block.next())
        QVERIFY(block.length() <= OutputConsole::MaximumLineLength + 1);
}

namespace {

/// Pool sandboxes owned by this process, or -1 (with a warning) when listing fails.
int ownPoolSandboxes(sandbox::Engine &engine)
{
    const auto listed =
        engine.runtime().list(QString::fromLatin1(sandbox::labels::Owner), sandbox::ownerLabel());
    if (!listed) {
        qWarning().noquote() << listed.error().toString();
        return -1;
    }
    int n = 0;
    for (const sandbox::SandboxInfo &info : *listed)
        if (info.labels.value(QString::fromLatin1(sandbox::labels::Kind)) == u"pool"_s)
            ++n;
    return n;
}

} // namespace

void TestMainWindow::poolPanelShowsAWarmPool()
{
    auto engine = requireEngine();
    if (!engine)
        return;

    {
        MainWindow window(engine);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        PoolPanel *panel = window.poolPanel();
        QVERIFY(panel);
        QVERIFY(window.poolDock());
        QCOMPARE(window.poolDock()->windowTitle(), u"Sandbox Pool"_s);
        QVERIFY2(panel->poolEnabled(), "the pool is on by default in the GUI");
        QCOMPARE(panel->warmFor(u"python"_s), 1);
        QCOMPARE(panel->warmFor(u"javascript"_s), 0);
        QCOMPARE(panel->maxPerKey(), 4);
        window.poolDock()->show();
        window.poolDock()->raise();

        // The pool is created on a worker and handed to the engine; python gets warm.
        QTRY_VERIFY2_WITH_TIMEOUT(window.pool() && engine->pool() == window.pool(),
                                  "the window never handed a pool to the engine", 10'000);
        QTRY_VERIFY2_WITH_TIMEOUT(panel->count(u"python"_s, PoolPanel::WarmColumn) >= 1,
                                  qPrintable(u"no warm python sandbox within 60 s; panel: "_s +
                                             panel->totalLabel()->text()),
                                  60'000);
        QVERIFY2(panel->table()->item(0, PoolPanel::LimitsColumn)->text().contains(u"MiB"_s),
                 qPrintable(panel->table()->item(0, PoolPanel::LimitsColumn)->text()));
        QCOMPARE(panel->table()->item(0, PoolPanel::NetworkColumn)->text(), u"none"_s);
        QVERIFY(panel->totalLabel()->text().contains(u"warm"_s));
        QVERIFY(ownPoolSandboxes(*engine) >= 1);
        // Preloaded interpreters are on by default: the warm sandbox has its zygote.
        QVERIFY(panel->zygotesEnabled());
        QVERIFY(window.pool()->options().zygotes);
        int zygotes = 0;
        for (const sandbox::PoolStats &s : window.pool()->stats())
            zygotes += s.zygotesReady;
        QVERIFY2(zygotes >= 1, "the warm python sandbox has no preloaded interpreter");

        // A run through the window borrows the warm sandbox and succeeds.
        typeAndRun(window, u"print(\"pooled\", 6 * 7)"_s);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        window.runCode();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, RunTimeoutMs);
        const QString text = window.console()->toPlainText();
        QVERIFY2(finished.first().first().toBool(), qPrintable(text));
        QVERIFY2(text.contains(u"pooled 42"_s), qPrintable(text));
        QVERIFY2(text.contains(u"exit 0"_s), qPrintable(text));
        qint64 lends = 0;
        for (const sandbox::PoolStats &s : window.pool()->stats())
            lends += s.lends;
        QVERIFY2(lends >= 1, "the run did not go through the pool");

        // The sandbox is reset and comes back (or a fresh one is made).
        QTRY_VERIFY2_WITH_TIMEOUT(panel->count(u"python"_s, PoolPanel::WarmColumn) >= 1 &&
                                      panel->count(u"python"_s, PoolPanel::BusyColumn) == 0,
                                  qPrintable(panel->totalLabel()->text()), 60'000);

        // Off: the engine stops borrowing and the pool's sandboxes go away.
        panel->setZygotesEnabled(false);
        panel->setPoolEnabled(false);
        QTRY_VERIFY_WITH_TIMEOUT(!window.pool() && !engine->pool(), 5'000);
        QCOMPARE(panel->table()->rowCount(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(ownPoolSandboxes(*engine), 0, 30'000);

        panel->setWarmFor(u"python"_s, 2);
        panel->setMaxPerKey(3);
    }

    // The settings come back in a new window, which then keeps the pool off.
    MainWindow again(engine);
    QVERIFY(!again.poolPanel()->poolEnabled());
    QVERIFY(!again.poolPanel()->zygotesEnabled()); // persisted (pool/zygotes)
    QCOMPARE(again.poolPanel()->warmFor(u"python"_s), 2);
    QCOMPARE(again.poolPanel()->maxPerKey(), 3);
    QTest::qWait(500);
    QVERIFY(!again.pool());
    QVERIFY(!engine->pool());
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
