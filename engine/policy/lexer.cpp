// SPDX-License-Identifier: GPL-3.0-or-later
// Small per-language lexers: enough to tell code from comments and string literals, so
// that rules match what runs, not what is written about it.
#include "policy/policy.h"

#include <QRegularExpression>
#include <algorithm>

namespace sandbox {

int CodeView::lineOf(qsizetype offset) const
{
    auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
    return int(it - lineStarts.begin());
}

namespace {

bool isIdent(QChar c)
{
    return c.isLetterOrNumber() || c == u'_' || c == u'$';
}

class Lexer
{
public:
    Lexer(const QString &src, CodeView &view)
        : s(src)
        , n(src.size())
        , v(view)
    {
        v.code = src;
        v.noComments = src;
        v.kinds = QByteArray(n, 'c');
        v.lineStarts = {0};
        for (qsizetype i = 0; i < n; ++i)
            if (src[i] == u'\n')
                v.lineStarts.append(i + 1);
    }

    void comment(qsizetype from, qsizetype to)
    {
        for (qsizetype j = from; j < to && j < n; ++j) {
            v.kinds[j] = 'm';
            if (s[j] != u'\n') {
                v.code[j] = u' ';
                v.noComments[j] = u' ';
            }
        }
    }
    void string(qsizetype from, qsizetype to)
    {
        to = qMin(to, n);
        if (to <= from)
            return;
        for (qsizetype j = from; j < to; ++j) {
            v.kinds[j] = 's';
            if (s[j] != u'\n')
                v.code[j] = u' ';
        }
    }
    void literal(qsizetype from, qsizetype to)
    {
        to = qMin(to, n);
        v.strings.append({from, s.mid(from, qMax<qsizetype>(0, to - from))});
    }
    qsizetype lineEnd(qsizetype i) const
    {
        const qsizetype e = s.indexOf(u'\n', i);
        return e < 0 ? n : e;
    }
    /// Content of a quoted string from i (first content char) to the closing quote q;
    /// escapes skipped; stops at a newline when !multiLine. Returns the closing offset.
    qsizetype quoted(qsizetype i, QChar q, bool multiLine, bool escapes = true)
    {
        qsizetype j = i;
        while (j < n) {
            const QChar c = s[j];
            if (escapes && c == u'\\' && j + 1 < n) {
                j += 2;
                continue;
            }
            if (c == q || (!multiLine && c == u'\n'))
                break;
            ++j;
        }
        string(i, j);
        literal(i, j);
        return j;
    }

