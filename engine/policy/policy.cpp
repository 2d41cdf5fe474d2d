// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/policy.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <algorithm>
#include <nlohmann/json.hpp>

namespace sandbox {

using json = nlohmann::json;

namespace {
const std::array<const char *, 4> SeverityNames{"low", "medium", "high", "critical"};
const std::array<const char *, 4> ActionNames{"allow", "warn", "ask", "block"};

QString str(const json &j)
{
    return QString::fromStdString(j.get<std::string>());
}

QStringList stringList(const json &j)
{
    QStringList out;
    if (j.is_string())
        out << str(j);
    else if (j.is_array())
        for (const json &e : j)
            if (e.is_string())
                out << str(e);
    return out;
}

Result<PolicyRule> ruleFromJson(const json &j, int index)
{
    auto bad = [&](const QString &what) {
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("policy rule %1: %2").arg(index + 1).arg(what));
    };
    if (!j.is_object())
        return bad(QStringLiteral("is not an object"));
    PolicyRule r;
    if (!j.contains("id") || !j["id"].is_string() || j["id"].get<std::string>().empty())
        return bad(QStringLiteral("needs an \"id\""));
    r.id = str(j["id"]);
    if (j.contains("languages")) {
        const QStringList langs = stringList(j["languages"]);
        if (!(langs.size() == 1 && langs.first() == u'*'))
            r.languages = langs;
    }
    const bool hasImport = j.contains("import");
    const bool hasPattern = j.contains("pattern");
    if (hasImport == hasPattern)
        return bad(
            QStringLiteral("'%1' needs exactly one of \"import\" and \"pattern\"").arg(r.id));
    if (hasImport) {
        r.imports = stringList(j["import"]);
        if (r.imports.isEmpty())
            return bad(QStringLiteral("'%1': \"import\" is a name or a list of names").arg(r.id));
    } else {
        if (!j["pattern"].is_string())
            return bad(QStringLiteral("'%1': \"pattern\" is a string").arg(r.id));
        r.pattern = str(j["pattern"]);
    }
    if (j.contains("match")) {
        const QString m = j["match"].is_string() ? str(j["match"]) : QString();
        if (m == QLatin1String("code"))
            r.scope = PolicyRule::Scope::Code;
        else if (m == QLatin1String("strings"))
            r.scope = PolicyRule::Scope::Strings;
        else
            return bad(QStringLiteral("'%1': \"match\" is \"code\" or \"strings\"").arg(r.id));
    }
    if (!j.contains("severity") || !j["severity"].is_string())
        return bad(
            QStringLiteral("'%1' needs a \"severity\" (low, medium, high, critical)").arg(r.id));
    auto sev = parseSeverity(str(j["severity"]));
    if (!sev)
        return bad(QStringLiteral("'%1': %2").arg(r.id, sev.error().message));
    r.severity = *sev;
    if (j.contains("action")) {
        auto act = parseAction(j["action"].is_string() ? str(j["action"]) : QString());
        if (!act)
            return bad(QStringLiteral("'%1': %2").arg(r.id, act.error().message));
        r.action = *act;
    }
    if (j.contains("message") && j["message"].is_string())
        r.message = str(j["message"]);
    return r;
}

json ruleToJson(const PolicyRule &r)
{
    json j;
    j["id"] = r.id.toStdString();
    if (r.languages.isEmpty())
        j["languages"] = "*";
    else {
        j["languages"] = json::array();
        for (const QString &l : r.languages)
            j["languages"].push_back(l.toStdString());
    }
    if (!r.imports.isEmpty()) {
        j["import"] = json::array();
        for (const QString &m : r.imports)
            j["import"].push_back(m.toStdString());
    } else {
        j["pattern"] = r.pattern.toStdString();
        j["match"] = r.scope == PolicyRule::Scope::Strings ? "strings" : "code";
    }
    j["severity"] = severityName(r.severity).toStdString();
    if (r.action)
        j["action"] = actionName(*r.action).toStdString();
    if (!r.message.isEmpty())
        j["message"] = r.message.toStdString();
    return j;
}

struct Builtin
{
    QList<PolicyRule> rules;
    QHash<QString, std::array<PolicyAction, 4>> presets;
    QString error;
};

const Builtin &builtin()
{
    static const Builtin b = [] {
        Builtin out;
        QFile f(QStringLiteral(":/policies/builtin.json"));
        if (!f.open(QIODevice::ReadOnly)) {
            out.error = QStringLiteral("the built-in policy resource is missing");
            return out;
        }
        const json j = json::parse(f.readAll().toStdString(), nullptr, false);
        if (j.is_discarded() || !j.contains("rules") || !j.contains("presets")) {
            out.error = QStringLiteral("the built-in policy resource is malformed");
            return out;
        }
        int i = 0;
        for (const json &r : j["rules"]) {
            auto rule = ruleFromJson(r, i++);
            if (!rule) {
                out.error = rule.error().message;
                return out;
            }
            out.rules.append(*rule);
        }
        for (auto it = j["presets"].begin(); it != j["presets"].end(); ++it) {
            std::array<PolicyAction, 4> actions{};
            for (size_t s = 0; s < 4; ++s)
                actions[s] =
                    parseAction(QString::fromStdString(it.value().value(SeverityNames[s], "warn")))
                        .value_or(PolicyAction::Warn);
            out.presets.insert(QString::fromStdString(it.key()), actions);
        }
        return out;
    }();
    return b;
}

bool moduleMatches(const QString &module, const QString &rule)
{
    if (module == rule)
        return true;
    if (!module.startsWith(rule))
        return false;
    const QChar next = module.at(rule.size());
    return next == u'.' || next == u'/' || next == u':';
}

QString excerpt(QString text)
{
    text = text.simplified();
    return text.size() > 60 ? text.left(57) + QStringLiteral("...") : text;
}

} // namespace

