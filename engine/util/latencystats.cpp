// SPDX-License-Identifier: GPL-3.0-or-later
#include "latencystats.h"

#include <algorithm>

namespace sandbox {

QJsonObject latencyStats(QList<double> ms)
{
    std::sort(ms.begin(), ms.end());
    auto pct = [&](double q) {
        return ms.isEmpty()
                   ? 0.0
                   : ms[qMin<qsizetype>(ms.size() - 1, qsizetype(q * double(ms.size() - 1) + 0.5))];
    };
    double sum = 0;
    for (double v : ms)
        sum += v;
    return QJsonObject{{QStringLiteral("n"), ms.size()},
                       {QStringLiteral("p50_ms"), pct(0.5)},
                       {QStringLiteral("p90_ms"), pct(0.9)},
                       {QStringLiteral("min_ms"), ms.isEmpty() ? 0.0 : ms.first()},
                       {QStringLiteral("max_ms"), ms.isEmpty() ? 0.0 : ms.last()},
                       {QStringLiteral("mean_ms"), ms.isEmpty() ? 0.0 : sum / double(ms.size())}};
}

} // namespace sandbox
