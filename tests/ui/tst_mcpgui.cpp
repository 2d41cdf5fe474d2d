// SPDX-License-Identifier: GPL-3.0-or-later
// Widget tests of the MCP parts of the window: the server panel (a real HTTP endpoint on
// 127.0.0.1, requests through QNetworkAccessManager), the activity feed and approvals (calls
// through the McpServer API, run by the real engine), Claude Desktop configuration (a
// temporary HOME) and "Open in Editor". Tests that run code need Docker at DOCKER_HOST or
// /var/run/docker.sock and fail, saying what to start, without it.
#include "claudedesktopdialog.h"
#include "codeeditor.h"
#include "mainwindow.h"
#include "mcp/mcphttpserver.h"
#include "mcp/mcpserver.h"
#include "mcpactivity.h"
#include "mcpapprovaldialog.h"
#include "mcphost.h"
#include "mcppanel.h"
#include "outputconsole.h"
#include "policy/policy.h"
#include "session/engine.h"
#include "testsupport.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLoggingCategory>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace sandbox;

namespace {

constexpr int RunTimeoutMs = 120'000;

/// A port nothing listens on now (bound and released on 127.0.0.1).
quint16 freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

QByteArray initializeBody(int id = 1)
{
    const QJsonObject request{
        {u"jsonrpc"_s, u"2.0"_s},
        {u"id"_s, id},
        {u"method"_s, u"initialize"_s},
        {u"params"_s, QJsonObject{{u"protocolVersion"_s, u"2025-06-18"_s},
                                  {u"capabilities"_s, QJsonObject{}},
                                  {u"clientInfo"_s, QJsonObject{{u"name"_s, u"tst-client"_s},
                                                                {u"version"_s, u"1.2"_s}}}}}};
    return QJsonDocument(request).toJson(QJsonDocument::Compact);
}

struct HttpAnswer
{
    int status = 0;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray body;
    QByteArray sessionId;
};

QNetworkRequest mcpRequest(const QString &url, const QString &token,
                           const QByteArray &sessionId = {})
{
    QNetworkRequest request{QUrl(url)};
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    request.setRawHeader("Accept", "application/json");
    if (!token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token.toUtf8());
    if (!sessionId.isEmpty()) {
        request.setRawHeader("Mcp-Session-Id", sessionId);
        request.setRawHeader("MCP-Protocol-Version", "2025-06-18");
    }
    return request;
}

/// POSTs body to url with the bearer token; waits (running the event loop) for the answer.
HttpAnswer post(QNetworkAccessManager &nam, const QString &url, const QString &token,
                const QByteArray &body, const QByteArray &sessionId = {})
{
    QNetworkReply *reply = nam.post(mcpRequest(url, token, sessionId), body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    HttpAnswer answer;
    if (!finished.wait(15'000)) {
        answer.error = QNetworkReply::TimeoutError;
        reply->abort();
    } else {
        answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        answer.error = reply->error();
        answer.body = reply->readAll();
        answer.sessionId = reply->rawHeader("Mcp-Session-Id");
    }
    reply->deleteLater();
    return answer;
}

/// An MCP client that talks to McpServer through its API (as a transport does).
class ApiClient
{
public:
    explicit ApiClient(McpServer *server)
        : m_server(server)
    {}

    /// Opens a connection and initializes it (protocol 2025-06-18).
    bool open()
    {
        m_connection = m_server->openConnection(u"test"_s);
        send(initializeBody(1));
        if (!QTest::qWaitFor([this] { return !response(1).isEmpty(); }, 10'000))
            return false;
        notify(u"notifications/initialized"_s, {});
        return response(1).contains(u"result"_s);
    }

    void send(const QByteArray &body)
    {
        m_server->handleMessage(m_connection, body, [this](const QJsonValue &message) {
            if (message.isArray())
                for (const QJsonValue &v : message.toArray())
                    m_messages.append(v.toObject());
            else
                m_messages.append(message.toObject());
        });
    }

    void notify(const QString &method, const QJsonObject &params)
    {
        send(
            QJsonDocument(
                QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, method}, {u"params"_s, params}})
                .toJson(QJsonDocument::Compact));
    }

    /// Sends tools/call (without waiting).
    void callTool(int id, const QString &tool, const QJsonObject &arguments)
    {
        send(QJsonDocument(QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                                       {u"id"_s, id},
                                       {u"method"_s, u"tools/call"_s},
                                       {u"params"_s, QJsonObject{{u"name"_s, tool},
                                                                 {u"arguments"_s, arguments}}}})
                 .toJson(QJsonDocument::Compact));
    }

    /// The response to request id (empty until it came).
    QJsonObject response(int id) const
    {
        for (const QJsonObject &m : m_messages)
            if (m.value(u"id"_s).toInt(-1) == id &&
                (m.contains(u"result"_s) || m.contains(u"error"_s)))
                return m;
        return {};
    }

    /// The text of a tools/call result's content.
    static QString text(const QJsonObject &response)
    {
        QString out;
        for (const QJsonValue &v :
             response.value(u"result"_s).toObject().value(u"content"_s).toArray())
            if (v.toObject().value(u"type"_s).toString() == u"text")
                out += v.toObject().value(u"text"_s).toString() + u'\n';
        return out;
    }

    QString connection() const { return m_connection; }

private:
    McpServer *m_server;
    QString m_connection;
    QList<QJsonObject> m_messages;
};

QJsonObject pythonCall(const QString &code)
{
    return QJsonObject{{u"language"_s, u"python"_s}, {u"code"_s, code}};
}

} // namespace

class TestMcpGui final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void panelTogglesTheEndpoint();
    void settingsPersistAndRestore();
    void rotatingTheTokenRefusesTheOldOne();
    void portInUseIsReported();
    void activityFeedShowsACall();
    void activityFeedShowsOutputLiveAndPlots();
    void stoppingACallFromTheFeed();
    void approvalDenyReturnsADenial();
    void approvalAboveSeverityShowsFindingsAndAllows();
    void approvalWithdrawnAndTimedOut();
    void windowPolicyAsksAndBlocks();
    void approvalOverHttpKeepsTheWindowResponsive();
    void claudeDesktopKeepsOtherServers();
    void claudeDesktopReportsBadFiles();
    void windowHasMcpDocksAndOpensCodeInEditor();

private:
    std::shared_ptr<Engine> requireEngine();
    /// A fresh settings file in the test's temporary folder.
    std::unique_ptr<QSettings> freshSettings();

