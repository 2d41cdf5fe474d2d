// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcppanel.h"

#include "mcp/mcpbridge.h"
#include "mcp/mcphttpserver.h"
#include "mcphost.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QTime>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using namespace sandbox;

namespace {

QToolButton *toolButton(const QString &objectName, const QString &text, const QString &tip,
                        QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setObjectName(objectName);
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    return button;
}

} // namespace

McpPanel::McpPanel(McpHost *host, QWidget *parent)
    : QWidget(parent)
    , m_host(host)
{
    setObjectName(u"mcpPanel"_s);

    m_enabled = new QCheckBox(tr("Serve MCP over HTTP on this computer"), this);
    m_enabled->setObjectName(u"mcpEnabled"_s);
    m_enabled->setToolTip(tr("Lets local MCP clients (chat apps, agents) run code in sandboxes "
                             "through the Streamable HTTP endpoint on 127.0.0.1. They must "
                             "send the token below."));

    m_port = new QSpinBox(this);
    m_port->setObjectName(u"mcpPort"_s);
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("any free port"));
    m_port->setToolTip(tr("TCP port on 127.0.0.1 (0: any free port, chosen at each start)"));
    m_port->setKeyboardTracking(false);

    m_url = new QLineEdit(this);
    m_url->setObjectName(u"mcpUrl"_s);
    m_url->setAccessibleName(tr("MCP endpoint URL"));
    m_url->setReadOnly(true);
    m_url->setPlaceholderText(tr("not serving"));
    m_copyUrl = toolButton(u"mcpCopyUrl"_s, tr("Copy"), tr("Copy the URL"), this);

    m_token = new QLineEdit(this);
    m_token->setObjectName(u"mcpToken"_s);
    m_token->setAccessibleName(tr("MCP access token"));
    m_token->setReadOnly(true);
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setToolTip(tr("Clients send it as the header Authorization: Bearer TOKEN"));
    m_reveal = toolButton(u"mcpRevealToken"_s, tr("Show"), tr("Show or hide the token"), this);
    m_reveal->setCheckable(true);
    m_copyToken = toolButton(u"mcpCopyToken"_s, tr("Copy"), tr("Copy the token"), this);
    m_rotate = new QPushButton(tr("New Token"), this);
    m_rotate->setObjectName(u"mcpRotateToken"_s);
    m_rotate->setToolTip(tr("Replace the token: the old one stops working at once"));

    m_mode = new QComboBox(this);
    m_mode->setObjectName(u"mcpApprovalMode"_s);
    m_mode->setAccessibleName(tr("When to ask before an agent run"));
    m_mode->addItem(tr("Never ask"), int(McpApprovalMode::Off));
    m_mode->addItem(tr("Ask before every run"), int(McpApprovalMode::AskEveryRun));
    m_mode->addItem(tr("Ask for policy findings of at least"),
                    int(McpApprovalMode::AskAboveSeverity));
    m_severity = new QComboBox(this);
    m_severity->setObjectName(u"mcpApprovalSeverity"_s);
    m_severity->setAccessibleName(tr("Lowest finding severity that asks"));
    m_severity->addItem(tr("low"), u"low"_s);
    m_severity->addItem(tr("medium"), u"medium"_s);
    m_severity->addItem(tr("high"), u"high"_s);
    m_severity->addItem(tr("critical"), u"critical"_s);

    m_approvalTimeout = new QSpinBox(this);
    m_approvalTimeout->setObjectName(u"mcpApprovalTimeout"_s);
    m_approvalTimeout->setRange(0, 3600);
    m_approvalTimeout->setSuffix(tr(" s"));
    m_approvalTimeout->setSpecialValueText(tr("never"));
    m_approvalTimeout->setToolTip(
        tr("A run nobody allows or denies within this time is denied (never: it waits until "
           "the client gives up)"));

    m_status = new QLabel(this);
    m_status->setObjectName(u"mcpStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_clientsTitle = new QLabel(this);
    m_clients = new QTreeWidget(this);
    m_clients->setObjectName(u"mcpClients"_s);
    m_clients->setAccessibleName(tr("Connected MCP clients"));
    m_clients->setRootIsDecorated(false);
    m_clients->setColumnCount(ClientColumnCount);
    m_clients->setHeaderLabels(
        {tr("Client"), tr("Version"), tr("Transport"), tr("Session"), tr("Calls"), tr("Since")});
    m_clients->header()->setSectionResizeMode(QHeaderView::ResizeToContents);

    m_claude = new QPushButton(tr("Configure Claude Desktop…"), this);
    m_claude->setObjectName(u"mcpConfigureClaude"_s);
    m_claude->setToolTip(tr("Add Sandbox Studio to Claude Desktop's MCP servers (stdio)"));

    m_acceptBridge = new QCheckBox(tr("Accept runs from Claude Desktop (stdio bridge)"), this);
    m_acceptBridge->setObjectName(u"mcpAcceptBridge"_s);
    m_acceptBridge->setToolTip(
        tr("While this window is open, the server Claude Desktop starts (sandbox-studio mcp) "
           "hands its client to this window, so its runs show in the activity feed and the "
           "approval mode applies. Off: it serves on its own, unseen here."));
    m_bridgeStatus = new QLabel(this);
    m_bridgeStatus->setObjectName(u"mcpBridgeStatus"_s);
    m_bridgeStatus->setWordWrap(true);
    m_bridgeStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *endpoint = new QGroupBox(tr("HTTP endpoint"), this);
    auto *form = new QFormLayout(endpoint);
    form->addRow(m_enabled);
    form->addRow(tr("Port:"), m_port);
    auto *urlRow = new QHBoxLayout;
    urlRow->addWidget(m_url, 1);
    urlRow->addWidget(m_copyUrl);
    form->addRow(tr("URL:"), urlRow);
    auto *tokenRow = new QHBoxLayout;
    tokenRow->addWidget(m_token, 1);
    tokenRow->addWidget(m_reveal);
    tokenRow->addWidget(m_copyToken);
    tokenRow->addWidget(m_rotate);
    form->addRow(tr("Token:"), tokenRow);
    form->addRow(m_status);

    auto *approval = new QGroupBox(tr("Approval of agent runs"), this);
    auto *approvalLayout = new QFormLayout(approval);
    auto *modeRow = new QHBoxLayout;
    modeRow->addWidget(m_mode, 1);
    modeRow->addWidget(m_severity);
    approvalLayout->addRow(modeRow);
    approvalLayout->addRow(tr("Deny unanswered after:"), m_approvalTimeout);

    auto *claudeBox = new QGroupBox(tr("Claude Desktop"), this);
    auto *claudeLayout = new QVBoxLayout(claudeBox);
    claudeLayout->addWidget(m_acceptBridge);
    claudeLayout->addWidget(m_bridgeStatus);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(endpoint);
    layout->addWidget(claudeBox);
    layout->addWidget(approval);
    layout->addWidget(m_clientsTitle);
    layout->addWidget(m_clients, 1);
    layout->addWidget(m_claude);

    connect(m_enabled, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updating)
            return;
        (void)m_host->setEnabled(on); // failures: errorOccurred, then refresh() shows them
        refresh();
    });
    connect(m_acceptBridge, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updating)
            return;
        (void)m_host->setAcceptBridge(on); // a failure: refresh() shows bridgeError()
        refresh();
    });
    connect(m_port, &QSpinBox::valueChanged, this, [this](int port) {
        if (m_updating)
            return;
        (void)m_host->setPortSetting(quint16(port));
        refresh();
    });
    connect(m_copyUrl, &QToolButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_url->text()); });
    connect(m_reveal, &QToolButton::toggled, this, [this](bool shown) {
        m_token->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password);
        m_reveal->setText(shown ? tr("Hide") : tr("Show"));
    });
    connect(m_copyToken, &QToolButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_host->token());
        m_status->setText(tr("Token copied to the clipboard."));
    });
    connect(m_rotate, &QPushButton::clicked, this, [this] {
        m_host->rotateToken();
        m_status->setText(tr("New token in use: clients must be given it; the old one is "
                             "refused."));
    });
    connect(m_mode, &QComboBox::currentIndexChanged, this, &McpPanel::applyMode);
    connect(m_severity, &QComboBox::currentIndexChanged, this, &McpPanel::applyMode);
    connect(m_approvalTimeout, &QSpinBox::valueChanged, this, [this](int secs) {
        if (!m_updating)
            m_host->setApprovalTimeoutSecs(secs);
    });
    connect(m_claude, &QPushButton::clicked, this, &McpPanel::configureClaudeDesktopRequested);

    connect(m_host, &McpHost::stateChanged, this, &McpPanel::refresh);
    // A client set up with an old token or a wrong URL: say why it is turned away.
    connect(m_host->http(), &McpHttpServer::requestRefused, this,
            [this](int status, const QString &reason) {
                m_status->setText(tr("%1 refused a request: %2 %3")
                                      .arg(QTime::currentTime().toString(u"HH:mm:ss"_s))
                                      .arg(status)
                                      .arg(reason.toHtmlEscaped()));
            });
    connect(m_host->server(), &McpServer::clientsChanged, this, &McpPanel::refreshClients);

    refresh();
    refreshClients();
}

