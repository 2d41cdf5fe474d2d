// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcpactivity.h"

#include "artifactactions.h"
#include "codeeditor.h"
#include "languages/language.h"
#include "mcp/mcpbridge.h"
#include "mcpapprovaldialog.h"
#include "mcphost.h"
#include "outputconsole.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
using namespace sandbox;

namespace {

constexpr int TickMs = 500;
constexpr int CallIdRole = Qt::UserRole + 1;
constexpr int ImageIndexRole = Qt::UserRole + 2;

QString seconds(qint64 ms)
{
    return QCoreApplication::translate("McpActivityFeed", "%1 s")
        .arg(QLocale().toString(double(ms) / 1000.0, 'f', 1));
}

QString languageName(const QString &id)
{
    const LanguageDescriptor *language = LanguageRegistry::instance().find(id);
    return language ? language->displayName : id;
}

/// Strings longer than this are cut in the arguments shown for tools without code.
constexpr qsizetype MaximumArgumentChars = 300;

QJsonValue elide(const QJsonValue &value)
{
    if (value.isString()) {
        const QString s = value.toString();
        if (s.size() <= MaximumArgumentChars)
            return s;
        return QString(s.left(MaximumArgumentChars) + u"… (%1 characters)"_s.arg(s.size()));
    }
    if (value.isObject()) {
        QJsonObject out;
        const QJsonObject in = value.toObject();
        for (auto it = in.begin(); it != in.end(); ++it)
            out.insert(it.key(), elide(it.value()));
        return out;
    }
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &v : value.toArray())
            out.append(elide(v));
        return out;
    }
    return value;
}

} // namespace

McpActivityFeed::McpActivityFeed(McpHost *host, QWidget *parent)
    : QWidget(parent)
    , m_host(host)
{
    setObjectName(u"mcpActivity"_s);

    m_calls = new QTreeWidget(this);
    m_calls->setObjectName(u"mcpCalls"_s);
    m_calls->setAccessibleName(tr("MCP calls"));
    m_calls->setRootIsDecorated(false);
    m_calls->setUniformRowHeights(true);
    m_calls->setColumnCount(ColumnCount);
    m_calls->setHeaderLabels(
        {tr("Time"), tr("Client"), tr("Tool"), tr("Language"), tr("Status"), tr("Duration")});
    m_calls->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_calls->header()->setStretchLastSection(true);

    m_summary = new QLabel(this);
    m_clear = new QPushButton(tr("Clear Finished"), this);
    m_clear->setObjectName(u"mcpClearFinished"_s);

    m_header = new QLabel(this);
    m_header->setObjectName(u"mcpCallHeader"_s);
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_output = new OutputConsole(this);
    m_output->setObjectName(u"mcpCallOutput"_s);
    m_code = new CodeEditor(this);
    m_code->setObjectName(u"mcpCallCode"_s);
    m_code->setReadOnly(true);
    m_findings = new QTreeWidget(this);
    m_findings->setObjectName(u"mcpCallFindings"_s);
    m_findings->setRootIsDecorated(false);
    fillPolicyFindings(m_findings, {});
    m_plots = new QListWidget(this);
    m_plots->setObjectName(u"mcpCallPlots"_s);
    m_plots->setViewMode(QListView::IconMode);
    m_plots->setIconSize(QSize(ThumbnailSize, ThumbnailSize));
    m_plots->setResizeMode(QListView::Adjust);
    m_plots->setMovement(QListView::Static);
    m_plots->setSpacing(6);
    m_plots->setToolTip(tr("Click a plot to view it full size"));

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(u"mcpCallTabs"_s);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_output, tr("Output"));
    m_tabs->addTab(m_code, tr("Code"));
    m_tabs->addTab(m_findings, tr("Findings"));
    m_tabs->addTab(m_plots, tr("Plots"));

    m_openInEditor = new QPushButton(tr("Open in Editor"), this);
    m_openInEditor->setObjectName(u"mcpOpenInEditor"_s);
    m_openInEditor->setToolTip(
        tr("Put this call's code in the main editor (your code is kept: you are asked first, "
           "and Undo brings it back)"));
    m_openInEditor->setEnabled(false);
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setObjectName(u"mcpStopCall"_s);
    m_stop->setToolTip(tr("Stop this call: its sandbox is removed and the client is told you "
                          "stopped it"));
    m_stop->setEnabled(false);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_clear);
    topLayout->addLayout(bar);
    topLayout->addWidget(m_calls, 1);

    auto *detail = new QWidget(this);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    auto *headerRow = new QHBoxLayout;
    headerRow->addWidget(m_header, 1);
    headerRow->addWidget(m_stop, 0, Qt::AlignTop);
    headerRow->addWidget(m_openInEditor, 0, Qt::AlignTop);
    detailLayout->addLayout(headerRow);
    detailLayout->addWidget(m_tabs, 1);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(u"mcpActivitySplitter"_s);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(top);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(splitter);

    connect(m_calls, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *current) {
        const qint64 id = current ? current->data(0, CallIdRole).toLongLong() : 0;
        if (id != m_selected) {
            m_selected = id;
            showDetail();
        }
    });
    connect(m_plots, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) {
        const auto entry = m_entries.value(m_selected);
        const int index = item->data(ImageIndexRole).toInt();
        if (!entry || !entry->result || index < 0 || index >= entry->result->images.size())
            return;
        const Artifact &image = entry->result->images.at(index);
        ArtifactActions::showImage(this, ArtifactActions::decode(image.data, image.mimeType),
                                   image.data, image.mimeType, image.name);
    });
    connect(m_openInEditor, &QPushButton::clicked, this, [this] {
        const auto entry = m_entries.value(m_selected);
        if (!entry || entry->info.code.isEmpty() || entry->info.language.isEmpty())
            return;
        const QString client =
            entry->info.clientName.isEmpty() ? tr("an MCP client") : entry->info.clientName;
        Q_EMIT openInEditorRequested(
            entry->info.language, entry->info.code,
            tr("MCP call %1 from %2 at %3")
                .arg(entry->info.callId)
                .arg(client, entry->info.startedAt.toLocalTime().toString(u"HH:mm:ss"_s)));
    });
    connect(m_stop, &QPushButton::clicked, this, [this] {
        const auto entry = m_entries.value(m_selected);
        if (!entry || entry->result)
            return;
        entry->stopRequested = true;
        entry->status = tr("stopping");
        m_stop->setEnabled(false);
        updateRow(*entry);
        updateHeader(*entry);
        m_host->server()->stopCall(entry->info.callId);
    });
    connect(m_clear, &QPushButton::clicked, this, &McpActivityFeed::clearFinished);

    McpServer *server = m_host->server();
    connect(server, &McpServer::callStarted, this, &McpActivityFeed::onCallStarted);
    connect(server, &McpServer::callOutput, this, &McpActivityFeed::onCallOutput);
    connect(server, &McpServer::callStatus, this, &McpActivityFeed::onCallStatus);
    connect(server, &McpServer::callFinished, this, &McpActivityFeed::onCallFinished);
    connect(m_host, &McpHost::approvalDialogOpened, this, &McpActivityFeed::onApprovalDialog);

    m_tick.setInterval(TickMs);
    connect(&m_tick, &QTimer::timeout, this, &McpActivityFeed::updateRunningDurations);
    showDetail();
}