    std::shared_ptr<Engine> m_engine;
    QTemporaryDir m_dir;
    int m_settingsCount = 0;
    QNetworkAccessManager m_nam;
};

void TestMcpGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QLoggingCategory::setFilterRules(u"sandbox.*.debug=false"_s);
    QVERIFY(m_dir.isValid());
    // The endpoint is on loopback; a proxy from the environment must not get in between.
    m_nam.setProxy(QNetworkProxy::NoProxy);
}

void TestMcpGui::init()
{
    for (auto location : {QStandardPaths::AppDataLocation, QStandardPaths::AppConfigLocation}) {
        const QString dir = QStandardPaths::writableLocation(location);
        QVERIFY(dir.contains(u".qttest"_s));
        QDir(dir).removeRecursively();
    }
}

std::shared_ptr<Engine> TestMcpGui::requireEngine()
{
    if (!m_engine)
        m_engine = sandbox::test::requireEngine(u"python"_s);
    return m_engine;
}

std::unique_ptr<QSettings> TestMcpGui::freshSettings()
{
    return std::make_unique<QSettings>(m_dir.filePath(u"settings-%1.conf"_s.arg(++m_settingsCount)),
                                       QSettings::IniFormat);
}

// ---------------------------------------------------------------------------------------
// Panel and endpoint

void TestMcpGui::panelTogglesTheEndpoint()
{
    auto settings = freshSettings();
    McpHost host(nullptr, settings.get());
    host.restore();
    McpPanel panel(&host);
    panel.show();

    QVERIFY(!host.isEnabled());
    QVERIFY(!panel.enabledSwitch()->isChecked());
    QVERIFY(panel.urlField()->text().isEmpty());
    QCOMPARE(panel.portBox()->value(), int(McpHost::DefaultPort));
    const QString firstToken = host.token(); // generated at once, to set clients up first
    QCOMPARE(firstToken.size(), 43);
    QCOMPARE(panel.tokenField()->text(), firstToken);

    const quint16 port = freePort();
    QVERIFY(port != 0);
    panel.portBox()->setValue(port);
    QCOMPARE(host.portSetting(), port);

    // On: the URL and the token are shown, and a real request with the token is served.
    panel.enabledSwitch()->click();
    QVERIFY2(host.isEnabled(), qPrintable(host.lastError()));
    const QString url = u"http://127.0.0.1:%1/mcp"_s.arg(port);
    QCOMPARE(panel.urlField()->text(), url);
    const QString token = host.token();
    QCOMPARE(token, firstToken);
    QCOMPARE(panel.tokenField()->text(), token);
    QCOMPARE(panel.tokenField()->echoMode(), QLineEdit::Password); // masked
    panel.revealButton()->click();
    QCOMPARE(panel.tokenField()->echoMode(), QLineEdit::Normal);
    panel.revealButton()->click();
    QCOMPARE(panel.tokenField()->echoMode(), QLineEdit::Password);

    const HttpAnswer served = post(m_nam, panel.urlField()->text(), token, initializeBody());
    QCOMPARE(served.error, QNetworkReply::NoError);
    QCOMPARE(served.status, 200);
    QVERIFY2(!served.sessionId.isEmpty(), served.body.constData());
    const QJsonObject result = QJsonDocument::fromJson(served.body).object();
    QCOMPARE(
        result.value(u"result"_s).toObject().value(u"serverInfo"_s).toObject().value(u"name"_s),
        u"sandbox-studio"_s);

    // The client shows up in the list, live.
    QTRY_COMPARE(panel.clientsView()->topLevelItemCount(), 1);
    QTreeWidgetItem *client = panel.clientsView()->topLevelItem(0);
    QCOMPARE(client->text(McpPanel::NameColumn), u"tst-client"_s);
    QCOMPARE(client->text(McpPanel::VersionColumn), u"1.2"_s);
    QCOMPARE(client->text(McpPanel::TransportColumn), u"http"_s);
    QVERIFY(
        QString::fromLatin1(served.sessionId).startsWith(client->text(McpPanel::SessionColumn)));

    // Without the token: refused.
    const HttpAnswer anonymous = post(m_nam, url, {}, initializeBody());
    QCOMPARE(anonymous.status, 401);

    // Off: the port is closed, the sessions are gone.
    panel.enabledSwitch()->click();
    QVERIFY(!host.isEnabled());
    QVERIFY(panel.urlField()->text().isEmpty());
    QTRY_COMPARE(panel.clientsView()->topLevelItemCount(), 0);
    const HttpAnswer refused = post(m_nam, url, token, initializeBody());
    QCOMPARE(refused.error, QNetworkReply::ConnectionRefusedError);
    QCOMPARE(refused.status, 0);

    // And on again, on the same port with the same token.
    panel.enabledSwitch()->click();
    QVERIFY2(host.isEnabled(), qPrintable(host.lastError()));
    QCOMPARE(host.token(), token);
    QCOMPARE(post(m_nam, url, token, initializeBody()).status, 200);
    host.setEnabled(false);
}