void McpPanel::applyMode()
{
    if (m_updating)
        return;
    const auto mode = McpApprovalMode(m_mode->currentData().toInt());
    m_severity->setEnabled(mode == McpApprovalMode::AskAboveSeverity);
    m_host->setApprovalMode(mode, m_severity->currentData().toString());
}

void McpPanel::refresh()
{
    m_updating = true;
    const bool running = m_host->isEnabled();
    m_enabled->setChecked(running);
    m_port->setValue(m_host->portSetting());
    m_url->setText(m_host->url());
    m_token->setText(m_host->token());
    m_copyToken->setEnabled(!m_host->token().isEmpty());
    m_mode->setCurrentIndex(m_mode->findData(int(m_host->approvalMode())));
    m_severity->setCurrentIndex(m_severity->findData(m_host->approvalSeverity()));
    m_severity->setEnabled(m_host->approvalMode() == McpApprovalMode::AskAboveSeverity);
    m_approvalTimeout->setValue(m_host->approvalTimeoutSecs());
    m_approvalTimeout->setEnabled(m_host->approvalMode() != McpApprovalMode::Off);
    m_acceptBridge->setChecked(m_host->acceptsBridge());
    m_updating = false;

    if (!m_host->acceptsBridge())
        m_bridgeStatus->setText(tr("Claude Desktop's runs are served on their own and do not "
                                   "show here."));
    else if (m_host->isBridgeListening())
        m_bridgeStatus->setText(tr("Claude Desktop's runs come to this window: they show in "
                                   "the activity feed and need approval as set below."));
    else
        m_bridgeStatus->setText(u"<span style=\"color:#cf222e\">%1</span>"_s.arg(
            tr("Not accepting: %1").arg(m_host->bridgeError()).toHtmlEscaped()));

    if (!m_host->lastError().isEmpty()) {
        m_status->setText(u"<span style=\"color:#cf222e\">%1</span>"_s.arg(
            tr("Not serving: %1").arg(m_host->lastError()).toHtmlEscaped()));
    } else if (running) {
        m_status->setText(tr("Serving on 127.0.0.1 only. Clients need the URL and the token."));
    } else {
        m_status->setText(tr("Off. Claude Desktop does not need it: it starts "
                             "sandbox-studio mcp over stdio (see below)."));
    }
}

