// SPDX-License-Identifier: GPL-3.0-or-later
// The stdio bridge (issue 8): the window's McpHost listens on its local socket; the real
// `sandbox-studio mcp` binary, started here as Claude Desktop starts it, relays its stdio
// client to the window, so the activity feed sees the call and the approval mode applies.
// --standalone leaves the window alone, --require-gui fails without one. The socket is a
// temporary path (SANDBOX_STUDIO_MCP_BRIDGE_SOCKET), so a real window of the person running
// the tests is never touched. Tests that run code need Docker and fail, saying what to start,
// without it.
#include "mcp/mcpbridge.h"
#include "mcp/mcpserver.h"
#include "mcpactivity.h"
#include "mcpapprovaldialog.h"
#include "mcphost.h"
#include "mcppanel.h"
#include "session/engine.h"
#include "testsupport.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLoggingCategory>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <atomic>
#include <thread>

using namespace Qt::StringLiterals;
using namespace sandbox;

namespace {

constexpr int RunTimeoutMs = 120'000;

QByteArray line(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray initializeLine(const QString &clientName)
{
    return line(QJsonObject{
        {u"jsonrpc"_s, u"2.0"_s},
        {u"id"_s, 1},
        {u"method"_s, u"initialize"_s},
        {u"params"_s, QJsonObject{{u"protocolVersion"_s, u"2025-06-18"_s},
                                  {u"capabilities"_s, QJsonObject{}},
                                  {u"clientInfo"_s, QJsonObject{{u"name"_s, clientName},
                                                                {u"version"_s, u"0.9.1"_s}}}}}});
}

QByteArray initializedLine()
{
    return line(
        QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, u"notifications/initialized"_s}});
}

QByteArray callLine(int id, const QString &tool, const QJsonObject &arguments)
{
    return line(
        QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                    {u"id"_s, id},
                    {u"method"_s, u"tools/call"_s},
                    {u"params"_s, QJsonObject{{u"name"_s, tool}, {u"arguments"_s, arguments}}}});
}

/// `sandbox-studio mcp ARGS` as Claude Desktop runs it: requests on stdin, responses read
/// from stdout while the test's event loop keeps running (the window's server lives here).
class McpProcess
{
public:
    explicit McpProcess(const QStringList &args)
    {
        m_process.setProgram(QStringLiteral(SANDBOX_STUDIO_BINARY));
        m_process.setArguments(QStringList{u"mcp"_s} + args);
        m_process.start();
    }
    ~McpProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(30'000))
                m_process.kill();
        }
    }

    bool started() { return m_process.waitForStarted(10'000); }
    void write(const QByteArray &bytes) { m_process.write(bytes); }
    void closeStdin() { m_process.closeWriteChannel(); }
    QProcess &process() { return m_process; }

    /// The response with this id, or an empty object after timeoutMs.
    QJsonObject response(int id, int timeoutMs = 30'000)
    {
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeoutMs) {
            drain();
            for (const QJsonObject &m : std::as_const(m_messages))
                if (m.value(u"id"_s).toInt(-1) == id)
                    return m;
            if (m_process.state() == QProcess::NotRunning) {
                drain();
                break;
            }
            QTest::qWait(20);
        }
        for (const QJsonObject &m : std::as_const(m_messages))
            if (m.value(u"id"_s).toInt(-1) == id)
                return m;
        return {};
    }

    QString stderrText()
    {
        m_stderr += m_process.readAllStandardError();
        return QString::fromUtf8(m_stderr);
    }

    /// Waits for the process to exit (running the event loop); false on timeout.
    bool waitExit(int timeoutMs = 60'000)
    {
        QElapsedTimer timer;
        timer.start();
        while (m_process.state() != QProcess::NotRunning && timer.elapsed() < timeoutMs)
            QTest::qWait(20);
        stderrText();
        return m_process.state() == QProcess::NotRunning;
    }

    static QString text(const QJsonObject &response)
    {
        QString out;
        for (const QJsonValue &c :
             response.value(u"result"_s).toObject().value(u"content"_s).toArray())
            if (c.toObject().value(u"type"_s).toString() == u"text"_s)
                out += c.toObject().value(u"text"_s).toString();
        return out;
    }

private:
    void drain()
    {
        m_stdout += m_process.readAllStandardOutput();
        qsizetype nl;
        while ((nl = m_stdout.indexOf('\n')) >= 0) {
            const QByteArray l = m_stdout.left(nl);
            m_stdout.remove(0, nl + 1);
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(l, &error);
            if (error.error != QJsonParseError::NoError || !doc.isObject())
                qWarning() << "not a JSON-RPC line on stdout:" << l.left(200);
            else
                m_messages << doc.object();
        }
    }

    QProcess m_process;
    QByteArray m_stdout;
    QByteArray m_stderr;
    QList<QJsonObject> m_messages;
};

} // namespace

class TestMcpBridge final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void bridgedRunShowsInTheGui();
    void bridgedStatelessRunShowsInTheGui();
    void approvalDenyThroughTheBridge();
    void standaloneLeavesTheGuiAlone();
    void requireGuiFailsWithoutAWindow();
    void acceptSettingPersistsAndOneWindowHoldsTheSocket();
    void peerCredentialsAreChecked();

private:
    std::shared_ptr<Engine> requireEngine();
    std::unique_ptr<QSettings> freshSettings();

    std::shared_ptr<Engine> m_engine;
    QTemporaryDir m_dir;
    int m_settingsCount = 0;
    QString m_socket;
};