void TestMcpGui::settingsPersistAndRestore()
{
    auto settings = freshSettings();
    const quint16 port = freePort();
    QString token;
    {
        McpHost host(nullptr, settings.get());
        host.restore();
        McpPanel panel(&host);
        panel.portBox()->setValue(port);
        panel.enabledSwitch()->click();
        QVERIFY2(host.isEnabled(), qPrintable(host.lastError()));
        token = host.token();
        panel.approvalModeBox()->setCurrentIndex(
            panel.approvalModeBox()->findData(int(McpApprovalMode::AskAboveSeverity)));
        panel.severityBox()->setCurrentIndex(panel.severityBox()->findData(u"medium"_s));
        QCOMPARE(host.approvalMode(), McpApprovalMode::AskAboveSeverity);
        QCOMPARE(host.server()->approvalSeverity(), u"medium"_s);
        QVERIFY(panel.severityBox()->isEnabled());
        QVERIFY(panel.approvalTimeoutBox()->isEnabled());
        panel.approvalTimeoutBox()->setValue(45);
        QCOMPARE(host.approvalTimeoutSecs(), 45);
    }
    settings->sync();
    QCOMPARE(settings->value(u"mcp/enabled"_s).toBool(), true);
    QCOMPARE(settings->value(u"mcp/port"_s).toInt(), int(port));
    QCOMPARE(settings->value(u"mcp/token"_s).toString(), token);
    QCOMPARE(settings->value(u"mcp/approvalMode"_s).toString(), u"severity"_s);
    QCOMPARE(settings->value(u"mcp/approvalSeverity"_s).toString(), u"medium"_s);
    QCOMPARE(settings->value(u"mcp/approvalTimeoutSecs"_s).toInt(), 45);

    // A new host (the next start of the app) serves again with the same port and token.
    McpHost host(nullptr, settings.get());
    host.restore();
    QVERIFY2(host.isEnabled(), qPrintable(host.lastError()));
    QCOMPARE(host.url(), u"http://127.0.0.1:%1/mcp"_s.arg(port));
    QCOMPARE(host.token(), token);
    QCOMPARE(host.approvalMode(), McpApprovalMode::AskAboveSeverity);
    McpPanel panel(&host);
    QVERIFY(panel.enabledSwitch()->isChecked());
    QCOMPARE(panel.approvalModeBox()->currentData().toInt(),
             int(McpApprovalMode::AskAboveSeverity));
    QCOMPARE(panel.severityBox()->currentData().toString(), u"medium"_s);
    QCOMPARE(panel.approvalTimeoutBox()->value(), 45);
    QCOMPARE(post(m_nam, host.url(), token, initializeBody()).status, 200);
    host.setEnabled(false);
}

void TestMcpGui::rotatingTheTokenRefusesTheOldOne()
{
    auto settings = freshSettings();
    McpHost host(nullptr, settings.get());
    host.restore();
    McpPanel panel(&host);
    panel.portBox()->setValue(freePort());
    panel.enabledSwitch()->click();
    QVERIFY2(host.isEnabled(), qPrintable(host.lastError()));
    const QString url = host.url();
    const QString oldToken = host.token();
    QCOMPARE(post(m_nam, url, oldToken, initializeBody()).status, 200);

    panel.rotateButton()->click();
    const QString newToken = host.token();
    QVERIFY(newToken != oldToken);
    QCOMPARE(newToken.size(), 43);
    QCOMPARE(panel.tokenField()->text(), newToken);
    QCOMPARE(settings->value(u"mcp/token"_s).toString(), newToken);
    // The file that holds the token is the owner's only.
    QCOMPARE(QFile::permissions(settings->fileName()) &
                 (QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther),
             QFile::Permissions());

    const HttpAnswer old = post(m_nam, url, oldToken, initializeBody());
    QCOMPARE(old.status, 401);
    QTRY_VERIFY2(panel.statusLabel()->text().contains(u"401"_s),
                 qPrintable(panel.statusLabel()->text()));
    QCOMPARE(post(m_nam, url, newToken, initializeBody()).status, 200);

    // Copy puts the token (not the dots) on the clipboard.
    panel.copyTokenButton()->click();
    QCOMPARE(QApplication::clipboard()->text(), newToken);

    // Rotating while off: the next start uses the new token.
    host.setEnabled(false);
    panel.rotateButton()->click();
    const QString offToken = host.token();
    QVERIFY(offToken != newToken);
    panel.enabledSwitch()->click();
    QVERIFY(host.isEnabled());
    QCOMPARE(post(m_nam, url, newToken, initializeBody()).status, 401);
    QCOMPARE(post(m_nam, url, offToken, initializeBody()).status, 200);
    host.setEnabled(false);
}

void TestMcpGui::portInUseIsReported()
{
    QTcpServer squatter;
    QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
    auto settings = freshSettings();
    McpHost host(nullptr, settings.get());
    host.restore();
    McpPanel panel(&host);
    QSignalSpy errors(&host, &McpHost::errorOccurred);
    panel.portBox()->setValue(squatter.serverPort());
    panel.enabledSwitch()->click();
    QVERIFY(!host.isEnabled());
    QVERIFY(!panel.enabledSwitch()->isChecked());
    QCOMPARE(errors.count(), 1);
    const QString status = panel.statusLabel()->text();
    QVERIFY2(status.contains(QString::number(squatter.serverPort())), qPrintable(status));
    QVERIFY2(status.contains(u"Not serving"_s), qPrintable(status));
}

// ---------------------------------------------------------------------------------------
// Activity and approval

