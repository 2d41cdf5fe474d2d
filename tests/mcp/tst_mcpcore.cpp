// SPDX-License-Identifier: GPL-3.0-or-later
// McpServer in-process (no transport): lifecycle rules, the approval hook and activity
// signals the GUI uses (with the real engine), and the Claude Desktop configuration helper.
#include "mcp/claudedesktop.h"
#include "mcp/mcphttpserver.h"
#include "mcp/mcpserver.h"
#include "policy/policy.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbox;
using namespace Qt::StringLiterals;

namespace {

/// One client of an in-process server: sends bodies, collects what comes back.
struct Peer
{
    Peer(McpServer *s, const QString &connection)
        : server(s)
        , id(connection)
    {}
    McpServer *server = nullptr;
    QString id;
    QList<QJsonValue> received;
    int dones = 0;

    void send(const QJsonObject &msg)
    {
        server->handleMessage(
            id, QJsonDocument(msg).toJson(QJsonDocument::Compact),
            [this](const QJsonValue &v) { received << v; }, [this] { ++dones; });
    }
    void sendRaw(const QByteArray &body)
    {
        server->handleMessage(
            id, body, [this](const QJsonValue &v) { received << v; }, [this] { ++dones; });
    }
    /// The response to request id, or an empty object.
    QJsonObject response(int rid) const
    {
        for (const QJsonValue &v : received)
            if (v.isObject() && v.toObject().value(u"id"_s).toInt(-1) == rid &&
                !v.toObject().contains(u"method"_s))
                return v.toObject();
        return {};
    }
    void initialize(const QString &version = u"2025-11-25"_s)
    {
        send(QJsonObject{
            {u"jsonrpc"_s, u"2.0"_s},
            {u"id"_s, 0},
            {u"method"_s, u"initialize"_s},
            {u"params"_s, QJsonObject{{u"protocolVersion"_s, version},
                                      {u"capabilities"_s, QJsonObject{}},
                                      {u"clientInfo"_s, QJsonObject{{u"name"_s, u"unit"_s},
                                                                    {u"version"_s, u"9"_s}}}}}});
        send(QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, u"notifications/initialized"_s}});
    }
    void call(int rid, const QString &tool, const QJsonObject &args)
    {
        send(QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                         {u"id"_s, rid},
                         {u"method"_s, u"tools/call"_s},
                         {u"params"_s, QJsonObject{{u"name"_s, tool}, {u"arguments"_s, args}}}});
    }
};

QString resultText(const QJsonObject &response)
{
    QString out;
    for (const QJsonValue &c : response.value(u"result"_s).toObject().value(u"content"_s).toArray())
        out += c.toObject().value(u"text"_s).toString();
    return out;
}

} // namespace

