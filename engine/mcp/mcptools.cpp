// SPDX-License-Identifier: GPL-3.0-or-later
#include "mcp/mcptools.h"

#include "languages/language.h"
#include "session/runresultjson.h"

#include <QJsonDocument>
#include <QMimeDatabase>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sandbox::mcptools {

namespace {

QJsonObject prop(const QString &type, const QString &description)
{
    return QJsonObject{{u"type"_s, type}, {u"description"_s, description}};
}

QJsonObject object(const QJsonObject &properties, const QStringList &required)
{
    QJsonObject o{{u"type"_s, u"object"_s}, {u"properties"_s, properties}};
    if (!required.isEmpty())
        o.insert(u"required"_s, QJsonArray::fromStringList(required));
    return o;
}

QJsonObject findingSchema()
{
    return object({{u"rule"_s, prop(u"string"_s, u"rule id"_s)},
                   {u"severity"_s, prop(u"string"_s, u"low, medium, high or critical"_s)},
                   {u"action"_s, prop(u"string"_s, u"allow, warn, ask or block"_s)},
                   {u"line"_s, prop(u"integer"_s, u"1-based line, 0 when unknown"_s)},
                   {u"message"_s, prop(u"string"_s, u"what was found"_s)}},
                  {u"rule"_s, u"severity"_s, u"message"_s});
}

QJsonObject artifactListSchema()
{
    return QJsonObject{
        {u"type"_s, u"array"_s},
        {u"description"_s, u"files the program wrote (images also come as image content)"_s},
        {u"items"_s, object({{u"name"_s, prop(u"string"_s, u"path in the work directory"_s)},
                             {u"mime_type"_s, prop(u"string"_s, u"MIME type"_s)},
                             {u"size"_s, prop(u"integer"_s, u"bytes"_s)}},
                            {u"name"_s, u"mime_type"_s, u"size"_s})}};
}

QJsonObject timeoutProp()
{
    QJsonObject t = prop(u"number"_s, u"wall-time limit in seconds (default 30)"_s);
    t.insert(u"exclusiveMinimum"_s, 0);
    t.insert(u"maximum"_s, 600);
    return t;
}

QJsonObject sessionIdProp()
{
    return prop(u"string"_s, u"id returned by create_session"_s);
}

QJsonObject tool(const QString &name, const QString &title, const QString &description,
                 const QJsonObject &input, const QJsonObject &output, bool readOnly,
                 bool destructive = false)
{
    QJsonObject in = input;
    in.insert(u"additionalProperties"_s, false);
    QJsonObject t{{u"name"_s, name},
                  {u"title"_s, title},
                  {u"description"_s, description},
                  {u"inputSchema"_s, in},
                  {u"annotations"_s, QJsonObject{{u"title"_s, title},
                                                 {u"readOnlyHint"_s, readOnly},
                                                 {u"destructiveHint"_s, destructive},
                                                 {u"idempotentHint"_s, readOnly},
                                                 // Code runs without network: closed world.
                                                 {u"openWorldHint"_s, false}}}};
    if (!output.isEmpty())
        t.insert(u"outputSchema"_s, output);
    return t;
}

QString jsonType(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return u"null"_s;
    case QJsonValue::Bool:
        return u"boolean"_s;
    case QJsonValue::Double:
        return u"number"_s;
    case QJsonValue::String:
        return u"string"_s;
    case QJsonValue::Array:
        return u"array"_s;
    case QJsonValue::Object:
        return u"object"_s;
    default:
        return u"undefined"_s;
    }
}