QString McpPanel::transportLabel(const QString &transport)
{
    if (transport == QLatin1String(McpBridgeTransport))
        return tr("via stdio bridge");
    return transport;
}

void McpPanel::refreshClients()
{
    const QList<McpClientInfo> clients = m_host->server()->clients();
    m_clients->clear();
    for (const McpClientInfo &c : clients) {
        auto *item = new QTreeWidgetItem(m_clients);
        item->setText(NameColumn, !c.name.isEmpty() ? c.name
                                  : c.stateless     ? tr("(unnamed)")
                                                    : tr("(initializing)"));
        item->setText(VersionColumn, c.version);
        item->setText(TransportColumn, transportLabel(c.transport));
        item->setText(SessionColumn, c.connectionId.left(8));
        item->setToolTip(SessionColumn, c.connectionId);
        item->setText(CallsColumn, QString::number(c.callsInFlight));
        item->setText(SinceColumn, c.connectedAt.toLocalTime().toString(u"HH:mm:ss"_s));
        item->setToolTip(NameColumn,
                         c.stateless
                             ? tr("Protocol %1, stateless: no MCP session").arg(c.protocolVersion)
                             : tr("Protocol %1").arg(c.protocolVersion));
        item->setData(NameColumn, Qt::UserRole, c.connectionId);
    }
    m_clientsTitle->setText(tr("Connected clients: %1").arg(clients.size()));
}
