// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpapprovaldialog.h"

#include "codeeditor.h"
#include "languages/language.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using namespace sandbox;

void fillPolicyFindings(QTreeWidget *view, const QList<PolicyFinding> &findings)
{
    view->clear();
    view->setColumnCount(4);
    view->setHeaderLabels({McpApprovalDialog::tr("Severity"), McpApprovalDialog::tr("Rule"),
                           McpApprovalDialog::tr("Line"), McpApprovalDialog::tr("Finding")});
    for (const PolicyFinding &f : findings) {
        auto *item = new QTreeWidgetItem(view);
        item->setText(0, f.severity);
        item->setText(1, f.rule);
        item->setText(2, f.line > 0 ? QString::number(f.line) : QString());
        item->setText(3, f.action.isEmpty() ? f.message : u"%1 (%2)"_s.arg(f.message, f.action));
        item->setToolTip(3, f.message);
        QColor color;
        if (f.severity == u"critical" || f.severity == u"high")
            color = QColor(0xcf, 0x22, 0x2e);
        else if (f.severity == u"medium")
            color = QColor(0xbc, 0x4c, 0x00);
        else
            color = view->palette().color(QPalette::PlaceholderText);
        item->setForeground(0, color);
        QFont bold = item->font(0);
        bold.setBold(f.severity == u"critical" || f.severity == u"high");
        item->setFont(0, bold);
    }
    view->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    view->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    view->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
}

McpApprovalDialog::McpApprovalDialog(const McpApprovalRequest &request, int timeoutSecs,
                                     QWidget *parent)
    : QDialog(parent)
    , m_request(request)
    , m_secondsLeft(timeoutSecs > 0 ? timeoutSecs : -1)
{
    setObjectName(u"mcpApprovalDialog"_s);
    setAttribute(Qt::WA_DeleteOnClose);
    setModal(false);
    setWindowModality(Qt::NonModal);

    const LanguageDescriptor *language = LanguageRegistry::instance().find(request.language);
    const QString languageName = language ? language->displayName : request.language;
    const QString client = request.clientName.isEmpty()
                               ? tr("An MCP client")
                               : (request.clientVersion.isEmpty()
                                      ? request.clientName
                                      : u"%1 %2"_s.arg(request.clientName, request.clientVersion));
    setWindowTitle(tr("Allow %1 to run code?").arg(client));

    auto *headline = new QLabel(this);
    headline->setObjectName(u"approvalHeadline"_s);
    headline->setWordWrap(true);
    headline->setTextFormat(Qt::RichText);
    headline->setText(
        tr("<b>%1</b> asks Sandbox Studio to run %2 code (tool <tt>%3</tt>) in a sandbox.")
            .arg(client.toHtmlEscaped(),
                 (languageName.isEmpty() ? tr("some") : languageName).toHtmlEscaped(),
                 request.tool.toHtmlEscaped()));
    auto *why = new QLabel(tr("Asked because: %1").arg(request.reason), this);
    why->setObjectName(u"approvalReason"_s);
    why->setWordWrap(true);

    m_code = new CodeEditor(this);
    m_code->setObjectName(u"approvalCode"_s);
    m_code->setReadOnly(true);
    m_code->setLanguage(language ? language->highlightName : QString());
    m_code->setPlainText(request.code);
    m_code->setMinimumHeight(180);

    m_findings = new QTreeWidget(this);
    m_findings->setObjectName(u"approvalFindings"_s);
    m_findings->setRootIsDecorated(false);
    fillPolicyFindings(m_findings, request.findings);
    m_findings->setMaximumHeight(120);
    auto *findingsTitle = new QLabel(request.findings.isEmpty()
                                         ? tr("Policy check: no findings.")
                                         : tr("Policy findings (%1):").arg(request.findings.size()),
                                     this);
    m_findings->setVisible(!request.findings.isEmpty());

    m_reason = new QLineEdit(this);
    m_reason->setObjectName(u"approvalDenyReason"_s);
    m_reason->setPlaceholderText(tr("Optional: why you deny it (the client is told)"));

    m_countdown = new QLabel(this);
    m_countdown->setObjectName(u"approvalCountdown"_s);

    auto *buttons = new QDialogButtonBox(this);
    m_allow = buttons->addButton(tr("&Allow"), QDialogButtonBox::AcceptRole);
    m_allow->setObjectName(u"allowButton"_s);
    m_deny = buttons->addButton(tr("&Deny"), QDialogButtonBox::RejectRole);
    m_deny->setObjectName(u"denyButton"_s);
    // Return must not allow a run by accident.
    m_allow->setAutoDefault(false);
    m_deny->setAutoDefault(false);
    connect(m_allow, &QPushButton::clicked, this, &McpApprovalDialog::allow);
    connect(m_deny, &QPushButton::clicked, this, [this] { deny(m_reason->text().trimmed()); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(headline);
    layout->addWidget(why);
    layout->addWidget(m_code, 1);
    layout->addWidget(findingsTitle);
    layout->addWidget(m_findings);
    layout->addWidget(m_reason);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_countdown, 1);
    bottom->addWidget(buttons);
    layout->addLayout(bottom);
    resize(640, 480);

    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &McpApprovalDialog::tick);
    if (m_secondsLeft > 0)
        m_timer.start();
    updateCountdown();
}

void McpApprovalDialog::tick()
{
    if (m_secondsLeft > 0)
        --m_secondsLeft;
    if (m_secondsLeft == 0) {
        deny(tr("no answer within the approval time"));
        return;
    }
    updateCountdown();
}

void McpApprovalDialog::updateCountdown()
{
    if (m_secondsLeft < 0) {
        m_countdown->setText(tr("Waits until you answer or the client gives up."));
        return;
    }
    m_countdown->setText(tr("Denied automatically in %1:%2")
                             .arg(m_secondsLeft / 60)
                             .arg(m_secondsLeft % 60, 2, 10, QLatin1Char('0')));
}

void McpApprovalDialog::allow()
{
    answer(true, {});
}

void McpApprovalDialog::deny(const QString &reason)
{
    answer(false, reason);
}

void McpApprovalDialog::reject()
{
    if (!m_done)
        answer(false, tr("the approval window was closed"));
    else
        QDialog::reject();
}

void McpApprovalDialog::withdraw()
{
    if (m_done)
        return;
    m_done = true;
    m_timer.stop();
    close();
}

void McpApprovalDialog::answer(bool allowRun, const QString &reason)
{
    if (m_done)
        return;
    m_done = true;
    m_timer.stop();
    Q_EMIT answered(m_request.callId, allowRun, reason);
    if (allowRun)
        accept();
    else
        QDialog::reject();
}