class TestMcpCore final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lifecycle()
    {
        McpServer server(nullptr);
        QSignalSpy clients(&server, &McpServer::clientsChanged);
        Peer p(&server, server.openConnection(u"test"_s));
        QCOMPARE(clients.count(), 1);
        // Only ping before initialize.
        p.send(QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 1}, {u"method"_s, u"tools/list"_s}});
        QCOMPARE(p.response(1).value(u"error"_s).toObject().value(u"code"_s).toInt(), -32600);
        p.send(QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 2}, {u"method"_s, u"ping"_s}});
        QVERIFY(p.response(2).contains(u"result"_s));
        p.initialize(u"2025-06-18"_s);
        QCOMPARE(p.response(0).value(u"result"_s).toObject().value(u"protocolVersion"_s).toString(),
                 u"2025-06-18"_s);
        QCOMPARE(server.protocolVersion(p.id), u"2025-06-18"_s);
        const auto list = server.clients();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list[0].name, u"unit"_s);
        QCOMPARE(list[0].version, u"9"_s);
        QCOMPARE(list[0].transport, u"test"_s);
        // Batches are a 2025-03-26 feature only.
        p.sendRaw(R"([{"jsonrpc":"2.0","id":3,"method":"ping"}])");
        QCOMPARE(
            p.received.constLast().toObject().value(u"error"_s).toObject().value(u"code"_s).toInt(),
            -32600);
        // Every body ends with done, responses or not.
        const int before = p.dones;
        p.send(QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, u"notifications/whatever"_s}});
        QCOMPARE(p.dones, before + 1);
        // No engine: a tool says so as an isError result; the server keeps serving.
        p.call(4, u"execute_code"_s, {{u"language"_s, u"python"_s}, {u"code"_s, u"print(1)"_s}});
        QTRY_VERIFY(!p.response(4).isEmpty());
        QVERIFY(p.response(4).value(u"result"_s).toObject().value(u"isError"_s).toBool());
        QVERIFY(resultText(p.response(4)).contains(u"engine"_s));
        server.closeConnection(p.id);
        QVERIFY(!server.hasConnection(p.id));
        QVERIFY(server.clients().isEmpty());
    }

    void approvalDenied()
    {
        auto engine = test::requireEngine();
        if (!engine)
            return;
        McpServer server(engine);
        server.setApprovalMode(McpApprovalMode::AskEveryRun);
        QSignalSpy started(&server, &McpServer::callStarted);
        QSignalSpy finished(&server, &McpServer::callFinished);
        QSignalSpy output(&server, &McpServer::callOutput);
        QList<McpApprovalRequest> asked;
        connect(&server, &McpServer::approvalRequested, this,
                [&](const McpApprovalRequest &r) { asked << r; });
        Peer p(&server, server.openConnection(u"test"_s));
        p.initialize();
        p.call(1, u"execute_code"_s,
               {{u"language"_s, u"python"_s}, {u"code"_s, u"print('should not run')"_s}});
        QTRY_COMPARE(asked.size(), 1);
        QCOMPARE(asked[0].code, u"print('should not run')"_s);
        QCOMPARE(asked[0].language, u"python"_s);
        QCOMPARE(asked[0].clientName, u"unit"_s);
        QVERIFY(p.response(1).isEmpty()); // waits for the person
        server.resolveApproval(asked[0].callId, false, u"looks risky"_s);
        QTRY_VERIFY(!p.response(1).isEmpty());
        const QJsonObject result = p.response(1).value(u"result"_s).toObject();
        QVERIFY(result.value(u"isError"_s).toBool());
        QVERIFY2(resultText(p.response(1)).contains(u"did not allow"_s),
                 qPrintable(resultText(p.response(1))));
        QVERIFY(resultText(p.response(1)).contains(u"looks risky"_s));
        QCOMPARE(finished.count(), 1);
        const auto r = finished[0][0].value<McpCallResult>();
        QVERIFY(r.denied);
        QCOMPARE(r.exitCode, -1);
        QCOMPARE(output.count(), 0);
        QCOMPARE(started.count(), 1);
        QCOMPARE(test::leftoverSandboxes(*engine), 0);
    }

    /// MCP 2026-07-28 on one connection: no initialize, _meta on every request, the era
    /// lock, the errors, result fields, per-request log level, and the activity signals.
    void modernStateless()
    {
        McpServer server(nullptr);
        server.setConformanceFixtures(true);
        QSignalSpy started(&server, &McpServer::callStarted);
        Peer p(&server, server.openConnection(u"stdio"_s));
        const QJsonObject meta{
            {u"io.modelcontextprotocol/protocolVersion"_s, u"2026-07-28"_s},
            {u"io.modelcontextprotocol/clientInfo"_s,
             QJsonObject{{u"name"_s, u"modern-unit"_s}, {u"version"_s, u"2.4"_s}}},
            {u"io.modelcontextprotocol/clientCapabilities"_s, QJsonObject{}}};
        auto request = [&](int rid, const QString &method, QJsonObject params,
                           const QJsonObject &m) {
            params.insert(u"_meta"_s, m);
            p.send(QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                               {u"id"_s, rid},
                               {u"method"_s, method},
                               {u"params"_s, params}});
            return p.response(rid);
        };
        auto errorCode = [](const QJsonObject &r) {
            return r.value(u"error"_s).toObject().value(u"code"_s).toInt();
        };
        const QJsonObject d = request(1, u"server/discover"_s, {}, meta);
        const QJsonObject dr = d.value(u"result"_s).toObject();
        QCOMPARE(dr.value(u"resultType"_s).toString(), u"complete"_s);
        QCOMPARE(dr.value(u"supportedVersions"_s).toArray(),
                 QJsonArray::fromStringList(mcpSupportedProtocolVersions()));
        QCOMPARE(dr.value(u"supportedVersions"_s).toArray().first(), u"2026-07-28"_s);
        QVERIFY(dr.value(u"capabilities"_s).toObject().contains(u"tools"_s));
        QVERIFY(dr.value(u"ttlMs"_s).isDouble());
        QCOMPARE(dr.value(u"_meta"_s)
                     .toObject()
                     .value(u"io.modelcontextprotocol/serverInfo"_s)
                     .toObject()
                     .value(u"name"_s)
                     .toString(),
                 u"sandbox-studio"_s);
        const auto list = server.clients();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list[0].name, u"modern-unit"_s);
        QCOMPARE(list[0].protocolVersion, u"2026-07-28"_s);
        QVERIFY(list[0].stateless);
        const QJsonObject tl = request(2, u"tools/list"_s, {}, meta).value(u"result"_s).toObject();
        QCOMPARE(tl.value(u"cacheScope"_s).toString(), u"private"_s);
        QVERIFY(!tl.value(u"tools"_s).toArray().isEmpty());

        // Errors: an unknown version names what is supported; a legacy one in _meta needs
        // initialize; missing or garbled fields are invalid params.
        QJsonObject bad = meta;
        bad.insert(u"io.modelcontextprotocol/protocolVersion"_s, u"2099-01-01"_s);
        const QJsonObject e1 = request(3, u"tools/list"_s, {}, bad);
        QCOMPARE(errorCode(e1), -32022);
        const QJsonObject data = e1.value(u"error"_s).toObject().value(u"data"_s).toObject();
        QCOMPARE(data.value(u"requested"_s).toString(), u"2099-01-01"_s);
        QCOMPARE(data.value(u"supported"_s).toArray(),
                 QJsonArray::fromStringList(mcpSupportedProtocolVersions()));
        bad.insert(u"io.modelcontextprotocol/protocolVersion"_s, u"2025-11-25"_s);
        const QJsonObject e2 = request(4, u"tools/list"_s, {}, bad);
        QCOMPARE(errorCode(e2), -32022);
        QCOMPARE(e2.value(u"error"_s).toObject().value(u"data"_s).toObject().value(u"supported"_s),
                 QJsonArray{u"2026-07-28"_s});
        QJsonObject noCaps = meta;
        noCaps.remove(u"io.modelcontextprotocol/clientCapabilities"_s);
        QCOMPARE(errorCode(request(5, u"tools/list"_s, {}, noCaps)), -32602);
        QJsonObject badInfo = meta;
        badInfo.insert(u"io.modelcontextprotocol/clientInfo"_s, u"me"_s);
        QCOMPARE(errorCode(request(6, u"tools/list"_s, {}, badInfo)), -32602);
        QCOMPARE(errorCode(request(7, u"ping"_s, {}, meta)), -32601);
        QCOMPARE(errorCode(request(8, u"logging/setLevel"_s, {{u"level"_s, u"info"_s}}, meta)),
                 -32601);
        // The era is locked: a request without _meta, and initialize, are refused.
        p.send(QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 9}, {u"method"_s, u"tools/list"_s}});
        QCOMPARE(errorCode(p.response(9)), -32602);
        p.initialize();
        QVERIFY(p.response(0).contains(u"error"_s));
        QCOMPARE(server.protocolVersion(p.id), u"2026-07-28"_s);

        // Log messages only for requests that ask with _meta logLevel.
        auto logs = [&] {
            int n = 0;
            for (const QJsonValue &v : std::as_const(p.received))
                n += v.toObject().value(u"method"_s) == u"notifications/message"_s;
            return n;
        };
        request(10, u"tools/call"_s,
                {{u"name"_s, u"test_tool_with_logging"_s}, {u"arguments"_s, QJsonObject{}}}, meta);
        QTRY_VERIFY(!p.response(10).isEmpty());
        QCOMPARE(logs(), 0);
        QJsonObject withLog = meta;
        withLog.insert(u"io.modelcontextprotocol/logLevel"_s, u"info"_s);
        request(11, u"tools/call"_s,
                {{u"name"_s, u"test_tool_with_logging"_s}, {u"arguments"_s, QJsonObject{}}},
                withLog);
        QTRY_VERIFY(!p.response(11).isEmpty());
        QCOMPARE(logs(), 3);
        const QJsonObject r11 = p.response(11).value(u"result"_s).toObject();
        QCOMPARE(r11.value(u"resultType"_s).toString(), u"complete"_s);
        QVERIFY(r11.value(u"_meta"_s).toObject().contains(u"io.modelcontextprotocol/serverInfo"_s));
        // The activity feed sees who called, with which revision.
        QVERIFY(started.count() >= 2);
        const auto info = started.constLast()[0].value<McpCallInfo>();
        QCOMPARE(info.clientName, u"modern-unit"_s);
        QCOMPARE(info.clientVersion, u"2.4"_s);
        QCOMPARE(info.protocolVersion, u"2026-07-28"_s);
        QCOMPARE(info.transport, u"stdio"_s);
        // Bad arguments are an isError result (as from 2025-11-25 on).
        const QJsonObject r12 =
            request(12, u"tools/call"_s,
                    {{u"name"_s, u"execute_code"_s},
                     {u"arguments"_s, QJsonObject{{u"language"_s, 1}, {u"code"_s, u"x"_s}}}},
                    meta)
                .value(u"result"_s)
                .toObject();
        QVERIFY(r12.value(u"isError"_s).toBool());
        QCOMPARE(r12.value(u"resultType"_s).toString(), u"complete"_s);

        // A legacy connection next to it is untouched, and refuses modern requests.
        Peer legacy(&server, server.openConnection(u"stdio"_s));
        legacy.initialize();
        QCOMPARE(server.protocolVersion(legacy.id), u"2025-11-25"_s);
        QVERIFY(!legacy.response(0).value(u"result"_s).toObject().contains(u"resultType"_s));
        QJsonObject lp{{u"_meta"_s, meta}};
        legacy.send(QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                                {u"id"_s, 1},
                                {u"method"_s, u"tools/list"_s},
                                {u"params"_s, lp}});
        QCOMPARE(errorCode(legacy.response(1)), -32600);
    }

    /// Notebook handles of stateless clients belong to an owner (the HTTP bearer token),
    /// not to a connection: another connection of the same owner continues the session,
    /// another owner cannot see it, and closing connections leaves it alive.
    void modernNotebookOwnership()
    {
        auto engine = test::requireEngine();
        if (!engine)
            return;
        McpServer server(engine);
        const QJsonObject meta{{u"io.modelcontextprotocol/protocolVersion"_s, u"2026-07-28"_s},
                               {u"io.modelcontextprotocol/clientCapabilities"_s, QJsonObject{}}};
        auto call = [&](Peer &peer, int rid, const QString &tool, const QJsonObject &args) {
            peer.send(QJsonObject{
                {u"jsonrpc"_s, u"2.0"_s},
                {u"id"_s, rid},
                {u"method"_s, u"tools/call"_s},
                {u"params"_s,
                 QJsonObject{{u"name"_s, tool}, {u"arguments"_s, args}, {u"_meta"_s, meta}}}});
            [&] { QTRY_VERIFY_WITH_TIMEOUT(!peer.response(rid).isEmpty(), 120'000); }();
            return peer.response(rid).value(u"result"_s).toObject();
        };
        McpConnectionOptions a{u"http:token-a"_s, true};
        McpConnectionOptions b{u"http:token-b"_s, true};
        Peer p1(&server, server.openConnection(u"http"_s, {}, a));
        const QJsonObject created =
            call(p1, 1, u"create_session"_s, {{u"language"_s, u"python"_s}});
        const QString sid =
            created.value(u"structuredContent"_s).toObject().value(u"session_id"_s).toString();
        QVERIFY2(!sid.isEmpty(), qPrintable(resultText(QJsonObject{{u"result"_s, created}})));
        QVERIFY(call(p1, 2, u"execute_cell"_s, {{u"session_id"_s, sid}, {u"code"_s, u"x = 41"_s}})
                    .value(u"structuredContent"_s)
                    .toObject()
                    .value(u"status"_s) == u"ok"_s);
        server.closeConnection(p1.id); // the request is over; the session is not
        Peer p2(&server, server.openConnection(u"http"_s, {}, a));
        QCOMPARE(call(p2, 1, u"execute_cell"_s, {{u"session_id"_s, sid}, {u"code"_s, u"x + 1"_s}})
                     .value(u"structuredContent"_s)
                     .toObject()
                     .value(u"result"_s)
                     .toString(),
                 u"42"_s);
        Peer other(&server, server.openConnection(u"http"_s, {}, b));
        const QJsonObject stolen =
            call(other, 1, u"execute_cell"_s, {{u"session_id"_s, sid}, {u"code"_s, u"x"_s}});
        QVERIFY(stolen.value(u"isError"_s).toBool());
        QVERIFY(resultText(QJsonObject{{u"result"_s, stolen}}).contains(u"Unknown session"_s));
        // Ephemeral connections are not listed while no call runs.
        QVERIFY(server.clients().isEmpty());
        QVERIFY(call(p2, 2, u"close_session"_s, {{u"session_id"_s, sid}})
                    .value(u"structuredContent"_s)
                    .toObject()
                    .value(u"closed"_s)
                    .toBool());
    }

    void approvalAllowedStreamsActivity()
    {
        auto engine = test::requireEngine();
        if (!engine)
            return;
        McpServer server(engine);
        server.setApprovalMode(McpApprovalMode::AskEveryRun);
        QByteArray streamed;
        connect(&server, &McpServer::callOutput, this,
                [&](qint64, const QString &stream, const QByteArray &chunk) {
                    if (stream == u"stdout"_s)
                        streamed += chunk;
                });
        QSignalSpy started(&server, &McpServer::callStarted);
        QSignalSpy finished(&server, &McpServer::callFinished);
        connect(&server, &McpServer::approvalRequested, this,
                [&](const McpApprovalRequest &r) { server.resolveApproval(r.callId, true); });
        Peer p(&server, server.openConnection(u"test"_s));
        p.initialize();
        p.call(1, u"execute_code"_s, {{u"language"_s, u"python"_s}, {u"code"_s, u"print(6*7)"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(1).isEmpty(), 60'000);
        QVERIFY(!p.response(1).value(u"result"_s).toObject().value(u"isError"_s).toBool());
        QCOMPARE(started.count(), 1);
        const auto info = started[0][0].value<McpCallInfo>();
        QCOMPARE(info.tool, u"execute_code"_s);
        QCOMPARE(info.code, u"print(6*7)"_s);
        QCOMPARE(finished.count(), 1);
        const auto r = finished[0][0].value<McpCallResult>();
        QCOMPARE(r.callId, info.callId);
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.stdoutData, QByteArray("42\n"));
        QCOMPARE(streamed, QByteArray("42\n"));
        QVERIFY(!r.denied);
    }

    void approvalBySeverity()
    {
        auto engine = test::requireEngine();
        if (!engine)
            return;
        McpServer server(engine);
        server.setApprovalMode(McpApprovalMode::AskAboveSeverity, u"high"_s);
        server.setPolicyChecker([](const QString &, const QString &code) {
            QList<PolicyFinding> f;
            if (code.contains(u"subprocess"_s))
                f << PolicyFinding{u"py.subprocess"_s, u"high"_s, u"warn"_s, 1,
                                   u"runs a process"_s};
            if (code.contains(u"os.environ"_s))
                f << PolicyFinding{u"py.environ"_s, u"low"_s, u"warn"_s, 1, u"reads env"_s};
            if (code.contains(u"ctypes"_s))
                f << PolicyFinding{u"py.ctypes"_s, u"critical"_s, u"block"_s, 1, u"ctypes"_s};
            return f;
        });
        QList<McpApprovalRequest> asked;
        connect(&server, &McpServer::approvalRequested, this, [&](const McpApprovalRequest &r) {
            asked << r;
            server.resolveApproval(r.callId, false);
        });
        QSignalSpy finished(&server, &McpServer::callFinished);
        Peer p(&server, server.openConnection(u"test"_s));
        p.initialize();
        // Below the threshold: runs without asking; the finding is reported.
        p.call(1, u"execute_code"_s,
               {{u"language"_s, u"python"_s},
                {u"code"_s, u"import os\nprint(len(os.environ) > 0)"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(1).isEmpty(), 60'000);
        QCOMPARE(asked.size(), 0);
        const QJsonObject sc =
            p.response(1).value(u"result"_s).toObject().value(u"structuredContent"_s).toObject();
        QCOMPARE(sc.value(u"policy_findings"_s).toArray().size(), 1);
        QCOMPARE(sc.value(u"policy_findings"_s).toArray()[0].toObject().value(u"rule"_s).toString(),
                 u"py.environ"_s);
        // At the threshold: asks, with the findings.
        p.call(2, u"execute_code"_s,
               {{u"language"_s, u"python"_s}, {u"code"_s, u"import subprocess"_s}});
        QTRY_VERIFY(!p.response(2).isEmpty());
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked[0].findings.size(), 1);
        QCOMPARE(asked[0].findings[0].severity, u"high"_s);
        QVERIFY(p.response(2).value(u"result"_s).toObject().value(u"isError"_s).toBool());
        // A blocking finding never runs and never asks.
        p.call(3, u"execute_code"_s,
               {{u"language"_s, u"python"_s}, {u"code"_s, u"import ctypes"_s}});
        QTRY_VERIFY(!p.response(3).isEmpty());
        QCOMPARE(asked.size(), 1);
        QVERIFY(resultText(p.response(3)).contains(u"Blocked"_s));
    }

    /// The policy engine as `sandbox-studio mcp` wires it: block and unapproved ask end
    /// the call with the rule named; findings land in structuredContent.policy_findings.
    void enginePolicyBlocksAndRefuses()
    {
        auto engine = test::requireEngine();
        if (!engine)
            return;
        engine->setPolicy(*Policy::preset(u"standard"_s));
        McpServer server(engine);
        server.setPolicyChecker([engine](const QString &language, const QString &code) {
            return evaluatePolicy(engine->policy(), language, code).findings;
        });
        Peer p(&server, server.openConnection(u"test"_s));
        p.initialize();
        auto result = [&](int rid) { return p.response(rid).value(u"result"_s).toObject(); };
        auto rulesOf = [&](int rid) {
            QStringList rules;
            for (const QJsonValue &f : result(rid)
                                           .value(u"structuredContent"_s)
                                           .toObject()
                                           .value(u"policy_findings"_s)
                                           .toArray())
                rules << f.toObject().value(u"rule"_s).toString();
            return rules;
        };
        // block (critical under standard)
        p.call(
            1, u"execute_code"_s,
            {{u"language"_s, u"python"_s}, {u"code"_s, u"print(open('/var/run/docker.sock'))"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(1).isEmpty(), 60'000);
        QVERIFY(result(1).value(u"isError"_s).toBool());
        QVERIFY2(resultText(p.response(1)).contains(u"engine-socket"_s),
                 qPrintable(resultText(p.response(1))));
        QVERIFY2(resultText(p.response(1)).contains(u"Blocked"_s),
                 qPrintable(resultText(p.response(1))));
        QCOMPARE(rulesOf(1), QStringList{u"engine-socket"_s});
        // ask (high under standard), approval off, nobody connected: refused.
        p.call(2, u"execute_code"_s,
               {{u"language"_s, u"python"_s}, {u"code"_s, u"import ctypes\nprint('ran')"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(2).isEmpty(), 60'000);
        QVERIFY(result(2).value(u"isError"_s).toBool());
        QVERIFY2(resultText(p.response(2)).contains(u"py-native"_s) &&
                     resultText(p.response(2)).contains(u"no one is there"_s) &&
                     !resultText(p.response(2)).contains(u"ran\n"_s),
                 qPrintable(resultText(p.response(2))));
        QCOMPARE(rulesOf(2), QStringList{u"py-native"_s});
        // --allow-ask: the same code runs; the finding is reported.
        server.setAllowPolicyAsk(true);
        p.call(3, u"execute_code"_s,
               {{u"language"_s, u"python"_s}, {u"code"_s, u"import ctypes\nprint('ran')"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(3).isEmpty(), 60'000);
        QVERIFY2(!result(3).value(u"isError"_s).toBool(), qPrintable(resultText(p.response(3))));
        QCOMPARE(result(3).value(u"structuredContent"_s).toObject().value(u"stdout"_s).toString(),
                 u"ran\n"_s);
        QCOMPARE(rulesOf(3), QStringList{u"py-native"_s});
        server.setAllowPolicyAsk(false);
        // Notebook cells: block is refused, the session keeps its state.
        p.call(4, u"create_session"_s, {{u"language"_s, u"python"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(4).isEmpty(), 120'000);
        const QString sid =
            result(4).value(u"structuredContent"_s).toObject().value(u"session_id"_s).toString();
        QVERIFY2(!sid.isEmpty(), qPrintable(resultText(p.response(4))));
        p.call(5, u"execute_cell"_s, {{u"session_id"_s, sid}, {u"code"_s, u"x = 41"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(5).isEmpty(), 60'000);
        p.call(6, u"execute_cell"_s,
               {{u"session_id"_s, sid}, {u"code"_s, u"x = open('/run/docker.sock')"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(6).isEmpty(), 60'000);
        QVERIFY(result(6).value(u"isError"_s).toBool());
        QVERIFY2(resultText(p.response(6)).contains(u"engine-socket"_s),
                 qPrintable(resultText(p.response(6))));
        QCOMPARE(rulesOf(6), QStringList{u"engine-socket"_s});
        p.call(7, u"execute_cell"_s, {{u"session_id"_s, sid}, {u"code"_s, u"x + 1"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(7).isEmpty(), 60'000);
        QCOMPARE(result(7).value(u"structuredContent"_s).toObject().value(u"result"_s).toString(),
                 u"42"_s);
        // Without the checker, the cell is still checked by the session (engine policy).
        server.setPolicyChecker({});
        p.call(8, u"execute_cell"_s,
               {{u"session_id"_s, sid}, {u"code"_s, u"x = open('/run/docker.sock')"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(8).isEmpty(), 60'000);
        QVERIFY(result(8).value(u"isError"_s).toBool());
        QVERIFY2(resultText(p.response(8)).contains(u"PolicyBlocked"_s) &&
                     resultText(p.response(8)).contains(u"engine-socket"_s),
                 qPrintable(resultText(p.response(8))));
        server.shutdown(30'000);
    }

    void approvalWithoutApprover()
    {
        McpServer server(nullptr);
        auto engine = test::requireEngine();
        if (!engine)
            return;
        server.setEngine(engine);
        server.setApprovalMode(McpApprovalMode::AskEveryRun);
        Peer p(&server, server.openConnection(u"test"_s));
        p.initialize();
        p.call(1, u"execute_code"_s, {{u"language"_s, u"python"_s}, {u"code"_s, u"print(1)"_s}});
        QTRY_VERIFY(!p.response(1).isEmpty());
        QVERIFY(resultText(p.response(1)).contains(u"no one is there"_s));
    }

    void cancelWhileAwaitingApproval()
    {
        auto engine = test::requireEngine();
        if (!engine)
            return;
        McpServer server(engine);
        server.setApprovalMode(McpApprovalMode::AskEveryRun);
        QSignalSpy asked(&server, &McpServer::approvalRequested);
        QSignalSpy withdrawn(&server, &McpServer::approvalWithdrawn);
        QSignalSpy finished(&server, &McpServer::callFinished);
        Peer p(&server, server.openConnection(u"test"_s));
        p.initialize();
        p.call(7, u"execute_code"_s, {{u"language"_s, u"python"_s}, {u"code"_s, u"print(1)"_s}});
        QTRY_COMPARE(asked.count(), 1);
        const int received = int(p.received.size());
        p.send(
            QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                        {u"method"_s, u"notifications/cancelled"_s},
                        {u"params"_s, QJsonObject{{u"requestId"_s, 7}, {u"reason"_s, u"user"_s}}}});
        QCOMPARE(withdrawn.count(), 1);
        QCOMPARE(finished.count(), 1);
        QVERIFY(finished[0][0].value<McpCallResult>().cancelled);
        QCOMPARE(p.received.size(), received); // a cancelled request gets no response
        QVERIFY(p.response(7).isEmpty());
    }

    void stopByPerson()
    {
        auto engine = test::requireEngine();
        if (!engine)
            return;
        McpServer server(engine);
        QSignalSpy finished(&server, &McpServer::callFinished);
        qint64 callId = 0;
        connect(&server, &McpServer::callOutput, this,
                [&](qint64 id, const QString &, const QByteArray &chunk) {
                    if (chunk.contains("started"))
                        callId = id;
                });
        Peer p(&server, server.openConnection(u"test"_s));
        p.initialize();
        p.call(1, u"execute_code"_s,
               {{u"language"_s, u"python"_s},
                {u"code"_s, u"import time\nprint('started', flush=True)\ntime.sleep(120)"_s}});
        QTRY_VERIFY_WITH_TIMEOUT(callId != 0, 60'000);
        server.stopCall(callId);
        QTRY_VERIFY_WITH_TIMEOUT(!p.response(1).isEmpty(), 30'000);
        const QJsonObject result = p.response(1).value(u"result"_s).toObject();
        QVERIFY(result.value(u"isError"_s).toBool());
        QVERIFY2(resultText(p.response(1)).contains(u"Stopped by the person"_s),
                 qPrintable(resultText(p.response(1))));
        QVERIFY(resultText(p.response(1)).contains(u"started"_s)); // the output so far
        QCOMPARE(finished.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(test::leftoverSandboxes(*engine), 0, 10'000);
    }

    void httpHostStartStopRotate()
    {
        McpServer server(nullptr);
        McpHttpServer host(&server);
        QSignalSpy tokenChanged(&host, &McpHttpServer::tokenChanged);
        QVERIFY(!host.isRunning());
        QVERIFY(host.url().isEmpty());
        McpHttpOptions options;
        options.token = u"first-token"_s;
        QVERIFY_RESULT(host.start(options));
        QVERIFY(host.isRunning());
        QVERIFY(host.port() != 0);
        QCOMPARE(host.url(), u"http://127.0.0.1:%1/mcp"_s.arg(host.port()));
        QCOMPARE(host.token(), u"first-token"_s);

        QNetworkAccessManager nam;
        auto post = [&](const QString &token, const QByteArray &body, QByteArray *sid = nullptr) {
            QNetworkRequest req(QUrl(host.url()));
            req.setRawHeader("Authorization", "Bearer " + token.toLatin1());
            req.setRawHeader("Content-Type", "application/json");
            req.setRawHeader("Accept", "application/json");
            QNetworkReply *reply = nam.post(req, body);
            QSignalSpy done(reply, &QNetworkReply::finished);
            if (!done.wait(10'000))
                return -1;
            if (sid)
                *sid = reply->rawHeader("Mcp-Session-Id");
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            reply->deleteLater();
            return status;
        };
        const QByteArray init =
            R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"gui-test","version":"1"}}})";
        QByteArray sid;
        QCOMPARE(post(u"first-token"_s, init, &sid), 200);
        QCOMPARE(sid.size(), 32);
        QCOMPARE(server.clients().size(), 1);
        QCOMPARE(server.clients()[0].transport, u"http"_s);
        QCOMPARE(server.clients()[0].name, u"gui-test"_s);

        const QString rotated = host.rotateToken();
        QCOMPARE(tokenChanged.count(), 1);
        QCOMPARE(rotated.size(), 43); // 32 bytes, base64url
        QVERIFY(rotated != u"first-token"_s);
        QCOMPARE(post(u"first-token"_s, init), 401);
        QCOMPARE(post(rotated, init), 200);
        QCOMPARE(server.clients().size(), 2);

        // Stopping ends every session; the port can be bound again.
        const quint16 port = host.port();
        host.stop();
        QVERIFY(!host.isRunning());
        QVERIFY(server.clients().isEmpty());
        options.port = port;
        options.requireAuth = false;
        options.token.clear();
        QVERIFY_RESULT(host.start(options));
        QVERIFY(!host.requiresAuth());
        QVERIFY(host.token().isEmpty());
        QCOMPARE(post(QString(), init), 200);
        // A second server cannot take the same port: a clear error.
        McpHttpServer other(&server);
        const auto clash = other.start(options);
        QVERIFY(!clash);
        QVERIFY(clash.error().message.contains(QString::number(port)));
    }

    void claudeDesktopConfig()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"Claude/claude_desktop_config.json"_s);
        // New file.
        auto r = claudedesktop::configure(path, u"/opt/sandbox-studio/bin/sandbox-studio"_s);
        QVERIFY_RESULT(r);
        QVERIFY(r->created);
        QVERIFY(r->changed);
        QVERIFY(r->backupPath.isEmpty());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QJsonObject entry =
            root.value(u"mcpServers"_s).toObject().value(u"sandbox-studio"_s).toObject();
        QCOMPARE(entry.value(u"command"_s).toString(), u"/opt/sandbox-studio/bin/sandbox-studio"_s);
        QCOMPARE(entry.value(u"args"_s).toArray(), QJsonArray{u"mcp"_s});
        // Same again: nothing to do, nothing written.
        r = claudedesktop::configure(path, u"/opt/sandbox-studio/bin/sandbox-studio"_s);
        QVERIFY_RESULT(r);
        QVERIFY(!r->changed);
        // Someone else's servers, other keys and our env survive an update; a backup is kept.
        root.insert(u"globalShortcut"_s, u"Ctrl+Space"_s);
        QJsonObject servers = root.value(u"mcpServers"_s).toObject();
        servers.insert(u"filesystem"_s, QJsonObject{{u"command"_s, u"npx"_s},
                                                    {u"args"_s, QJsonArray{u"-y"_s, u"fs"_s}}});
        entry.insert(u"env"_s, QJsonObject{{u"DOCKER_HOST"_s, u"unix:///x.sock"_s}});
        servers.insert(u"sandbox-studio"_s, entry);
        root.insert(u"mcpServers"_s, servers);
        const QByteArray before = QJsonDocument(root).toJson();
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(before);
        f.close();
        r = claudedesktop::configure(path, u"/usr/bin/sandbox-studio"_s);
        QVERIFY_RESULT(r);
        QVERIFY(r->changed);
        QVERIFY(!r->backupPath.isEmpty());
        QFile backup(r->backupPath);
        QVERIFY(backup.open(QIODevice::ReadOnly));
        QCOMPARE(backup.readAll(), before);
        QVERIFY(f.open(QIODevice::ReadOnly));
        root = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QCOMPARE(root.value(u"globalShortcut"_s).toString(), u"Ctrl+Space"_s);
        servers = root.value(u"mcpServers"_s).toObject();
        QCOMPARE(servers.value(u"filesystem"_s).toObject().value(u"command"_s).toString(),
                 u"npx"_s);
        entry = servers.value(u"sandbox-studio"_s).toObject();
        QCOMPARE(entry.value(u"command"_s).toString(), u"/usr/bin/sandbox-studio"_s);
        QCOMPARE(entry.value(u"env"_s).toObject().value(u"DOCKER_HOST"_s).toString(),
                 u"unix:///x.sock"_s);
        // The snippet is what people paste.
        const QJsonObject snippet = QJsonDocument::fromJson(r->snippet).object();
        QCOMPARE(snippet.value(u"mcpServers"_s)
                     .toObject()
                     .value(u"sandbox-studio"_s)
                     .toObject()
                     .value(u"command"_s)
                     .toString(),
                 u"/usr/bin/sandbox-studio"_s);
        // A broken file is never overwritten.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{ not json");
        f.close();
        r = claudedesktop::configure(path, u"/usr/bin/sandbox-studio"_s);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::ProtocolError);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("{ not json"));
        f.close();
        // Relative commands are refused: Claude Desktop starts it from anywhere.
        r = claudedesktop::configure(path, u"bin/sandbox-studio"_s);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
    }

    void claudeDesktopPath()
    {
        qputenv("SANDBOX_STUDIO_CLAUDE_CONFIG", "");
        qputenv("XDG_CONFIG_HOME", "/tmp/xdg-test");
        QCOMPARE(claudedesktop::configPath(), u"/tmp/xdg-test/Claude/claude_desktop_config.json"_s);
        qunsetenv("XDG_CONFIG_HOME");
        QVERIFY(
            claudedesktop::configPath().endsWith(u"/.config/Claude/claude_desktop_config.json"_s));
    }
};

QTEST_GUILESS_MAIN(TestMcpCore)
#include "tst_mcpcore.moc"
