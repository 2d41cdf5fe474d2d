// SPDX-License-Identifier: GPL-3.0-or-later
#include "notebook.h"

#include "images/template.h"
#include "languages/language.h"
#include "session/engine.h"
#include "session/sandboxsetup.h"
#include "util/tarball.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QMimeDatabase>
#include <csignal>
#include <nlohmann/json.hpp>

Q_LOGGING_CATEGORY(lcNotebook, "sandbox.session.notebook", QtInfoMsg)

namespace sandbox {

using json = nlohmann::json;

namespace {

QString str(const json &j, const char *key)
{
    return j.is_object() && j.contains(key) && j[key].is_string()
               ? QString::fromStdString(j[key].get<std::string>())
               : QString();
}

/// Binary MIME types travel base64-encoded (Jupyter convention); text ones as they are.
bool isBinaryMime(const QString &mime)
{
    return mime.startsWith(QLatin1String("image/")) && mime != QLatin1String("image/svg+xml");
}

QMap<QString, QByteArray> mimeBundle(const json &data)
{
    QMap<QString, QByteArray> out;
    if (!data.is_object())
        return out;
    for (auto it = data.begin(); it != data.end(); ++it) {
        if (!it.value().is_string())
            continue;
        const QString mime = QString::fromStdString(it.key());
        const QByteArray value = QByteArray::fromStdString(it.value().get<std::string>());
        out.insert(mime, isBinaryMime(mime) ? QByteArray::fromBase64(value) : value);
    }
    return out;
}

/// How each language's kernel is started (resources/helpers/<language>/sandbox_kernel.*).
struct KernelLaunch
{
    QStringList argv;
    bool inBand = false;            ///< events share stdout with the cell's output (R)
    bool interruptBySignal = false; ///< SIGINT from outside; else an "interrupt" request
};

KernelLaunch kernelLaunch(const QString &language)
{
    if (language == QLatin1String("python"))
        return {{QStringLiteral("python3"), QStringLiteral("-u"),
                 QStringLiteral("/sandbox/.sandbox/python/sandbox_kernel.py")},
                false,
                false};
    if (language == QLatin1String("javascript"))
        // fd 3 carries events; the process's own stdout goes to stderr (diagnostics).
        return {{QStringLiteral("sh"), QStringLiteral("-c"),
                 QStringLiteral("exec node --expose-internals "
                                "/sandbox/.sandbox/javascript/sandbox_kernel.js 3>&1 1>&2")},
                false,
                false};
    if (language == QLatin1String("r"))
        return {{QStringLiteral("Rscript"), QStringLiteral("--no-save"),
                 QStringLiteral("--no-restore"),
                 QStringLiteral("/sandbox/.sandbox/r/sandbox_kernel.R")},
                true,
                true};
    return {};
}

/// A shell command run by plain exec (the exec transport's signals).
ExecSpec shellSpec(const QString &script)
{
    ExecSpec spec;
    spec.argv = {QStringLiteral("sh"), QStringLiteral("-c"), script};
    return spec;
}

QStringList kernelArgv(const QString &language)
{
    return kernelLaunch(language).argv;
}

} // namespace

QString CellResult::streamText(const QString &name) const
{
    QString out;
    for (const CellOutput &o : outputs)
        if (o.kind == CellOutput::Kind::Stream && o.name == name)
            out += o.text;
    return out;
}

QString CellResult::resultText() const
{
    for (const CellOutput &o : outputs)
        if (o.kind == CellOutput::Kind::ExecuteResult)
            return QString::fromUtf8(o.data.value(QStringLiteral("text/plain")));
    return {};
}

QList<Artifact> CellResult::images() const
{
    QList<Artifact> out;
    int n = 0;
    for (const CellOutput &o : outputs) {
        if (o.kind != CellOutput::Kind::DisplayData && o.kind != CellOutput::Kind::ExecuteResult)
            continue;
        if (o.data.contains(QStringLiteral("image/png")))
            out.append({QStringLiteral("cell-%1-%2.png").arg(executionCount).arg(++n),
                        QStringLiteral("image/png"), o.data.value(QStringLiteral("image/png"))});
    }
    return out;
}

QList<Artifact> CellResult::files() const
{
    QList<Artifact> out;
    for (const CellOutput &o : outputs) {
        if (o.file.isEmpty())
            continue;
        for (auto it = o.data.cbegin(); it != o.data.cend(); ++it)
            if (it.key() != QLatin1String("text/plain") || o.data.size() == 1) {
                out.append({o.file, it.key(), it.value()});
                break;
            }
    }
    return out;
}

NotebookSession::~NotebookSession()
{
    close();
}

Result<std::shared_ptr<NotebookSession>>
NotebookSession::start(std::shared_ptr<Runtime> runtime, const QString &language,
                       const Limits &limits, NetworkMode network, const CancelToken &cancel,
                       const QString &customImage)
{
    const LanguageDescriptor *lang = LanguageRegistry::instance().find(language);
    if (!lang)
        return fail(
            ErrorCode::UnknownLanguage,
            QStringLiteral("Unknown language '%1'. Known: %2")
                .arg(language, LanguageRegistry::instance().ids().join(QStringLiteral(", "))));
    if (kernelArgv(lang->id).isEmpty())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("%1 has no notebook kernel yet").arg(lang->displayName));
    if (auto v = limits.validate(); !v)
        return std::unexpected(v.error());
    auto image =
        customImage.isEmpty() ? Engine::defaultImageFor(lang->id) : Result<QString>(customImage);
    if (!image)
        return std::unexpected(image.error());

