// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpserver.h"

#include <QDialog>
#include <QTimer>

class CodeEditor;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

/// Fills view (4 columns: severity, rule, line, message) with findings; severities are
/// coloured (critical and high red, medium orange, low grey). Shared by the activity feed.
void fillPolicyFindings(QTreeWidget *view, const QList<sandbox::PolicyFinding> &findings);

/// Asks the person whether an MCP client may run code (McpServer::approvalRequested):
/// client, tool, language, why it asks, the code (highlighted, read-only) and the policy
/// findings, with Allow and Deny. Non-modal and deleted on close; the GUI keeps running
/// while it waits. Closing it denies; so does the timeout (a countdown is shown) when
/// timeoutSecs > 0. withdraw() closes it without an answer (the call went away).
class McpApprovalDialog final : public QDialog
{
    Q_OBJECT

public:
    McpApprovalDialog(const sandbox::McpApprovalRequest &request, int timeoutSecs,
                      QWidget *parent = nullptr);

    qint64 callId() const { return m_request.callId; }
    const sandbox::McpApprovalRequest &request() const { return m_request; }
    QPushButton *allowButton() const { return m_allow; }
    QPushButton *denyButton() const { return m_deny; }
    CodeEditor *codeView() const { return m_code; }
    QTreeWidget *findingsView() const { return m_findings; }
    /// Seconds left before the automatic denial (-1 without timeout).
    int secondsLeft() const { return m_secondsLeft; }

public Q_SLOTS:
    void allow();
    /// Denies; reason (optional) goes into the error result the client gets.
    void deny(const QString &reason = {});
    /// The request no longer needs an answer: closes without answering.
    void withdraw();

Q_SIGNALS:
    /// Emitted once, on Allow, Deny, close or timeout.
    void answered(qint64 callId, bool allow, const QString &reason);

protected:
    void reject() override;

private:
    void answer(bool allow, const QString &reason);
    void tick();
    void updateCountdown();

    sandbox::McpApprovalRequest m_request;
    CodeEditor *m_code = nullptr;
    QTreeWidget *m_findings = nullptr;
    QLabel *m_countdown = nullptr;
    QLineEdit *m_reason = nullptr;
    QPushButton *m_allow = nullptr;
    QPushButton *m_deny = nullptr;
    QTimer m_timer;
    int m_secondsLeft = -1;
    bool m_done = false;
};