void TestMcpGui::activityFeedShowsACall()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    McpActivityFeed feed(&host);
    feed.resize(800, 600);
    feed.show();

    ApiClient client(host.server());
    QVERIFY(client.open());
    QSignalSpy ended(&feed, &McpActivityFeed::callEnded);
    client.callTool(2, u"execute_code"_s, pythonCall(u"print(1)"_s));
    QTRY_VERIFY_WITH_TIMEOUT(!client.response(2).isEmpty(), RunTimeoutMs);
    const QJsonObject response = client.response(2);
    QVERIFY2(!response.value(u"result"_s).toObject().value(u"isError"_s).toBool(),
             qPrintable(ApiClient::text(response)));
    QTRY_COMPARE(ended.count(), 1);

    QCOMPARE(feed.count(), 1);
    const qint64 id = feed.callIds().first();
    QTreeWidgetItem *row = feed.itemFor(id);
    QVERIFY(row);
    QCOMPARE(row->text(McpActivityFeed::ClientColumn), u"tst-client 1.2"_s);
    QCOMPARE(row->text(McpActivityFeed::ToolColumn), u"execute_code"_s);
    QCOMPARE(row->text(McpActivityFeed::LanguageColumn), u"Python"_s);
    QCOMPARE(row->text(McpActivityFeed::StatusColumn), u"exit 0"_s);
    QVERIFY(row->text(McpActivityFeed::DurationColumn).endsWith(u" s"_s));
    QCOMPARE(feed.outputOf(id), "1\n"_ba);
    const auto result = feed.resultOf(id);
    QVERIFY(result);
    QCOMPARE(result->exitCode, 0);
    QVERIFY(result->durationMs > 0);

    // The detail pane follows the newest call: code, output, header.
    QTRY_COMPARE(feed.selectedCall(), id);
    QCOMPARE(feed.codeView()->toPlainText(), u"print(1)"_s);
    QCOMPARE(feed.codeView()->highlightingDefinition(), u"Python"_s);
    feed.outputView()->flush();
    const QString output = feed.outputView()->toPlainText();
    QVERIFY2(output.contains(u"1\n"_s) && output.contains(u"exit 0"_s), qPrintable(output));
    QVERIFY2(feed.detailHeader()->text().contains(u"tst-client"_s),
             qPrintable(feed.detailHeader()->text()));
    QVERIFY(feed.openInEditorButton()->isEnabled());

    // A tool without code shows its arguments; list_languages ends "done".
    client.callTool(3, u"list_languages"_s, {});
    QTRY_VERIFY(!client.response(3).isEmpty());
    QTRY_COMPARE(feed.count(), 2);
    const qint64 second = feed.callIds().last();
    QCOMPARE(feed.statusText(second), u"done"_s);
    QTRY_COMPARE(feed.selectedCall(), second);
    QVERIFY(!feed.openInEditorButton()->isEnabled());

    // Selecting the first call again shows its output.
    feed.selectCall(id);
    feed.outputView()->flush();
    QVERIFY(feed.outputView()->toPlainText().contains(u"exit 0"_s));
    feed.clearFinished();
    QCOMPARE(feed.count(), 0);
}

void TestMcpGui::activityFeedShowsOutputLiveAndPlots()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    McpActivityFeed feed(&host);
    feed.resize(800, 600);
    feed.show();
    ApiClient client(host.server());
    QVERIFY(client.open());

    // Output arrives while the call runs.
    client.callTool(2, u"execute_code"_s,
                    pythonCall(u"import time\nprint('first', flush=True)\ntime.sleep(4)\n"
                               u"print('second')\n"_s));
    QTRY_COMPARE_WITH_TIMEOUT(feed.count(), 1, RunTimeoutMs);
    const qint64 id = feed.callIds().first();
    QTRY_VERIFY_WITH_TIMEOUT(feed.outputOf(id).contains("first"), RunTimeoutMs);
    QVERIFY2(!feed.resultOf(id), "the call ended before its output was shown");
    QVERIFY(!feed.outputOf(id).contains("second"));
    QTRY_COMPARE(feed.selectedCall(), id);
    QTRY_VERIFY(feed.outputView()->toPlainText().contains(u"first"_s));
    const QString running = feed.statusText(id);
    QVERIFY2(!running.startsWith(u"exit"_s), qPrintable(running));
    QTRY_VERIFY_WITH_TIMEOUT(!client.response(2).isEmpty(), RunTimeoutMs);
    QTRY_COMPARE(feed.statusText(id), u"exit 0"_s);
    QCOMPARE(feed.outputOf(id), "first\nsecond\n"_ba);

    // Every plot as a thumbnail; a click opens it full size.
    client.callTool(3, u"execute_code"_s,
                    pythonCall(u"import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 4, 9])\n"
                               u"plt.figure()\nplt.bar(['a', 'b'], [3, 5])\nplt.show()\n"_s));
    QTRY_VERIFY_WITH_TIMEOUT(!client.response(3).isEmpty(), RunTimeoutMs);
    QTRY_COMPARE(feed.count(), 2);
    const qint64 plotCall = feed.callIds().last();
    QTRY_COMPARE(feed.selectedCall(), plotCall);
    QCOMPARE(feed.statusText(plotCall), u"exit 0"_s);
    QCOMPARE(feed.plotsView()->count(), 2);
    QVERIFY(!feed.plotsView()->item(0)->icon().isNull());
    QCOMPARE(feed.tabs()->tabText(McpActivityFeed::PlotsTab), u"Plots (2)"_s);
    feed.tabs()->setCurrentIndex(McpActivityFeed::PlotsTab);
    QListWidgetItem *thumb = feed.plotsView()->item(1);
    QTest::mouseClick(feed.plotsView()->viewport(), Qt::LeftButton, {},
                      feed.plotsView()->visualItemRect(thumb).center());
    QDialog *viewer = nullptr;
    QTRY_VERIFY((viewer = feed.window()->findChild<QDialog *>(u"imageDialog"_s)));
    viewer->close();
}