    QStringList notes;
    auto net = resolveNetwork(*runtime, network, &notes);
    if (!net)
        return std::unexpected(net.error());
    const SandboxSpec spec = hardenedSpec(*lang, *image, limits, *net, QStringLiteral("notebook"));

    std::shared_ptr<NotebookSession> session(new NotebookSession());
    session->m_runtime = runtime;
    session->m_language = lang->id;
    session->m_image = *image;
    session->m_limits = limits;

    // Transport "agent" when the agent binary is there and comes up in the sandbox; else
    // a plain sandbox whose kernel is a held-open exec.
    if (auto agentPath = AgentChannel::findAgentBinary(); !agentPath) {
        session->m_transportNote = agentPath.error().toString();
    } else if (auto channel = AgentChannel::open(*runtime, spec, *agentPath, cancel); !channel) {
        switch (channel.error().code) {
        case ErrorCode::Cancelled:
        case ErrorCode::ImageMissing:
        case ErrorCode::EngineUnreachable:
        case ErrorCode::TlsError:
            return std::unexpected(channel.error()); // exec would fail the same way
        default:
            session->m_transportNote = QStringLiteral("the sandbox agent could not be placed: ") +
                                       channel.error().toString();
            break;
        }
    } else {
        session->m_agent = std::move(*channel);
        session->m_sandboxId = session->m_agent->sandboxId();
    }
    if (!session->m_agent) {
        if (session->m_transportNote.startsWith(QLatin1String("the sandbox agent could not")))
            qCWarning(lcNotebook).noquote()
                << "notebook kernel over plain exec:" << session->m_transportNote;
        else
            qCInfo(lcNotebook).noquote()
                << "notebook kernel over plain exec:" << session->m_transportNote;
        auto created = runtime->create(spec);
        if (!created)
            return std::unexpected(created.error());
        session->m_sandboxId = *created;
        // From here on the destructor removes the sandbox on any failure.
        if (auto s = runtime->start(*created); !s)
            return std::unexpected(s.error());
    }

    auto tar = makeTar(helperMembers(*lang));
    if (!tar)
        return std::unexpected(tar.error());
    if (session->m_agent) {
        if (auto c = session->m_agent->putTar(QLatin1String(SandboxWorkDir), *tar); !c)
            return std::unexpected(c.error());
    } else if (auto c = copyIntoSandbox(*runtime, session->m_sandboxId, *tar, cancel); !c) {
        return std::unexpected(c.error());
    }
    if (!customImage.isEmpty()) {
        // A custom image: the kernel's interpreter must be there; a template brings its
        // saved work directory back.
        QByteArray out, err;
        auto prep = session->runTool(customImagePrepArgv(toolchainOf(*lang)), {}, &out, 4096, &err);
        if (!prep)
            return std::unexpected(prep.error());
        if (auto ok = customImagePrepResult(*prep, out, err, *image, *lang); !ok)
            return std::unexpected(ok.error());
    }
    if (cancel.isCancelled())
        return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled while starting the kernel"));
    if (auto k = session->startKernel(); !k)
        return std::unexpected(k.error());
    qCDebug(lcNotebook).noquote() << lang->id << "kernel up in" << session->m_sandboxId.left(12)
                                  << "over" << session->transport();
    return session;
}

Result<void> NotebookSession::sendInterrupt()
{
    // Through the agent: SIGINT to the kernel's process group, for every language (the
    // kernels turn it into KeyboardInterrupt / an interrupted script / an R interrupt).
    if (m_agentKernel)
        return m_agentKernel->signal(SIGINT);
    if (kernelLaunch(m_language).interruptBySignal) {
        // The kernel reads requests only between cells: signal it from outside.
        auto r =
            m_runtime->exec(m_sandboxId, shellSpec(QStringLiteral("kill -INT %1").arg(m_kernelPid)),
                            {}, {}, Deadline::in(std::chrono::seconds(10)));
        if (!r)
            return std::unexpected(r.error());
        return {};
    }
    return m_kernel->write(R"({"type":"interrupt"})"
                           "\n");
}