McpActivityFeed::~McpActivityFeed() = default;

int McpActivityFeed::count() const
{
    return int(m_order.size());
}

QList<qint64> McpActivityFeed::callIds() const
{
    return m_order;
}

QTreeWidgetItem *McpActivityFeed::itemFor(qint64 callId) const
{
    const auto entry = m_entries.value(callId);
    return entry ? entry->item : nullptr;
}

QString McpActivityFeed::statusText(qint64 callId) const
{
    const auto entry = m_entries.value(callId);
    return entry ? statusFor(*entry) : QString();
}

QByteArray McpActivityFeed::outputOf(qint64 callId) const
{
    QByteArray out;
    if (const auto entry = m_entries.value(callId))
        for (const Chunk &chunk : entry->output)
            out += chunk.data;
    return out;
}

std::optional<McpCallResult> McpActivityFeed::resultOf(qint64 callId) const
{
    const auto entry = m_entries.value(callId);
    return entry ? entry->result : std::nullopt;
}

McpActivityFeed::Entry &McpActivityFeed::entryFor(qint64 callId)
{
    if (auto it = m_entries.find(callId); it != m_entries.end())
        return **it;
    // Follow the newest call while the person looks at the newest (or at nothing).
    const bool follow = m_selected == 0 || (!m_order.isEmpty() && m_order.last() == m_selected);
    auto entry = std::make_shared<Entry>();
    entry->info.callId = callId;
    entry->info.startedAt = QDateTime::currentDateTimeUtc();
    entry->timer.start();
    entry->item = new QTreeWidgetItem(m_calls);
    entry->item->setData(0, CallIdRole, callId);
    m_entries.insert(callId, entry);
    m_order.append(callId);
    prune();
    if (!m_tick.isActive())
        m_tick.start();
    Q_EMIT callAdded(callId);
    if (follow)
        QMetaObject::invokeMethod(
            this,
            [this, callId] {
                if (m_entries.contains(callId))
                    selectCall(callId);
            },
            Qt::QueuedConnection);
    return *entry;
}