void TestMcpBridge::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLoggingCategory::setFilterRules(u"sandbox.*.debug=false"_s);
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFile::exists(QStringLiteral(SANDBOX_STUDIO_BINARY)), SANDBOX_STUDIO_BINARY);
    // The window under test and the spawned binaries meet here, never at the person's socket.
    m_socket = m_dir.filePath(u"bridge.sock"_s);
    qputenv("SANDBOX_STUDIO_MCP_BRIDGE_SOCKET", m_socket.toLocal8Bit());
    QCOMPARE(mcpBridgeSocketName(), m_socket);
}

void TestMcpBridge::init()
{
    for (auto location : {QStandardPaths::AppDataLocation, QStandardPaths::AppConfigLocation}) {
        const QString dir = QStandardPaths::writableLocation(location);
        QVERIFY(dir.contains(u".qttest"_s));
        QDir(dir).removeRecursively();
    }
}

std::shared_ptr<Engine> TestMcpBridge::requireEngine()
{
    if (!m_engine)
        m_engine = sandbox::test::requireEngine(u"python"_s);
    return m_engine;
}

std::unique_ptr<QSettings> TestMcpBridge::freshSettings()
{
    return std::make_unique<QSettings>(m_dir.filePath(u"settings-%1.conf"_s.arg(++m_settingsCount)),
                                       QSettings::IniFormat);
}