    const QString &s;
    const qsizetype n;
    CodeView &v;
};

void lexPython(Lexer &L)
{
    const QString &s = L.s;
    static const QRegularExpression prefix(QStringLiteral("\\G([rRbBuUfF]{1,2})(['\"])"));
    qsizetype i = 0;
    while (i < L.n) {
        const QChar c = s[i];
        if (c == u'#') {
            const qsizetype e = L.lineEnd(i);
            L.comment(i, e);
            i = e;
            continue;
        }
        QString pre;
        qsizetype q = -1;
        if (c == u'"' || c == u'\'') {
            q = i;
        } else if (isIdent(c)) {
            if (auto m = prefix.match(s, i); m.hasMatch()) {
                pre = m.captured(1).toLower();
                q = m.capturedStart(2);
            } else {
                while (i < L.n && isIdent(s[i]))
                    ++i;
                continue;
            }
        }
        if (q < 0) {
            ++i;
            continue;
        }
        const QChar quote = s[q];
        const bool triple = s.mid(q, 3) == QString(3, quote);
        const bool fstr = pre.contains(u'f');
        qsizetype j = q + (triple ? 3 : 1);
        const qsizetype start = j;
        QList<std::pair<qsizetype, qsizetype>> fields; // f-string {expressions}: code
        while (j < L.n) {
            const QChar ch = s[j];
            if (ch == u'\\' && j + 1 < L.n) {
                j += 2;
                continue;
            }
            if (triple ? s.mid(j, 3) == QString(3, quote) : ch == quote)
                break;
            if (!triple && ch == u'\n')
                break;
            if (fstr && ch == u'{') {
                if (j + 1 < L.n && s[j + 1] == u'{') {
                    j += 2;
                    continue;
                }
                int depth = 1;
                qsizetype k = j + 1;
                while (k < L.n && depth > 0) {
                    if (s[k] == u'{')
                        ++depth;
                    else if (s[k] == u'}')
                        --depth;
                    else if (s[k] == quote || (!triple && s[k] == u'\n'))
                        break;
                    if (depth > 0)
                        ++k;
                }
                fields.append({j + 1, k});
                j = (k < L.n && s[k] == u'}') ? k + 1 : k;
                continue;
            }
            ++j;
        }
        L.string(start, j);
        L.literal(start, j);
        for (const auto &[a, b] : fields)
            for (qsizetype k = a; k < b; ++k) {
                L.v.kinds[k] = 'c';
                L.v.code[k] = s[k];
            }
        i = j + (j < L.n ? (triple ? 3 : 1) : 0);
    }
}

enum class CFamily
{
    JavaScript,
    Java,
    Cpp,
    Go
};

void lexCFamily(Lexer &L, CFamily lang)
{
    const QString &s = L.s;
    static const QRegularExpression cppRaw(
        QStringLiteral("\\G(?:u8|u|U|L)?R\"([^()\\\\ \\t\\n]{0,16})\\("));
    QChar lastSignificant = u';'; // for telling a JavaScript regex literal from division
    qsizetype i = 0;
    while (i < L.n) {
        const QChar c = s[i];
        const QChar next = i + 1 < L.n ? s[i + 1] : QChar();
        if (c == u'/' && next == u'/') {
            const qsizetype e = L.lineEnd(i);
            L.comment(i, e);
            i = e;
            continue;
        }
        if (c == u'/' && next == u'*') {
            qsizetype e = s.indexOf(QStringLiteral("*/"), i + 2);
            e = e < 0 ? L.n : e + 2;
            L.comment(i, e);
            i = e;
            continue;
        }
        if (lang == CFamily::Cpp && (c == u'R' || c == u'u' || c == u'U' || c == u'L') &&
            (i == 0 || !isIdent(s[i - 1]))) {
            if (auto m = cppRaw.match(s, i); m.hasMatch()) {
                const QString close = u')' + m.captured(1) + u'"';
                const qsizetype start = m.capturedEnd(0);
                qsizetype e = s.indexOf(close, start);
                if (e < 0)
                    e = L.n;
                L.string(start, e);
                L.literal(start, e);
                i = e + close.size();
                lastSignificant = u'"';
                continue;
            }
        }
        if (c == u'"' && lang == CFamily::Java && s.mid(i, 3) == QStringLiteral("\"\"\"")) {
            const qsizetype start = i + 3;
            qsizetype e = s.indexOf(QStringLiteral("\"\"\""), start);
            if (e < 0)
                e = L.n;
            L.string(start, e);
            L.literal(start, e);
            i = e + 3;
            lastSignificant = u'"';
            continue;
        }
        if (c == u'"' || c == u'\'') {
            const qsizetype e = L.quoted(i + 1, c, false);
            i = e + 1;
            lastSignificant = u'"';
            continue;
        }
        if (c == u'`' && lang == CFamily::Go) {
            const qsizetype e = L.quoted(i + 1, c, true, false);
            i = e + 1;
            lastSignificant = u'"';
            continue;
        }
        if (c == u'`' && lang == CFamily::JavaScript) {
            // Template literal: ${...} fields are code.
            qsizetype j = i + 1;
            qsizetype segment = j;
            while (j < L.n && s[j] != u'`') {
                if (s[j] == u'\\' && j + 1 < L.n) {
                    j += 2;
                    continue;
                }
                if (s[j] == u'$' && j + 1 < L.n && s[j + 1] == u'{') {
                    L.string(segment, j);
                    L.literal(segment, j);
                    int depth = 1;
                    qsizetype k = j + 2;
                    while (k < L.n && depth > 0) {
                        if (s[k] == u'{')
                            ++depth;
                        else if (s[k] == u'}')
                            --depth;
                        if (depth > 0)
                            ++k;
                    }
                    j = k + 1;
                    segment = j;
                    continue;
                }
                ++j;
            }
            L.string(segment, j);
            L.literal(segment, j);
            i = j + 1;
            lastSignificant = u'"';
            continue;
        }
        if (c == u'/' && lang == CFamily::JavaScript &&
            QStringLiteral("(,=:[!&|?{};+-*%<>~^").contains(lastSignificant)) {
            // A regular expression literal: its text is data, like a string's.
            qsizetype j = i + 1;
            bool inClass = false;
            while (j < L.n && s[j] != u'\n') {
                if (s[j] == u'\\') {
                    j += 2;
                    continue;
                }
                if (s[j] == u'[')
                    inClass = true;
                else if (s[j] == u']')
                    inClass = false;
                else if (s[j] == u'/' && !inClass)
                    break;
                ++j;
            }
            if (j < L.n && s[j] == u'/') {
                L.string(i + 1, j);
                L.literal(i + 1, j);
                i = j + 1;
                lastSignificant = u'"';
                continue;
            }
        }
        if (c.isDigit() && (i == 0 || !isIdent(s[i - 1]))) {
            // Numbers, C++14 digit separators (1'000'000) included.
            while (i < L.n && (isIdent(s[i]) || s[i] == u'.' ||
                               (lang == CFamily::Cpp && s[i] == u'\'' && i + 1 < L.n &&
                                s[i + 1].isLetterOrNumber())))
                ++i;
            lastSignificant = u'0';
            continue;
        }
        if (isIdent(c)) {
            const qsizetype start = i;
            while (i < L.n && isIdent(s[i]))
                ++i;
            const QStringView word = QStringView(s).mid(start, i - start);
            // After these keywords an expression starts: a slash begins a regex.
            lastSignificant = (word == u"return" || word == u"typeof" || word == u"case" ||
                               word == u"in" || word == u"of" || word == u"void")
                                  ? u'('
                                  : u'a';
            continue;
        }
        if (!c.isSpace())
            lastSignificant = c;
        ++i;
    }
}

void lexR(Lexer &L)
{
    const QString &s = L.s;
    static const QRegularExpression raw(QStringLiteral("\\G[rR](['\"])(-*)([(\\[{])"));
    qsizetype i = 0;
    while (i < L.n) {
        const QChar c = s[i];
        if (c == u'#') {
            const qsizetype e = L.lineEnd(i);
            L.comment(i, e);
            i = e;
            continue;
        }
        if ((c == u'r' || c == u'R') && (i == 0 || !(isIdent(s[i - 1]) || s[i - 1] == u'.'))) {
            if (auto m = raw.match(s, i); m.hasMatch()) {
                const QChar open = m.captured(3)[0];
                const QChar closeBracket = open == u'(' ? u')' : open == u'[' ? u']' : u'}';
                const QString close = closeBracket + m.captured(2) + m.captured(1);
                const qsizetype start = m.capturedEnd(0);
                qsizetype e = s.indexOf(close, start);
                if (e < 0)
                    e = L.n;
                L.string(start, e);
                L.literal(start, e);
                i = e + close.size();
                continue;
            }
        }
        if (c == u'"' || c == u'\'') {
            i = L.quoted(i + 1, c, true) + 1;
            continue;
        }
        if (c == u'`') { // a quoted name, not a string
            const qsizetype e = s.indexOf(u'`', i + 1);
            i = e < 0 ? L.n : e + 1;
            continue;
        }
        if (isIdent(c) || c == u'.') {
            while (i < L.n && (isIdent(s[i]) || s[i] == u'.'))
                ++i;
            continue;
        }
        ++i;
    }
}

} // namespace

CodeView lexCode(const QString &language, const QString &code)
{
    CodeView view;
    Lexer lexer(code, view);
    if (language == QLatin1String("python"))
        lexPython(lexer);
    else if (language == QLatin1String("r"))
        lexR(lexer);
    else if (language == QLatin1String("java"))
        lexCFamily(lexer, CFamily::Java);
    else if (language == QLatin1String("cpp"))
        lexCFamily(lexer, CFamily::Cpp);
    else if (language == QLatin1String("go"))
        lexCFamily(lexer, CFamily::Go);
    else
        lexCFamily(lexer, CFamily::JavaScript);
    return view;
}

QList<ImportRef> importsOf(const QString &language, const CodeView &v)
{
    QList<ImportRef> out;
    auto add = [&](const QString &module, qsizetype offset) {
        QString m = module.trimmed();
        if (m.startsWith(QLatin1String("node:")))
            m = m.mid(5);
        if (!m.isEmpty())
            out.append({m, v.lineOf(offset)});
    };
    // Each match must start in code (not in a comment or a string).
    auto each = [&](const QString &text, const QRegularExpression &re, int group) {
        auto it = re.globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            qsizetype start = m.capturedStart(0);
            while (start < text.size() && text[start].isSpace())
                ++start;
            if (v.isCode(start))
                add(m.captured(group), m.capturedStart(group));
        }
    };
    using RE = QRegularExpression;
    constexpr auto ML = RE::MultilineOption;
    if (language == QLatin1String("python")) {
        static const RE imp(QStringLiteral("(?:^|;)[ \\t]*import[ \\t]+([^;\\n]+)"), ML);
        static const RE from(QStringLiteral("(?:^|;)[ \\t]*from[ \\t]+([\\w.]+)[ \\t]+import\\b"),
                             ML);
        static const RE dynamic(
            QStringLiteral("\\b(?:__import__|import_module)\\s*\\(\\s*['\"]([\\w.]+)['\"]"));
        auto it = imp.globalMatch(v.code);
        while (it.hasNext()) {
            const auto m = it.next();
            for (const QString &part : m.captured(1).split(u',')) {
                const QString name = part.trimmed().section(u' ', 0, 0).remove(u'(');
                if (!name.isEmpty())
                    add(name, m.capturedStart(1));
            }
        }
        it = from.globalMatch(v.code);
        while (it.hasNext()) {
            const auto m = it.next();
            if (!m.captured(1).startsWith(u'.'))
                add(m.captured(1), m.capturedStart(1));
        }
        each(v.noComments, dynamic, 1);
    } else if (language == QLatin1String("javascript")) {
        static const RE req(QStringLiteral("\\brequire\\s*\\(\\s*(['\"`])([^'\"`]+)\\1\\s*\\)"));
        static const RE dyn(QStringLiteral("\\bimport\\s*\\(\\s*(['\"`])([^'\"`]+)\\1"));
        static const RE from(
            QStringLiteral("\\b(?:import|export)\\s+[^;'\"`]*?\\bfrom\\s*(['\"])([^'\"]+)\\1"));
        static const RE bare(QStringLiteral("\\bimport\\s*(['\"])([^'\"]+)\\1"));
        each(v.noComments, req, 2);
        each(v.noComments, dyn, 2);
        each(v.noComments, from, 2);
        each(v.noComments, bare, 2);
    } else if (language == QLatin1String("java")) {
        static const RE imp(
            QStringLiteral("^[ \\t]*import[ \\t]+(?:static[ \\t]+)?([\\w.]+(?:\\.\\*)?)[ \\t]*;"),
            ML);
        auto it = imp.globalMatch(v.code);
        while (it.hasNext()) {
            const auto m = it.next();
            add(m.captured(1), m.capturedStart(1));
        }
        // Fully qualified uses without an import (java.net.Socket s = ...).
        static const RE qualified(QStringLiteral("\\b((?:java|javax|sun|jdk)\\.[a-z][\\w.]*)"));
        it = qualified.globalMatch(v.code);
        while (it.hasNext()) {
            const auto m = it.next();
            add(m.captured(1), m.capturedStart(1));
        }
    } else if (language == QLatin1String("go")) {
        static const RE single(QStringLiteral("\\bimport\\s+(?:[\\w.]+\\s+)?\"([^\"]+)\""));
        static const RE block(QStringLiteral("\\bimport\\s*\\(([^)]*)\\)"));
        static const RE path(QStringLiteral("\"([^\"]+)\""));
        each(v.noComments, single, 1);
        auto it = block.globalMatch(v.noComments);
        while (it.hasNext()) {
            const auto m = it.next();
            if (!v.isCode(m.capturedStart(0)))
                continue;
            auto p = path.globalMatch(m.captured(1));
            while (p.hasNext()) {
                const auto pm = p.next();
                add(pm.captured(1), m.capturedStart(1) + pm.capturedStart(1));
            }
        }
    } else if (language == QLatin1String("cpp")) {
        static const RE inc(QStringLiteral("^[ \\t]*#[ \\t]*include[ \\t]*[<\"]([^>\"\\n]+)[>\"]"),
                            ML);
        each(v.noComments, inc, 1);
    } else if (language == QLatin1String("r")) {
        static const RE lib(QStringLiteral(
            "\\b(?:library|require|requireNamespace|loadNamespace)\\s*\\(\\s*(?:package\\s*=\\s*)?"
            "[\"']?([A-Za-z][\\w.]*)"));
        static const RE ns(QStringLiteral("(?<![\\w.])([A-Za-z][\\w.]*):::?"));
        each(v.noComments, lib, 1);
        each(v.code, ns, 1);
    }
    std::sort(out.begin(), out.end(),
              [](const ImportRef &a, const ImportRef &b) { return a.line < b.line; });
    return out;
}

} // namespace sandbox