Result<QByteArray> NotebookSession::nextEvent(Deadline deadline)
{
    auto streamEvent = [this](const char *name, const QByteArray &bytes) {
        json ev{{"type", "stream"},
                {"id", m_currentCell},
                {"name", name},
                {"text", QString::fromUtf8(bytes).toStdString()}};
        return QByteArray::fromStdString(ev.dump());
    };
    for (;;) {
        if (m_inBand) {
            // Cell output and 0x1E-prefixed event lines share stdout; stderr is output too.
            if (!m_errBuffer.isEmpty() && m_currentCell > 0) {
                const QByteArray text = std::exchange(m_errBuffer, {});
                return streamEvent("stderr", text);
            }
            if (m_outBuffer.startsWith('\x1e')) {
                const qsizetype nl = m_outBuffer.indexOf('\n');
                if (nl >= 0) {
                    QByteArray line = m_outBuffer.mid(1, nl - 1);
                    m_outBuffer.remove(0, nl + 1);
                    return line;
                }
            } else if (!m_outBuffer.isEmpty()) {
                qsizetype end = m_outBuffer.indexOf('\x1e');
                if (end < 0)
                    end = m_outBuffer.size();
                // Keep an incomplete UTF-8 sequence for the next read.
                qsizetype cut = end;
                while (end == m_outBuffer.size() && cut > 0 && cut > end - 4 &&
                       (uchar(m_outBuffer.at(cut - 1)) & 0xC0) == 0x80)
                    --cut;
                if (cut > 0 && end == m_outBuffer.size() &&
                    (uchar(m_outBuffer.at(cut - 1)) & 0xC0) == 0xC0)
                    --cut;
                if (cut <= 0)
                    cut = end;
                const QByteArray text = m_outBuffer.left(cut);
                m_outBuffer.remove(0, cut);
                if (m_currentCell > 0)
                    return streamEvent("stdout", text);
                continue;
            }
        } else {
            const qsizetype nl = m_outBuffer.indexOf('\n');
            if (nl >= 0) {
                QByteArray line = m_outBuffer.left(nl);
                m_outBuffer.remove(0, nl + 1);
                return line;
            }
        }
        if (deadline.expired())
            return QByteArray();
        const long long left = deadline.remainingMs();
        const int slice = int(left < 0 ? 50 : qMin<long long>(left, 50));
        auto more = m_kernel->read(slice, &m_outBuffer, &m_errBuffer);
        if (!more)
            return std::unexpected(more.error());
        if (!m_inBand && !m_errBuffer.isEmpty()) {
            qCDebug(lcNotebook).noquote() << "kernel stderr:" << m_errBuffer.left(2000);
            if (m_errBuffer.size() > 65536)
                m_errBuffer = m_errBuffer.right(8192);
        }
        if (!*more && m_outBuffer.isEmpty()) {
            auto code = m_kernel->exitCode();
            QString detail = QString::fromUtf8(m_errBuffer.right(2000));
            if (m_agentKernel && !m_agentKernel->agentError().isEmpty())
                detail += (detail.isEmpty() ? QString() : QStringLiteral("; ")) +
                          m_agentKernel->agentError();
            return fail(ErrorCode::IoError,
                        QStringLiteral("The kernel stopped (exit %1)").arg(code ? *code : -1),
                        detail);
        }
        if (!*more && !m_inBand && m_outBuffer.indexOf('\n') < 0)
            m_outBuffer.append('\n'); // a last line without newline
        // A signal is not ordered with the requests on stdin: hold it back until the kernel
        // said it started the cell, or it could hit a kernel that is still idle.
        if (m_busy && (!m_agentKernel || m_cellStarted) && m_interruptRequested.exchange(false))
            if (auto w = sendInterrupt(); !w)
                return std::unexpected(w.error());
    }
}

Result<void> NotebookSession::startKernel()
{
    if (m_agent) {
        // No timeout and no output cap: cells are bounded by execute()'s own deadline.
        AgentRunSpec spec;
        spec.argv = kernelArgv(m_language);
        auto run = m_agent->startInteractive(spec);
        if (!run)
            return std::unexpected(run.error());
        m_agentKernel = nullptr;
        m_kernel = std::move(*run); // an earlier kernel run still in flight is SIGKILLed
        m_agentKernel = static_cast<AgentInteractiveRun *>(m_kernel.get());
        m_kernelPid = m_agentKernel->pid();
    } else {
        ExecSpec spec;
        spec.argv = kernelArgv(m_language);
        auto channel = m_runtime->execInteractive(m_sandboxId, spec);
        if (!channel)
            return std::unexpected(channel.error());
        m_kernel = std::move(*channel);
    }
    m_inBand = kernelLaunch(m_language).inBand;
    m_cellStarted = false; // no interrupt reaches the new kernel before it takes a cell
    m_currentCell = 0;
    m_outBuffer.clear();
    m_errBuffer.clear();
    m_executionCount = 0;
    auto line = nextEvent(Deadline::in(std::chrono::seconds(60)));
    if (!line)
        return std::unexpected(line.error());
    json ready = json::parse(line->constBegin(), line->constEnd(), nullptr, false);
    if (str(ready, "type") != QLatin1String("ready") && m_inBand) {
        // R may print start-up noise before its ready event.
        for (int i = 0; i < 100 && str(ready, "type") != QLatin1String("ready"); ++i) {
            line = nextEvent(Deadline::in(std::chrono::seconds(30)));
            if (!line)
                return std::unexpected(line.error());
            ready = json::parse(line->constBegin(), line->constEnd(), nullptr, false);
        }
    }
    if (str(ready, "type") != QLatin1String("ready"))
        return fail(ErrorCode::ProtocolError, QStringLiteral("The kernel did not start"),
                    QString::fromUtf8(*line + m_errBuffer.right(2000)));
    m_kernelPid = ready.value("pid", 0LL);
    m_kernelVersion = str(ready, "version");
    return {};
}