void McpActivityFeed::onApprovalDialog(McpApprovalDialog *dialog)
{
    const McpApprovalRequest &request = dialog->request();
    Entry &entry = entryFor(request.callId);
    entry.info.clientName = request.clientName;
    entry.info.clientVersion = request.clientVersion;
    entry.info.transport = request.transport;
    entry.info.tool = request.tool;
    entry.info.language = request.language;
    entry.info.code = request.code;
    entry.findings = request.findings;
    entry.awaitingApproval = true;
    const qint64 callId = request.callId;
    connect(dialog, &McpApprovalDialog::answered, this, [this, callId](qint64, bool allow) {
        const auto e = m_entries.value(callId);
        if (!e || e->result)
            return;
        e->awaitingApproval = false;
        e->status = allow ? tr("allowed, starting") : tr("denied");
        updateRow(*e);
        if (callId == m_selected)
            updateHeader(*e);
    });
    updateRow(entry);
    if (callId == m_selected)
        showDetail();
}

void McpActivityFeed::onCallStarted(const McpCallInfo &info)
{
    Entry &entry = entryFor(info.callId);
    const bool wasWaiting = entry.awaitingApproval || !entry.status.isEmpty();
    entry.info = info;
    if (!info.findings.isEmpty())
        entry.findings = info.findings;
    entry.awaitingApproval = false;
    if (wasWaiting)
        entry.timer.restart(); // the server counts the duration from the approval too
    updateRow(entry);
    if (info.callId == m_selected)
        showDetail();
}

void McpActivityFeed::onCallOutput(qint64 callId, const QString &stream, const QByteArray &chunk)
{
    const auto entry = m_entries.value(callId);
    if (!entry || entry->outputCapped)
        return;
    QByteArray data = chunk;
    if (entry->outputBytes + data.size() > MaximumOutputBytes) {
        data.truncate(MaximumOutputBytes - entry->outputBytes);
        entry->outputCapped = true;
    }
    const bool isStderr = stream == u"stderr";
    entry->outputBytes += data.size();
    if (!entry->output.isEmpty() && entry->output.last().stderrStream == isStderr)
        entry->output.last().data += data;
    else
        entry->output.append(Chunk{isStderr, data});
    if (callId == m_selected) {
        if (isStderr)
            m_output->appendStderr(data);
        else
            m_output->appendStdout(data);
        if (entry->outputCapped)
            m_output->appendStatus(tr("(further output is not kept here)"));
    }
}

void McpActivityFeed::onCallStatus(qint64 callId, const QString &status)
{
    const auto entry = m_entries.value(callId);
    if (!entry || entry->result)
        return;
    entry->status = status;
    updateRow(*entry);
    if (callId == m_selected)
        updateHeader(*entry);
}

void McpActivityFeed::onCallFinished(const McpCallResult &result)
{
    Entry &entry = entryFor(result.callId);
    entry.awaitingApproval = false;
    entry.result = result;
    if (!result.policyFindings.isEmpty())
        entry.findings = result.policyFindings;
    updateRow(entry);
    if (result.callId == m_selected)
        showDetail();
    Q_EMIT callEnded(result.callId);
}

QString McpActivityFeed::statusFor(const Entry &entry) const
{
    if (entry.awaitingApproval)
        return tr("waiting for approval");
    if (!entry.result)
        return entry.status.isEmpty() ? tr("running") : entry.status;
    const McpCallResult &r = *entry.result;
    if (entry.stopRequested)
        return r.denied ? tr("stopped before it ran") : tr("stopped");
    if (r.denied)
        return tr("denied");
    if (r.cancelled)
        return tr("cancelled");
    if (r.timedOut)
        return tr("timed out");
    if (r.oomKilled)
        return tr("out of memory");
    if (r.exitCode >= 0)
        return tr("exit %1").arg(r.exitCode);
    return r.isError ? tr("error") : tr("done");
}

