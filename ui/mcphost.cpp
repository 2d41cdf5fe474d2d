// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcphost.h"

#include "mcp/mcpbridge.h"
#include "mcp/mcphttpserver.h"
#include "mcpapprovaldialog.h"
#include "session/engine.h"

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QWidget>

using namespace Qt::StringLiterals;
using namespace sandbox;

namespace {
namespace key {
constexpr auto Enabled = "mcp/enabled"_L1;
constexpr auto Port = "mcp/port"_L1;
constexpr auto Token = "mcp/token"_L1;
constexpr auto ApprovalMode = "mcp/approvalMode"_L1;
constexpr auto ApprovalSeverity = "mcp/approvalSeverity"_L1;
constexpr auto ApprovalTimeout = "mcp/approvalTimeoutSecs"_L1;
constexpr auto AcceptBridge = "mcp/acceptBridge"_L1;
} // namespace key

const QStringList &severities()
{
    static const QStringList list{u"low"_s, u"medium"_s, u"high"_s, u"critical"_s};
    return list;
}
} // namespace

namespace {
/// MCP runs are checked with the window's active policy, which MainWindow keeps in the
/// engine (Engine::setPolicy): findings that ask go to the approval dialog, block ends the
/// call with the rule named.
void usePolicyOf(const std::unique_ptr<McpServer> &server, const std::shared_ptr<Engine> &engine)
{
    server->setPolicyChecker(
        [weak = std::weak_ptr<Engine>(engine)](const QString &language, const QString &code) {
            const auto live = weak.lock();
            return live ? evaluatePolicy(live->policy(), language, code).findings
                        : QList<PolicyFinding>{};
        });
}
} // namespace