void TestMcpGui::stoppingACallFromTheFeed()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    McpActivityFeed feed(&host);
    feed.show();
    ApiClient client(host.server());
    QVERIFY(client.open());

    client.callTool(2, u"execute_code"_s,
                    pythonCall(u"import time\nprint('started', flush=True)\ntime.sleep(60)\n"
                               u"print('not reached')\n"_s));
    QTRY_COMPARE_WITH_TIMEOUT(feed.count(), 1, RunTimeoutMs);
    const qint64 id = feed.callIds().first();
    QTRY_VERIFY_WITH_TIMEOUT(feed.outputOf(id).contains("started"), RunTimeoutMs);
    QTRY_COMPARE(feed.selectedCall(), id);
    QVERIFY(feed.stopButton()->isEnabled());
    feed.stopButton()->click();
    QVERIFY(!feed.stopButton()->isEnabled());
    // Well before the program's 60 s: the run was killed.
    QTRY_VERIFY_WITH_TIMEOUT(!client.response(2).isEmpty(), 30'000);
    const QJsonObject response = client.response(2);
    QVERIFY(response.value(u"result"_s).toObject().value(u"isError"_s).toBool());
    const QString text = ApiClient::text(response);
    QVERIFY2(text.contains(u"Stopped by the person"_s), qPrintable(text));
    QTRY_COMPARE(feed.statusText(id), u"stopped"_s);
    QVERIFY(!feed.outputOf(id).contains("not reached"));
    QVERIFY(!feed.stopButton()->isEnabled());
}

void TestMcpGui::approvalDenyReturnsADenial()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    McpPanel panel(&host);
    McpActivityFeed feed(&host);
    feed.show();
    panel.approvalModeBox()->setCurrentIndex(
        panel.approvalModeBox()->findData(int(McpApprovalMode::AskEveryRun)));
    QCOMPARE(host.approvalMode(), McpApprovalMode::AskEveryRun);
    QVERIFY(!panel.severityBox()->isEnabled());

    ApiClient client(host.server());
    QVERIFY(client.open());
    QSignalSpy opened(&host, &McpHost::approvalDialogOpened);
    client.callTool(2, u"execute_code"_s, pythonCall(u"print('should not run')"_s));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30'000);
    QCOMPARE(host.pendingApprovals().size(), 1);
    const qint64 id = host.pendingApprovals().first();
    QPointer<McpApprovalDialog> dialog = host.approvalDialog(id);
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QVERIFY(!dialog->isModal());
    QCOMPARE(dialog->codeView()->toPlainText(), u"print('should not run')"_s);
    QCOMPARE(dialog->codeView()->highlightingDefinition(), u"Python"_s);
    QVERIFY(dialog->windowTitle().contains(u"tst-client"_s));

    // The feed lists the waiting call; the GUI keeps running (events are processed here).
    QTRY_COMPARE(feed.count(), 1);
    QCOMPARE(feed.statusText(id), u"waiting for approval"_s);
    QVERIFY(client.response(2).isEmpty());

    dialog->findChild<QLineEdit *>(u"approvalDenyReason"_s)->setText(u"not today"_s);
    dialog->denyButton()->click();
    QTRY_VERIFY(!client.response(2).isEmpty());
    const QJsonObject response = client.response(2);
    QVERIFY(response.value(u"result"_s).toObject().value(u"isError"_s).toBool());
    const QString text = ApiClient::text(response);
    QVERIFY2(text.contains(u"Denied"_s) && text.contains(u"did not allow"_s) &&
                 text.contains(u"not today"_s),
             qPrintable(text));
    QTRY_VERIFY(!dialog); // closed and deleted
    QTRY_COMPARE(feed.statusText(id), u"denied"_s);
    QVERIFY(feed.resultOf(id)->denied);
    QVERIFY(feed.outputOf(id).isEmpty());
    QVERIFY(host.pendingApprovals().isEmpty());
}

void TestMcpGui::approvalAboveSeverityShowsFindingsAndAllows()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    McpActivityFeed feed(&host);
    feed.show();
    host.setApprovalMode(McpApprovalMode::AskAboveSeverity, u"high"_s);
    // A stand-in for the policy engine: subprocess is "high", print is "low".
    host.server()->setPolicyChecker([](const QString &, const QString &code) {
        QList<PolicyFinding> findings;
        if (code.contains(u"subprocess"_s))
            findings << PolicyFinding{u"process-spawn"_s, u"high"_s, u"warn"_s, 1,
                                      u"starts processes"_s};
        if (code.contains(u"print"_s))
            findings << PolicyFinding{u"prints"_s, u"low"_s, u"allow"_s, 2, u"prints"_s};
        return findings;
    });

    ApiClient client(host.server());
    QVERIFY(client.open());
    QSignalSpy opened(&host, &McpHost::approvalDialogOpened);

    // Below the threshold: runs without asking.
    client.callTool(2, u"execute_code"_s, pythonCall(u"x = 1\nprint(x)"_s));
    QTRY_VERIFY_WITH_TIMEOUT(!client.response(2).isEmpty(), RunTimeoutMs);
    QCOMPARE(opened.count(), 0);

    // At the threshold: asks, with the findings; Allow runs it.
    client.callTool(3, u"execute_code"_s,
                    pythonCall(u"import subprocess\nprint(subprocess.run(['true']).returncode)"_s));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30'000);
    auto *dialog = opened.first().first().value<McpApprovalDialog *>();
    QVERIFY(dialog);
    QCOMPARE(dialog->findingsView()->topLevelItemCount(), 2);
    QCOMPARE(dialog->findingsView()->topLevelItem(0)->text(0), u"high"_s);
    QCOMPARE(dialog->findingsView()->topLevelItem(0)->text(1), u"process-spawn"_s);
    QVERIFY(dialog->findChild<QLabel *>(u"approvalReason"_s)->text().contains(u"high"_s));
    const qint64 id = dialog->callId();
    dialog->allowButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!client.response(3).isEmpty(), RunTimeoutMs);
    const QJsonObject response = client.response(3);
    QVERIFY2(!response.value(u"result"_s).toObject().value(u"isError"_s).toBool(),
             qPrintable(ApiClient::text(response)));
    QTRY_COMPARE(feed.statusText(id), u"exit 0"_s);
    QCOMPARE(feed.outputOf(id), "0\n"_ba);

    // The feed shows the findings of the call: the stand-in's two and the engine policy's
    // own (standard: py-subprocess, warn).
    feed.selectCall(id);
    QCOMPARE(feed.findingsView()->topLevelItemCount(), 3);
    QCOMPARE(feed.tabs()->tabText(McpActivityFeed::FindingsTab), u"Findings (3)"_s);
}