void McpActivityFeed::updateRow(const Entry &entry)
{
    QTreeWidgetItem *item = entry.item;
    const McpCallInfo &info = entry.info;
    item->setText(TimeColumn, info.startedAt.toLocalTime().toString(u"HH:mm:ss"_s));
    const QString client =
        info.clientName.isEmpty()
            ? tr("(unnamed)")
            : (info.clientVersion.isEmpty() ? info.clientName
                                            : u"%1 %2"_s.arg(info.clientName, info.clientVersion));
    item->setText(ClientColumn, info.transport == QLatin1String(McpBridgeTransport)
                                    ? tr("%1 via stdio bridge").arg(client)
                                    : client);
    if (!info.protocolVersion.isEmpty())
        item->setToolTip(ClientColumn, tr("Protocol %1").arg(info.protocolVersion));
    item->setText(ToolColumn, info.tool);
    item->setText(LanguageColumn, languageName(info.language));
    item->setText(StatusColumn, statusFor(entry));
    const qint64 ms = entry.result ? entry.result->durationMs
                                   : (entry.awaitingApproval ? 0 : entry.timer.elapsed());
    item->setText(DurationColumn, entry.awaitingApproval ? QString() : seconds(ms));

    QColor color = m_calls->palette().color(QPalette::Text);
    if (entry.awaitingApproval)
        color = QColor(0xbc, 0x4c, 0x00);
    else if (entry.result && (entry.result->isError || entry.result->exitCode > 0))
        color = QColor(0xcf, 0x22, 0x2e);
    else if (entry.result)
        color = QColor(0x1a, 0x7f, 0x37);
    item->setForeground(StatusColumn, color);
    item->setToolTip(StatusColumn, entry.result ? entry.result->errorMessage : entry.status);
    // The first lines of the code, to tell calls apart without selecting them.
    const QString preview = codeOrArguments(entry).section(u'\n', 0, 7);
    for (int column : {TimeColumn, ClientColumn, ToolColumn, LanguageColumn})
        item->setToolTip(column, preview);

    int running = 0;
    for (const auto &e : std::as_const(m_entries))
        running += e->result ? 0 : 1;
    m_summary->setText(tr("%n call(s)", nullptr, int(m_order.size())) +
                       (running ? tr(", %n running", nullptr, running) : QString()));
}

void McpActivityFeed::updateRunningDurations()
{
    bool any = false;
    for (const auto &entry : std::as_const(m_entries)) {
        if (entry->result)
            continue;
        any = true;
        updateRow(*entry);
        if (entry->info.callId == m_selected)
            updateHeader(*entry);
    }
    if (!any)
        m_tick.stop();
}

void McpActivityFeed::selectCall(qint64 callId)
{
    const auto entry = m_entries.value(callId);
    if (!entry)
        return;
    m_calls->setCurrentItem(entry->item); // currentItemChanged shows it
    m_calls->scrollToItem(entry->item);
    if (m_selected != callId) {
        m_selected = callId;
        showDetail();
    }
}

QString McpActivityFeed::codeOrArguments(const Entry &entry) const
{
    if (!entry.info.code.isEmpty())
        return entry.info.code;
    if (entry.info.arguments.isEmpty())
        return {};
    return QString::fromUtf8(
        QJsonDocument(elide(entry.info.arguments).toObject()).toJson(QJsonDocument::Indented));
}

void McpActivityFeed::updateHeader(const Entry &entry)
{
    const McpCallInfo &info = entry.info;
    QStringList parts;
    const QString client = info.clientName.isEmpty() ? tr("(unnamed client)") : info.clientName;
    parts << u"<b>%1</b>"_s.arg(
        (info.clientVersion.isEmpty() ? client : u"%1 %2"_s.arg(client, info.clientVersion))
            .toHtmlEscaped());
    if (info.transport == QLatin1String(McpBridgeTransport))
        parts << tr("via stdio bridge").toHtmlEscaped();
    if (!info.protocolVersion.isEmpty())
        parts << tr("MCP %1").arg(info.protocolVersion).toHtmlEscaped();
    parts << u"<tt>%1</tt>"_s.arg(info.tool.toHtmlEscaped());
    if (!info.language.isEmpty())
        parts << languageName(info.language).toHtmlEscaped();
    if (!info.sessionId.isEmpty())
        parts << tr("session %1").arg(info.sessionId.left(8)).toHtmlEscaped();
    parts << tr("started %1").arg(info.startedAt.toLocalTime().toString(u"HH:mm:ss"_s));
    parts << statusFor(entry).toHtmlEscaped();
    if (!entry.awaitingApproval)
        parts << seconds(entry.result ? entry.result->durationMs : entry.timer.elapsed());
    m_stop->setEnabled(!entry.result && !entry.stopRequested);
    QString html = parts.join(u" · "_s);
    if (entry.result && entry.result->isError && !entry.result->errorMessage.isEmpty())
        html += u"<br><span style=\"color:#cf222e\">%1</span>"_s.arg(
            entry.result->errorMessage.toHtmlEscaped());
    m_header->setText(html);
}