void TestMcpBridge::bridgedRunShowsInTheGui()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    QVERIFY2(host.isBridgeListening(), qPrintable(host.bridgeError()));
    QCOMPARE(host.bridge()->fullServerName(), m_socket);
    // Owner only.
    QCOMPARE(QFileInfo(m_socket).permissions() &
                 (QFile::ReadOther | QFile::WriteOther | QFile::ReadGroup | QFile::WriteGroup),
             QFile::Permissions());
    McpPanel panel(&host);
    McpActivityFeed feed(&host);
    panel.show();
    feed.show();
    QVERIFY(panel.acceptBridgeSwitch()->isChecked());
    QSignalSpy started(host.server(), &McpServer::callStarted);
    QSignalSpy finished(host.server(), &McpServer::callFinished);

    McpProcess mcp({});
    QVERIFY(mcp.started());
    mcp.write(initializeLine(u"claude-ai"_s));
    const QJsonObject init = mcp.response(1);
    QVERIFY2(!init.isEmpty(), qPrintable(mcp.stderrText()));
    QCOMPARE(init.value(u"result"_s).toObject().value(u"serverInfo"_s).toObject().value(u"name"_s),
             u"sandbox-studio"_s);
    QVERIFY2(mcp.stderrText().contains(u"relaying to the Sandbox Studio window"_s),
             qPrintable(mcp.stderrText()));
    mcp.write(initializedLine());

    // The window's server has the client, named from initialize, as a bridge client.
    QTRY_COMPARE(host.server()->clients().size(), 1);
    const McpClientInfo client = host.server()->clients().first();
    QCOMPARE(client.transport, QLatin1String(McpBridgeTransport));
    QCOMPARE(client.name, u"claude-ai"_s);
    QCOMPARE(host.bridge()->clientCount(), 1);
    QTRY_COMPARE(panel.clientsView()->topLevelItemCount(), 1);
    QCOMPARE(panel.clientsView()->topLevelItem(0)->text(McpPanel::TransportColumn),
             u"via stdio bridge"_s);
    QCOMPARE(panel.clientsView()->topLevelItem(0)->text(McpPanel::NameColumn), u"claude-ai"_s);

    mcp.write(callLine(2, u"execute_code"_s,
                       QJsonObject{{u"language"_s, u"python"_s}, {u"code"_s, u"print(6*7)"_s}}));
    const QJsonObject response = mcp.response(2, RunTimeoutMs);
    QVERIFY2(!response.isEmpty(), qPrintable(mcp.stderrText()));
    QVERIFY2(!response.value(u"result"_s).toObject().value(u"isError"_s).toBool(),
             qPrintable(McpProcess::text(response)));
    QVERIFY2(McpProcess::text(response).contains(u"42"_s), qPrintable(McpProcess::text(response)));

    // The feed saw it, with the bridge client.
    QCOMPARE(started.count(), 1);
    const auto info = started.first().first().value<McpCallInfo>();
    QCOMPARE(info.transport, QLatin1String(McpBridgeTransport));
    QCOMPARE(info.clientName, u"claude-ai"_s);
    QCOMPARE(info.code, u"print(6*7)"_s);
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(finished.first().first().value<McpCallResult>().stdoutData.trimmed(), "42"_ba);
    QTRY_COMPARE(feed.count(), 1);
    QTreeWidgetItem *row = feed.itemFor(info.callId);
    QVERIFY(row);
    QCOMPARE(row->text(McpActivityFeed::ClientColumn), u"claude-ai 0.9.1 via stdio bridge"_s);
    QTRY_COMPARE(feed.statusText(info.callId), u"exit 0"_s);
    QVERIFY(feed.outputOf(info.callId).contains("42"));
    feed.selectCall(info.callId);
    QVERIFY(feed.detailHeader()->text().contains(u"via stdio bridge"_s));

    // stdin EOF: the relay exits cleanly and the window ends the client.
    mcp.closeStdin();
    QVERIFY2(mcp.waitExit(), qPrintable(mcp.stderrText()));
    QCOMPARE(mcp.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(mcp.process().exitCode(), 0);
    QTRY_VERIFY(host.server()->clients().isEmpty());
    QTRY_COMPARE(host.bridge()->clientCount(), 0);
    QTRY_COMPARE(panel.clientsView()->topLevelItemCount(), 0);
}