QString severityName(Severity s)
{
    return QString::fromLatin1(SeverityNames[size_t(s)]);
}

QString actionName(PolicyAction a)
{
    return QString::fromLatin1(ActionNames[size_t(a)]);
}

Result<Severity> parseSeverity(const QString &text)
{
    for (size_t i = 0; i < SeverityNames.size(); ++i)
        if (text.compare(QLatin1String(SeverityNames[i]), Qt::CaseInsensitive) == 0)
            return Severity(i);
    return fail(ErrorCode::InvalidArgument,
                QStringLiteral("unknown severity '%1' (low, medium, high, critical)").arg(text));
}

Result<PolicyAction> parseAction(const QString &text)
{
    for (size_t i = 0; i < ActionNames.size(); ++i)
        if (text.compare(QLatin1String(ActionNames[i]), Qt::CaseInsensitive) == 0)
            return PolicyAction(i);
    return fail(ErrorCode::InvalidArgument,
                QStringLiteral("unknown action '%1' (allow, warn, ask, block)").arg(text));
}

bool PolicyRule::appliesTo(const QString &language) const
{
    return languages.isEmpty() || languages.contains(language, Qt::CaseInsensitive);
}

QStringList Policy::presetNames()
{
    return {QStringLiteral("strict"), QStringLiteral("standard"), QStringLiteral("permissive")};
}

Result<Policy> Policy::preset(const QString &name)
{
    const Builtin &b = builtin();
    if (!b.error.isEmpty())
        return fail(ErrorCode::Internal, b.error);
    const QString key = name.toLower();
    if (!b.presets.contains(key))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("unknown policy preset '%1' (%2)")
                        .arg(name, presetNames().join(QStringLiteral(", "))));
    Policy p;
    p.m_name = key;
    p.m_base = key;
    p.m_rules = b.rules;
    p.m_actions = b.presets.value(key);
    return p;
}