McpHost::McpHost(std::shared_ptr<Engine> engine, QSettings *settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_server(std::make_unique<McpServer>(engine))
    , m_http(std::make_unique<McpHttpServer>(m_server.get()))
    , m_bridge(std::make_unique<McpBridgeServer>(m_server.get()))
{
    usePolicyOf(m_server, engine);
    connect(m_server.get(), &McpServer::approvalRequested, this, &McpHost::onApprovalRequested);
    connect(m_server.get(), &McpServer::approvalWithdrawn, this, &McpHost::onApprovalWithdrawn);
    connect(m_http.get(), &McpHttpServer::started, this, &McpHost::stateChanged);
    connect(m_http.get(), &McpHttpServer::stopped, this, &McpHost::stateChanged);
}

McpHost::~McpHost()
{
    // Pending approvals end with the host; their dialogs must not answer a dead server.
    for (const auto &dialog : std::as_const(m_dialogs))
        if (dialog)
            dialog->withdraw();
    m_http->stop();
    m_http.reset();
    m_bridge->close();
    m_bridge.reset();
    // Cancels the runs and removes the sandboxes of notebook sessions; waits for them
    // (bounded), as the window is closing anyway.
    m_server->shutdown(10'000);
}

void McpHost::setEngine(std::shared_ptr<Engine> engine)
{
    usePolicyOf(m_server, engine);
    m_server->setEngine(std::move(engine));
}

void McpHost::restore()
{
    m_port = quint16(std::clamp(m_settings->value(key::Port, DefaultPort).toInt(), 0, 65535));
    m_token = m_settings->value(key::Token).toString();
    m_approvalTimeoutSecs =
        std::max(0, m_settings->value(key::ApprovalTimeout, DefaultApprovalTimeoutSecs).toInt());
    QString severity = m_settings->value(key::ApprovalSeverity, u"high"_s).toString();
    if (!severities().contains(severity))
        severity = u"high"_s;
    m_server->setApprovalMode(modeFromKey(m_settings->value(key::ApprovalMode).toString()),
                              severity);
    ensureToken(); // shown before the first start, so clients can be set up first
    m_acceptBridge = m_settings->value(key::AcceptBridge, true).toBool();
    if (m_acceptBridge)
        (void)startBridge(); // a failure is shown in the panel (bridgeError)
    if (m_settings->value(key::Enabled, false).toBool())
        (void)start(); // reported through errorOccurred; the setting stays on
    Q_EMIT stateChanged();
}

bool McpHost::isEnabled() const
{
    return m_http->isRunning();
}

void McpHost::ensureToken()
{
    if (!m_token.isEmpty())
        return;
    m_token = McpHttpServer::generateToken();
    storeToken();
}

void McpHost::storeToken()
{
    m_settings->setValue(key::Token, m_token);
    m_settings->sync();
    // The token lets a local process run code: the settings file is the owner's only (later
    // writes keep the permissions of the file they replace).
    const QString file = m_settings->fileName();
    if (!file.isEmpty() && QFile::exists(file))
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
}

Result<void> McpHost::start()
{
    ensureToken();
    McpHttpOptions options;
    options.port = m_port;
    options.token = m_token;
    auto started = m_http->start(options);
    if (!started) {
        m_lastError = started.error().toString();
        Q_EMIT errorOccurred(m_lastError);
    } else {
        m_lastError.clear();
    }
    Q_EMIT stateChanged();
    return started;
}

Result<void> McpHost::startBridge()
{
    auto r = m_bridge->listen();
    m_bridgeError = r ? QString() : r.error().message;
    return r;
}

bool McpHost::isBridgeListening() const
{
    return m_bridge->isListening();
}

Result<void> McpHost::setAcceptBridge(bool on)
{
    m_acceptBridge = on;
    m_settings->setValue(key::AcceptBridge, on);
    Result<void> r;
    if (on) {
        r = startBridge();
    } else {
        m_bridge->close();
        m_bridgeError.clear();
    }
    Q_EMIT stateChanged();
    return r;
}

Result<void> McpHost::setEnabled(bool on)
{
    m_settings->setValue(key::Enabled, on);
    if (!on) {
        m_http->stop();
        m_lastError.clear();
        Q_EMIT stateChanged();
        return {};
    }
    if (m_http->isRunning())
        return {};
    return start();
}

Result<void> McpHost::setPortSetting(quint16 port)
{
    if (port == m_port)
        return {};
    m_port = port;
    m_settings->setValue(key::Port, int(port));
    if (!m_http->isRunning()) {
        Q_EMIT stateChanged();
        return {};
    }
    return start(); // start() stops first
}

QString McpHost::url() const
{
    return m_http->url();
}

QString McpHost::rotateToken()
{
    m_token = m_http->isRunning() ? m_http->rotateToken() : McpHttpServer::generateToken();
    storeToken();
    Q_EMIT stateChanged();
    return m_token;
}

McpApprovalMode McpHost::approvalMode() const
{
    return m_server->approvalMode();
}

QString McpHost::approvalSeverity() const
{
    return m_server->approvalSeverity();
}

void McpHost::setApprovalMode(McpApprovalMode mode, const QString &severity)
{
    const QString s = severities().contains(severity.toLower()) ? severity.toLower() : u"high"_s;
    m_server->setApprovalMode(mode, s);
    m_settings->setValue(key::ApprovalMode, modeKey(mode));
    m_settings->setValue(key::ApprovalSeverity, s);
    Q_EMIT stateChanged();
}

void McpHost::setApprovalTimeoutSecs(int seconds)
{
    m_approvalTimeoutSecs = std::max(0, seconds);
    m_settings->setValue(key::ApprovalTimeout, m_approvalTimeoutSecs);
    Q_EMIT stateChanged();
}

McpApprovalDialog *McpHost::approvalDialog(qint64 callId) const
{
    return m_dialogs.value(callId).data();
}

QList<qint64> McpHost::pendingApprovals() const
{
    return m_pendingOrder;
}

QString McpHost::modeKey(McpApprovalMode mode)
{
    switch (mode) {
    case McpApprovalMode::Off:
        return u"off"_s;
    case McpApprovalMode::AskEveryRun:
        return u"every"_s;
    case McpApprovalMode::AskAboveSeverity:
        return u"severity"_s;
    }
    return u"off"_s;
}

McpApprovalMode McpHost::modeFromKey(const QString &key)
{
    if (key == u"every")
        return McpApprovalMode::AskEveryRun;
    if (key == u"severity")
        return McpApprovalMode::AskAboveSeverity;
    return McpApprovalMode::Off;
}

void McpHost::onApprovalRequested(const McpApprovalRequest &request)
{
    auto *dialog = new McpApprovalDialog(request, m_approvalTimeoutSecs, m_dialogParent);
    m_dialogs.insert(request.callId, dialog);
    m_pendingOrder.append(request.callId);
    const qint64 callId = request.callId;
    connect(dialog, &McpApprovalDialog::answered, this,
            [this](qint64 id, bool allow, const QString &reason) {
                m_server->resolveApproval(id, allow, reason);
            });
    connect(dialog, &QObject::destroyed, this, [this, callId] {
        m_dialogs.remove(callId);
        m_pendingOrder.removeOne(callId);
    });
    dialog->show();
    dialog->raise();
    QApplication::alert(dialog); // the person may be in another application
    Q_EMIT approvalDialogOpened(dialog);
}

void McpHost::onApprovalWithdrawn(qint64 callId)
{
    if (McpApprovalDialog *dialog = m_dialogs.value(callId))
        dialog->withdraw();
}
