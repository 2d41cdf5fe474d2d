// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mcp/mcpserver.h"
#include "session/notebook.h"
#include "session/runtypes.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

/// The tools of McpServer: definitions (MCP "Tools": name, title, description, inputSchema,
/// outputSchema, annotations), argument checks and result shapes. Internal to engine/mcp.
namespace sandbox::mcptools {

/// tools/list entries.
QJsonArray toolDefinitions();
/// Names of the tools, in tools/list order.
QStringList toolNames();
/// Languages with notebook kernels ("python", "javascript", "r").
QStringList notebookLanguages();

/// Checks args against the tool's inputSchema (types, required, unknown properties,
/// ranges). Returns an empty string when they fit, else one sentence naming the argument.
QString validateArguments(const QString &tool, const QJsonObject &args);

/// A result with structuredContent sc, a text item for people and the same JSON as text
/// (MCP: "a tool that returns structured content SHOULD also return the serialized JSON
/// in a TextContent block").
QJsonObject structuredResult(const QString &text, const QJsonObject &sc);

/// list_languages result.
QJsonObject listLanguagesResult();

/// execute_code result: text summary, structured content, every image artifact as image
/// content.
McpCallResult executeCodeResult(const RunResult &run);

/// execute_cell result.
McpCallResult executeCellResult(const QString &sessionId, const CellResult &cell,
                                const QList<PolicyFinding> &findings);

/// download_file result: {path, size, mime_type, content_base64}; image files also as
/// image content, UTF-8 text files also as text.
McpCallResult downloadResult(const QString &path, const QByteArray &data);

/// The conformance runner's fixture tools (McpServer::setConformanceFixtures).
QJsonArray fixtureToolDefinitions();
QStringList fixtureToolNames();
/// A 1x1 red PNG and a short silent WAV, base64.
QString fixturePngBase64();
QString fixtureWavBase64();

/// PolicyFinding list as JSON ({rule, severity, action, line, message}).
QJsonArray findingsToJson(const QList<PolicyFinding> &findings);

} // namespace sandbox::mcptools
