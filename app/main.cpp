// SPDX-License-Identifier: GPL-3.0-or-later
// sandbox-studio: the desktop application by default; headless subcommands otherwise.
#include "cli.h"
#include "session/backendprofiles.h"
#include "session/engine.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLoggingCategory>
#include <cerrno>
#include <cstdio>
#include <cstring>

#ifndef SANDBOX_STUDIO_NO_GUI
#include "mainwindow.h"
#include "preferencesdialog.h"

#include <QApplication>
#include <QFile>
#include <QIcon>
#include <QMenuBar>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSocketNotifier>
#include <QSplitter>
#include <QTimer>
#include <QWindow>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>
#endif

namespace {

bool isHeadlessCommand(const QString &arg)
{
    static const QStringList commands = {
        QStringLiteral("run"),  QStringLiteral("images"),   QStringLiteral("doctor"),
        QStringLiteral("reap"), QStringLiteral("bench"),    QStringLiteral("deps"),
        QStringLiteral("mcp"),  QStringLiteral("backends"), QStringLiteral("policy"),
    };
    return commands.contains(arg);
}

/// The first argument that is neither an option, an option's value, nor anything else the
/// desktop application takes (it takes no file or command of its own), or an empty string.
/// Options are this program's (--language CODE, --e2e-*) and Qt's (-platform NAME, -style
/// NAME, ...; Qt accepts them with one dash or two); other options are left to Qt.
QString strayGuiArgument(const QStringList &args)
{
    static const QStringList withValue = {
        // This program's.
        QStringLiteral("language"), QStringLiteral("e2e-screenshot"), QStringLiteral("e2e-code"),
        QStringLiteral("e2e-language"),
        // QGuiApplication's and QApplication's.
        QStringLiteral("platform"), QStringLiteral("platformpluginpath"),
        QStringLiteral("platformtheme"), QStringLiteral("plugin"),
        QStringLiteral("qwindowgeometry"), QStringLiteral("geometry"),
        QStringLiteral("qwindowtitle"), QStringLiteral("title"), QStringLiteral("qwindowicon"),
        QStringLiteral("icon"), QStringLiteral("display"), QStringLiteral("name"),
        QStringLiteral("style"), QStringLiteral("stylesheet"), QStringLiteral("session"),
        QStringLiteral("qmljsdebugger")};
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args[i];
        if (!arg.startsWith(u'-') || arg.size() == 1)
            return arg;
        QString name = arg.mid(arg.startsWith(QLatin1String("--")) ? 2 : 1);
        if (name.contains(u'='))
            continue; // -style=fusion
        if (withValue.contains(name))
            ++i;
    }
    return {};
}