/// Checks value against a (small subset of) JSON Schema: the shapes our schemas use.
QString checkValue(const QString &where, const QJsonValue &v, const QJsonObject &schema)
{
    const QString type = schema.value(u"type"_s).toString();
    const bool isInt = v.isDouble() && std::floor(v.toDouble()) == v.toDouble();
    const bool typeOk = type.isEmpty() || jsonType(v) == type || (type == u"integer"_s && isInt);
    if (!typeOk)
        return u"%1 must be %2 %3, not %4"_s.arg(
            where,
            type == u"integer"_s || type == u"array"_s || type == u"object"_s ? u"an"_s : u"a"_s,
            type, jsonType(v));
    if (type == u"number"_s || type == u"integer"_s) {
        const double d = v.toDouble();
        if (schema.contains(u"exclusiveMinimum"_s) &&
            d <= schema.value(u"exclusiveMinimum"_s).toDouble())
            return u"%1 must be greater than %2"_s.arg(where).arg(
                schema.value(u"exclusiveMinimum"_s).toDouble());
        if (schema.contains(u"maximum"_s) && d > schema.value(u"maximum"_s).toDouble())
            return u"%1 must be at most %2"_s.arg(where).arg(schema.value(u"maximum"_s).toDouble());
    }
    if (type == u"string"_s && schema.contains(u"minLength"_s) &&
        v.toString().size() < schema.value(u"minLength"_s).toInt())
        return u"%1 must not be empty"_s.arg(where);
    if (type == u"array"_s) {
        const QJsonObject items = schema.value(u"items"_s).toObject();
        const QJsonArray arr = v.toArray();
        if (schema.contains(u"maxItems"_s) && arr.size() > schema.value(u"maxItems"_s).toInt())
            return u"%1 has more than %2 items"_s.arg(where).arg(
                schema.value(u"maxItems"_s).toInt());
        for (qsizetype i = 0; i < arr.size(); ++i)
            if (QString p = checkValue(u"%1[%2]"_s.arg(where).arg(i), arr[i], items); !p.isEmpty())
                return p;
    }
    if (type == u"object"_s) {
        const QJsonObject o = v.toObject();
        const QJsonObject props = schema.value(u"properties"_s).toObject();
        for (const QJsonValue &r : schema.value(u"required"_s).toArray())
            if (!o.contains(r.toString()))
                return u"%1%2 is required"_s.arg(where.isEmpty() ? QString() : where + u'.',
                                                 r.toString());
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString name = where.isEmpty() ? it.key() : where + u'.' + it.key();
            if (!props.contains(it.key())) {
                if (schema.value(u"additionalProperties"_s) == QJsonValue(false))
                    return u"unknown argument %1 (expected: %2)"_s.arg(name,
                                                                       props.keys().join(u", "_s));
                continue;
            }
            if (QString p = checkValue(name, it.value(), props.value(it.key()).toObject());
                !p.isEmpty())
                return p;
        }
    }
    return {};
}

QJsonObject textItem(const QString &text)
{
    return QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, text}};
}

QJsonObject imageItem(const Artifact &a)
{
    return QJsonObject{{u"type"_s, u"image"_s},
                       {u"data"_s, QString::fromLatin1(a.data.toBase64())},
                       {u"mimeType"_s, a.mimeType}};
}

QString decoded(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes); // invalid sequences become U+FFFD
}

QString outputSection(const QString &title, const QString &text)
{
    if (text.isEmpty())
        return {};
    return u"\n--- %1 ---\n%2%3"_s.arg(title, text, text.endsWith(u'\n') ? QString() : u"\n"_s);
}

QJsonArray artifactsJson(const QList<Artifact> &list)
{
    QJsonArray out;
    for (const Artifact &a : list)
        out.append(
            QJsonObject{{u"name"_s, a.name}, {u"mime_type"_s, a.mimeType}, {u"size"_s, a.size()}});
    return out;
}

} // namespace

QStringList notebookLanguages()
{
    return {u"python"_s, u"javascript"_s, u"r"_s};
}

QJsonArray findingsToJson(const QList<PolicyFinding> &findings)
{
    QJsonArray out;
    for (const PolicyFinding &f : findings)
        out.append(QJsonObject{{u"rule"_s, f.rule},
                               {u"severity"_s, f.severity},
                               {u"action"_s, f.action},
                               {u"line"_s, f.line},
                               {u"message"_s, f.message}});
    return out;
}

