// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/runtypes.h"
#include "util/error.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

namespace sandbox {

class Engine;

/// MCP revisions this server speaks, newest first: the modern (stateless) ones of
/// mcpModernProtocolVersions() followed by the legacy ones of mcpLegacyProtocolVersions().
/// This is the list an UnsupportedProtocolVersionError names (MCP 2026-07-28,
/// basic/versioning).
QStringList mcpSupportedProtocolVersions();

/// The legacy revisions, negotiated with initialize, newest first ("2025-11-25",
/// "2025-06-18", "2025-03-26"). initialize echoes the client's version when it is one of
/// these, else answers the newest (MCP 2025-11-25 lifecycle, "Version Negotiation").
QStringList mcpLegacyProtocolVersions();

/// The modern revisions, declared per request in _meta (no initialize, no session):
/// "2026-07-28" (MCP 2026-07-28, basic/versioning).
QStringList mcpModernProtocolVersions();

/// _meta keys of the modern revisions (MCP 2026-07-28, basic/index, "_meta").
inline constexpr auto McpMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr auto McpMetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr auto McpMetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr auto McpMetaLogLevel = "io.modelcontextprotocol/logLevel";
inline constexpr auto McpMetaServerInfo = "io.modelcontextprotocol/serverInfo";

/// JSON-RPC error codes the MCP 2026-07-28 revision defines (basic/index, "Error Codes").
inline constexpr int McpErrorHeaderMismatch = -32020;
inline constexpr int McpErrorUnsupportedProtocolVersion = -32022;

/// A JSON-RPC error found before dispatch: code, message, optional data.
struct McpRequestError
{
    int code = 0; ///< 0: no error
    QString message;
    QJsonValue data; ///< undefined when none
    bool isError() const { return code != 0; }
};

/// Whether a request's params carry the modern per-request envelope (the
/// io.modelcontextprotocol/protocolVersion key in params._meta, whatever its value): such a
/// request is served statelessly by the 2026-07-28 rules.
bool mcpIsModernRequest(const QJsonObject &params);

/// Checks the modern per-request envelope in params._meta (MCP 2026-07-28, basic/index,
/// "Per-request protocol fields"; basic/versioning): protocolVersion must be a string
/// naming a modern revision this server supports (else -32022 UnsupportedProtocolVersion
/// with data {supported, requested}; a legacy revision in the envelope gets the same code
/// with only the modern revisions as supported, as legacy ones need initialize);
/// clientCapabilities must be an object, clientInfo (optional) an object with string name
/// and version, logLevel (optional) an RFC 5424 level name (else -32602 naming the key).
/// Returns no error (code 0) when the envelope is good.
McpRequestError mcpCheckModernEnvelope(const QJsonObject &params);

/// When an agent-originated run needs the approval of the person at the desk.
enum class McpApprovalMode
{
    Off,              ///< every call runs without asking (the headless default)
    AskEveryRun,      ///< every execute_code / execute_cell waits for allow or deny
    AskAboveSeverity, ///< ask when a policy finding reaches McpServer::approvalSeverity()
};

/// One client connected to the server: the stdio peer, one Mcp-Session-Id of the HTTP
/// transport (legacy revisions), or one HTTP request of a modern (stateless) client while
/// it runs a tool call.
struct McpClientInfo
{
    QString connectionId; ///< opaque, unique; the Mcp-Session-Id on HTTP (legacy)
    QString transport;    ///< "stdio" | "http" | "stdio-bridge" (McpBridgeServer)
    QString name;         ///< clientInfo.name of initialize or of the last request's _meta
    QString version;      ///< clientInfo.version
    /// Revision in use: the one initialize negotiated ("2025-11-25"), or the one the last
    /// request's _meta declared ("2026-07-28"); empty before either.
    QString protocolVersion;
    QDateTime connectedAt;  ///< UTC
    int callsInFlight = 0;  ///< tools/call requests running now
    bool stateless = false; ///< a modern (2026-07-28) client: no initialize, no MCP session
};

/// How a transport opens a connection (McpServer::openConnection()).
struct McpConnectionOptions
{
    /// Who owns the notebook sessions that modern (stateless) requests of this connection
    /// create: such sessions are reachable from any connection of the same owner and
    /// outlive the connection (they end with close_session, when idle for
    /// McpServer::setStatelessSessionIdleTimeout(), or at shutdown). HTTP uses a digest of
    /// the bearer token. Empty: the connection itself owns them (stdio: the process),
    /// and they end with the connection, as sessions of legacy clients always do.
    QString owner;
    /// One exchange of a stateless client (an HTTP request): listed by clients() only
    /// while a tool call of it runs, and opened/closed without a log line.
    bool ephemeral = false;
};

/// A tool call as it starts: what the activity feed shows (and "open in editor" replays).
struct McpCallInfo
{
    qint64 callId = 0;    ///< unique within this McpServer, increasing
    QString connectionId; ///< McpClientInfo::connectionId
    QString clientName;   ///< McpClientInfo::name
    QString clientVersion;
    QString transport;             ///< McpClientInfo::transport ("stdio", "http", "stdio-bridge")
    QString protocolVersion;       ///< revision of the request ("2025-11-25", "2026-07-28")
    QString tool;                  ///< "execute_code", "execute_cell", "upload_file", ...
    QString language;              ///< language id ("python") when the tool runs code, else empty
    QString code;                  ///< the code to run, when the tool runs code
    QString sessionId;             ///< notebook session of session tools, else empty
    QJsonObject arguments;         ///< the call's arguments as received (file contents included)
    QList<PolicyFinding> findings; ///< of the policy check, when the tool runs code
    QDateTime startedAt;           ///< UTC
};

/// A tool call as it ended (allowed, denied, failed or cancelled).
struct McpCallResult
{
    qint64 callId = 0;
    bool isError = false;   ///< the MCP result had isError: true (or a JSON-RPC error)
    bool denied = false;    ///< the person denied it (approval)
    bool cancelled = false; ///< notifications/cancelled or the client went away
    QString errorMessage;   ///< for people, when isError
    int exitCode = -1;      ///< program exit status; -1 when nothing ran
    QByteArray stdoutData;  ///< as captured (capped by Limits::outputBytes)
    QByteArray stderrData;
    QList<Artifact> images; ///< every plot (image/* artifacts), in order
    QList<Artifact> files;  ///< other artifacts
    qint64 durationMs = 0;  ///< wall time of the whole call, approval wait excluded
    bool timedOut = false;
    bool oomKilled = false;
    bool outputTruncated = false;
    QList<PolicyFinding> policyFindings;
    QJsonObject mcpResult; ///< the tools/call result object as sent to the client
};

/// Asks the person whether a call may run. Answer with McpServer::resolveApproval().
struct McpApprovalRequest
{
    qint64 callId = 0;
    QString clientName;
    QString clientVersion;
    QString transport; ///< McpClientInfo::transport of the asking client
    QString tool;
    QString language;
    QString code;
    QList<PolicyFinding> findings; ///< from the policy checker (may be empty)
    QString reason; ///< why approval is asked ("every run needs approval", "policy finding of
                    ///< severity high: ...", "the policy asks: ...")
};

/// Where the server writes outgoing JSON-RPC messages (responses, progress, log messages):
/// a message object, or an array (the responses to a batch, sent together). Called on the
/// server's thread. A transport may drop messages for a peer that is gone.
using McpSend = std::function<void(const QJsonValue &message)>;

/// The static policy check run before a call, to decide on approval (the policy engine
/// plugs in here). Called on a worker thread; must be thread-safe.
using McpPolicyChecker =
    std::function<QList<PolicyFinding>(const QString &language, const QString &code)>;

/// What McpServer::handleMessage() found in one incoming body: requests == 0 means only
/// notifications or client responses (Streamable HTTP answers those with 202).
struct McpDispatch
{
    int requests = 0;        ///< requests whose responses will follow through reply
    bool parseError = false; ///< the body was not JSON (a -32700 response follows)
    bool initialize = false; ///< the body is an initialize request
};

/// The Model Context Protocol server of Sandbox Studio, independent of transport.
///
/// Implements JSON-RPC 2.0 and the MCP lifecycle, tools, logging, progress and
/// cancellation of revisions 2025-03-26, 2025-06-18 and 2025-11-25 (batches only with
/// 2025-03-26, as that revision allows them), and, on the same connections, the stateless
/// revision 2026-07-28: a request whose params._meta carries
/// io.modelcontextprotocol/protocolVersion needs no initialize and is answered by itself
/// (server/discover, tools/list, tools/call; results carry resultType, the serverInfo
/// _meta key and, where cacheable, ttlMs/cacheScope). A connection speaks one era: modern
/// requests after initialize, and initialize after modern requests, get -32600. Notebook
/// sessions are explicit handles (session_id arguments) bound to an owner (see
/// McpConnectionOptions), never to an MCP session. Tools: execute_code, list_languages,
/// create_session, execute_cell, close_session, upload_file, download_file (see
/// tools/list for their schemas). Runs go through the Engine with RunOrigin::Mcp.
///
/// Transports (McpStdioTransport, McpHttpServer, tests) open a connection per MCP
/// session, feed it incoming bodies with handleMessage() and write what the server sends.
/// The GUI connects to the activity signals and may answer approvals. Lives in the thread
/// that created it (the GUI thread, or the CLI's main thread); tool work runs on the
/// server's own thread pool and never blocks that thread. All signals are emitted on the
/// server's thread.
class McpServer : public QObject
{
    Q_OBJECT
public:
    /// engine may be null: tools then answer with an isError result saying the container
    /// engine is unavailable (the server itself still serves).
    explicit McpServer(std::shared_ptr<Engine> engine, QObject *parent = nullptr);
    ~McpServer() override;

