// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

/// Headless subcommands: run, images, doctor, reap, bench, deps, mcp. Returns the process exit
/// code. `run` exits with the program's status; engine failures exit 125, usage errors 2.
int runCli(const QStringList &args);

/// Usage text for --help.
QString cliUsage();
