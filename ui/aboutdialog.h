// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QList>

class QAction;
class QTabWidget;
class QTextBrowser;

/// Help ▸ About (version, engine, Qt, license) and Help ▸ Help (F1): keyboard shortcuts
/// (read from the actions given, so they always match the menus), command-line use and
/// MCP use, as two tabs of one dialog.
class AboutDialog final : public QDialog
{
    Q_OBJECT

public:
    enum class Page
    {
        About,
        Help
    };

    /// actions: the window's actions whose shortcuts the Help page lists; engine: a line
    /// about the connected engine ("Docker 26.1 at unix:///var/run/docker.sock").
    AboutDialog(const QList<QAction *> &actions, const QString &engine, QWidget *parent = nullptr);

    void showPage(Page page);
    QTextBrowser *aboutText() const { return m_about; }
    QTextBrowser *helpText() const { return m_help; }

    /// The Help page's HTML for actions (shortcut table, CLI and MCP sections). An action's
    /// "helpSection" property (e.g. "Notebook") prefixes its name in the table.
    static QString helpHtml(const QList<QAction *> &actions);

private:
    QTabWidget *m_tabs;
    QTextBrowser *m_about;
    QTextBrowser *m_help;
};
