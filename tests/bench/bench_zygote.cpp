// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a ctest test): one-shot Python runs forked from a zygote vs plain spawn vs
// cold, as JSON; the same as `sandbox-studio bench zygote` (session/pool.h benchmarkZygote).
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
    ZygoteBenchOptions o;
    o.casesDir = qEnvironmentVariable("SANDBOX_CASES_DIR", QStringLiteral(SANDBOX_CASES_DIR));
    o.agentPath = qEnvironmentVariable("SANDBOX_AGENT_PATH", QStringLiteral(SANDBOX_AGENT_BINARY));
    const QStringList args = app.arguments();
    if (const qsizetype i = args.indexOf(QStringLiteral("--iterations")); i >= 0)
        o.iterations = qMax(1, args.value(i + 1).toInt());
    auto json = benchmarkZygote(**engine, o);
    if (!json) {
        std::fprintf(stderr, "%s\n", qPrintable(json.error().toString()));
        return 1;
    }
    std::fwrite(json->constData(), 1, size_t(json->size()), stdout);
    return 0;
}