QJsonArray toolDefinitions()
{
    const QString langs = LanguageRegistry::instance().ids().join(u", "_s);
    QJsonObject languageProp = prop(u"string"_s, u"one of: "_s + langs);
    languageProp.insert(u"enum"_s, QJsonArray::fromStringList(LanguageRegistry::instance().ids()));
    QJsonObject codeProp = prop(u"string"_s, u"the program's source code"_s);
    QJsonObject fileItem =
        object({{u"path"_s, prop(u"string"_s, u"relative path in the work directory (no .., not "
                                              u"absolute)"_s)},
                {u"content"_s, prop(u"string"_s, u"text content (UTF-8)"_s)},
                {u"content_base64"_s, prop(u"string"_s, u"binary content, base64"_s)}},
               {u"path"_s});
    fileItem.insert(u"additionalProperties"_s, false);

    const QJsonObject executeCodeOut =
        object({{u"exit_code"_s, prop(u"integer"_s, u"the program's exit status (137: killed "
                                                    u"at the time or memory limit)"_s)},
                {u"stdout"_s, prop(u"string"_s, u"standard output (capped)"_s)},
                {u"stderr"_s, prop(u"string"_s, u"standard error, compiler messages included"_s)},
                {u"duration_ms"_s, prop(u"integer"_s, u"wall time of the program"_s)},
                {u"timed_out"_s, prop(u"boolean"_s, u"killed at the wall-time limit"_s)},
                {u"oom_killed"_s, prop(u"boolean"_s, u"killed for exceeding the memory limit"_s)},
                {u"output_truncated"_s, prop(u"boolean"_s, u"output beyond the cap was dropped"_s)},
                {u"policy_findings"_s,
                 QJsonObject{{u"type"_s, u"array"_s}, {u"items"_s, findingSchema()}}},
                {u"artifacts"_s, artifactListSchema()},
                {u"language"_s, prop(u"string"_s, u"language id"_s)}},
               {u"exit_code"_s, u"stdout"_s, u"stderr"_s, u"duration_ms"_s, u"timed_out"_s,
                u"oom_killed"_s, u"output_truncated"_s, u"policy_findings"_s});

    QJsonObject libraries{{u"type"_s, u"array"_s},
                          {u"items"_s, QJsonObject{{u"type"_s, u"string"_s}}},
                          {u"maxItems"_s, 50},
                          {u"description"_s,
                           u"packages to install first with the language's package manager "
                           u"(pip, npm, Maven g:a:v, Go modules, R); default: detected from "
                           u"the code's imports"_s}};
    QJsonObject files{{u"type"_s, u"array"_s},
                      {u"items"_s, fileItem},
                      {u"maxItems"_s, 100},
                      {u"description"_s, u"files copied into the work directory first"_s}};
    QJsonObject standard = prop(u"string"_s, u"language standard of compiled languages "
                                             u"(C++: c++17, c++20, c++23)"_s);

    QJsonArray tools;
    tools.append(
        tool(u"execute_code"_s, u"Run code in a sandbox"_s,
             u"Runs a program once in a fresh, hardened container (no network, limited memory, "
             u"CPU, processes and time) and returns its exit code, stdout and stderr. Every plot "
             u"(matplotlib, seaborn, plotly, R graphics) comes back as an image. Languages: "_s +
                 langs + u"."_s,
             object({{u"language"_s, languageProp},
                     {u"code"_s, codeProp},
                     {u"libraries"_s, libraries},
                     {u"timeout"_s, timeoutProp()},
                     {u"files"_s, files},
                     {u"standard"_s, standard}},
                    {u"language"_s, u"code"_s}),
             executeCodeOut, false));
    tools.append(tool(
        u"list_languages"_s, u"List languages"_s,
        u"Lists the languages execute_code runs and which of them have notebook sessions."_s,
        object({}, {}),
        object({{u"languages"_s,
                 QJsonObject{
                     {u"type"_s, u"array"_s},
                     {u"items"_s,
                      object({{u"id"_s, prop(u"string"_s, u"what language arguments take"_s)},
                              {u"name"_s, prop(u"string"_s, u"display name"_s)},
                              {u"notebook"_s, prop(u"boolean"_s, u"create_session supports it"_s)},
                              {u"standards"_s,
                               QJsonObject{{u"type"_s, u"array"_s},
                                           {u"items"_s, QJsonObject{{u"type"_s, u"string"_s}}}}}},
                             {u"id"_s, u"name"_s, u"notebook"_s})}}}},
               {u"languages"_s}),
        true));
    QJsonObject nbLang = prop(u"string"_s, u"python, javascript or r"_s);
    nbLang.insert(u"enum"_s, QJsonArray::fromStringList(notebookLanguages()));
    tools.append(
        tool(u"create_session"_s, u"Start a notebook session"_s,
             u"Starts a notebook session: one sandbox with a kernel whose variables, functions and "
             u"imports persist between execute_cell calls (Python, JavaScript, R). Close it with "
             u"close_session; it also ends when the client disconnects."_s,
             object({{u"language"_s, nbLang}}, {u"language"_s}),
             object({{u"session_id"_s, prop(u"string"_s, u"pass to execute_cell etc."_s)},
                     {u"language"_s, prop(u"string"_s, u"language id"_s)},
                     {u"kernel"_s, prop(u"string"_s, u"kernel version"_s)}},
                    {u"session_id"_s, u"language"_s}),
             false));
    QJsonObject cellCode = prop(u"string"_s, u"code to run in the session's kernel"_s);
    tools.append(tool(
        u"execute_cell"_s, u"Run a notebook cell"_s,
        u"Runs code in a notebook session. State persists between cells; the value of a "
        u"last expression is returned like a REPL shows it; plots come back as images. An "
        u"error keeps earlier state."_s,
        object({{u"session_id"_s, sessionIdProp()},
                {u"code"_s, cellCode},
                {u"timeout"_s, timeoutProp()}},
               {u"session_id"_s, u"code"_s}),
        object({{u"session_id"_s, prop(u"string"_s, u"the session"_s)},
                {u"status"_s, prop(u"string"_s, u"ok, error or aborted"_s)},
                {u"execution_count"_s, prop(u"integer"_s, u"the cell's number"_s)},
                {u"stdout"_s, prop(u"string"_s, u"printed output"_s)},
                {u"stderr"_s, prop(u"string"_s, u"error output"_s)},
                {u"result"_s, prop(u"string"_s, u"text of the last expression's value"_s)},
                {u"error"_s,
                 object({{u"ename"_s, prop(u"string"_s, u"exception type"_s)},
                         {u"evalue"_s, prop(u"string"_s, u"exception message"_s)},
                         {u"traceback"_s,
                          QJsonObject{{u"type"_s, u"array"_s},
                                      {u"items"_s, QJsonObject{{u"type"_s, u"string"_s}}}}}},
                        {})},
                {u"duration_ms"_s, prop(u"integer"_s, u"wall time of the cell"_s)},
                {u"timed_out"_s, prop(u"boolean"_s, u"stopped at the time limit"_s)},
                {u"interrupted"_s, prop(u"boolean"_s, u"stopped (state kept)"_s)},
                {u"kernel_restarted"_s, prop(u"boolean"_s, u"the kernel died; state was lost"_s)},
                {u"policy_findings"_s,
                 QJsonObject{{u"type"_s, u"array"_s}, {u"items"_s, findingSchema()}}},
                {u"artifacts"_s, artifactListSchema()}},
               {u"session_id"_s, u"status"_s, u"execution_count"_s, u"stdout"_s, u"stderr"_s,
                u"duration_ms"_s}),
        false));
    tools.append(tool(u"close_session"_s, u"Close a notebook session"_s,
                      u"Ends a notebook session and removes its sandbox."_s,
                      object({{u"session_id"_s, sessionIdProp()}}, {u"session_id"_s}),
                      object({{u"session_id"_s, prop(u"string"_s, u"the session"_s)},
                              {u"closed"_s, prop(u"boolean"_s, u"true"_s)}},
                             {u"session_id"_s, u"closed"_s}),
                      false, true));
    tools.append(
        tool(u"upload_file"_s, u"Upload a file into a session"_s,
             u"Writes a file into a notebook session's work directory (the kernel's current "
             u"directory), creating folders as needed."_s,
             object({{u"session_id"_s, sessionIdProp()},
                     {u"path"_s, prop(u"string"_s, u"relative path (no .., not absolute)"_s)},
                     {u"content_base64"_s, prop(u"string"_s, u"file content, base64"_s)}},
                    {u"session_id"_s, u"path"_s, u"content_base64"_s}),
             object({{u"path"_s, prop(u"string"_s, u"where it was written"_s)},
                     {u"size"_s, prop(u"integer"_s, u"bytes"_s)}},
                    {u"path"_s, u"size"_s}),
             false));
    tools.append(
        tool(u"download_file"_s, u"Download a file from a session"_s,
             u"Reads a file from a notebook session's work directory (at most 16 MiB). Images "
             u"also come back as image content."_s,
             object({{u"session_id"_s, sessionIdProp()},
                     {u"path"_s, prop(u"string"_s, u"relative path (no .., not absolute)"_s)}},
                    {u"session_id"_s, u"path"_s}),
             object({{u"path"_s, prop(u"string"_s, u"the file"_s)},
                     {u"size"_s, prop(u"integer"_s, u"bytes"_s)},
                     {u"mime_type"_s, prop(u"string"_s, u"guessed from the name and content"_s)},
                     {u"content_base64"_s, prop(u"string"_s, u"file content, base64"_s)}},
                    {u"path"_s, u"size"_s, u"mime_type"_s, u"content_base64"_s}),
             true));
    return tools;
}