/// A 2026-07-28 client (no initialize; protocol, name and capabilities in every request's
/// _meta) through the bridge: the window serves it statelessly and shows it like any other.
void TestMcpBridge::bridgedStatelessRunShowsInTheGui()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    QVERIFY2(host.isBridgeListening(), qPrintable(host.bridgeError()));
    McpPanel panel(&host);
    McpActivityFeed feed(&host);
    panel.show();
    feed.show();
    QSignalSpy started(host.server(), &McpServer::callStarted);
    const QJsonObject meta{{u"io.modelcontextprotocol/protocolVersion"_s, u"2026-07-28"_s},
                           {u"io.modelcontextprotocol/clientInfo"_s,
                            QJsonObject{{u"name"_s, u"claude-code"_s}, {u"version"_s, u"3.0.0"_s}}},
                           {u"io.modelcontextprotocol/clientCapabilities"_s, QJsonObject{}}};
    McpProcess mcp({});
    QVERIFY(mcp.started());
    mcp.write(line(QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                               {u"id"_s, 1},
                               {u"method"_s, u"server/discover"_s},
                               {u"params"_s, QJsonObject{{u"_meta"_s, meta}}}}));
    const QJsonObject discover = mcp.response(1);
    QVERIFY2(!discover.isEmpty(), qPrintable(mcp.stderrText()));
    QVERIFY(discover.value(u"result"_s)
                .toObject()
                .value(u"supportedVersions"_s)
                .toArray()
                .contains(u"2026-07-28"_s));
    QVERIFY2(mcp.stderrText().contains(u"relaying to the Sandbox Studio window"_s),
             qPrintable(mcp.stderrText()));
    QTRY_COMPARE(panel.clientsView()->topLevelItemCount(), 1);
    QCOMPARE(panel.clientsView()->topLevelItem(0)->text(McpPanel::NameColumn), u"claude-code"_s);
    QVERIFY(panel.clientsView()
                ->topLevelItem(0)
                ->toolTip(McpPanel::NameColumn)
                .contains(u"2026-07-28"_s));

    mcp.write(line(QJsonObject{
        {u"jsonrpc"_s, u"2.0"_s},
        {u"id"_s, 2},
        {u"method"_s, u"tools/call"_s},
        {u"params"_s, QJsonObject{{u"name"_s, u"execute_code"_s},
                                  {u"arguments"_s, QJsonObject{{u"language"_s, u"python"_s},
                                                               {u"code"_s, u"print(6*7)"_s}}},
                                  {u"_meta"_s, meta}}}}));
    const QJsonObject response = mcp.response(2, RunTimeoutMs);
    QVERIFY2(!response.isEmpty(), qPrintable(mcp.stderrText()));
    QCOMPARE(response.value(u"result"_s).toObject().value(u"resultType"_s), u"complete"_s);
    QVERIFY2(McpProcess::text(response).contains(u"42"_s), qPrintable(McpProcess::text(response)));
    QCOMPARE(started.count(), 1);
    const auto info = started.first().first().value<McpCallInfo>();
    QCOMPARE(info.transport, QLatin1String(McpBridgeTransport));
    QCOMPARE(info.clientName, u"claude-code"_s);
    QCOMPARE(info.protocolVersion, u"2026-07-28"_s);
    QTRY_COMPARE(feed.count(), 1);
    QTreeWidgetItem *row = feed.itemFor(info.callId);
    QVERIFY(row);
    QCOMPARE(row->text(McpActivityFeed::ClientColumn), u"claude-code 3.0.0 via stdio bridge"_s);
    QTRY_COMPARE(feed.statusText(info.callId), u"exit 0"_s);
    feed.selectCall(info.callId);
    QVERIFY(feed.detailHeader()->text().contains(u"2026-07-28"_s));

    mcp.closeStdin();
    QVERIFY2(mcp.waitExit(), qPrintable(mcp.stderrText()));
    QCOMPARE(mcp.process().exitCode(), 0);
    QTRY_VERIFY(host.server()->clients().isEmpty());
}

void TestMcpBridge::approvalDenyThroughTheBridge()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    QVERIFY2(host.isBridgeListening(), qPrintable(host.bridgeError()));
    host.setApprovalMode(McpApprovalMode::AskEveryRun, u"high"_s);
    McpActivityFeed feed(&host);
    feed.show();
    QSignalSpy opened(&host, &McpHost::approvalDialogOpened);

    McpProcess mcp({u"--require-gui"_s});
    QVERIFY(mcp.started());
    mcp.write(initializeLine(u"claude-ai"_s));
    QVERIFY2(!mcp.response(1).isEmpty(), qPrintable(mcp.stderrText()));
    mcp.write(initializedLine());
    mcp.write(callLine(
        2, u"execute_code"_s,
        QJsonObject{{u"language"_s, u"python"_s}, {u"code"_s, u"print('must not run')"_s}}));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30'000);
    const qint64 id = host.pendingApprovals().value(0);
    QPointer<McpApprovalDialog> dialog = host.approvalDialog(id);
    QVERIFY(dialog);
    QVERIFY(dialog->windowTitle().contains(u"claude-ai"_s));
    QCOMPARE(dialog->request().transport, QLatin1String(McpBridgeTransport));
    QTRY_COMPARE(feed.statusText(id), u"waiting for approval"_s);
    QVERIFY(feed.itemFor(id)->text(McpActivityFeed::ClientColumn).contains(u"via stdio bridge"_s));

    dialog->findChild<QLineEdit *>(u"approvalDenyReason"_s)->setText(u"not from Claude"_s);
    dialog->denyButton()->click();
    const QJsonObject response = mcp.response(2);
    QVERIFY2(!response.isEmpty(), qPrintable(mcp.stderrText()));
    QVERIFY(response.value(u"result"_s).toObject().value(u"isError"_s).toBool());
    const QString text = McpProcess::text(response);
    QVERIFY2(text.contains(u"Denied"_s) && text.contains(u"not from Claude"_s), qPrintable(text));
    QTRY_COMPARE(feed.statusText(id), u"denied"_s);
    QVERIFY(feed.outputOf(id).isEmpty());

    // SIGTERM: the relay closes the bridge and exits 0; the window drops the client.
    mcp.process().terminate();
    QVERIFY2(mcp.waitExit(), qPrintable(mcp.stderrText()));
    QCOMPARE(mcp.process().exitCode(), 0);
    QVERIFY2(mcp.stderrText().contains(u"SIGTERM"_s), qPrintable(mcp.stderrText()));
    QTRY_VERIFY(host.server()->clients().isEmpty());
}