Result<CellResult> NotebookSession::execute(const QString &code, const CellObserver &observer,
                                            qint64 cellTimeoutMs)
{
    if (!observer.policy)
        return executeInKernel(code, observer, cellTimeoutMs);
    const PolicyVerdict verdict = evaluatePolicy(*observer.policy, m_language, code);
    bool stop = verdict.action == PolicyAction::Block;
    QString reason = verdict.reason;
    if (verdict.action == PolicyAction::Ask) {
        QList<PolicyFinding> asking;
        for (const PolicyFinding &f : verdict.findings)
            if (f.action == QLatin1String("ask"))
                asking.append(f);
        const bool approved = observer.onPolicyAsk && observer.onPolicyAsk(asking);
        if (!approved) {
            stop = true;
            reason.replace(QStringLiteral("needs approval by"),
                           QStringLiteral("not approved under"));
            if (!observer.onPolicyAsk)
                reason += QStringLiteral(" (nobody was asked: no approval hook)");
        }
    }
    if (stop) {
        CellResult r;
        r.status = QStringLiteral("error");
        r.executionCount = m_executionCount;
        r.policyBlocked = true;
        r.policyReason = reason;
        r.policyFindings = verdict.findings;
        CellOutput e;
        e.kind = CellOutput::Kind::Error;
        e.ename = QStringLiteral("PolicyBlocked");
        e.evalue = QStringLiteral("the cell did not run: ") + reason;
        e.traceback = {e.ename + QStringLiteral(": ") + e.evalue};
        r.outputs.append(e);
        if (observer.onOutput)
            observer.onOutput(e);
        return r;
    }
    auto result = executeInKernel(code, observer, cellTimeoutMs);
    if (result)
        result->policyFindings = verdict.findings;
    return result;
}

