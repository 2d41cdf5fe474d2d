// SPDX-License-Identifier: GPL-3.0-or-later
#include "claudedesktopdialog.h"

#include "mcp/claudedesktop.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using namespace sandbox;

ClaudeDesktopDialog::ClaudeDesktopDialog(QWidget *parent, const QString &executable,
                                         const QString &path)
    : QDialog(parent)
    , m_executable(executable.isEmpty() ? QCoreApplication::applicationFilePath() : executable)
    , m_path(path.isEmpty() ? claudedesktop::configPath() : path)
{
    setObjectName(u"claudeDesktopDialog"_s);
    setWindowTitle(tr("Configure Claude Desktop"));
    setAttribute(Qt::WA_DeleteOnClose);
    setModal(false);

    auto *intro = new QLabel(
        tr("Claude Desktop starts Sandbox Studio by itself (<tt>%1 mcp</tt>, over stdio) when "
           "its configuration lists it. Add the entry below to <tt>%2</tt>, or copy it there "
           "yourself. Your other servers and settings are kept, and the previous file is "
           "backed up next to it. Restart Claude Desktop afterwards.")
            .arg(QDir::toNativeSeparators(m_executable).toHtmlEscaped(),
                 QDir::toNativeSeparators(m_path).toHtmlEscaped()),
        this);
    intro->setObjectName(u"claudeIntro"_s);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);
    intro->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_snippet = new QPlainTextEdit(this);
    m_snippet->setObjectName(u"claudeSnippet"_s);
    m_snippet->setReadOnly(true);
    m_snippet->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_snippet->setPlainText(QString::fromUtf8(claudedesktop::snippet(m_executable)));

    m_result = new QLabel(this);
    m_result->setObjectName(u"claudeResult"_s);
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_write = buttons->addButton(tr("&Add to Claude Desktop"), QDialogButtonBox::ActionRole);
    m_write->setObjectName(u"claudeWrite"_s);
    m_copy = buttons->addButton(tr("&Copy JSON"), QDialogButtonBox::ActionRole);
    m_copy->setObjectName(u"claudeCopy"_s);
    connect(m_write, &QPushButton::clicked, this, &ClaudeDesktopDialog::writeConfiguration);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_snippet->toPlainText());
        m_result->setText(tr("The JSON is on the clipboard."));
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_snippet, 1);
    layout->addWidget(m_result);
    layout->addWidget(buttons);
    resize(620, 380);
}

bool ClaudeDesktopDialog::writeConfiguration()
{
    // A small local file: read, backed up and replaced atomically in a few milliseconds.
    const auto outcome = claudedesktop::configure(m_path, m_executable);
    QString message;
    if (!outcome) {
        m_failed = true;
        const Error &e = outcome.error();
        message = tr("Could not configure Claude Desktop: %1").arg(e.message);
        if (!e.detail.isEmpty())
            message += u" ("_s + e.detail + u')';
        message += u' ' + tr("The file was not changed.");
        m_result->setText(
            u"<span style=\"color:#cf222e\">%1</span>"_s.arg(message.toHtmlEscaped()));
    } else {
        m_failed = false;
        const QString file = QDir::toNativeSeparators(outcome->path);
        if (!outcome->changed)
            message = tr("%1 already lists Sandbox Studio; nothing to change.").arg(file);
        else if (outcome->created)
            message =
                tr("Created %1 with Sandbox Studio. Restart Claude Desktop to use it.").arg(file);
        else
            message = tr("Added Sandbox Studio to %1.\nThe previous file is kept as %2.\nRestart "
                         "Claude Desktop to use it.")
                          .arg(file, QDir::toNativeSeparators(outcome->backupPath));
        m_result->setText(u"<span style=\"color:#1a7f37\">%1</span>"_s.arg(
            message.toHtmlEscaped().replace(u'\n', u"<br>"_s)));
        m_snippet->setPlainText(QString::fromUtf8(outcome->snippet));
    }
    Q_EMIT configured(!m_failed, message);
    return !m_failed;
}