/// No stand-in: the host checks MCP runs with the engine's policy (the window's active
/// one). ask goes to the approval dialog even with approval off; block is an isError.
void TestMcpGui::windowPolicyAsksAndBlocks()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    engine->setPolicy(*Policy::preset(u"standard"_s));
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    host.setApprovalMode(McpApprovalMode::Off, u"high"_s);
    ApiClient client(host.server());
    QVERIFY(client.open());
    QSignalSpy opened(&host, &McpHost::approvalDialogOpened);

    client.callTool(2, u"execute_code"_s, pythonCall(u"print(open('/run/docker.sock'))"_s));
    QTRY_VERIFY_WITH_TIMEOUT(!client.response(2).isEmpty(), RunTimeoutMs);
    QVERIFY(client.response(2).value(u"result"_s).toObject().value(u"isError"_s).toBool());
    QVERIFY2(ApiClient::text(client.response(2)).contains(u"engine-socket"_s),
             qPrintable(ApiClient::text(client.response(2))));
    QCOMPARE(opened.count(), 0);

    client.callTool(3, u"execute_code"_s, pythonCall(u"import ctypes\nprint('ran')"_s));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30'000);
    auto *dialog = opened.first().first().value<McpApprovalDialog *>();
    QVERIFY(dialog);
    QCOMPARE(dialog->findingsView()->topLevelItem(0)->text(1), u"py-native"_s);
    dialog->allowButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!client.response(3).isEmpty(), RunTimeoutMs);
    const QJsonObject response = client.response(3);
    QVERIFY2(!response.value(u"result"_s).toObject().value(u"isError"_s).toBool(),
             qPrintable(ApiClient::text(response)));
    QVERIFY(ApiClient::text(response).contains(u"ran"_s));
}

void TestMcpGui::approvalWithdrawnAndTimedOut()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    McpActivityFeed feed(&host);
    host.setApprovalMode(McpApprovalMode::AskEveryRun, u"high"_s);
    ApiClient client(host.server());
    QVERIFY(client.open());
    QSignalSpy opened(&host, &McpHost::approvalDialogOpened);

    // The client cancels while the person has not answered: the dialog closes by itself.
    client.callTool(2, u"execute_code"_s, pythonCall(u"print(2)"_s));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30'000);
    QPointer<McpApprovalDialog> dialog = opened.first().first().value<McpApprovalDialog *>();
    const qint64 first = dialog->callId();
    client.notify(u"notifications/cancelled"_s,
                  QJsonObject{{u"requestId"_s, 2}, {u"reason"_s, u"client gave up"_s}});
    QTRY_VERIFY(!dialog);
    QTRY_COMPARE(feed.statusText(first), u"cancelled"_s);
    QVERIFY(host.pendingApprovals().isEmpty());

    // Nobody answers: denied when the approval time is up.
    host.setApprovalTimeoutSecs(2);
    client.callTool(3, u"execute_code"_s, pythonCall(u"print(3)"_s));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, 30'000);
    dialog = opened.at(1).first().value<McpApprovalDialog *>();
    QVERIFY(dialog->secondsLeft() > 0);
    QVERIFY(dialog->findChild<QLabel *>(u"approvalCountdown"_s)->text().contains(u"0:0"_s));
    QTRY_VERIFY_WITH_TIMEOUT(!client.response(3).isEmpty(), 10'000);
    const QString text = ApiClient::text(client.response(3));
    QVERIFY2(text.contains(u"did not allow"_s) && text.contains(u"no answer"_s), qPrintable(text));
    QTRY_VERIFY(!dialog);
}

