// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpserver.h"

#include <QElapsedTimer>
#include <QHash>
#include <QTimer>
#include <QWidget>
#include <memory>
#include <optional>

class CodeEditor;
class McpApprovalDialog;
class McpHost;
class OutputConsole;
class QLabel;
class QListWidget;
class QPushButton;
class QTabWidget;
class QTreeWidget;
class QTreeWidgetItem;

/// The "MCP Activity" dock page: every tool call of the hosted McpServer, newest at the
/// bottom, with time, client, tool, language, status and duration (live while it runs).
/// The selected call shows its code (highlighted), its output (streamed live, stdout and
/// stderr apart, then the exit summary or the error), its policy findings and its plots
/// (thumbnails; a click opens one full size). Calls waiting for approval appear as soon as
/// they ask. "Open in Editor" hands a call's language and code to the window
/// (openInEditorRequested); "Stop" ends a running call.
///
/// Keeps the last MaximumCalls calls (the oldest finished ones go first) and at most
/// MaximumOutputBytes of output per call.
class McpActivityFeed final : public QWidget
{
    Q_OBJECT

public:
    static constexpr int MaximumCalls = 300;
    static constexpr qint64 MaximumOutputBytes = 1 << 20;
    static constexpr int ThumbnailSize = 96;

    enum Column
    {
        TimeColumn,
        ClientColumn,
        ToolColumn,
        LanguageColumn,
        StatusColumn,
        DurationColumn,
        ColumnCount
    };

    /// Tabs of the detail pane, in order.
    enum Tab
    {
        OutputTab,
        CodeTab,
        FindingsTab,
        PlotsTab
    };

    explicit McpActivityFeed(McpHost *host, QWidget *parent = nullptr);
    ~McpActivityFeed() override;

    QTreeWidget *callsView() const { return m_calls; }
    OutputConsole *outputView() const { return m_output; }
    CodeEditor *codeView() const { return m_code; }
    QTreeWidget *findingsView() const { return m_findings; }
    QListWidget *plotsView() const { return m_plots; }
    QTabWidget *tabs() const { return m_tabs; }
    QLabel *detailHeader() const { return m_header; }
    QPushButton *openInEditorButton() const { return m_openInEditor; }
    /// Stops the selected running call (McpServer::stopCall): its client gets an error
    /// result saying the person stopped it; a call waiting for approval is denied.
    QPushButton *stopButton() const { return m_stop; }

    /// Calls listed now.
    int count() const;
    /// Ids of the calls listed, oldest first.
    QList<qint64> callIds() const;
    /// The list row of a call, or nullptr.
    QTreeWidgetItem *itemFor(qint64 callId) const;
    /// The status text shown for a call ("running", "exit 0", "denied", ...).
    QString statusText(qint64 callId) const;
    /// The call's output as received so far (stdout and stderr interleaved, capped).
    QByteArray outputOf(qint64 callId) const;
    /// The result of a finished call.
    std::optional<sandbox::McpCallResult> resultOf(qint64 callId) const;
    /// The call shown in the detail pane (0 = none).
    qint64 selectedCall() const { return m_selected; }

public Q_SLOTS:
    /// Shows a call in the detail pane and selects its row.
    void selectCall(qint64 callId);
    /// Removes every finished call.
    void clearFinished();

Q_SIGNALS:
    /// "Open in Editor" on a call that ran code: language is a LanguageRegistry id.
    void openInEditorRequested(const QString &language, const QString &code, const QString &source);
    /// A call was added (started or asking for approval).
    void callAdded(qint64 callId);
    /// A call ended.
    void callEnded(qint64 callId);

private:
    struct Chunk
    {
        bool stderrStream;
        QByteArray data;
    };
    struct Entry
    {
        sandbox::McpCallInfo info;
        QList<Chunk> output;
        qint64 outputBytes = 0;
        bool outputCapped = false;
        QString status; // the server's last callStatus
        bool awaitingApproval = false;
        bool stopRequested = false; // the person pressed Stop
        QList<sandbox::PolicyFinding> findings;
        std::optional<sandbox::McpCallResult> result;
        QElapsedTimer timer;
        QTreeWidgetItem *item = nullptr;
    };

    Entry &entryFor(qint64 callId);
    void onApprovalDialog(McpApprovalDialog *dialog);
    void onCallStarted(const sandbox::McpCallInfo &info);
    void onCallOutput(qint64 callId, const QString &stream, const QByteArray &chunk);
    void onCallStatus(qint64 callId, const QString &status);
    void onCallFinished(const sandbox::McpCallResult &result);
    void updateRow(const Entry &entry);
    void updateRunningDurations();
    void showDetail();
    void updateHeader(const Entry &entry);
    void prune();
    QString statusFor(const Entry &entry) const;
    QString codeOrArguments(const Entry &entry) const;

    McpHost *m_host;
    QTreeWidget *m_calls = nullptr;
    QLabel *m_header = nullptr;
    QTabWidget *m_tabs = nullptr;
    OutputConsole *m_output = nullptr;
    CodeEditor *m_code = nullptr;
    QTreeWidget *m_findings = nullptr;
    QListWidget *m_plots = nullptr;
    QPushButton *m_openInEditor = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_clear = nullptr;
    QLabel *m_summary = nullptr;

    QHash<qint64, std::shared_ptr<Entry>> m_entries;
    QList<qint64> m_order;
    qint64 m_selected = 0;
    QTimer m_tick;
};