void McpActivityFeed::showDetail()
{
    const auto entry = m_entries.value(m_selected);
    m_output->clearOutput();
    m_plots->clear();
    if (!entry) {
        m_header->setText(tr("Calls of MCP clients appear here as they run."));
        m_stop->setEnabled(false);
        m_code->clear();
        fillPolicyFindings(m_findings, {});
        m_openInEditor->setEnabled(false);
        m_tabs->setTabText(FindingsTab, tr("Findings"));
        m_tabs->setTabText(PlotsTab, tr("Plots"));
        return;
    }
    updateHeader(*entry);

    const LanguageDescriptor *language = LanguageRegistry::instance().find(entry->info.language);
    m_code->setLanguage(language ? language->highlightName
                                 : (entry->info.code.isEmpty() ? u"JSON"_s : QString()));
    m_code->setPlainText(codeOrArguments(*entry));
    m_openInEditor->setEnabled(!entry->info.code.isEmpty() && language);

    fillPolicyFindings(m_findings, entry->findings);
    m_tabs->setTabText(FindingsTab, entry->findings.isEmpty()
                                        ? tr("Findings")
                                        : tr("Findings (%1)").arg(entry->findings.size()));

    m_output->beginRun(tr("Call %1 · %2").arg(entry->info.callId).arg(entry->info.tool));
    if (entry->awaitingApproval)
        m_output->appendStatus(tr("waiting for your approval…"));
    for (const Chunk &chunk : std::as_const(entry->output)) {
        if (chunk.stderrStream)
            m_output->appendStderr(chunk.data);
        else
            m_output->appendStdout(chunk.data);
    }
    if (entry->outputCapped)
        m_output->appendStatus(tr("(further output is not kept here)"));

    int images = 0;
    if (entry->result) {
        const McpCallResult &r = *entry->result;
        if (entry->output.isEmpty()) { // calls that did not stream (notebook cells)
            m_output->appendStdout(r.stdoutData);
            m_output->appendStderr(r.stderrData);
        }
        if (r.isError && !r.errorMessage.isEmpty())
            m_output->appendError(Error{ErrorCode::Internal, r.errorMessage, {}});
        if (r.exitCode >= 0 || !r.files.isEmpty()) {
            RunResult run; // the summary line and the non-image files
            run.exitCode = r.exitCode;
            run.durationMs = r.durationMs;
            run.timedOut = r.timedOut;
            run.oomKilled = r.oomKilled;
            run.outputTruncated = r.outputTruncated;
            run.cancelled = r.cancelled;
            run.artifacts = r.files;
            m_output->appendResult(run);
        } else if (!r.isError) {
            m_output->appendStatus(tr("done in %1").arg(seconds(r.durationMs)));
        }
        for (int i = 0; i < r.images.size(); ++i) {
            const Artifact &artifact = r.images.at(i);
            const QImage image = ArtifactActions::decode(artifact.data, artifact.mimeType);
            auto *item = new QListWidgetItem(m_plots);
            item->setText(ArtifactActions::fileName(artifact.name));
            item->setToolTip(
                ArtifactActions::describe(artifact.name, artifact.mimeType, artifact.size()));
            item->setData(ImageIndexRole, i);
            if (!image.isNull())
                item->setIcon(QIcon(QPixmap::fromImage(image.scaled(
                    ThumbnailSize, ThumbnailSize, Qt::KeepAspectRatio, Qt::SmoothTransformation))));
            ++images;
        }
    }
    m_output->flush();
    m_tabs->setTabText(PlotsTab, images ? tr("Plots (%1)").arg(images) : tr("Plots"));
}

void McpActivityFeed::prune()
{
    for (int i = 0; m_order.size() > MaximumCalls && i < m_order.size();) {
        const qint64 id = m_order.at(i);
        const auto entry = m_entries.value(id);
        if (entry && !entry->result) {
            ++i; // running calls stay
            continue;
        }
        m_order.removeAt(i);
        m_entries.remove(id);
        if (entry)
            delete entry->item;
        if (id == m_selected) {
            m_selected = 0;
            showDetail();
        }
    }
}

void McpActivityFeed::clearFinished()
{
    for (int i = 0; i < m_order.size();) {
        const qint64 id = m_order.at(i);
        const auto entry = m_entries.value(id);
        if (entry && !entry->result) {
            ++i;
            continue;
        }
        m_order.removeAt(i);
        m_entries.remove(id);
        if (entry)
            delete entry->item;
    }
    if (!m_entries.contains(m_selected)) {
        m_selected = 0;
        showDetail();
    }
    m_summary->setText(tr("%n call(s)", nullptr, int(m_order.size())));
}