Result<CellResult> NotebookSession::executeInKernel(const QString &code,
                                                    const CellObserver &observer,
                                                    qint64 cellTimeoutMs)
{
    std::lock_guard lock(m_ioMutex);
    if (m_closed || !m_kernel)
        return fail(ErrorCode::Internal, QStringLiteral("The notebook session is closed"));
    QElapsedTimer timer;
    timer.start();
    const int cellId = m_nextCellId++;
    json request{{"type", "execute"}, {"id", cellId}, {"code", code.toStdString()}};
    m_interruptRequested = false;
    m_cellStarted = false;
    m_currentCell = cellId;
    m_busy = true;
    auto notBusy = qScopeGuard([this] { m_busy = false; });
    if (auto w = m_kernel->write(QByteArray(QByteArray::fromStdString(request.dump()) + '\n')); !w)
        return std::unexpected(w.error());

    CellResult result;
    const qint64 budget = cellTimeoutMs > 0 ? cellTimeoutMs : m_limits.timeoutMs;
    const Deadline deadline = Deadline::in(std::chrono::milliseconds(budget));
    Deadline graceAfterInterrupt;
    bool interruptSent = false;
    for (;;) {
        Deadline wait = deadline;
        if (interruptSent)
            wait = graceAfterInterrupt;
        auto line = nextEvent(wait);
        if (!line) {
            // The kernel died (out of memory, os._exit, ...): restart it so the session stays
            // usable, and say that the state is gone.
            qCWarning(lcNotebook).noquote() << "kernel died:" << line.error().toString();
            CellOutput err;
            err.kind = CellOutput::Kind::Error;
            err.ename = QStringLiteral("KernelDied");
            err.evalue = line.error().message + QStringLiteral(". The kernel was restarted; "
                                                               "variables are gone.");
            result.outputs.append(err);
            if (observer.onOutput)
                observer.onOutput(err);
            result.status = QStringLiteral("aborted");
            result.kernelRestarted = true;
            if (auto r = startKernel(); !r)
                return std::unexpected(r.error());
            break;
        }
        if (line->isEmpty() &&
            (interruptSent ? graceAfterInterrupt.expired() : deadline.expired())) {
            if (!interruptSent) {
                // Cell deadline: interrupt like a person would, then give the kernel time.
                result.timedOut = true;
                result.interrupted = true;
                interruptSent = true;
                graceAfterInterrupt = Deadline::in(std::chrono::seconds(5));
                if (auto w = sendInterrupt(); !w)
                    return std::unexpected(w.error());
                continue;
            }
            // The kernel ignores interrupts (e.g. stuck in C code): start over.
            CellOutput err;
            err.kind = CellOutput::Kind::Error;
            err.ename = QStringLiteral("KernelRestarted");
            err.evalue = QStringLiteral("The cell did not stop when interrupted; the kernel was "
                                        "restarted and variables are gone.");
            result.outputs.append(err);
            result.status = QStringLiteral("aborted");
            result.kernelRestarted = true;
            killKernel();
            if (auto r = startKernel(); !r)
                return std::unexpected(r.error());
            break;
        }
        if (line->isEmpty())
            continue;
        const json ev = json::parse(line->constBegin(), line->constEnd(), nullptr, false);
        if (!ev.is_object()) {
            qCWarning(lcNotebook).noquote()
                << "kernel sent a line that is not JSON:" << line->left(200);
            continue;
        }
        if (ev.value("id", -1) != cellId && ev.contains("id") && !ev["id"].is_null())
            continue; // a late event of an earlier, aborted cell
        const QString type = str(ev, "type");
        CellOutput out;
        if (type == QLatin1String("stream")) {
            out.kind = CellOutput::Kind::Stream;
            out.name = str(ev, "name");
            out.text = str(ev, "text");
        } else if (type == QLatin1String("display_data") ||
                   type == QLatin1String("execute_result")) {
            out.kind = type == QLatin1String("display_data") ? CellOutput::Kind::DisplayData
                                                             : CellOutput::Kind::ExecuteResult;
            out.data = mimeBundle(ev.value("data", json::object()));
        } else if (type == QLatin1String("file")) {
            // A file the cell wrote to the output directory: shown like display data.
            static const QMimeDatabase mimeDb;
            auto safe = safeRelativePath(str(ev, "name"));
            if (!safe)
                continue;
            const QByteArray bytes =
                QByteArray::fromBase64(QByteArray::fromStdString(ev.value("data", std::string())));
            const QString mime = mimeDb.mimeTypeForFileNameAndData(*safe, bytes).name();
            out.kind = CellOutput::Kind::DisplayData;
            out.file = *safe;
            out.data.insert(mime, bytes);
            out.data.insert(
                QStringLiteral("text/plain"),
                QStringLiteral("%1 · %2 · %3 bytes").arg(*safe, mime).arg(bytes.size()).toUtf8());
        } else if (type == QLatin1String("error")) {
            out.kind = CellOutput::Kind::Error;
            out.ename = str(ev, "ename");
            out.evalue = str(ev, "evalue");
            if (ev.contains("traceback") && ev["traceback"].is_array())
                for (const auto &t : ev["traceback"])
                    if (t.is_string())
                        out.traceback << QString::fromStdString(t.get<std::string>());
            if (out.ename == QLatin1String("KeyboardInterrupt"))
                result.interrupted = true;
        } else if (type == QLatin1String("status")) {
            if (str(ev, "state") == QLatin1String("busy"))
                m_cellStarted = true;
            continue;
        } else if (type == QLatin1String("execute_reply")) {
            result.status = str(ev, "status");
            result.executionCount = ev.value("execution_count", 0);
            m_executionCount = result.executionCount;
            break;
        } else {
            continue; // status and other bookkeeping
        }
        // Merge consecutive chunks of the same stream, as Jupyter front ends show them.
        if (out.kind == CellOutput::Kind::Stream && !result.outputs.isEmpty() &&
            result.outputs.last().kind == CellOutput::Kind::Stream &&
            result.outputs.last().name == out.name)
            result.outputs.last().text += out.text;
        else
            result.outputs.append(out);
        if (observer.onOutput)
            observer.onOutput(out);
    }
    m_currentCell = 0;
    result.durationMs = timer.elapsed();
    return result;
}

void NotebookSession::interrupt()
{
    if (m_busy)
        m_interruptRequested = true;
}

void NotebookSession::killKernel()
{
    if (m_agent) {
        // The kernel's process group and anything the cells left running.
        if (auto k = m_agent->killAll(); !k)
            qCWarning(lcNotebook).noquote() << "could not stop the kernel:" << k.error().toString();
        return;
    }
    if (m_kernelPid > 0)
        (void)m_runtime->exec(
            m_sandboxId, shellSpec(QStringLiteral("kill -9 %1 2>/dev/null; true").arg(m_kernelPid)),
            {}, {}, Deadline::in(std::chrono::seconds(10)));
}