    /// The engine tools run on (the GUI may swap it when the backend changes).
    void setEngine(std::shared_ptr<Engine> engine);

    // --- transports --------------------------------------------------------------------

    /// Opens a connection (one MCP session) and returns its id (128 random bits, hex,
    /// usable as Mcp-Session-Id). notify is for server messages not tied to a request (the
    /// HTTP GET stream); none are sent today (tools/list never changes); may be empty.
    /// transport: "stdio" | "http" (shown in clients()).
    QString openConnection(const QString &transport, McpSend notify = {},
                           const McpConnectionOptions &options = {});

    /// Ends a connection: cancels its runs and approvals, closes its notebook sessions
    /// (their sandboxes are removed on a worker), emits clientsChanged. Unknown id: no-op.
    void closeConnection(const QString &connectionId);

    bool hasConnection(const QString &connectionId) const;

    /// The revision negotiated on the connection; empty before initialize or when unknown.
    QString protocolVersion(const QString &connectionId) const;

    /// Handles one incoming body: a JSON-RPC request, notification or response, or (with
    /// 2025-03-26) a batch of them. Each response and every message related to a request
    /// (notifications/progress, notifications/message) goes to reply, possibly later;
    /// done runs once after the last response (at once when none is due). Errors are
    /// JSON-RPC error responses: -32700 parse error, -32600 invalid request (also a batch
    /// on a revision without batches, and calls before initialize), -32601 unknown method,
    /// -32602 invalid params (wrong types, unknown tool), -32603 internal. An unknown
    /// connectionId gets -32600 as well (transports check first).
    McpDispatch handleMessage(const QString &connectionId, const QByteArray &body, McpSend reply,
                              std::function<void()> done = {});