void TestMcpGui::approvalOverHttpKeepsTheWindowResponsive()
{
    auto engine = requireEngine();
    if (!engine)
        return;
    auto settings = freshSettings();
    McpHost host(engine, settings.get());
    host.restore();
    McpPanel panel(&host);
    McpActivityFeed feed(&host);
    panel.portBox()->setValue(freePort());
    panel.enabledSwitch()->click();
    QVERIFY2(host.isEnabled(), qPrintable(host.lastError()));
    host.setApprovalMode(McpApprovalMode::AskEveryRun, u"high"_s);
    const QString url = host.url(), token = host.token();

    const HttpAnswer init = post(m_nam, url, token, initializeBody());
    QCOMPARE(init.status, 200);
    const QByteArray session = init.sessionId;
    QVERIFY(!session.isEmpty());
    QCOMPARE(post(m_nam, url, token, R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                  session)
                 .status,
             202);

    // The request waits for the person; meanwhile the GUI thread serves other requests.
    QSignalSpy opened(&host, &McpHost::approvalDialogOpened);
    const QByteArray call =
        QJsonDocument(
            QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                        {u"id"_s, 7},
                        {u"method"_s, u"tools/call"_s},
                        {u"params"_s, QJsonObject{{u"name"_s, u"execute_code"_s},
                                                  {u"arguments"_s, pythonCall(u"print('hi')"_s)}}}})
            .toJson(QJsonDocument::Compact);
    QNetworkReply *pending = m_nam.post(mcpRequest(url, token, session), call);
    QSignalSpy finished(pending, &QNetworkReply::finished);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 30'000);
    QVERIFY(!pending->isFinished());
    const HttpAnswer ping =
        post(m_nam, url, token, R"({"jsonrpc":"2.0","id":8,"method":"ping"})", session);
    QCOMPARE(ping.status, 200);
    QVERIFY(!pending->isFinished());
    QCOMPARE(panel.clientsView()->topLevelItemCount(), 1);
    QTRY_COMPARE(panel.clientsView()->topLevelItem(0)->text(McpPanel::CallsColumn), u"1"_s);

    auto *dialog = opened.first().first().value<McpApprovalDialog *>();
    dialog->denyButton()->click();
    QVERIFY(finished.wait(15'000));
    QCOMPARE(pending->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    const QJsonObject response = QJsonDocument::fromJson(pending->readAll()).object();
    pending->deleteLater();
    QCOMPARE(response.value(u"id"_s).toInt(), 7);
    QVERIFY(response.value(u"result"_s).toObject().value(u"isError"_s).toBool());
    const QString text = ApiClient::text(response);
    QVERIFY2(text.contains(u"did not allow"_s), qPrintable(text));
    QTRY_COMPARE(feed.statusText(feed.callIds().value(0)), u"denied"_s);
    host.setEnabled(false);
}

// ---------------------------------------------------------------------------------------
// Claude Desktop

void TestMcpGui::claudeDesktopKeepsOtherServers()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QByteArray oldHome = qgetenv("HOME");
    const QByteArray oldXdg = qgetenv("XDG_CONFIG_HOME");
    qputenv("HOME", QFile::encodeName(home.path()));
    qunsetenv("XDG_CONFIG_HOME");
    qunsetenv("SANDBOX_STUDIO_CLAUDE_CONFIG");
    const auto restore = qScopeGuard([&] {
        qputenv("HOME", oldHome);
        if (!oldXdg.isEmpty())
            qputenv("XDG_CONFIG_HOME", oldXdg);
    });

    const QString path = home.filePath(u".config/Claude/claude_desktop_config.json"_s);
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    const QByteArray original = R"({
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "other": {"command": "/usr/bin/other-server", "args": ["--stdio"], "env": {"K": "V"}}
  }
})";
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(original);
    }

    // Through the window's action: a non-modal dialog.
    MainWindow window(nullptr);
    window.show();
    QVERIFY(window.configureClaudeAction());
    window.configureClaudeAction()->trigger();
    ClaudeDesktopDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<ClaudeDesktopDialog *>()));
    QVERIFY(dialog->isVisible());
    QVERIFY(!dialog->isModal());
    QCOMPARE(dialog->configPath(), path);
    const QString snippet = dialog->snippetView()->toPlainText();
    const QJsonObject snippetJson = QJsonDocument::fromJson(snippet.toUtf8()).object();
    const QJsonObject ours =
        snippetJson.value(u"mcpServers"_s).toObject().value(u"sandbox-studio"_s).toObject();
    QCOMPARE(ours.value(u"command"_s).toString(), QCoreApplication::applicationFilePath());
    QCOMPARE(ours.value(u"args"_s).toArray(), QJsonArray{u"mcp"_s});
    dialog->copyButton()->click();
    QCOMPARE(QApplication::clipboard()->text(), snippet);

    dialog->writeButton()->click();
    QVERIFY2(!dialog->failed(), qPrintable(dialog->resultLabel()->text()));
    QVERIFY2(dialog->resultLabel()->text().contains(u"Added"_s),
             qPrintable(dialog->resultLabel()->text()));

    QFile written(path);
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(written.readAll()).object();
    QCOMPARE(root.value(u"globalShortcut"_s).toString(), u"Ctrl+Space"_s);
    const QJsonObject servers = root.value(u"mcpServers"_s).toObject();
    QCOMPARE(servers.size(), 2);
    const QJsonObject other = servers.value(u"other"_s).toObject();
    QCOMPARE(other.value(u"command"_s).toString(), u"/usr/bin/other-server"_s);
    QCOMPARE(other.value(u"env"_s).toObject().value(u"K"_s).toString(), u"V"_s);
    QCOMPARE(servers.value(u"sandbox-studio"_s).toObject(), ours);

    // The backup holds the previous file byte for byte, and the dialog names it.
    const QStringList backups =
        QDir(QFileInfo(path).absolutePath()).entryList({u"claude_desktop_config.json.bak-*"_s});
    QCOMPARE(backups.size(), 1);
    QFile backup(QFileInfo(path).absolutePath() + u'/' + backups.first());
    QVERIFY(backup.open(QIODevice::ReadOnly));
    QCOMPARE(backup.readAll(), original);
    QVERIFY(dialog->resultLabel()->text().contains(backups.first()));

    // Again: nothing to change, nothing written.
    dialog->writeButton()->click();
    QVERIFY(!dialog->failed());
    QVERIFY2(dialog->resultLabel()->text().contains(u"already"_s),
             qPrintable(dialog->resultLabel()->text()));
    dialog->close();
}

