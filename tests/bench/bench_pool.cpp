// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a ctest test): the sandbox pool on python print(1), as JSON. The same
// measurement as `sandbox-studio bench pool` (session/pool.h benchmarkPool).
#include "session/engine.h"
#include "session/pool.h"

#include <QCoreApplication>
#include <cstdio>

using namespace sandbox;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    auto engine = Engine::create(BackendProfile::fromEnvironment());
    if (!engine) {
        std::fprintf(stderr, "%s\n", qPrintable(engine.error().toString()));
        return 1;
    }
    PoolBenchOptions o;
    o.agentPath = qEnvironmentVariable("SANDBOX_AGENT_PATH", QStringLiteral(SANDBOX_AGENT_BINARY));
    const QStringList args = app.arguments();
    if (const qsizetype i = args.indexOf(QStringLiteral("--iterations")); i >= 0)
        o.iterations = qMax(1, args.value(i + 1).toInt());
    auto json = benchmarkPool(**engine, o);
    if (!json) {
        std::fprintf(stderr, "%s\n", qPrintable(json.error().toString()));
        return 1;
    }
    std::fwrite(json->constData(), 1, size_t(json->size()), stdout);
    return 0;
}