    /// Cancels every run, closes every connection and notebook session, and waits (up to
    /// timeoutMs) until the engine has removed their sandboxes. Blocks: for process exit.
    void shutdown(int timeoutMs = 30'000);

    /// Clients connected now.
    QList<McpClientInfo> clients() const;

    // --- approval ----------------------------------------------------------------------

    McpApprovalMode approvalMode() const;
    /// Sets the approval mode. severity ("low" | "medium" | "high" | "critical") is the
    /// threshold of AskAboveSeverity: a finding at or above it asks.
    void setApprovalMode(McpApprovalMode mode, const QString &severity = QStringLiteral("high"));
    QString approvalSeverity() const;

    /// Answers an approvalRequested(). Denied calls return an isError tool result that
    /// says the person at Sandbox Studio denied the run (with reason when given). Unknown
    /// or already answered callId: no-op. While no slot is connected to approvalRequested,
    /// calls that need approval are denied with a message that says so.
    Q_INVOKABLE void resolveApproval(qint64 callId, bool allow, const QString &reason = {});

    /// Stops a running call for the person at the desk (the activity feed's Stop): the run
    /// is cancelled, its sandbox removed, and the client gets an isError result saying the
    /// person stopped it (with the output so far). A notebook cell is interrupted and the
    /// session keeps its state. Unknown or finished callId: no-op.
    Q_INVOKABLE void stopCall(qint64 callId);

    /// Sets the static policy check used for approval and reported in results (empty =
    /// none: no findings). Also copied into RunResult::policyFindings of results.
    void setPolicyChecker(McpPolicyChecker checker);

    /// Findings whose action is ask (policy "ask") go to approval like AskAboveSeverity
    /// does, whatever the mode: the person decides, and without a slot connected to
    /// approvalRequested the call is refused with an isError result naming the rule. With
    /// allow set (the headless `mcp --allow-ask`), such runs start without asking instead.
    /// Findings whose action is block always end the call with an isError result naming
    /// the rule. Default: false.
    void setAllowPolicyAsk(bool allow);

    // --- tool settings -----------------------------------------------------------------

    /// Limits of runs when a call gives none; a call's timeout overrides timeoutMs
    /// (capped at maxTimeoutMs).
    void setDefaultLimits(const Limits &limits);
    Limits defaultLimits() const;
    /// Upper bound of a call's "timeout" argument, in milliseconds (default 600 000).
    void setMaxTimeoutMs(qint64 ms);
    /// Notebook sessions of modern clients that an owner holds (McpConnectionOptions::owner)
    /// end after this long without a call using them, in milliseconds (default 30 min;
    /// 0 = never). Checked once a minute.
    void setStatelessSessionIdleTimeout(qint64 ms);

    /// Name and version sent as serverInfo ("sandbox-studio", SANDBOX_STUDIO_VERSION).
    static QJsonObject serverInfo();

    /// The tools/list result: {"tools": [...]} with inputSchema and outputSchema.
    QJsonObject toolsList() const;

    /// The server/discover result of MCP 2026-07-28 (server/discover): supportedVersions,
    /// capabilities, serverInfo (in _meta), instructions, resultType, ttlMs, cacheScope.
    QJsonObject discoverResult() const;

    /// TESTING ONLY (`mcp --conformance-fixtures`): adds the fixture tools that the official
    /// conformance runner calls (test_simple_text, test_image_content, test_audio_content,
    /// test_embedded_resource, test_multiple_content_types, test_tool_with_logging,
    /// test_error_handling, test_tool_with_progress, json_schema_2020_12_tool). They run no code;
    /// they exercise the server's content types, logging and progress notifications on a call's
    /// stream.
    void setConformanceFixtures(bool enabled);

Q_SIGNALS:
    /// A tool call started (after approval, when approval was asked).
    void callStarted(const sandbox::McpCallInfo &info);
    /// Output of a running call as it arrives; stream is "stdout" | "stderr".
    void callOutput(qint64 callId, const QString &stream, const QByteArray &chunk);
    /// Short status of a running call for people ("installing numpy", "running").
    void callStatus(qint64 callId, const QString &status);
    /// A call ended (every started call ends exactly once; denied calls too).
    void callFinished(const sandbox::McpCallResult &result);
    /// A call waits for allow/deny; answer with resolveApproval(request.callId, ...).
    void approvalRequested(const sandbox::McpApprovalRequest &request);
    /// A pending approval no longer needs an answer (call cancelled, client gone).
    void approvalWithdrawn(qint64 callId);
    /// The clients() list changed (connect, initialize, disconnect, calls in flight).
    void clientsChanged();
    /// A line for the log (stderr headless, a log view in the GUI).
    void logMessage(const QString &line);

private:
    struct Private;
    std::unique_ptr<Private> d;
    friend struct McpServerPrivateAccess;
};

} // namespace sandbox

Q_DECLARE_METATYPE(sandbox::McpCallInfo)
Q_DECLARE_METATYPE(sandbox::McpCallResult)
Q_DECLARE_METATYPE(sandbox::McpApprovalRequest)
Q_DECLARE_METATYPE(sandbox::McpClientInfo)