void TestMcpGui::claudeDesktopReportsBadFiles()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());

    // Not JSON: an error that says so; the file is left byte for byte, no backup.
    const QString path = dir.filePath(u"claude_desktop_config.json"_s);
    const QByteArray broken = "{ \"mcpServers\": { \"other\": ";
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(broken);
    }
    ClaudeDesktopDialog dialog(nullptr, u"/opt/sandbox-studio/bin/sandbox-studio"_s, path);
    QVERIFY(!dialog.writeConfiguration());
    QVERIFY(dialog.failed());
    const QString message = dialog.resultLabel()->text();
    QVERIFY2(message.contains(u"not a JSON object"_s) && message.contains(u"not changed"_s),
             qPrintable(message));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), broken);
    QCOMPARE(QDir(dir.path()).entryList({u"*.bak-*"_s}).size(), 0);
    // The snippet is still there to copy by hand.
    QVERIFY(
        dialog.snippetView()->toPlainText().contains(u"/opt/sandbox-studio/bin/sandbox-studio"_s));

    // "mcpServers" of the wrong type: refused as well.
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"mcpServers": ["x"]})");
    }
    QVERIFY(!dialog.writeConfiguration());
    QVERIFY(dialog.resultLabel()->text().contains(u"mcpServers"_s));

    // Unwritable (the folder is a file; holds for root too): an error naming the place.
    QFile blocker(dir.filePath(u"not-a-folder"_s));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    ClaudeDesktopDialog unwritable(nullptr, u"/opt/sandbox-studio/bin/sandbox-studio"_s,
                                   dir.filePath(u"not-a-folder/claude_desktop_config.json"_s));
    QVERIFY(!unwritable.writeConfiguration());
    QVERIFY2(unwritable.resultLabel()->text().contains(u"not-a-folder"_s),
             qPrintable(unwritable.resultLabel()->text()));
}

// ---------------------------------------------------------------------------------------
// The window

void TestMcpGui::windowHasMcpDocksAndOpensCodeInEditor()
{
    // No engine needed: execute_code then fails, but the call (and its code) is listed.
    MainWindow window(nullptr);
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.mcpHost() && window.mcpPanel() && window.mcpActivity());
    QCOMPARE(window.mcpDock()->objectName(), u"mcpDock"_s);
    QCOMPARE(window.mcpActivityDock()->objectName(), u"mcpActivityDock"_s);
    auto *menu = window.findChild<QMenu *>(u"mcpMenu"_s);
    QVERIFY(menu);
    QVERIFY(menu->actions().contains(window.configureClaudeAction()));
    QVERIFY(window.menuBar()->actions().contains(menu->menuAction()));
    QVERIFY(!window.mcpHost()->isEnabled()); // off until the person turns it on

    window.setLanguage(u"python"_s);
    const QString mine = u"my_own = 'work in progress'\n"_s;
    window.editor()->setPlainText(mine); // an edit of the person's
    QVERIFY(window.editor()->document()->isUndoAvailable() ||
            window.editor()->toPlainText() == mine);

    ApiClient client(window.mcpHost()->server());
    QVERIFY(client.open());
    const QString code = u"console.log(6 * 7);\n"_s;
    client.callTool(2, u"execute_code"_s,
                    QJsonObject{{u"language"_s, u"javascript"_s}, {u"code"_s, code}});
    QTRY_VERIFY(!client.response(2).isEmpty());
    McpActivityFeed *feed = window.mcpActivity();
    QTRY_COMPARE(feed->count(), 1);
    const qint64 id = feed->callIds().first();
    QCOMPARE(feed->statusText(id), u"error"_s);
    QTRY_COMPARE(feed->selectedCall(), id);
    QVERIFY2(feed->detailHeader()->text().contains(u"engine is not available"_s),
             qPrintable(feed->detailHeader()->text()));
    QVERIFY(feed->openInEditorButton()->isEnabled());

    // Cancel: nothing changes.
    feed->openInEditorButton()->click();
    QMessageBox *question = nullptr;
    QTRY_VERIFY((question = window.findChild<QMessageBox *>(u"openInEditorQuestion"_s)));
    QVERIFY(question->isVisible());
    question->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY(!window.findChild<QMessageBox *>(u"openInEditorQuestion"_s));
    QCOMPARE(window.editor()->toPlainText(), mine);
    QCOMPARE(window.language(), u"python"_s);

    // Replace: the call's code in the editor, the language switched, the person's code kept.
    feed->openInEditorButton()->click();
    QTRY_VERIFY((question = window.findChild<QMessageBox *>(u"openInEditorQuestion"_s)));
    question->findChild<QPushButton *>(u"replaceButton"_s)->click();
    QTRY_COMPARE(window.editor()->toPlainText(), code);
    QCOMPARE(window.language(), u"javascript"_s);
    QCOMPARE(window.editor()->highlightingDefinition(), u"JavaScript"_s);
    QVERIFY(!window.isNotebookMode());

    const QString keptDir =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + u"/drafts/kept"_s;
    const QStringList kept = QDir(keptDir).entryList(QDir::Files);
    QVERIFY2(!kept.isEmpty(), qPrintable(keptDir));
    bool found = false;
    for (const QString &name : kept) {
        QFile f(keptDir + u'/' + name);
        QVERIFY(f.open(QIODevice::ReadOnly));
        found = found || QString::fromUtf8(f.readAll()) == mine;
    }
    QVERIFY2(found, qPrintable(kept.join(u", "_s)));
    QVERIFY(window.statusBar()->currentMessage().contains(u"kept"_s) ||
            window.statusBar()->currentMessage().contains(u"Undo"_s));

    // Undo brings the person's code back.
    window.editor()->undo();
    QCOMPARE(window.editor()->toPlainText(), mine);
    window.editor()->redo();
    QCOMPARE(window.editor()->toPlainText(), code);

    // An untouched editor (the same code) is replaced without a question.
    feed->openInEditorButton()->click();
    QTest::qWait(100);
    QVERIFY(!window.findChild<QMessageBox *>(u"openInEditorQuestion"_s));
    QCOMPARE(window.editor()->toPlainText(), code);
}

QTEST_MAIN(TestMcpGui)
#include "tst_mcpgui.moc"
