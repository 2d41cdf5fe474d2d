// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpserver.h"
#include "util/error.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <memory>

class QSettings;
class QWidget;
class McpApprovalDialog;

namespace sandbox {
class Engine;
class McpBridgeServer;
class McpHttpServer;
} // namespace sandbox

/// The MCP server hosted by the GUI: one sandbox::McpServer (on the window's engine) and
/// its Streamable HTTP endpoint at http://127.0.0.1:PORT/mcp, switched on and off by the
/// person, with settings kept in QSettings under "mcp/": enabled (bool), port (0-65535,
/// 0 = any free port), token (the bearer token, base64url), approvalMode ("off" |
/// "every" | "severity"), approvalSeverity ("low" | "medium" | "high" | "critical"),
/// approvalTimeoutSecs (seconds an approval waits before it is denied; 0 = forever),
/// acceptBridge (bool, default true: `sandbox-studio mcp` started by Claude Desktop relays
/// its client to this window through sandbox::McpBridgeServer, so the feed, approval and
/// policy apply to it).
/// As the token is stored there, the settings file is made readable by its owner only.
///
/// Approvals: when the mode asks, each McpServer::approvalRequested opens a non-modal
/// McpApprovalDialog over the dialog parent; its answer goes to resolveApproval(), a
/// withdrawn request (cancelled, client gone) closes it, and an unanswered one is denied
/// after approvalTimeoutSecs. The GUI thread never waits on any of it.
class McpHost final : public QObject
{
    Q_OBJECT

public:
    /// Default port of the endpoint (settable in the MCP panel).
    static constexpr quint16 DefaultPort = 27653;
    /// Default time an approval waits for an answer.
    static constexpr int DefaultApprovalTimeoutSecs = 300;

    /// engine may be nullptr (tools then answer that the engine is unavailable). settings
    /// is not owned and must outlive the host. Nothing starts until restore() or
    /// setEnabled(true).
    McpHost(std::shared_ptr<sandbox::Engine> engine, QSettings *settings,
            QObject *parent = nullptr);
    ~McpHost() override;

    sandbox::McpServer *server() const { return m_server.get(); }
    sandbox::McpHttpServer *http() const { return m_http.get(); }
    sandbox::McpBridgeServer *bridge() const { return m_bridge.get(); }
    void setEngine(std::shared_ptr<sandbox::Engine> engine);

    /// Reads the settings, applies the approval mode and starts the endpoint when it was
    /// enabled (a failure is reported through errorOccurred and lastError()).
    void restore();

    bool isEnabled() const;
    /// Starts (true) or stops (false) the endpoint and remembers the choice. Starting
    /// fails with IoError when the port cannot be bound (the message names the port).
    sandbox::Result<void> setEnabled(bool on);

    /// The port setting (0 = any free port).
    quint16 portSetting() const { return m_port; }
    /// Changes the port setting; a running endpoint restarts on the new port.
    sandbox::Result<void> setPortSetting(quint16 port);

    /// "http://127.0.0.1:PORT/mcp" while running, else empty.
    QString url() const;
    /// The bearer token clients must send (generated and stored on first use).
    QString token() const { return m_token; }
    /// Replaces the token (the old one is refused at once), stores and returns the new one.
    QString rotateToken();

    sandbox::McpApprovalMode approvalMode() const;
    QString approvalSeverity() const;
    void setApprovalMode(sandbox::McpApprovalMode mode, const QString &severity);
    int approvalTimeoutSecs() const { return m_approvalTimeoutSecs; }
    /// 0 = wait forever (until the client cancels).
    void setApprovalTimeoutSecs(int seconds);

    /// Where approval dialogs open (their parent; not owned). nullptr: top-level dialogs.
    void setDialogParent(QWidget *parent) { m_dialogParent = parent; }
    /// The open approval dialog of a call, or nullptr.
    McpApprovalDialog *approvalDialog(qint64 callId) const;
    /// Call ids waiting for an answer, oldest first.
    QList<qint64> pendingApprovals() const;

    /// The last error of starting the endpoint (empty when none).
    QString lastError() const { return m_lastError; }

    /// Whether runs from Claude Desktop (`sandbox-studio mcp` over stdio) are accepted
    /// through the bridge socket (the setting; default on).
    bool acceptsBridge() const { return m_acceptBridge; }
    /// Whether the bridge socket is listening now.
    bool isBridgeListening() const;
    /// Turns the bridge on or off and remembers the choice; off disconnects bridged
    /// clients. Starting fails with IoError when another window holds the socket.
    sandbox::Result<void> setAcceptBridge(bool on);
    /// Why the bridge is not listening although accepted (empty when none).
    QString bridgeError() const { return m_bridgeError; }

    /// "off" / "every" / "severity" for the settings file.
    static QString modeKey(sandbox::McpApprovalMode mode);
    static sandbox::McpApprovalMode modeFromKey(const QString &key);

Q_SIGNALS:
    /// Running, URL, token or settings changed.
    void stateChanged();
    /// Starting the endpoint failed (message for people).
    void errorOccurred(const QString &message);
    /// An approval dialog opened (for the activity feed and tests).
    void approvalDialogOpened(McpApprovalDialog *dialog);

private:
    sandbox::Result<void> start();
    sandbox::Result<void> startBridge();
    void onApprovalRequested(const sandbox::McpApprovalRequest &request);
    void onApprovalWithdrawn(qint64 callId);
    void ensureToken();
    void storeToken();

    QSettings *m_settings;
    std::unique_ptr<sandbox::McpServer> m_server;
    std::unique_ptr<sandbox::McpHttpServer> m_http;
    std::unique_ptr<sandbox::McpBridgeServer> m_bridge;
    bool m_acceptBridge = true;
    QString m_bridgeError;
    quint16 m_port = DefaultPort;
    QString m_token;
    QString m_lastError;
    int m_approvalTimeoutSecs = DefaultApprovalTimeoutSecs;
    QPointer<QWidget> m_dialogParent;
    QHash<qint64, QPointer<McpApprovalDialog>> m_dialogs;
    QList<qint64> m_pendingOrder;
};
