// SPDX-License-Identifier: GPL-3.0-or-later
#include "language.h"

#include <QRegularExpression>

namespace sandbox {

namespace {

using Step = LanguageStep;

QList<Step> runOnly(QStringList argv)
{
    return {Step{Step::Phase::Run, std::move(argv)}};
}

LanguageDescriptor python()
{
    LanguageDescriptor d;
    d.id = QStringLiteral("python");
    d.minMemoryBytes = 32ll << 20;
    d.displayName = QStringLiteral("Python");
    d.highlightName = QStringLiteral("Python");
    d.imageRecipe = QStringLiteral("python");
    d.sampleCode = QStringLiteral("import sys\n\nprint(\"Hello from\", sys.version.split()[0])\n");
    d.env = {QStringLiteral("PYTHONUNBUFFERED=1"),
             QStringLiteral("PYTHONIOENCODING=utf-8"),
             QStringLiteral("PYTHONPATH=/sandbox/.sandbox/python"),
             QStringLiteral("MPLBACKEND=module://sandbox_mpl"),
             QStringLiteral("MPLCONFIGDIR=/sandbox/.sandbox/cache/matplotlib"),
             QStringLiteral("OPENBLAS_NUM_THREADS=1")};
    d.fileNameFor = [](const QString &) -> QString { return QStringLiteral("main.py"); };
    d.stepsFor = [](const QString &file, const QString &) {
        return runOnly({QStringLiteral("python3"), file});
    };
    return d;
}

bool looksLikeEsModule(const QString &code)
{
    static const QRegularExpression esm(
        QStringLiteral(
            R"(^\s*(import\s+[\w*{"']|import\s*\(|export\s+(default|const|let|function|class|async|\{|\*)))"),
        QRegularExpression::MultilineOption);
    static const QRegularExpression tla(QStringLiteral(R"(^await\s)"),
                                        QRegularExpression::MultilineOption);
    return esm.match(code).hasMatch() || tla.match(code).hasMatch();
}

LanguageDescriptor javascript()
{
    LanguageDescriptor d;
    d.id = QStringLiteral("javascript");
    d.minMemoryBytes = 64ll << 20;
    d.displayName = QStringLiteral("JavaScript");
    d.highlightName = QStringLiteral("JavaScript");
    d.imageRecipe = QStringLiteral("javascript");
    d.sampleCode = QStringLiteral("console.log(`Hello from Node ${process.version}`);\n");
    // ES module syntax in a .js file fails under plain `node file.js`: run it as .mjs.
    d.fileNameFor = [](const QString &code) -> QString {
        return looksLikeEsModule(code) ? QStringLiteral("main.mjs") : QStringLiteral("main.js");
    };
    d.stepsFor = [](const QString &file, const QString &) {
        return runOnly({QStringLiteral("node"), file});
    };
    return d;
}

LanguageDescriptor java()
{
    LanguageDescriptor d;
    d.id = QStringLiteral("java");
    d.minMemoryBytes = 128ll << 20;
    d.displayName = QStringLiteral("Java");
    d.highlightName = QStringLiteral("Java");
    d.imageRecipe = QStringLiteral("java");
    d.sampleCode = QStringLiteral("public class Main {\n    public static void main(String[] args) "
                                  "{\n        System.out.println(\"Hello from Java \" + "
                                  "Runtime.version());\n    }\n}\n");
    // The public class decides the file name.
    d.fileNameFor = [](const QString &code) -> QString {
        static const QRegularExpression pub(QStringLiteral(
            R"(public\s+(?:final\s+|abstract\s+)*(?:class|record|interface|enum)\s+(\w+))"));
        const auto m = pub.match(code);
        return QString((m.hasMatch() ? m.captured(1) : QStringLiteral("Main")) +
                       QStringLiteral(".java"));
    };
    d.stepsFor = [](const QString &file, const QString &) {
        return runOnly({QStringLiteral("java"), file});
    };
    return d;
}

LanguageDescriptor cpp()
{
    LanguageDescriptor d;
    d.id = QStringLiteral("cpp");
    d.minMemoryBytes = 128ll << 20;
    d.displayName = QStringLiteral("C++");
    d.highlightName = QStringLiteral("C++");
    d.imageRecipe = QStringLiteral("cpp");
    d.sampleCode = QStringLiteral("#include <iostream>\n\nint main()\n{\n    std::cout << \"Hello "
                                  "from C++\" << __cplusplus << '\\n';\n}\n");
    d.fileNameFor = [](const QString &) -> QString { return QStringLiteral("main.cpp"); };
    d.standards = {QStringLiteral("c++17"), QStringLiteral("c++20"), QStringLiteral("c++23")};
    d.defaultStandard = QStringLiteral("c++20");
    d.stepsFor = [](const QString &file, const QString &standard) {
        const QString level = standard.isEmpty() ? QStringLiteral("c++20") : standard;
        return QList<Step>{
            {Step::Phase::Compile,
             // LC_ALL=C: ASCII quotes in diagnostics ("expected ';'"), which people and
             // tools search for; the program itself still runs with UTF-8.
             {QStringLiteral("env"), QStringLiteral("LC_ALL=C"), QStringLiteral("g++"),
              QString(QStringLiteral("-std=") + level), QStringLiteral("-O2"), QStringLiteral("-o"),
              QStringLiteral("/sandbox/.sandbox/main"), file}},
            {Step::Phase::Run, {QStringLiteral("/sandbox/.sandbox/main")}}};
    };
    return d;
}

LanguageDescriptor go()
{
    LanguageDescriptor d;
    d.id = QStringLiteral("go");
    d.minMemoryBytes = 192ll << 20;
    d.displayName = QStringLiteral("Go");
    d.highlightName = QStringLiteral("Go");
    d.imageRecipe = QStringLiteral("go");
    d.sampleCode = QStringLiteral("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println("
                                  "\"Hello from Go\")\n}\n");
    // The image sets GOCACHEPROG (resources/images/go.json): its cache program answers from
    // the standard library precompiled into the image (read-only) and keeps what this run
    // compiles under GOCACHE, in the work directory. Custom images without it use GOCACHE
    // alone, as before.
    d.env = {QStringLiteral("GOCACHE=/sandbox/.sandbox/cache/go-build"),
             QStringLiteral("GOPATH=/sandbox/.sandbox/go"), QStringLiteral("GOFLAGS=-mod=mod"),
             QStringLiteral("GOTOOLCHAIN=local"), QStringLiteral("GOTMPDIR=/sandbox/.sandbox")};
    d.fileNameFor = [](const QString &) -> QString { return QStringLiteral("main.go"); };
    d.stepsFor = [](const QString &file, const QString &) {
        return QList<Step>{{Step::Phase::Compile,
                            {QStringLiteral("go"), QStringLiteral("build"), QStringLiteral("-o"),
                             QStringLiteral("/sandbox/.sandbox/main"), file}},
                           {Step::Phase::Run, {QStringLiteral("/sandbox/.sandbox/main")}}};
    };
    return d;
}

LanguageDescriptor r()
{
    LanguageDescriptor d;
    d.id = QStringLiteral("r");
    d.minMemoryBytes = 64ll << 20;
    d.displayName = QStringLiteral("R");
    d.highlightName = QStringLiteral("R Script");
    d.imageRecipe = QStringLiteral("r");
    d.sampleCode = QStringLiteral("cat(\"Hello from\", R.version.string, \"\\n\")\n");
    d.env = {QStringLiteral("R_PROFILE_USER=/sandbox/.sandbox/r/Rprofile")};
    d.fileNameFor = [](const QString &) -> QString { return QStringLiteral("main.R"); };
    d.stepsFor = [](const QString &file, const QString &) {
        return runOnly({QStringLiteral("Rscript"), file});
    };
    return d;
}

} // namespace

const LanguageRegistry &LanguageRegistry::instance()
{
    static const LanguageRegistry registry;
    return registry;
}

LanguageRegistry::LanguageRegistry()
    : m_languages{python(), javascript(), java(), cpp(), go(), r()}
{}

const LanguageDescriptor *LanguageRegistry::find(const QString &idOrAlias) const
{
    static const QList<std::pair<QString, QString>> aliases = {
        {QStringLiteral("py"), QStringLiteral("python")},
        {QStringLiteral("python3"), QStringLiteral("python")},
        {QStringLiteral("js"), QStringLiteral("javascript")},
        {QStringLiteral("node"), QStringLiteral("javascript")},
        {QStringLiteral("nodejs"), QStringLiteral("javascript")},
        {QStringLiteral("c++"), QStringLiteral("cpp")},
        {QStringLiteral("cxx"), QStringLiteral("cpp")},
        {QStringLiteral("golang"), QStringLiteral("go")},
        {QStringLiteral("rscript"), QStringLiteral("r")},
    };
    QString id = idOrAlias.trimmed().toLower();
    for (const auto &[alias, target] : aliases)
        if (id == alias)
            id = target;
    for (const auto &d : m_languages)
        if (d.id == id)
            return &d;
    return nullptr;
}

QStringList LanguageRegistry::ids() const
{
    QStringList out;
    for (const auto &d : m_languages)
        out << d.id;
    return out;
}

} // namespace sandbox