Result<void> NotebookSession::restart()
{
    std::lock_guard lock(m_ioMutex);
    if (m_closed)
        return fail(ErrorCode::Internal, QStringLiteral("The notebook session is closed"));
    if (m_kernel && !m_agent)
        (void)m_kernel->write(R"({"type":"shutdown"})"
                              "\n");
    killKernel();
    m_agentKernel = nullptr;
    m_kernel.reset();
    return startKernel();
}

void NotebookSession::close()
{
    std::lock_guard lock(m_ioMutex);
    if (m_closed)
        return;
    m_closed = true;
    m_agentKernel = nullptr;
    m_kernel.reset();
    if (m_agent) {
        // Removing the sandbox ends the agent and everything it started.
        if (auto r = m_agent->close(); !r)
            qCWarning(lcNotebook).noquote() << "could not remove sandbox" << r.error().toString();
        return;
    }
    if (!m_sandboxId.isEmpty() && m_runtime)
        if (auto r = m_runtime->remove(m_sandboxId); !r)
            qCWarning(lcNotebook).noquote() << "could not remove sandbox" << r.error().toString();
}

Result<int> NotebookSession::runTool(const QStringList &argv, const QByteArray &stdinData,
                                     QByteArray *out, qint64 outCap, QByteArray *err,
                                     bool *outTruncated, int timeoutMs)
{
    if (m_closed)
        return fail(ErrorCode::Internal, QStringLiteral("The notebook session is closed"));
    bool truncated = false;
    ExecIo io;
    io.onStdout = [&](QByteArrayView d) {
        if (!out)
            return true;
        const qint64 room = outCap - out->size();
        if (d.size() > room) {
            truncated = true;
            if (room > 0)
                out->append(d.first(room));
            return false; // over the cap: stop reading, the tool is killed
        }
        out->append(d);
        return true;
    };
    io.onStderr = [&](QByteArrayView d) {
        if (err && err->size() < 16384)
            err->append(d);
        return true;
    };
    const Deadline deadline = Deadline::in(std::chrono::milliseconds(timeoutMs));
    int exitCode = -1;
    bool timedOut = false;
    if (m_agent) {
        AgentRunSpec spec;
        spec.argv = argv;
        spec.attachStdin = true;
        spec.stdinData = stdinData;
        spec.timeoutMs = timeoutMs;
        auto r = m_agent->run(spec, io, {}, deadline);
        if (!r)
            return std::unexpected(r.error());
        exitCode = r->exitCode;
        timedOut = r->timedOut || r->deadlineExceeded;
        if (!r->error.isEmpty() && err)
            err->append(r->error.toUtf8());
    } else {
        ExecSpec spec;
        spec.argv = argv;
        spec.attachStdin = true;
        spec.stdinData = stdinData;
        auto r = m_runtime->exec(m_sandboxId, spec, io, {}, deadline);
        if (!r)
            return std::unexpected(r.error());
        exitCode = r->exitCode;
        timedOut = r->deadlineExceeded;
    }
    if (outTruncated)
        *outTruncated = truncated;
    if (timedOut)
        return fail(ErrorCode::Timeout,
                    QStringLiteral("Copying files took longer than %1 s").arg(timeoutMs / 1000));
    return exitCode;
}

namespace {
constexpr int OutsideExit = 98;
constexpr int MissingExit = 99;
/// "name" or "the work directory" for messages.
QString shown(const QString &path)
{
    return path.isEmpty() || path == QLatin1String(".") ? QStringLiteral("the work directory")
                                                        : QStringLiteral("'%1'").arg(path);
}
} // namespace

Result<void> NotebookSession::checkSandboxPaths(const QStringList &paths, bool mustExist)
{
    // realpath -m resolves every link on the way, existing or not: a planted link that
    // leads out of the work directory shows up as a path outside it.
    const QString outside = QString::number(OutsideExit);
    const QString missing = QString::number(MissingExit);
    const QString script =
        QStringLiteral("for p; do\n"
                       "  r=$(realpath -m -- \"/sandbox/$p\") || { printf '%s' \"$p\"; exit ") +
        outside +
        QStringLiteral("; }\n"
                       "  case \"$r\" in /sandbox|/sandbox/*) ;; *) printf '%s\\t%s' \"$p\" "
                       "\"$r\"; exit ") +
        outside + QStringLiteral(";; esac\n") +
        (mustExist ? QStringLiteral("  [ -e \"/sandbox/$p\" ] || [ -L \"/sandbox/$p\" ] || "
                                    "{ printf '%s' \"$p\"; exit ") +
                         missing + QStringLiteral("; }\n")
                   : QString()) +
        QStringLiteral("done\n");
    QByteArray out, err;
    auto r = runTool(
        QStringList{QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("check")} +
            paths,
        {}, &out, 65536, &err);
    if (!r)
        return std::unexpected(r.error());
    const QStringList parts = QString::fromUtf8(out).split(u'\t');
    if (*r == OutsideExit)
        return fail(ErrorCode::PathRefused,
                    QStringLiteral("Refused: %1 leads outside the work directory%2")
                        .arg(shown(parts.value(0)),
                             parts.size() > 1 ? QStringLiteral(" (a link to %1)").arg(parts[1])
                                              : QString()));
    if (*r == MissingExit)
        return fail(
            ErrorCode::NotFound,
            QStringLiteral("%1 does not exist in the work directory").arg(shown(parts.value(0))));
    if (*r != 0)
        return fail(ErrorCode::IoError, QStringLiteral("Checking paths in the sandbox failed"),
                    QString::fromUtf8(err).trimmed());
    return {};
}

