// SPDX-License-Identifier: GPL-3.0-or-later
#include "notebook.h"

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
                       const Limits &limits, NetworkMode network, const CancelToken &cancel)
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
    auto image = Engine::defaultImageFor(lang->id);
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

} // namespace sandbox