void TestMcpBridge::standaloneLeavesTheGuiAlone()
{
    auto settings = freshSettings();
    McpHost host(nullptr, settings.get());
    host.restore();
    QVERIFY2(host.isBridgeListening(), qPrintable(host.bridgeError()));
    QSignalSpy clientsChanged(host.server(), &McpServer::clientsChanged);
    QSignalSpy bridgeClients(host.bridge(), &McpBridgeServer::clientCountChanged);

    McpProcess mcp({u"--standalone"_s});
    QVERIFY(mcp.started());
    mcp.write(initializeLine(u"claude-ai"_s));
    const QJsonObject init = mcp.response(1);
    QVERIFY2(!init.isEmpty(), qPrintable(mcp.stderrText()));
    mcp.write(initializedLine());
    mcp.write(
        line(QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 2}, {u"method"_s, u"tools/list"_s}}));
    const QJsonObject tools = mcp.response(2);
    QVERIFY2(QJsonDocument(tools).toJson().contains("execute_code"), qPrintable(mcp.stderrText()));
    QVERIFY(!mcp.stderrText().contains(u"relaying"_s));

    QTest::qWait(200);
    QCOMPARE(clientsChanged.count(), 0);
    QCOMPARE(bridgeClients.count(), 0);
    QVERIFY(host.server()->clients().isEmpty());

    mcp.closeStdin();
    QVERIFY2(mcp.waitExit(), qPrintable(mcp.stderrText()));
    QCOMPARE(mcp.process().exitCode(), 0);
    QCOMPARE(clientsChanged.count(), 0);

    // Contradictory flags are refused.
    McpProcess both({u"--standalone"_s, u"--require-gui"_s});
    QVERIFY(both.started());
    QVERIFY(both.waitExit(30'000));
    QCOMPARE(both.process().exitCode(), 2);
    QVERIFY(both.stderrText().contains(u"exclude each other"_s));
}

void TestMcpBridge::requireGuiFailsWithoutAWindow()
{
    QVERIFY(!QFile::exists(m_socket)); // no window of an earlier test is left
    {
        McpProcess mcp({u"--require-gui"_s});
        QVERIFY(mcp.started());
        QVERIFY(mcp.waitExit(30'000));
        QVERIFY(mcp.process().exitCode() != 0);
        const QString err = mcp.stderrText();
        QVERIFY2(err.contains(u"--require-gui"_s) && err.contains(u"no Sandbox Studio window"_s) &&
                     err.contains(u"Accept runs from Claude Desktop"_s),
                 qPrintable(err));
        QVERIFY(mcp.process().readAllStandardOutput().isEmpty()); // stdout is protocol only
    }
    // A window with the setting off does not accept either.
    auto settings = freshSettings();
    settings->setValue(u"mcp/acceptBridge"_s, false);
    McpHost host(nullptr, settings.get());
    host.restore();
    QVERIFY(!host.isBridgeListening());
    {
        McpProcess mcp({u"--require-gui"_s});
        QVERIFY(mcp.started());
        QVERIFY(mcp.waitExit(30'000));
        QVERIFY(mcp.process().exitCode() != 0);
    }
    // Without --require-gui it serves headless, as before.
    McpProcess mcp({});
    QVERIFY(mcp.started());
    mcp.write(initializeLine(u"claude-ai"_s));
    QVERIFY2(!mcp.response(1).isEmpty(), qPrintable(mcp.stderrText()));
    QVERIFY2(mcp.stderrText().contains(u"serving headless"_s), qPrintable(mcp.stderrText()));
    QVERIFY(host.server()->clients().isEmpty());
    mcp.closeStdin();
    QVERIFY(mcp.waitExit());
    QCOMPARE(mcp.process().exitCode(), 0);
}

void TestMcpBridge::acceptSettingPersistsAndOneWindowHoldsTheSocket()
{
    auto settings = freshSettings();
    {
        McpHost host(nullptr, settings.get());
        host.restore();
        McpPanel panel(&host);
        QVERIFY(host.acceptsBridge()); // on by default
        QVERIFY(host.isBridgeListening());
        QVERIFY(panel.acceptBridgeSwitch()->isChecked());
        QVERIFY(panel.bridgeStatusLabel()->text().contains(u"come to this window"_s));

        // A second window finds the socket taken and says so; the first keeps it.
        auto otherSettings = freshSettings();
        McpHost other(nullptr, otherSettings.get());
        other.restore();
        QVERIFY(!other.isBridgeListening());
        QVERIFY2(other.bridgeError().contains(u"Another Sandbox Studio window"_s),
                 qPrintable(other.bridgeError()));
        McpPanel otherPanel(&other);
        QVERIFY(otherPanel.bridgeStatusLabel()->text().contains(u"Not accepting"_s));
        QVERIFY(host.isBridgeListening());

        panel.acceptBridgeSwitch()->setChecked(false);
        QVERIFY(!host.acceptsBridge());
        QVERIFY(!host.isBridgeListening());
        QVERIFY(!QFile::exists(m_socket));
        QVERIFY(panel.bridgeStatusLabel()->text().contains(u"do not show here"_s));
    }
    QCOMPARE(settings->value(u"mcp/acceptBridge"_s).toBool(), false);
    {
        McpHost host(nullptr, settings.get());
        host.restore();
        McpPanel panel(&host);
        QVERIFY(!host.isBridgeListening());
        QVERIFY(!panel.acceptBridgeSwitch()->isChecked());
        panel.acceptBridgeSwitch()->setChecked(true);
        QVERIFY(host.isBridgeListening());
    }
    QCOMPARE(settings->value(u"mcp/acceptBridge"_s).toBool(), true);

    // A stale socket file (a crashed window) is replaced.
    QFile stale(m_socket);
    QVERIFY(stale.open(QIODevice::WriteOnly));
    stale.close();
    McpHost host(nullptr, settings.get());
    host.restore();
    QVERIFY2(host.isBridgeListening(), qPrintable(host.bridgeError()));
}

void TestMcpBridge::peerCredentialsAreChecked()
{
    // The same uid is accepted and greeted; the relay sees the greeting, not the stream.
    auto settings = freshSettings();
    McpHost host(nullptr, settings.get());
    host.restore();
    QVERIFY(host.isBridgeListening());
    // The window's thread must keep running while the client waits for the greeting.
    QString error = u"not run"_s;
    std::atomic_bool done = false;
    std::thread client([&] {
        auto socket = mcpBridgeConnect(m_socket, 10'000);
        error = socket ? QString() : socket.error().message;
        if (socket)
            (*socket)->abort();
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 15'000);
    client.join();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Nothing there: a clear error naming the socket.
    auto none = mcpBridgeConnect(m_dir.filePath(u"nothing.sock"_s), 1000);
    QVERIFY(!none);
    QVERIFY(none.error().message.contains(u"nothing.sock"_s));
}

QTEST_MAIN(TestMcpBridge)
#include "tst_mcpbridge.moc"
