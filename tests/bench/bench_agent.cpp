// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark, not a test: in ONE warm hardened sandbox whose main process is the agent,
// times N runs of `python3 -c 'print(1)'` through the agent and through a Docker exec,
// and N agent round trips of `true`. Prints JSON (milliseconds).
//   bench_agent [N]      (SANDBOX_AGENT_PATH overrides the compiled-in agent path)
#include "runtime/agentchannel.h"
#include "session/engine.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cstdio>
#include <functional>

using namespace sandbox;

namespace {

QJsonObject stats(QList<double> ms)
{
    std::sort(ms.begin(), ms.end());
    auto pct = [&](double p) {
        const qsizetype i = std::min<qsizetype>(ms.size() - 1, qsizetype(p * double(ms.size())));
        return ms.at(i);
    };
    double sum = 0;
    for (double v : ms)
        sum += v;
    auto r3 = [](double v) { return std::round(v * 1000) / 1000; };
    return QJsonObject{{QStringLiteral("n"), ms.size()},
                       {QStringLiteral("p50_ms"), r3(pct(0.5))},
                       {QStringLiteral("p90_ms"), r3(pct(0.9))},
                       {QStringLiteral("mean_ms"), r3(sum / double(ms.size()))},
                       {QStringLiteral("min_ms"), r3(ms.first())},
                       {QStringLiteral("max_ms"), r3(ms.last())}};
}

int die(const QString &what)
{
    std::fprintf(stderr, "bench_agent: %s\n", qPrintable(what));
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 50;
    if (qEnvironmentVariableIsEmpty("SANDBOX_AGENT_PATH"))
        qputenv("SANDBOX_AGENT_PATH", QByteArray(SANDBOX_AGENT_BINARY));

    auto engine = Engine::create(BackendProfile::fromEnvironment());
    if (!engine)
        return die(engine.error().toString());
    auto info = (*engine)->ping();
    if (!info)
        return die(info.error().toString());
    auto image = Engine::defaultImageFor(QStringLiteral("python"));
    if (!image)
        return die(image.error().toString());
    Runtime &runtime = (*engine)->runtime();

    QElapsedTimer placing;
    placing.start();
    auto channel = AgentChannel::open(runtime, AgentChannel::hardenedSpec(*image));
    if (!channel)
        return die(channel.error().toString());
    const double placeMs = double(placing.nsecsElapsed()) / 1e6;
    AgentChannel &ch = **channel;

    const QStringList python = {QStringLiteral("python3"), QStringLiteral("-c"),
                                QStringLiteral("print(1)")};
    QString failure;
    auto agentRun = [&](const QStringList &args, const QByteArray &expect) {
        AgentRunSpec spec;
        spec.argv = args;
        QByteArray out;
        ExecIo io;
        io.onStdout = [&](QByteArrayView d) {
            out += d;
            return true;
        };
        auto r = ch.run(spec, io, {}, Deadline::in(std::chrono::seconds(30)));
        if (!r)
            failure = r.error().toString();
        else if (r->exitCode != 0 || out != expect)
            failure = QStringLiteral("agent run gave exit %1, output '%2'")
                          .arg(r->exitCode)
                          .arg(QString::fromUtf8(out));
    };
    auto dockerExec = [&](const QStringList &args, const QByteArray &expect) {
        ExecSpec spec;
        spec.argv = args;
        QByteArray out;
        ExecIo io;
        io.onStdout = [&](QByteArrayView d) {
            out += d;
            return true;
        };
        auto r = runtime.exec(ch.sandboxId(), spec, io, {}, Deadline::in(std::chrono::seconds(30)));
        if (!r)
            failure = r.error().toString();
        else if (r->exitCode != 0 || out != expect)
            failure = QStringLiteral("docker exec gave exit %1, output '%2'")
                          .arg(r->exitCode)
                          .arg(QString::fromUtf8(out));
    };
    auto measure = [&](const std::function<void()> &once) {
        for (int i = 0; i < 3 && failure.isEmpty(); ++i)
            once(); // warm-up
        QList<double> ms;
        for (int i = 0; i < n && failure.isEmpty(); ++i) {
            QElapsedTimer t;
            t.start();
            once();
            ms.append(double(t.nsecsElapsed()) / 1e6);
        }
        return ms;
    };

    QJsonObject results;
    results[QStringLiteral("agent_python_print1")] =
        stats(measure([&] { agentRun(python, "1\n"); }));
    results[QStringLiteral("docker_exec_python_print1")] =
        stats(measure([&] { dockerExec(python, "1\n"); }));
    results[QStringLiteral("agent_true")] =
        stats(measure([&] { agentRun({QStringLiteral("true")}, {}); }));
    results[QStringLiteral("agent_hello_round_trip")] = stats(measure([&] {
        if (auto h = ch.hello(); !h)
            failure = h.error().toString();
    }));
    if (!failure.isEmpty())
        return die(failure);

    QJsonObject doc{{QStringLiteral("engine"), QString(info->name + u' ' + info->version)},
                    {QStringLiteral("image"), *image},
                    {QStringLiteral("iterations"), n},
                    {QStringLiteral("agent_placement_ms"), std::round(placeMs * 10) / 10},
                    {QStringLiteral("sandbox"),
                     QStringLiteral("user 65534, read-only root, caps dropped, "
                                    "no-new-privileges, tmpfs /sandbox, network none")},
                    {QStringLiteral("results"), results}};
    std::printf("%s\n", QJsonDocument(doc).toJson(QJsonDocument::Indented).constData());
    if (auto c = ch.close(); !c)
        return die(c.error().toString());
    return 0;
}