QJsonArray fixtureToolDefinitions()
{
    const QList<std::pair<QString, QString>> fixtures = {
        {u"test_simple_text"_s, u"Conformance fixture: returns a text item"_s},
        {u"test_image_content"_s, u"Conformance fixture: returns an image item"_s},
        {u"test_audio_content"_s, u"Conformance fixture: returns an audio item"_s},
        {u"test_embedded_resource"_s, u"Conformance fixture: returns an embedded resource"_s},
        {u"test_multiple_content_types"_s, u"Conformance fixture: text, image and resource"_s},
        {u"test_tool_with_logging"_s, u"Conformance fixture: logs three messages"_s},
        {u"test_error_handling"_s, u"Conformance fixture: returns isError"_s},
        {u"test_tool_with_progress"_s, u"Conformance fixture: reports progress 0, 50, 100"_s},
    };
    QJsonArray out;
    for (const auto &[name, description] : fixtures)
        out.append(QJsonObject{{u"name"_s, name},
                               {u"description"_s, description},
                               {u"inputSchema"_s, QJsonObject{{u"type"_s, u"object"_s},
                                                              {u"properties"_s, QJsonObject{}}}}});
    // SEP-1613: JSON Schema 2020-12 keywords pass through tools/list unchanged.
    const QJsonObject str{{u"type"_s, u"string"_s}};
    out.append(QJsonObject{
        {u"name"_s, u"json_schema_2020_12_tool"_s},
        {u"description"_s, u"Tool with JSON Schema 2020-12 features"_s},
        {u"inputSchema"_s,
         QJsonObject{{u"$schema"_s, u"https://json-schema.org/draft/2020-12/schema"_s},
                     {u"type"_s, u"object"_s},
                     {u"$defs"_s,
                      QJsonObject{{u"address"_s,
                                   QJsonObject{{u"type"_s, u"object"_s},
                                               {u"properties"_s, QJsonObject{{u"street"_s, str},
                                                                             {u"city"_s, str}}}}}}},
                     {u"properties"_s,
                      QJsonObject{{u"name"_s, str},
                                  {u"address"_s, QJsonObject{{u"$ref"_s, u"#/$defs/address"_s}}}}},
                     {u"additionalProperties"_s, false}}}});
    return out;
}

