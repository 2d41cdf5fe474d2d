// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/runtypes.h"
#include "util/error.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <array>

namespace sandbox {

/// How bad a finding is. Presets map each severity to an action.
enum class Severity
{
    Low,
    Medium,
    High,
    Critical
};

/// What a finding does to a run, in increasing order of strength: allow (not reported),
/// warn (runs, findings in the result), ask (the caller decides), block (never starts).
enum class PolicyAction
{
    Allow,
    Warn,
    Ask,
    Block
};

QString severityName(Severity s);
QString actionName(PolicyAction a);
/// Parses "low".."critical" / "allow".."block" (case-insensitive). Errors: InvalidArgument.
Result<Severity> parseSeverity(const QString &text);
Result<PolicyAction> parseAction(const QString &text);

/// One rule. Exactly one of imports / pattern is set.
struct PolicyRule
{
    enum class Scope
    {
        Code,   ///< pattern matched on the code with comments and string literals blanked
        Strings ///< pattern matched on each string literal's contents, one at a time
    };
    QString id; ///< unique within a policy; a user rule with a preset rule's id replaces it
    QStringList languages; ///< language ids; empty = every language
    QStringList imports;   ///< module names; "os" matches "os" and "os.path" (Go: "net/http")
    QString pattern;       ///< PCRE (QRegularExpression), multi-line
    Scope scope = Scope::Code;
    Severity severity = Severity::Medium;
    /// Explicit action; unset = the policy's mapping of severity.
    std::optional<PolicyAction> action;
    QString message; ///< what the matched code does, for people ("starts other processes")

    bool appliesTo(const QString &language) const;
};

/// A set of rules and the action each severity gets. Value type; cheap to copy.
///
/// File format (JSON; docs/policy.md):
///   {"format": 1, "name": "team", "base": "standard",
///    "actions": {"medium": "block"},
///    "rules": [{"id": "no-requests", "languages": ["python"], "import": ["requests"],
///               "severity": "high", "action": "block", "message": "..."},
///              {"id": "no-eval", "languages": "*", "pattern": "\\beval\\s*\\(",
///               "match": "code", "severity": "medium"}]}
/// "base" is a preset (strict, standard, permissive) or "none"; its rules come first and a
/// rule with the same id replaces one of them. "actions" overrides the severity mapping.
class Policy
{
public:
    /// The preset names, weakest last: "strict", "standard", "permissive".
    static QStringList presetNames();
    /// A built-in preset. Errors: InvalidArgument for an unknown name.
    static Result<Policy> preset(const QString &name);
    /// Parses the JSON file format above. Errors: InvalidArgument with the field at fault.
    static Result<Policy> fromJson(const QByteArray &json);
    /// A preset name or the path of a policy file. Errors: InvalidArgument, IoError.
    static Result<Policy> load(const QString &presetOrFile);

    /// The file format; rules of the base preset that were not replaced are left out
    /// when the policy has a base, so the file stays small.
    QByteArray toJson() const;
    /// Writes toJson() to path. Errors: IoError.
    Result<void> save(const QString &path) const;

    QString name() const { return m_name; }
    void setName(const QString &name) { m_name = name; }
    QString base() const { return m_base; } ///< preset this policy builds on, or "none"

    /// Every rule in effect (base rules first, replaced ones in place).
    const QList<PolicyRule> &rules() const { return m_rules; }
    /// Adds or replaces (same id) a rule. Errors: InvalidArgument (bad pattern, no id).
    Result<void> setRule(const PolicyRule &rule);
    /// Removes a rule by id; true when one was removed.
    bool removeRule(const QString &id);
    /// Rules the user added or changed (not the base preset's own).
    QStringList userRuleIds() const { return m_userRules; }
    /// Base preset rules the user removed (the file's "disabled" list).
    QStringList disabledRuleIds() const { return m_disabled; }

    PolicyAction actionFor(Severity s) const { return m_actions[size_t(s)]; }
    void setActionFor(Severity s, PolicyAction a) { m_actions[size_t(s)] = a; }
    PolicyAction actionOf(const PolicyRule &rule) const
    {
        return rule.action.value_or(actionFor(rule.severity));
    }

    /// Static check of code in language (a LanguageRegistry id): one finding per rule and
    /// line, ordered by line. Findings whose action is allow are left out.
    QList<PolicyFinding> check(const QString &language, const QString &code) const;

private:
    QString m_name;
    QString m_base = QStringLiteral("none");
    QList<PolicyRule> m_rules;
    QStringList m_userRules;
    QStringList m_disabled;
    std::array<PolicyAction, 4> m_actions{PolicyAction::Warn, PolicyAction::Warn,
                                          PolicyAction::Warn, PolicyAction::Warn};
};

/// What the policy decided about one run.
struct PolicyVerdict
{
    PolicyAction action = PolicyAction::Allow; ///< strongest action among the findings
    QList<PolicyFinding> findings;
    /// "blocked by policy 'standard': line 3: engine-socket (critical): ..." for people.
    QString reason;
};

/// Checks request.code with policy and sums the findings up.
PolicyVerdict evaluatePolicy(const Policy &policy, const QString &language, const QString &code);

/// Called when a run's findings ask for a decision; true lets the run start. Called on the
/// thread that runs the request (a worker thread): a GUI must hop to its own thread.
using PolicyAskHandler =
    std::function<bool(const RunRequest &request, const QList<PolicyFinding> &findings)>;

/// Lexical view of source code used by the checks (exposed for tests).
struct CodeView
{
    QString code;       ///< comments and string literal contents replaced by spaces (newlines kept)
    QString noComments; ///< comments replaced by spaces, strings kept
    struct Literal
    {
        qsizetype offset = 0; ///< of the first content character in the source
        QString text;         ///< raw contents between the quotes
    };
    QList<Literal> strings;
    QByteArray kinds;            ///< per source character: 'c' code, 'm' comment, 's' string
    QList<qsizetype> lineStarts; ///< offsets where lines start

    /// 1-based line of a source offset.
    int lineOf(qsizetype offset) const;
    bool isCode(qsizetype offset) const { return offset < kinds.size() && kinds[offset] == 'c'; }
};

/// Splits code into code, comments and string literals with a small per-language lexer
/// (Python: #, quotes, triple quotes, prefixes, f-string fields; C family (JavaScript,
/// Java, C++, Go): //, /* */, quotes, template literals, Go raw strings, Java text blocks,
/// C++ raw strings; R: #, quotes, raw strings). Unknown languages: C family.
CodeView lexCode(const QString &language, const QString &code);

/// A module the code imports, with its 1-based line.
struct ImportRef
{
    QString module;
    int line = 0;
};

/// Imports found structurally: Python import/from, JavaScript require/import, Java import,
/// Go import blocks, C/C++ #include, R library/require/pkg::.
QList<ImportRef> importsOf(const QString &language, const CodeView &view);

} // namespace sandbox
