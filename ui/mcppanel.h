// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class McpHost;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;
class QTreeWidget;

/// The "MCP Server" dock page: the on/off switch of the Streamable HTTP endpoint hosted by
/// the window (127.0.0.1 only) and its port, whether runs from Claude Desktop are accepted
/// through the stdio bridge, the URL and bearer token (masked, with
/// reveal, copy and rotate), the approval mode (off, every run, above a severity) and how
/// long an approval waits, the
/// clients connected now (name, version, transport, session, calls in flight, since;
/// updated as McpServer::clientsChanged says) and a button for "Configure Claude
/// Desktop". Settings are kept by McpHost.
class McpPanel final : public QWidget
{
    Q_OBJECT

public:
    enum ClientColumn
    {
        NameColumn,
        VersionColumn,
        TransportColumn,
        SessionColumn,
        CallsColumn,
        SinceColumn,
        ClientColumnCount
    };

    explicit McpPanel(McpHost *host, QWidget *parent = nullptr);

    QCheckBox *enabledSwitch() const { return m_enabled; }
    QSpinBox *portBox() const { return m_port; }
    QLineEdit *urlField() const { return m_url; }
    QLineEdit *tokenField() const { return m_token; }
    QToolButton *revealButton() const { return m_reveal; }
    QToolButton *copyTokenButton() const { return m_copyToken; }
    QPushButton *rotateButton() const { return m_rotate; }
    QComboBox *approvalModeBox() const { return m_mode; }
    QComboBox *severityBox() const { return m_severity; }
    /// Seconds an approval waits before it is denied (0 = until the client gives up).
    QSpinBox *approvalTimeoutBox() const { return m_approvalTimeout; }
    QTreeWidget *clientsView() const { return m_clients; }
    QLabel *statusLabel() const { return m_status; }
    QPushButton *claudeDesktopButton() const { return m_claude; }
    /// "Accept runs from Claude Desktop (stdio bridge)" (McpHost::setAcceptBridge).
    QCheckBox *acceptBridgeSwitch() const { return m_acceptBridge; }
    /// Says whether the bridge listens, or why not.
    QLabel *bridgeStatusLabel() const { return m_bridgeStatus; }
    /// How a transport is shown in the clients list ("via stdio bridge" for the bridge).
    static QString transportLabel(const QString &transport);

public Q_SLOTS:
    /// Shows the host's state (switch, URL, token, mode).
    void refresh();
    /// Rebuilds the clients list from McpServer::clients().
    void refreshClients();

Q_SIGNALS:
    /// The "Configure Claude Desktop…" button was pressed.
    void configureClaudeDesktopRequested();

private:
    void applyMode();

    McpHost *m_host;
    QCheckBox *m_enabled = nullptr;
    QSpinBox *m_port = nullptr;
    QLineEdit *m_url = nullptr;
    QToolButton *m_copyUrl = nullptr;
    QLineEdit *m_token = nullptr;
    QToolButton *m_reveal = nullptr;
    QToolButton *m_copyToken = nullptr;
    QPushButton *m_rotate = nullptr;
    QComboBox *m_mode = nullptr;
    QComboBox *m_severity = nullptr;
    QSpinBox *m_approvalTimeout = nullptr;
    QTreeWidget *m_clients = nullptr;
    QLabel *m_clientsTitle = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_claude = nullptr;
    QCheckBox *m_acceptBridge = nullptr;
    QLabel *m_bridgeStatus = nullptr;
    bool m_updating = false;
};
