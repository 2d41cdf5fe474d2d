// SPDX-License-Identifier: GPL-3.0-or-later
#include "aboutdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QIcon>
#include <QLabel>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

AboutDialog::AboutDialog(const QList<QAction *> &actions, const QString &engine, QWidget *parent)
    : QDialog(parent)
    , m_tabs(new QTabWidget(this))
    , m_about(new QTextBrowser(this))
    , m_help(new QTextBrowser(this))
{
    setObjectName(u"aboutDialog"_s);
    setWindowTitle(tr("About Sandbox Studio"));
    m_tabs->setObjectName(u"aboutTabs"_s);
    m_about->setObjectName(u"aboutText"_s);
    m_about->setAccessibleName(tr("About Sandbox Studio"));
    m_about->setOpenExternalLinks(true);
    m_help->setObjectName(u"helpText"_s);
    m_help->setAccessibleName(tr("Help"));
    m_help->setOpenExternalLinks(true);

    m_about->setHtml(
        tr("<h2>Sandbox Studio %1</h2>"
           "<p>Runs code written by language models inside hardened, isolated containers.</p>"
           "<p>Container engine: %2<br>Qt %3</p>"
           "<p>License: GNU GPL version 3 or later.</p>")
            .arg(QStringLiteral(SANDBOX_STUDIO_VERSION), engine.toHtmlEscaped(),
                 QString::fromLatin1(qVersion())));
    m_help->setHtml(helpHtml(actions));

    m_tabs->addTab(m_about, tr("&About"));
    m_tabs->addTab(m_help, tr("&Help"));

    auto *icon = new QLabel(this);
    icon->setPixmap(windowIcon().pixmap(64, 64));
    icon->setAlignment(Qt::AlignHCenter);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(icon);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(buttons);
    resize(620, 560);
}

void AboutDialog::showPage(Page page)
{
    m_tabs->setCurrentWidget(page == Page::About ? m_about : m_help);
}

QString AboutDialog::helpHtml(const QList<QAction *> &actions)
{
    QString rows;
    for (const QAction *action : actions) {
        const QList<QKeySequence> keys = action->shortcuts();
        if (keys.isEmpty())
            continue;
        QStringList texts;
        for (const QKeySequence &k : keys)
            if (!k.isEmpty() &&
                !texts.contains(k.toString(QKeySequence::NativeText).toHtmlEscaped()))
                texts << k.toString(QKeySequence::NativeText).toHtmlEscaped();
        if (texts.isEmpty())
            continue;
        QString name = action->text();
        name.remove(u'&');
        name.remove(u"…"_s);
        name = name.trimmed();
        // "Notebook: Run" for actions of a part of the window.
        if (const QString section = action->property("helpSection").toString(); !section.isEmpty())
            name = tr("%1: %2").arg(section, name);
        rows += u"<tr><td>%1</td><td><b>%2</b></td></tr>"_s.arg(name.toHtmlEscaped(),
                                                                texts.join(u", "_s));
    }
    QString html = u"<h3>"_s + tr("Keyboard shortcuts") + u"</h3>"_s +
                   u"<table cellspacing=\"4\">"_s + rows + u"</table>"_s;
    html += u"<h3>"_s + tr("Command line") + u"</h3>"_s;
    html += u"<p>"_s +
            tr("The same program runs without a window when given a command:").toHtmlEscaped() +
            u"</p><pre>"_s +
            u"sandbox-studio run script.py\n"
            "echo 'print(6*7)' | sandbox-studio run --language python -\n"
            "sandbox-studio run --timeout 10 --memory 256m --json report.py\n"
            "sandbox-studio images list | ensure NAME\n"
            "sandbox-studio doctor\n"
            "sandbox-studio --help"_s.toHtmlEscaped() +
            u"</pre><p>"_s +
            tr("run exits with the program's own status; bad input exits 2, engine failures "
               "125.")
                .toHtmlEscaped() +
            u"</p>"_s;
    html += u"<h3>"_s + tr("MCP") + u"</h3>"_s;
    html += u"<p>"_s +
            tr("Language-model clients reach Sandbox Studio through the Model Context Protocol. "
               "Enable the endpoint and choose its port in Preferences ▸ MCP; it listens on "
               "127.0.0.1 only, and every run it asks for uses the same sandboxes, limits and "
               "policy as runs started here.")
                .toHtmlEscaped() +
            u"</p>"_s;
    return html;
}
