// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QPushButton;

/// "Configure Claude Desktop": shows the configuration file Claude Desktop reads
/// (sandbox::claudedesktop::configPath()), the JSON snippet of our entry (with Copy), and
/// adds or updates our entry in that file on "Add to Claude Desktop"
/// (sandbox::claudedesktop::configure(): other servers and keys are kept, the previous file
/// is backed up). Errors (unreadable or unwritable file, a file that is not a JSON object)
/// are shown in the dialog, and the file is then left as it was. Non-modal.
class ClaudeDesktopDialog final : public QDialog
{
    Q_OBJECT

public:
    /// executable: the command Claude Desktop runs with the argument "mcp" (absolute; empty
    /// = this program). path: the configuration file (empty = configPath()).
    explicit ClaudeDesktopDialog(QWidget *parent = nullptr, const QString &executable = {},
                                 const QString &path = {});

    QString configPath() const { return m_path; }
    QPlainTextEdit *snippetView() const { return m_snippet; }
    QPushButton *writeButton() const { return m_write; }
    QPushButton *copyButton() const { return m_copy; }
    /// The outcome of the last write (or the error), as shown.
    QLabel *resultLabel() const { return m_result; }
    /// Whether the last write failed.
    bool failed() const { return m_failed; }

public Q_SLOTS:
    /// Adds or updates our entry in the configuration file. Returns whether it worked.
    bool writeConfiguration();

Q_SIGNALS:
    /// After each write attempt.
    void configured(bool ok, const QString &message);

private:
    QString m_executable;
    QString m_path;
    QLabel *m_where = nullptr;
    QPlainTextEdit *m_snippet = nullptr;
    QPushButton *m_write = nullptr;
    QPushButton *m_copy = nullptr;
    QLabel *m_result = nullptr;
    bool m_failed = false;
};
