// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 11, the window's side: it survives an engine that is unreachable at start and
// reconnects on its own (backoff, no restart, no Retry press) once the engine comes back;
// and code typed before the application is SIGKILLed is restored at the next start.
//
// The engine here is the fault tests' own second dockerd (tests/faults/faults-dockerd.sh,
// unix:///run/sandbox-studio-faults/docker.sock), which this test stops and starts; the
// shared main dockerd is never touched.
#include "codeeditor.h"
#include "enginebanner.h"
#include "mainwindow.h"
#include "outputconsole.h"
#include "session/engine.h"

#include <QApplication>
#include <QDir>
#include <QLoggingCategory>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace {

const QString Script = QStringLiteral(SANDBOX_FAULTS_DIR "/faults-dockerd.sh");
const QString FaultsSocket = u"unix:///run/sandbox-studio-faults/docker.sock"_s;

bool daemonCtl(const QStringList &args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(u"bash"_s, QStringList{Script} + args);
    if (!p.waitForFinished(600'000)) {
        p.kill();
        p.waitForFinished();
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning().noquote() << "faults-dockerd.sh" << args.join(u' ') << "failed:" << p.readAll();
        return false;
    }
    return true;
}

const char *CrashCode1 = "print(\"restored after a crash\", 6 * 7)";
const char *CrashCode2 = "# typed just before the SIGKILL";

/// The child processes of draftSurvivesSigkill: "type" types code and waits to be killed;
/// "show" starts the window and prints the editor's text (base64) after "TEXT:".
int childMain(const QString &mode)
{
    QStandardPaths::setTestModeEnabled(true);
    MainWindow window(nullptr);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 3;
    window.setLanguage(u"python"_s);
    if (mode == u"type") {
        window.editor()->setFocus();
        QTest::keyClick(window.editor(), Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(window.editor(), QString::fromUtf8(CrashCode1));
        QTest::keyClick(window.editor(), Qt::Key_Return);
        QTest::keyClicks(window.editor(), QString::fromUtf8(CrashCode2));
        // The autosave runs a second after the last edit.
        QTest::qWait(1600);
        std::printf("TYPED\n");
        std::fflush(stdout);
        for (;;)
            QTest::qWait(1000); // until SIGKILL
    }
    std::printf("TEXT:%s\n", window.editor()->toPlainText().toUtf8().toBase64().constData());
    std::fflush(stdout);
    return 0;
}

} // namespace

class TestResilience : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        if (!qEnvironmentVariableIsSet("SANDBOX_AGENT_PATH"))
            qputenv("SANDBOX_AGENT_PATH", SANDBOX_AGENT_BINARY);
        QLoggingCategory::setFilterRules(u"sandbox.*.debug=false"_s);
    }

    void init()
    {
        for (auto location : {QStandardPaths::AppDataLocation, QStandardPaths::AppConfigLocation}) {
            const QString dir = QStandardPaths::writableLocation(location);
            QVERIFY(dir.contains(u".qttest"_s));
            QDir(dir).removeRecursively();
        }
    }

    /// Unreachable at start: banner, automatic retries with backoff; the engine comes back:
    /// the banner clears by itself and a run succeeds, in the same window.
    void reconnectsWhenEngineComesBack()
    {
        auto image = sandbox::Engine::defaultImageFor(u"python"_s);
        QVERIFY(image);
        // Make sure the image is there, then take the daemon away.
        QVERIFY2(
            daemonCtl({u"start"_s, *image}),
            "the fault tests' dockerd did not come up (tests/faults/faults-dockerd.sh; on the "
            "host `tests/faults/faults-dockerd.sh serve &` must run: ./studio.sh test starts it)");
        QVERIFY(daemonCtl({u"stop"_s}));

        sandbox::BackendProfile profile;
        profile.uri = FaultsSocket;
        auto engine = sandbox::Engine::create(profile);
        QVERIFY(engine);
        MainWindow window(*engine);
        QSignalSpy checked(&window, &MainWindow::engineChecked);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *banner = window.findChild<EngineBanner *>(u"engineBanner"_s);
        QVERIFY(banner);
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() >= 1, 10'000);
        QCOMPARE(checked.first().first().toBool(), false);
        QVERIFY(!window.isEngineReachable());
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->headline().contains(u"Retrying automatically"_s),
                 qPrintable(banner->headline()));
        QVERIFY(window.reconnectInMs() > 0);
        // It keeps trying (backoff: 1 s, 2 s, ...) while the engine stays away, and the
        // window stays responsive meanwhile (this wait runs its event loop).
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() >= 3, 15'000);
        QVERIFY(!window.isEngineReachable());
        QVERIFY(banner->isVisible());

        // The engine comes back; nobody presses Retry.
        QVERIFY(daemonCtl({u"start"_s}));
        QTRY_VERIFY_WITH_TIMEOUT(window.isEngineReachable(), 60'000);
        QVERIFY(banner->isHidden());
        QCOMPARE(window.reconnectInMs(), -1);

        // And runs work in that window.
        window.setLanguage(u"python"_s);
        window.editor()->clear();
        window.editor()->setFocus();
        QTest::keyClicks(window.editor(), u"print('back', 6 * 7)"_s);
        QSignalSpy finished(&window, &MainWindow::runFinished);
        window.runCode();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120'000);
        const QString text = window.console()->toPlainText();
        QVERIFY2(finished.first().first().toBool(), qPrintable(text));
        QVERIFY2(text.contains(u"back 42"_s), qPrintable(text));
    }

    /// Code typed, the application SIGKILLed (no close, no save), started again: the code
    /// is back in the editor.
    void draftSurvivesSigkill()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, home.path());
        env.remove(u"XDG_DATA_HOME"_s);
        env.remove(u"XDG_CONFIG_HOME"_s);
        env.insert(u"DOCKER_HOST"_s, u"unix://"_s + home.filePath(u"no-engine.sock"_s));
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);

        QProcess typer;
        typer.setProcessEnvironment(env);
        env.insert(u"SANDBOX_RESILIENCE_CHILD"_s, u"type"_s);
        typer.setProcessEnvironment(env);
        typer.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY2(typer.waitForStarted(), qPrintable(typer.errorString()));
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += typer.readAllStandardOutput()).contains("TYPED") ||
                                     typer.state() == QProcess::NotRunning,
                                 60'000);
        QVERIFY2(out.contains("TYPED"), QByteArray(out + typer.readAllStandardError()).constData());
        QCOMPARE(::kill(pid_t(typer.processId()), SIGKILL), 0);
        QVERIFY(typer.waitForFinished(10'000));
        QCOMPARE(typer.exitStatus(), QProcess::CrashExit);

        QProcess shower;
        env.insert(u"SANDBOX_RESILIENCE_CHILD"_s, u"show"_s);
        shower.setProcessEnvironment(env);
        shower.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(shower.waitForFinished(60'000));
        const QByteArray shown = shower.readAllStandardOutput();
        const qsizetype at = shown.indexOf("TEXT:");
        QVERIFY2(at >= 0, QByteArray(shown + shower.readAllStandardError()).constData());
        const QString text =
            QString::fromUtf8(QByteArray::fromBase64(shown.mid(at + 5).split('\n').first()));
        QVERIFY2(text.contains(QString::fromUtf8(CrashCode1)), qPrintable(text));
        QVERIFY2(text.contains(QString::fromUtf8(CrashCode2)), qPrintable(text));
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QString mode = qEnvironmentVariable("SANDBOX_RESILIENCE_CHILD");
    if (!mode.isEmpty())
        return childMain(mode);
    TestResilience test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_resilience.moc"
