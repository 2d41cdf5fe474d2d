// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QList>

namespace sandbox {

/// Summary of latency samples in milliseconds, as the benchmarks print it:
/// {"n", "p50_ms", "p90_ms", "min_ms", "max_ms", "mean_ms"} (nearest-rank percentiles;
/// zeros when there are no samples).
QJsonObject latencyStats(QList<double> ms);

} // namespace sandbox