QStringList fixtureToolNames()
{
    QStringList out;
    for (const QJsonValue &t : fixtureToolDefinitions())
        out << t.toObject().value(u"name"_s).toString();
    return out;
}

QString fixturePngBase64()
{
    return u"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"_s;
}

QString fixtureWavBase64()
{
    // RIFF/WAVE, PCM mono 8 kHz 8-bit, 8 samples of silence.
    QByteArray wav("RIFF");
    auto le32 = [](quint32 v) {
        QByteArray b(4, Qt::Uninitialized);
        for (int i = 0; i < 4; ++i)
            b[i] = char((v >> (8 * i)) & 0xff);
        return b;
    };
    auto le16 = [](quint16 v) {
        QByteArray b(2, Qt::Uninitialized);
        b[0] = char(v & 0xff);
        b[1] = char((v >> 8) & 0xff);
        return b;
    };
    const QByteArray samples(8, char(0x80));
    wav += le32(36 + quint32(samples.size())) + "WAVEfmt " + le32(16) + le16(1) + le16(1) +
           le32(8000) + le32(8000) + le16(1) + le16(8) + "data" + le32(quint32(samples.size())) +
           samples;
    return QString::fromLatin1(wav.toBase64());
}

QStringList toolNames()
{
    QStringList out;
    for (const QJsonValue &t : toolDefinitions())
        out << t.toObject().value(u"name"_s).toString();
    return out;
}