Result<QStringList> NotebookSession::uploadFiles(const QList<TarMember> &members,
                                                 const QString &destDir,
                                                 const TransferLimits &limits)
{
    // Parent folders of nested members, so tar creates them with sane modes.
    QList<TarMember> all;
    QStringList seen;
    for (const TarMember &m : members) {
        auto safe = safeRelativePath(m.path);
        if (!safe)
            return std::unexpected(safe.error());
        const QStringList parts = safe->split(u'/');
        for (int i = 1; i < parts.size(); ++i) {
            const QString dir = parts.mid(0, i).join(u'/');
            if (!seen.contains(dir)) {
                seen << dir;
                all.append({dir, TarMember::Type::Directory, {}, 0755, {}});
            }
        }
        TarMember copy = m;
        copy.path = *safe;
        all.append(std::move(copy));
    }
    auto tar = makeTar(all);
    if (!tar)
        return std::unexpected(tar.error());
    return uploadTar(*tar, destDir, limits);
}

Result<QStringList> NotebookSession::uploadTar(const QByteArray &tar, const QString &destDir,
                                               const TransferLimits &limits)
{
    QString dest;
    if (!destDir.isEmpty() && destDir != QLatin1String(".")) {
        auto safe = safeRelativePath(destDir);
        if (!safe)
            return std::unexpected(safe.error());
        dest = *safe;
    }
    auto paths = checkTarForExtraction(tar, limits.maxBytes, limits.maxMembers);
    if (!paths)
        return std::unexpected(paths.error());
    QStringList targets;
    for (const QString &p : std::as_const(*paths))
        targets << (dest.isEmpty() ? p : dest + u'/' + p);
    if (auto ok = checkSandboxPaths(
            QStringList{dest.isEmpty() ? QStringLiteral(".") : dest} + targets, false);
        !ok)
        return std::unexpected(ok.error());
    const QString dir =
        dest.isEmpty() ? QStringLiteral("/sandbox") : QStringLiteral("/sandbox/") + dest;
    QByteArray err;
    auto r = runTool({QStringLiteral("sh"), QStringLiteral("-c"),
                      QStringLiteral("mkdir -p -- \"$0\" && exec tar -x -f - -C \"$0\" "
                                     "--no-same-owner --no-overwrite-dir"),
                      dir},
                     tar, nullptr, 0, &err);
    if (!r)
        return std::unexpected(r.error());
    if (*r != 0) {
        const QString msg = QString::fromUtf8(err).trimmed();
        const bool full = msg.contains(QLatin1String("No space left")) ||
                          msg.contains(QLatin1String("Wrote only"));
        return fail(ErrorCode::IoError,
                    full ? QStringLiteral("Copying files into the sandbox failed: the work "
                                          "directory is full (it holds %1 MiB)")
                               .arg(m_limits.workDirBytes >> 20)
                         : QStringLiteral("Copying files into the sandbox failed: %1")
                               .arg(msg.section(u'\n', 0, 0)),
                    msg);
    }
    QStringList written;
    for (const QString &t : std::as_const(targets))
        written << t;
    return written;
}

Result<QStringList> NotebookSession::uploadPath(const QString &localPath, const QString &destDir,
                                                const TransferLimits &limits)
{
    auto members = collectLocalPath(localPath, {}, limits);
    if (!members)
        return std::unexpected(members.error());
    return uploadFiles(*members, destDir, limits);
}