Result<Policy> Policy::fromJson(const QByteArray &text)
{
    const json j = json::parse(text.toStdString(), nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return fail(ErrorCode::InvalidArgument, QStringLiteral("policy file is not a JSON object"));
    if (j.contains("format") && j["format"] != 1)
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("policy file format %1 is not supported (1 is)")
                        .arg(QString::fromStdString(j["format"].dump())));
    const QString base =
        j.contains("base") && j["base"].is_string() ? str(j["base"]) : QStringLiteral("none");
    Policy p;
    if (base != QLatin1String("none")) {
        auto pre = preset(base);
        if (!pre)
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("policy \"base\": %1").arg(pre.error().message));
        p = *pre;
    }
    p.m_name = j.contains("name") && j["name"].is_string() ? str(j["name"]) : base;
    if (j.contains("actions")) {
        if (!j["actions"].is_object())
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("policy \"actions\" maps severities to actions"));
        for (auto it = j["actions"].begin(); it != j["actions"].end(); ++it) {
            auto sev = parseSeverity(QString::fromStdString(it.key()));
            auto act = parseAction(it.value().is_string() ? str(it.value()) : QString());
            if (!sev || !act)
                return fail(ErrorCode::InvalidArgument,
                            QStringLiteral("policy \"actions\": %1")
                                .arg(!sev ? sev.error().message : act.error().message));
            p.m_actions[size_t(*sev)] = *act;
        }
    }
    if (j.contains("disabled"))
        for (const QString &id : stringList(j["disabled"]))
            p.removeRule(id);
    if (j.contains("rules")) {
        if (!j["rules"].is_array())
            return fail(ErrorCode::InvalidArgument, QStringLiteral("policy \"rules\" is a list"));
        int i = 0;
        for (const json &r : j["rules"]) {
            auto rule = ruleFromJson(r, i++);
            if (!rule)
                return std::unexpected(rule.error());
            if (auto set = p.setRule(*rule); !set)
                return std::unexpected(set.error());
        }
    }
    return p;
}

Result<Policy> Policy::load(const QString &presetOrFile)
{
    if (presetNames().contains(presetOrFile.toLower()))
        return preset(presetOrFile);
    QFile f(presetOrFile);
    if (!QFileInfo::exists(presetOrFile))
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("unknown policy '%1': use strict, standard, permissive or the "
                                   "path of a policy file")
                        .arg(presetOrFile));
    if (!f.open(QIODevice::ReadOnly))
        return fail(
            ErrorCode::IoError,
            QStringLiteral("cannot read policy file %1: %2").arg(presetOrFile, f.errorString()));
    auto p = fromJson(f.readAll());
    if (!p)
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("%1: %2").arg(presetOrFile, p.error().message));
    return p;
}

QByteArray Policy::toJson() const
{
    json j;
    j["format"] = 1;
    j["name"] = m_name.toStdString();
    j["base"] = m_base.toStdString();
    json actions = json::object();
    for (size_t s = 0; s < 4; ++s)
        actions[SeverityNames[s]] = ActionNames[size_t(m_actions[s])];
    j["actions"] = actions;
    if (!m_disabled.isEmpty()) {
        j["disabled"] = json::array();
        for (const QString &id : m_disabled)
            j["disabled"].push_back(id.toStdString());
    }
    j["rules"] = json::array();
    for (const PolicyRule &r : m_rules)
        if (m_base == QLatin1String("none") || m_userRules.contains(r.id))
            j["rules"].push_back(ruleToJson(r));
    return QByteArray::fromStdString(j.dump(2)) + '\n';
}

Result<void> Policy::save(const QString &path) const
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(ErrorCode::IoError,
                    QStringLiteral("cannot write policy file %1: %2").arg(path, f.errorString()));
    f.write(toJson());
    if (!f.commit())
        return fail(ErrorCode::IoError,
                    QStringLiteral("cannot write policy file %1: %2").arg(path, f.errorString()));
    return {};
}

Result<void> Policy::setRule(const PolicyRule &rule)
{
    if (rule.id.trimmed().isEmpty())
        return fail(ErrorCode::InvalidArgument, QStringLiteral("a rule needs an id"));
    if (rule.imports.isEmpty() == rule.pattern.isEmpty())
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("rule '%1' needs either modules or a pattern").arg(rule.id));
    if (!rule.pattern.isEmpty()) {
        const QRegularExpression re(rule.pattern);
        if (!re.isValid())
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("rule '%1': bad pattern at offset %2: %3")
                            .arg(rule.id)
                            .arg(re.patternErrorOffset())
                            .arg(re.errorString()));
    }
    auto it = std::find_if(m_rules.begin(), m_rules.end(),
                           [&](const PolicyRule &r) { return r.id == rule.id; });
    if (it != m_rules.end())
        *it = rule;
    else
        m_rules.append(rule);
    if (!m_userRules.contains(rule.id))
        m_userRules.append(rule.id);
    m_disabled.removeAll(rule.id);
    return {};
}