QString validateArguments(const QString &toolName, const QJsonObject &args)
{
    static const QJsonArray defs = toolDefinitions();
    for (const QJsonValue &t : defs) {
        const QJsonObject o = t.toObject();
        if (o.value(u"name"_s).toString() != toolName)
            continue;
        QJsonObject schema = o.value(u"inputSchema"_s).toObject();
        // Enums are checked by the tools themselves, with a better message (aliases such
        // as "py" are accepted too).
        return checkValue(QString(), args, schema);
    }
    return u"unknown tool %1"_s.arg(toolName);
}

QJsonObject structuredResult(const QString &text, const QJsonObject &sc)
{
    return QJsonObject{
        {u"content"_s,
         QJsonArray{textItem(text),
                    textItem(QString::fromUtf8(QJsonDocument(sc).toJson(QJsonDocument::Compact)))}},
        {u"structuredContent"_s, sc},
        {u"isError"_s, false}};
}

QJsonObject listLanguagesResult()
{
    QJsonArray langs;
    QStringList lines;
    for (const LanguageDescriptor &l : LanguageRegistry::instance().all()) {
        const bool nb = notebookLanguages().contains(l.id);
        langs.append(QJsonObject{{u"id"_s, l.id},
                                 {u"name"_s, l.displayName},
                                 {u"notebook"_s, nb},
                                 {u"standards"_s, QJsonArray::fromStringList(l.standards)}});
        lines << u"%1 (%2)%3"_s.arg(l.id, l.displayName, nb ? u", notebook sessions"_s : QString());
    }
    return structuredResult(u"Languages: "_s + lines.join(u"; "_s),
                            QJsonObject{{u"languages"_s, langs}});
}

McpCallResult executeCodeResult(const RunResult &run)
{
    McpCallResult r;
    r.exitCode = run.exitCode;
    r.stdoutData = run.stdoutData;
    r.stderrData = run.stderrData;
    r.durationMs = run.totalMs > 0 ? run.totalMs : run.durationMs;
    r.timedOut = run.timedOut;
    r.oomKilled = run.oomKilled;
    r.outputTruncated = run.outputTruncated;
    r.policyFindings = run.policyFindings;
    for (const Artifact &a : run.artifacts)
        (a.mimeType.startsWith(u"image/"_s) ? r.images : r.files) << a;

    const QJsonObject sc{{u"exit_code"_s, run.exitCode},
                         {u"stdout"_s, decoded(run.stdoutData)},
                         {u"stderr"_s, decoded(run.stderrData)},
                         {u"duration_ms"_s, run.durationMs},
                         {u"timed_out"_s, run.timedOut},
                         {u"oom_killed"_s, run.oomKilled},
                         {u"output_truncated"_s, run.outputTruncated},
                         {u"policy_findings"_s, findingsToJson(run.policyFindings)},
                         {u"artifacts"_s, artifactsJson(run.artifacts)},
                         {u"language"_s, run.language}};
    QString text = run.policyBlocked
                       ? u"The code was not run: %1."_s.arg(run.policyReason)
                       : u"Exit code %1 after %2 ms."_s.arg(run.exitCode).arg(run.durationMs);
    if (run.timedOut)
        text += u" Killed at the time limit."_s;
    if (run.oomKilled)
        text += u" Killed for exceeding the memory limit."_s;
    if (run.cancelled)
        text += u" Cancelled."_s;
    if (run.outputTruncated)
        text += u" Output was truncated at the cap."_s;
    text += outputSection(u"stdout"_s, decoded(run.stdoutData));
    text += outputSection(u"stderr"_s, decoded(run.stderrData));
    if (!r.images.isEmpty())
        text += u"\n%1 image(s) attached."_s.arg(r.images.size());
    if (!r.files.isEmpty()) {
        QStringList names;
        for (const Artifact &a : std::as_const(r.files))
            names << u"%1 (%2 bytes)"_s.arg(a.name).arg(a.size());
        text += u"\nFiles written: "_s + names.join(u", "_s);
    }
    for (const PolicyFinding &f : run.policyFindings)
        text += u"\nPolicy %1 (%2): %3"_s.arg(f.severity, f.rule, f.message);
    QJsonObject result = structuredResult(text, sc);
    QJsonArray content = result.value(u"content"_s).toArray();
    for (const Artifact &a : std::as_const(r.images))
        content.append(imageItem(a));
    result.insert(u"content"_s, content);
    if (run.policyBlocked) {
        // The policy stopped it before it ran: an error the model must see as one.
        result.insert(u"isError"_s, true);
        r.isError = true;
        r.errorMessage = run.policyReason;
    }
    r.mcpResult = result;
    return r;
}