Result<QByteArray> NotebookSession::downloadTar(const QStringList &paths,
                                                const TransferLimits &limits)
{
    if (paths.isEmpty())
        return fail(ErrorCode::InvalidArgument, QStringLiteral("No files named to copy out"));
    QStringList safePaths;
    for (const QString &p : paths) {
        if (p == QLatin1String(".") || p == QLatin1String("./") || p.isEmpty()) {
            safePaths << QStringLiteral(".");
            continue;
        }
        auto safe = safeRelativePath(p);
        if (!safe)
            return std::unexpected(safe.error());
        safePaths << *safe;
    }
    if (auto ok = checkSandboxPaths(safePaths, true); !ok)
        return std::unexpected(ok.error());
    QStringList argv = {QStringLiteral("tar"),
                        QStringLiteral("-c"),
                        QStringLiteral("-f"),
                        QStringLiteral("-"),
                        QStringLiteral("-C"),
                        QStringLiteral("/sandbox"),
                        QStringLiteral("--exclude=./.sandbox"),
                        QStringLiteral("--exclude=./.agent"),
                        QStringLiteral("--")};
    argv += safePaths;
    // Tar headers and padding on top of the file data.
    const qint64 cap = limits.maxBytes + qint64(limits.maxMembers) * 1536 + 10240;
    QByteArray out, err;
    bool truncated = false;
    auto r = runTool(argv, {}, &out, cap, &err, &truncated);
    if (!r)
        return std::unexpected(r.error());
    if (truncated)
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("The files are larger than the limit of %1 MiB")
                        .arg(double(limits.maxBytes) / (1 << 20), 0, 'f', 1));
    if (*r != 0)
        return fail(ErrorCode::IoError, QStringLiteral("Copying files out of the sandbox failed"),
                    QString::fromUtf8(err).trimmed());
    if (auto check = checkTarForExtraction(out, limits.maxBytes, limits.maxMembers);
        !check && check.error().code != ErrorCode::PathRefused)
        return std::unexpected(check.error()); // links are refused by the reader, not here
    return out;
}

Result<QList<TarMember>> NotebookSession::downloadFiles(const QStringList &paths,
                                                        const TransferLimits &limits,
                                                        QStringList *refused)
{
    auto tar = downloadTar(paths, limits);
    if (!tar)
        return std::unexpected(tar.error());
    QStringList localRefused;
    bool truncated = false;
    TarReadLimits rl;
    rl.maxTotalBytes = limits.maxBytes;
    rl.maxMembers = limits.maxMembers;
    auto read = readTar(*tar, rl, &localRefused, &truncated);
    if (refused)
        *refused += localRefused;
    return read;
}

Result<QStringList> NotebookSession::downloadTo(const QStringList &paths, const QString &localDir,
                                                const TransferLimits &limits, QStringList *refused)
{
    auto tar = downloadTar(paths, limits);
    if (!tar)
        return std::unexpected(tar.error());
    QStringList localRefused;
    auto written = extractTarToDirectory(*tar, localDir, limits, &localRefused);
    if (refused)
        *refused += localRefused;
    return written;
}

Result<QList<SessionFile>> NotebookSession::listFiles(const QString &dir, bool recursive)
{
    QString rel = QStringLiteral(".");
    if (!dir.isEmpty() && dir != QLatin1String(".")) {
        auto safe = safeRelativePath(dir);
        if (!safe)
            return std::unexpected(safe.error());
        rel = *safe;
    }
    if (auto ok = checkSandboxPaths({rel}, true); !ok)
        return std::unexpected(ok.error());
    QStringList argv = {QStringLiteral("find"), QStringLiteral("-P"),
                        rel == QLatin1String(".") ? QStringLiteral("/sandbox")
                                                  : QStringLiteral("/sandbox/") + rel,
                        QStringLiteral("-mindepth"), QStringLiteral("1")};
    if (!recursive)
        argv += {QStringLiteral("-maxdepth"), QStringLiteral("1")};
    argv += {QStringLiteral("("),
             QStringLiteral("-path"),
             QStringLiteral("/sandbox/.sandbox"),
             QStringLiteral("-o"),
             QStringLiteral("-path"),
             QStringLiteral("/sandbox/.agent"),
             QStringLiteral(")"),
             QStringLiteral("-prune"),
             QStringLiteral("-o"),
             QStringLiteral("-printf"),
             QStringLiteral("%y\\t%s\\t%T@\\t%l\\t%P\\0")};
    QByteArray out, err;
    bool truncated = false;
    auto r = runTool(argv, {}, &out, 8 << 20, &err, &truncated);
    if (!r)
        return std::unexpected(r.error());
    if (*r != 0)
        return fail(ErrorCode::IoError, QStringLiteral("Listing the work directory failed"),
                    QString::fromUtf8(err).trimmed());
    QList<SessionFile> files;
    for (const QByteArray &rec : out.split('\0')) {
        const QList<QByteArray> f = rec.split('\t');
        if (f.size() < 5)
            continue;
        SessionFile sf;
        const QString name =
            QString::fromUtf8(rec.mid(f[0].size() + f[1].size() + f[2].size() + f[3].size() + 4));
        sf.path = rel == QLatin1String(".") ? name : rel + u'/' + name;
        sf.isDir = f[0] == "d";
        sf.isLink = f[0] == "l";
        sf.size = f[1].toLongLong();
        sf.modified = qint64(f[2].toDouble());
        sf.linkTarget = QString::fromUtf8(f[3]);
        files.append(std::move(sf));
    }
    std::sort(files.begin(), files.end(), [](const SessionFile &a, const SessionFile &b) {
        return a.isDir != b.isDir ? a.isDir : a.path < b.path;
    });
    return files;
}

} // namespace sandbox