#ifndef SANDBOX_STUDIO_NO_GUI
/// Whether Qt can find a display: an X11 or Wayland session, or a platform named by
/// QT_QPA_PLATFORM or -platform (offscreen, vnc, ...).
bool haveDisplay(const QStringList &args)
{
    if (!qEnvironmentVariableIsEmpty("DISPLAY") ||
        !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
        !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        return true;
    for (const QString &arg : args)
        if (arg == QLatin1String("-platform") || arg == QLatin1String("--platform") ||
            arg.startsWith(QLatin1String("-platform=")) ||
            arg.startsWith(QLatin1String("--platform=")))
            return true;
    return false;
}

/// SIGTERM, SIGINT and SIGHUP close the window the normal way (draft saved, pool, notebook
/// and MCP bridge shut down): the handler only writes to a pipe that the event loop watches.
/// A second signal while closing ends the process at once, as the default action would.
int g_quitPipe[2] = {-1, -1};
volatile sig_atomic_t g_quitRequested = 0;

void onQuitSignal(int sig)
{
    if (g_quitRequested) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    g_quitRequested = 1;
    const int saved = errno;
    const char byte = char(sig);
    (void)!write(g_quitPipe[1], &byte, 1);
    errno = saved;
}

/// Installs the handlers; on a signal, closes `window` and quits the application. Returns
/// false (and changes nothing) when the pipe cannot be made.
bool quitOnSignals(QWidget &window)
{
    if (pipe2(g_quitPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return false;
    auto *notifier = new QSocketNotifier(g_quitPipe[0], QSocketNotifier::Read, &window);
    QObject::connect(notifier, &QSocketNotifier::activated, &window, [&window, notifier] {
        char byte = 0;
        while (read(g_quitPipe[0], &byte, 1) > 0) {
        }
        notifier->setEnabled(false);
        fprintf(stderr, "sandbox-studio: %s received; closing\n", strsignal(int(byte)));
        window.close();
        QCoreApplication::quit();
    });
    struct sigaction action = {};
    action.sa_handler = onQuitSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
        // A signal ignored on the way in stays ignored: nohup's SIGHUP, a background job's
        // SIGINT.
        struct sigaction old = {};
        if (sig != SIGTERM && sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sig, &action, nullptr);
    }
    return true;
}

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
            QStringList menus;
            for (const QAction *action : window.menuBar()->actions())
                menus << action->text();
            fprintf(stderr, "e2e: menus %s\n", qPrintable(menus.join(u' ')));
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
    // --no-zygote, for the GUI and every command: pools fork no run from a preloaded
    // interpreter (session/pool.h zygotesByDefault).
    if (args.removeAll(QStringLiteral("--no-zygote")) > 0)
        qputenv("SANDBOX_STUDIO_NO_ZYGOTE", "1");

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

    // A typo or a forgotten `run` must not start the window (or, without a display, end in
    // Qt's platform plugin abort that hides the real problem).
    if (const QString stray = strayGuiArgument(args); !stray.isEmpty()) {
        fprintf(stderr, "sandbox-studio: unknown command '%s'\n", qPrintable(stray));
        if (QFileInfo(stray).isFile())
            fprintf(stderr, "To run a program once: sandbox-studio run %s\n", qPrintable(stray));
        else if (stray.contains(u'/') || stray.contains(u'.'))
            fprintf(stderr,
                    "(Nor is there a file '%s'; a program is run with "
                    "'sandbox-studio run FILE'.)\n",
                    qPrintable(stray));
        fprintf(stderr,
                "Usage: sandbox-studio [COMMAND] [OPTIONS]; without a command, it opens the "
                "desktop application.\nSee 'sandbox-studio --help' for the commands.\n");
        return 2;
    }

#ifdef SANDBOX_STUDIO_NO_GUI
    fprintf(stderr, "sandbox-studio was built without the GUI; see --help for commands\n");
    return 2;
#else
    if (!haveDisplay(args)) {
        fprintf(stderr,
                "sandbox-studio: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so the "
                "desktop application cannot open.\n"
                "Run it from a desktop session, under a virtual display (xvfb-run "
                "sandbox-studio), or use a command such as 'sandbox-studio run FILE'.\n"
                "See 'sandbox-studio --help' for the commands.\n");
        return 2;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("sandbox-studio"));
    QApplication::setApplicationDisplayName(QStringLiteral("Sandbox Studio"));
    QApplication::setOrganizationName(QStringLiteral("sandbox-studio"));
    QApplication::setApplicationVersion(QStringLiteral(SANDBOX_STUDIO_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.sandboxstudio.SandboxStudio"));
    {
        QIcon icon = QIcon::fromTheme(QStringLiteral("io.sandboxstudio.SandboxStudio"));
        if (icon.isNull())
            for (int size : {16, 22, 24, 32, 48, 64, 128, 256})
                icon.addFile(
                    QStringLiteral(":/icons/%1x%1/io.sandboxstudio.SandboxStudio.png").arg(size));
        QApplication::setWindowIcon(icon);
    }

    // Language and theme before the first widget: the UI follows the locale unless
    // Preferences ▸ General names a language; --language CODE overrides both (tests).
    const auto settings = StudioSettings::open();
    QString uiLanguage = settings->value(QLatin1String(StudioSettings::key::UiLanguage)).toString();
    if (const qsizetype i = args.indexOf(QLatin1String("--language")); i >= 0)
        uiLanguage = args.value(i + 1);
    StudioSettings::installTranslators(&app, uiLanguage);
    StudioSettings::applyTheme(
        settings->value(QLatin1String(StudioSettings::key::Theme), QStringLiteral("system"))
            .toString());

    QString e2eShot, e2eCode, e2eLang = QStringLiteral("python");
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--e2e-screenshot"))
            e2eShot = args.value(i + 1);
        else if (args[i] == QLatin1String("--e2e-code"))
            e2eCode = args.value(i + 1);
        else if (args[i] == QLatin1String("--e2e-language"))
            e2eLang = args.value(i + 1);
    }

    // An endpoint set in Preferences ▸ Backend wins over the environment.
    sandbox::BackendProfile profile = sandbox::BackendProfile::fromEnvironment();
    if (const QString uri =
            settings->value(QLatin1String(StudioSettings::key::BackendUri)).toString();
        !uri.isEmpty()) {
        profile.uri = uri;
        profile.certPath =
            settings->value(QLatin1String(StudioSettings::key::BackendCertPath)).toString();
        profile.kind =
            profile.certPath.isEmpty() ? QStringLiteral("docker") : QStringLiteral("docker-tls");
    }
    // A profile picked in the backend picker (Run ▸ Backend Profiles) wins over both.
    if (const sandbox::BackendProfileStore profiles; profiles.hasCurrentName())
        if (auto picked = profiles.find(profiles.currentName()))
            profile = *picked;
    auto engine = sandbox::Engine::create(profile);
    MainWindow window(engine ? *engine : nullptr);
    if (!engine)
        window.setEngineError(engine.error());
    if (!quitOnSignals(window))
        fprintf(stderr,
                "sandbox-studio: no pipe for signal handling (%s); SIGTERM ends the "
                "application without closing it\n",
                strerror(errno));
    window.show();
    if (!e2eShot.isEmpty()) {
        scheduleE2e(window, e2eCode, e2eLang, e2eShot);
    } else if (!settings->value(QLatin1String(StudioSettings::key::FirstRunDone)).toBool() ||
               settings->value(QLatin1String(StudioSettings::key::ShowFirstRun)).toBool()) {
        // The setup check, once at the first start (and at every start when asked to).
        settings->setValue(QLatin1String(StudioSettings::key::FirstRunDone), true);
        settings->sync();
        QTimer::singleShot(0, &window, [&window] { window.showSetupCheck(); });
    }
    return app.exec();
#endif
}
