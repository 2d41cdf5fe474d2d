// SPDX-License-Identifier: GPL-3.0-or-later
// sandbox-studio: the desktop application by default; headless subcommands otherwise.
#include "cli.h"
#include "session/engine.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <cstdio>

#ifndef SANDBOX_STUDIO_NO_GUI
#include "mainwindow.h"

#include <QApplication>
#include <QFile>
#include <QScreen>
#include <QScrollBar>
#include <QSplitter>
#include <QTimer>
#include <QWindow>
#endif

namespace {

bool isHeadlessCommand(const QString &arg)
{
    static const QStringList commands = {
        QStringLiteral("run"),    QStringLiteral("images"), QStringLiteral("doctor"),
        QStringLiteral("policy"), QStringLiteral("reap"),   QStringLiteral("bench"),
        QStringLiteral("deps"),
    };
    return commands.contains(arg);
}

#ifndef SANDBOX_STUDIO_NO_GUI
/// Test hook used by the end-to-end test: load code, run it, grab the screen from the X
/// server, quit. Only active with --e2e-screenshot.
void scheduleE2e(MainWindow &window, const QString &codeFile, const QString &language,
                 const QString &screenshot)
{
    QFile f(codeFile);
    if (f.open(QIODevice::ReadOnly)) {
        window.setLanguage(language);
        window.editor()->setPlainText(QString::fromUtf8(f.readAll()));
    }
    // The whole screen, and most of the height for the console, so the plot shows inline.
    if (const QScreen *screen = QGuiApplication::primaryScreen())
        window.resize(screen->availableSize());
    if (auto *splitter = window.findChild<QSplitter *>(QStringLiteral("mainSplitter")))
        splitter->setSizes({200, 10'000});
    QObject::connect(&window, &MainWindow::runFinished, &window, [&window, screenshot](bool) {
        QTimer::singleShot(1500, &window, [&window, screenshot] {
            // The newest output, the figure included, is at the bottom.
            QScrollBar *bar = window.console()->verticalScrollBar();
            bar->setValue(bar->maximum());
            QCoreApplication::processEvents();
            QScreen *screen = window.windowHandle() ? window.windowHandle()->screen()
                                                    : QGuiApplication::primaryScreen();
            const QPixmap shot = screen->grabWindow(0);
            const bool saved = shot.save(screenshot);
            // The test checks that the run's output reached the console it photographed.
            fprintf(stderr, "e2e: console begin\n%s\ne2e: console end\n",
                    qPrintable(window.console()->toPlainText()));
            fprintf(stderr, "e2e: inline images %d\n",
                    int(window.console()->inlineImages().size()));
            fprintf(stderr, "e2e: screenshot %s %s\n", qPrintable(screenshot),
                    saved ? "saved" : "FAILED");
            QCoreApplication::exit(saved ? 0 : 1);
        });
    });
    QTimer::singleShot(1500, &window, [&window] { window.runCode(); });
}
#endif

} // namespace

int main(int argc, char *argv[])
{
    // Engine debug chatter stays off unless QT_LOGGING_RULES asks for it.
    QLoggingCategory::setFilterRules(QStringLiteral("sandbox.*.debug=false"));
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);

    // Work without a display: version, help and headless commands never touch the GUI.
    if (args.value(0) == QLatin1String("--version") || args.value(0) == QLatin1String("-v")) {
        printf("sandbox-studio %s\n", SANDBOX_STUDIO_VERSION);
        return 0;
    }
    if (args.value(0) == QLatin1String("--help") || args.value(0) == QLatin1String("-h")) {
        printf("%s", qPrintable(cliUsage()));
        return 0;
    }
    if (!args.isEmpty() && isHeadlessCommand(args.value(0))) {
        QCoreApplication app(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("sandbox-studio"));
        QCoreApplication::setApplicationVersion(QStringLiteral(SANDBOX_STUDIO_VERSION));
        return runCli(args);
    }

#ifdef SANDBOX_STUDIO_NO_GUI
    fprintf(stderr, "sandbox-studio was built without the GUI; see --help for commands\n");
    return 2;
#else
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("sandbox-studio"));
    QApplication::setApplicationDisplayName(QStringLiteral("Sandbox Studio"));
    QApplication::setOrganizationName(QStringLiteral("sandbox-studio"));
    QApplication::setApplicationVersion(QStringLiteral(SANDBOX_STUDIO_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.sandboxstudio.SandboxStudio"));

    QString e2eShot, e2eCode, e2eLang = QStringLiteral("python");
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--e2e-screenshot"))
            e2eShot = args.value(i + 1);
        else if (args[i] == QLatin1String("--e2e-code"))
            e2eCode = args.value(i + 1);
        else if (args[i] == QLatin1String("--e2e-language"))
            e2eLang = args.value(i + 1);
    }

    auto engine = sandbox::Engine::create(sandbox::BackendProfile::fromEnvironment());
    MainWindow window(engine ? *engine : nullptr);
    if (!engine)
        window.setEngineError(engine.error());
    window.show();
    if (!e2eShot.isEmpty())
        scheduleE2e(window, e2eCode, e2eLang, e2eShot);
    return app.exec();
#endif
}