bool Policy::removeRule(const QString &id)
{
    const auto n = m_rules.removeIf([&](const PolicyRule &r) { return r.id == id; });
    m_userRules.removeAll(id);
    if (n > 0 && m_base != QLatin1String("none")) {
        const Builtin &b = builtin();
        if (std::any_of(b.rules.begin(), b.rules.end(),
                        [&](const PolicyRule &r) { return r.id == id; }) &&
            !m_disabled.contains(id))
            m_disabled.append(id);
    }
    return n > 0;
}

QList<PolicyFinding> Policy::check(const QString &language, const QString &code) const
{
    const CodeView view = lexCode(language, code);
    QList<ImportRef> imports;
    bool importsDone = false;
    QList<PolicyFinding> out;
    QSet<QString> seen;
    auto add = [&](const PolicyRule &r, PolicyAction action, int line, const QString &what) {
        const QString key = r.id + u'#' + QString::number(line);
        if (seen.contains(key))
            return;
        seen.insert(key);
        PolicyFinding f;
        f.rule = r.id;
        f.severity = severityName(r.severity);
        f.action = actionName(action);
        f.line = line;
        f.message = (r.message.isEmpty() ? r.id : r.message) + QStringLiteral(": ") + what;
        out.append(f);
    };
    for (const PolicyRule &r : m_rules) {
        if (!r.appliesTo(language))
            continue;
        const PolicyAction action = actionOf(r);
        if (action == PolicyAction::Allow)
            continue;
        if (!r.imports.isEmpty()) {
            if (!importsDone) {
                imports = importsOf(language, view);
                importsDone = true;
            }
            for (const ImportRef &ref : std::as_const(imports))
                for (const QString &m : r.imports)
                    if (moduleMatches(ref.module, m)) {
                        add(r, action, ref.line, QStringLiteral("imports %1").arg(ref.module));
                        break;
                    }
            continue;
        }
        const QRegularExpression re(r.pattern, QRegularExpression::MultilineOption);
        if (!re.isValid())
            continue; // setRule refuses these; a hand-built rule may still hold one
        if (r.scope == PolicyRule::Scope::Code) {
            auto it = re.globalMatch(view.code);
            while (it.hasNext()) {
                const auto m = it.next();
                if (m.capturedLength(0) == 0)
                    continue;
                add(r, action, view.lineOf(m.capturedStart(0)),
                    u'\'' + excerpt(code.mid(m.capturedStart(0), m.capturedLength(0))) + u'\'');
            }
        } else {
            for (const CodeView::Literal &lit : view.strings) {
                const auto m = re.match(lit.text);
                if (m.hasMatch() && m.capturedLength(0) > 0)
                    add(r, action, view.lineOf(lit.offset + m.capturedStart(0)),
                        QStringLiteral("\"%1\"").arg(excerpt(lit.text)));
            }
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const PolicyFinding &a, const PolicyFinding &b) {
        return a.line < b.line;
    });
    return out;
}

PolicyVerdict evaluatePolicy(const Policy &policy, const QString &language, const QString &code)
{
    PolicyVerdict v;
    v.findings = policy.check(language, code);
    for (const PolicyFinding &f : std::as_const(v.findings))
        v.action = std::max(v.action, parseAction(f.action).value_or(PolicyAction::Warn));
    if (v.action == PolicyAction::Block || v.action == PolicyAction::Ask) {
        QStringList lines;
        const QString wanted = actionName(v.action);
        for (const PolicyFinding &f : std::as_const(v.findings))
            if (f.action == wanted)
                lines << QStringLiteral("line %1: %2 (%3): %4")
                             .arg(f.line)
                             .arg(f.rule, f.severity, f.message);
        v.reason = QStringLiteral("%1 by policy '%2': %3")
                       .arg(v.action == PolicyAction::Block ? QStringLiteral("blocked")
                                                            : QStringLiteral("needs approval"),
                            policy.name(), lines.join(QStringLiteral("; ")));
    }
    return v;
}

} // namespace sandbox