McpCallResult executeCellResult(const QString &sessionId, const CellResult &cell,
                                const QList<PolicyFinding> &findings)
{
    McpCallResult r;
    r.exitCode = cell.ok() ? 0 : 1;
    r.stdoutData = cell.streamText(u"stdout"_s).toUtf8();
    r.stderrData = cell.streamText(u"stderr"_s).toUtf8();
    r.durationMs = cell.durationMs;
    r.timedOut = cell.timedOut;
    r.images = cell.images();
    r.files = cell.files();
    r.policyFindings = findings;
    QJsonObject sc{{u"session_id"_s, sessionId},
                   {u"status"_s, cell.status},
                   {u"execution_count"_s, cell.executionCount},
                   {u"stdout"_s, QString::fromUtf8(r.stdoutData)},
                   {u"stderr"_s, QString::fromUtf8(r.stderrData)},
                   {u"result"_s, cell.resultText()},
                   {u"duration_ms"_s, cell.durationMs},
                   {u"timed_out"_s, cell.timedOut},
                   {u"interrupted"_s, cell.interrupted},
                   {u"kernel_restarted"_s, cell.kernelRestarted},
                   {u"policy_findings"_s, findingsToJson(findings)},
                   {u"artifacts"_s, artifactsJson(r.images + r.files)}};
    QString text = u"[%1] %2"_s.arg(cell.executionCount).arg(cell.status);
    for (const CellOutput &o : cell.outputs)
        if (o.kind == CellOutput::Kind::Error) {
            sc.insert(u"error"_s,
                      QJsonObject{{u"ename"_s, o.ename},
                                  {u"evalue"_s, o.evalue},
                                  {u"traceback"_s, QJsonArray::fromStringList(o.traceback)}});
            text += u"\n%1: %2"_s.arg(o.ename, o.evalue);
        }
    if (cell.timedOut)
        text += u" (stopped at the time limit; state kept)"_s;
    else if (cell.interrupted)
        text += u" (interrupted; state kept)"_s;
    if (cell.kernelRestarted)
        text += u" (the kernel died and was restarted: earlier state is lost)"_s;
    text += outputSection(u"stdout"_s, QString::fromUtf8(r.stdoutData));
    text += outputSection(u"stderr"_s, QString::fromUtf8(r.stderrData));
    if (!cell.resultText().isEmpty())
        text += outputSection(u"result"_s, cell.resultText());
    if (!r.images.isEmpty())
        text += u"\n%1 image(s) attached."_s.arg(r.images.size());
    QJsonObject result = structuredResult(text, sc);
    QJsonArray content = result.value(u"content"_s).toArray();
    for (const Artifact &a : std::as_const(r.images))
        content.append(imageItem(a));
    result.insert(u"content"_s, content);
    if (cell.policyBlocked) {
        // The policy stopped it before it ran: an error the model must see as one.
        result.insert(u"isError"_s, true);
        r.isError = true;
        r.errorMessage = cell.policyReason;
    }
    r.mcpResult = result;
    return r;
}

McpCallResult downloadResult(const QString &path, const QByteArray &data)
{
    McpCallResult r;
    const QString mime = QMimeDatabase().mimeTypeForFileNameAndData(path, data).name();
    const QJsonObject sc{{u"path"_s, path},
                         {u"size"_s, data.size()},
                         {u"mime_type"_s, mime},
                         {u"content_base64"_s, QString::fromLatin1(data.toBase64())}};
    QString text = u"%1 (%2 bytes, %3)"_s.arg(path).arg(data.size()).arg(mime);
    const bool textual = mime.startsWith(u"text/"_s) || mime == u"application/json"_s;
    if (textual && isValidUtf8(data) && data.size() <= (256 << 10))
        text += u"\n"_s + QString::fromUtf8(data);
    QJsonObject result = structuredResult(text, sc);
    if (mime.startsWith(u"image/"_s)) {
        QJsonArray content = result.value(u"content"_s).toArray();
        content.append(imageItem(Artifact{path, mime, data}));
        result.insert(u"content"_s, content);
        r.images << Artifact{path, mime, data};
    } else {
        r.files << Artifact{path, mime, data};
    }
    r.mcpResult = result;
    return r;
}

} // namespace sandbox::mcptools
