// SPDX-License-Identifier: GPL-3.0-or-later
#include "dependencies.h"

#include "session/engine.h"
#include "session/sandboxsetup.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QHostInfo>
#include <QLoggingCategory>
#include <QMutex>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QThread>
#include <csignal>
#include <memory>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

Q_LOGGING_CATEGORY(lcDeps, "sandbox.dependencies", QtInfoMsg)

namespace sandbox {

namespace {

QSet<QString> words(const char *text)
{
    QSet<QString> out;
    for (const QString &w : QString::fromLatin1(text).split(u' ', Qt::SkipEmptyParts))
        out.insert(w);
    return out;
}

QStringList sortedUnique(QStringList list)
{
    list.removeDuplicates();
    list.sort();
    return list;
}

// ---- Python -------------------------------------------------------------------------------

/// sys.stdlib_module_names of Python 3.13 (public names; "_x" are private and skipped).
const QSet<QString> &pythonStdlib()
{
    static const QSet<QString> names = words(
        "abc antigravity argparse array ast asyncio atexit base64 bdb binascii bisect builtins "
        "bz2 cProfile calendar cmath cmd code codecs codeop collections colorsys compileall "
        "concurrent configparser contextlib contextvars copy copyreg csv ctypes curses "
        "dataclasses datetime dbm decimal difflib dis doctest email encodings ensurepip enum "
        "errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc "
        "genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html http "
        "idlelib imaplib importlib inspect io ipaddress itertools json keyword linecache locale "
        "logging lzma mailbox marshal math mimetypes mmap modulefinder msvcrt multiprocessing "
        "netrc nt ntpath nturl2path numbers opcode operator optparse os pathlib pdb pickle "
        "pickletools pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty "
        "pwd py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib "
        "resource rlcompleter runpy sched secrets select selectors shelve shlex shutil signal "
        "site smtplib socket socketserver sqlite3 sre_compile sre_constants sre_parse ssl stat "
        "statistics string stringprep struct subprocess symtable sys sysconfig syslog tabnanny "
        "tarfile tempfile termios textwrap this threading time timeit tkinter token tokenize "
        "tomllib trace traceback tracemalloc tty turtle turtledemo types typing unicodedata "
        "unittest urllib uuid venv warnings wave weakref webbrowser winreg winsound wsgiref xml "
        "xmlrpc zipapp zipfile zipimport zlib zoneinfo __future__ __main__");
    return names;
}

/// Top-level modules the default python image provides (its dist-packages).
const QSet<QString> &pythonInImage()
{
    static const QSet<QString> names =
        words("PIL attr attrs brotli contourpy cycler dateutil decorator fontTools fs isympy "
              "kiwisolver lxml lz4 matplotlib mpl_toolkits mpmath numpy packaging pandas pip "
              "platformdirs pylab pyparsing pytz scipy seaborn sympy ufoLib2 unicodedata2 wheel "
              "zopfli pkg_resources setuptools sandbox_mpl sandbox_kernel");
    return names;
}

/// Import name -> distribution on PyPI, where they differ.
const QHash<QString, QString> &pythonDistributions()
{
    static const QHash<QString, QString> table = {
        {QStringLiteral("yaml"), QStringLiteral("PyYAML")},
        {QStringLiteral("PIL"), QStringLiteral("pillow")},
        {QStringLiteral("sklearn"), QStringLiteral("scikit-learn")},
        {QStringLiteral("skimage"), QStringLiteral("scikit-image")},
        {QStringLiteral("cv2"), QStringLiteral("opencv-python-headless")},
        {QStringLiteral("bs4"), QStringLiteral("beautifulsoup4")},
        {QStringLiteral("dateutil"), QStringLiteral("python-dateutil")},
        {QStringLiteral("dotenv"), QStringLiteral("python-dotenv")},
        {QStringLiteral("jwt"), QStringLiteral("PyJWT")},
        {QStringLiteral("Crypto"), QStringLiteral("pycryptodome")},
        {QStringLiteral("Cryptodome"), QStringLiteral("pycryptodomex")},
        {QStringLiteral("OpenSSL"), QStringLiteral("pyOpenSSL")},
        {QStringLiteral("serial"), QStringLiteral("pyserial")},
        {QStringLiteral("usb"), QStringLiteral("pyusb")},
        {QStringLiteral("git"), QStringLiteral("GitPython")},
        {QStringLiteral("magic"), QStringLiteral("python-magic")},
        {QStringLiteral("docx"), QStringLiteral("python-docx")},
        {QStringLiteral("pptx"), QStringLiteral("python-pptx")},
        {QStringLiteral("fitz"), QStringLiteral("PyMuPDF")},
        {QStringLiteral("slugify"), QStringLiteral("python-slugify")},
        {QStringLiteral("multipart"), QStringLiteral("python-multipart")},
        {QStringLiteral("jose"), QStringLiteral("python-jose")},
        {QStringLiteral("psycopg2"), QStringLiteral("psycopg2-binary")},
        {QStringLiteral("MySQLdb"), QStringLiteral("mysqlclient")},
        {QStringLiteral("bson"), QStringLiteral("pymongo")},
        {QStringLiteral("zmq"), QStringLiteral("pyzmq")},
        {QStringLiteral("websocket"), QStringLiteral("websocket-client")},
        {QStringLiteral("Bio"), QStringLiteral("biopython")},
        {QStringLiteral("dns"), QStringLiteral("dnspython")},
        {QStringLiteral("nacl"), QStringLiteral("PyNaCl")},
        {QStringLiteral("socks"), QStringLiteral("PySocks")},
        {QStringLiteral("odf"), QStringLiteral("odfpy")},
        {QStringLiteral("ruamel"), QStringLiteral("ruamel.yaml")},
        {QStringLiteral("faiss"), QStringLiteral("faiss-cpu")},
        {QStringLiteral("telegram"), QStringLiteral("python-telegram-bot")},
        {QStringLiteral("discord"), QStringLiteral("discord.py")},
        {QStringLiteral("google.protobuf"), QStringLiteral("protobuf")},
        {QStringLiteral("markdown"), QStringLiteral("Markdown")},
        {QStringLiteral("attr"), QStringLiteral("attrs")},
    };
    return table;
}

void detectPython(const QString &code, QStringList *names)
{
    // "import a.b as c, d" and "from a.b import c" at the start of a (possibly indented)
    // line; relative imports ("from . import x") are the program's own modules.
    static const QRegularExpression importLine(
        QStringLiteral(R"re(^[ \t]*import[ \t]+([\w. \t,]+?)[ \t]*(?:#.*)?$)re"),
        QRegularExpression::MultilineOption);
    static const QRegularExpression fromLine(
        QStringLiteral(R"re(^[ \t]*from[ \t]+([\w][\w.]*)[ \t]+import\b)re"),
        QRegularExpression::MultilineOption);
    for (auto it = importLine.globalMatch(code); it.hasNext();) {
        for (QString part : it.next().captured(1).split(u',')) {
            part =
                part.trimmed().section(QRegularExpression(QStringLiteral(R"re(\s+as\s+)re")), 0, 0);
            if (!part.isEmpty())
                names->append(part.trimmed());
        }
    }
    for (auto it = fromLine.globalMatch(code); it.hasNext();)
        names->append(it.next().captured(1));
}

// ---- JavaScript ---------------------------------------------------------------------------

const QSet<QString> &nodeBuiltins()
{
    static const QSet<QString> names = words(
        "assert async_hooks buffer child_process cluster console constants crypto dgram "
        "diagnostics_channel dns domain events fs http http2 https inspector module net os path "
        "perf_hooks process punycode querystring readline repl stream string_decoder sys timers "
        "tls trace_events tty url util v8 vm wasi worker_threads zlib test sea sqlite");
    return names;
}

/// "lodash/fp" -> "lodash", "@scope/pkg/sub" -> "@scope/pkg"; empty for what is not a
/// registry package (builtins, node:, relative and absolute paths, URLs).
QString npmPackageOf(const QString &specifier)
{
    if (specifier.isEmpty() || specifier.startsWith(u'.') || specifier.startsWith(u'/') ||
        specifier.contains(u':'))
        return {};
    const QStringList parts = specifier.split(u'/');
    QString name = parts.first();
    if (name.startsWith(u'@')) {
        if (parts.size() < 2)
            return {};
        name += u'/' + parts[1];
    }
    if (nodeBuiltins().contains(name))
        return {};
    return name;
}

void detectJavaScript(const QString &code, QStringList *names)
{
    static const QList<QRegularExpression> patterns = {
        QRegularExpression(QStringLiteral(R"re(\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\))re")),
        QRegularExpression(QStringLiteral(R"re(\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\))re")),
        QRegularExpression(
            QStringLiteral(R"re(\b(?:import|export)\s[^'";()]*?\bfrom\s*['"]([^'"\n]+)['"])re")),
        QRegularExpression(QStringLiteral(R"re(^\s*import\s*['"]([^'"\n]+)['"])re"),
                           QRegularExpression::MultilineOption),
    };
    for (const QRegularExpression &re : patterns)
        for (auto it = re.globalMatch(code); it.hasNext();)
            if (const QString pkg = npmPackageOf(it.next().captured(1)); !pkg.isEmpty())
                names->append(pkg);
}

// ---- Go -----------------------------------------------------------------------------------

void detectGo(const QString &code, QStringList *paths)
{
    static const QRegularExpression single(
        QStringLiteral(R"re(^\s*import\s+(?:[\w.]+\s+)?"([^"]+)")re"),
        QRegularExpression::MultilineOption);
    static const QRegularExpression block(QStringLiteral(R"re(^\s*import\s*\(([^)]*)\))re"),
                                          QRegularExpression::MultilineOption);
    static const QRegularExpression spec(QStringLiteral(R"re("([^"]+)")re"));
    QStringList all;
    for (auto it = single.globalMatch(code); it.hasNext();)
        all.append(it.next().captured(1));
    for (auto it = block.globalMatch(code); it.hasNext();) {
        const QString body = it.next().captured(1);
        // One spec per line, or several on one line separated by ';' (gofmt would split
        // them; LLM code does not always go through gofmt).
        for (const QString &line : body.split(u'\n'))
            for (auto m = spec.globalMatch(line.section(QStringLiteral("//"), 0, 0)); m.hasNext();)
                all.append(m.next().captured(1));
    }
    // The standard library's paths have no dot in their first element.
    for (const QString &p : all)
        if (p.section(u'/', 0, 0).contains(u'.'))
            paths->append(p);
}

// ---- R ------------------------------------------------------------------------------------

const QSet<QString> &rProvided()
{
    // Base packages, and what the default r image has (r-cran-ggplot2, dplyr, tidyr, readr,
    // jsonlite and their dependencies). Recommended packages the image lacks (survival,
    // rpart, ...) are installed like any other.
    static const QSet<QString> names = words(
        "base compiler datasets graphics grDevices grid methods parallel splines stats stats4 "
        "tcltk tools utils bit bit64 cli clipr colorspace cpp11 crayon dplyr fansi farver "
        "generics ggplot2 glue gtable hms isoband jsonlite labeling lattice lifecycle littler "
        "magrittr MASS Matrix mgcv munsell nlme pillar pkgconfig pkgKitten prettyunits progress "
        "purrr R6 RColorBrewer Rcpp readr rlang scales stringi stringr tibble tidyr tidyselect "
        "tzdb utf8 vctrs viridisLite vroom withr");
    return names;
}

void detectR(const QString &code, QStringList *names)
{
    static const QList<QRegularExpression> patterns = {
        QRegularExpression(QStringLiteral(
            R"re(\b(?:library|require|requireNamespace|loadNamespace)\s*\(\s*["']?([A-Za-z][A-Za-z0-9.]*[A-Za-z0-9])["']?\s*[,)])re")),
        QRegularExpression(QStringLiteral(
            R"re((?:^|[^\w.$@])([A-Za-z][A-Za-z0-9.]*[A-Za-z0-9]):::?[A-Za-z.`])re")),
    };
    for (QString line : code.split(u'\n')) {
        line = line.section(u'#', 0, 0); // comments (a '#' inside a string is rare here)
        // library(pkg, character.only = TRUE) names a variable, not a package.
        const bool variable = line.contains(QLatin1String("character.only"));
        for (const QRegularExpression &re : patterns) {
            if (variable && &re == &patterns.first())
                continue;
            for (auto it = re.globalMatch(line); it.hasNext();)
                names->append(it.next().captured(1));
        }
    }
}

// ---- Java ---------------------------------------------------------------------------------

/// Package prefix -> Maven coordinates, longest prefixes first.
const QList<std::pair<QString, QString>> &javaArtifacts()
{
    static const QList<std::pair<QString, QString>> table = [] {
        QList<std::pair<QString, QString>> t = {
            {QStringLiteral("com.google.gson"), QStringLiteral("com.google.code.gson:gson:2.10.1")},
            {QStringLiteral("org.apache.commons.lang3"),
             QStringLiteral("org.apache.commons:commons-lang3:3.14.0")},
            {QStringLiteral("org.apache.commons.text"),
             QStringLiteral("org.apache.commons:commons-text:1.12.0")},
            {QStringLiteral("org.apache.commons.csv"),
             QStringLiteral("org.apache.commons:commons-csv:1.11.0")},
            {QStringLiteral("org.apache.commons.math3"),
             QStringLiteral("org.apache.commons:commons-math3:3.6.1")},
            {QStringLiteral("org.apache.commons.collections4"),
             QStringLiteral("org.apache.commons:commons-collections4:4.4")},
            {QStringLiteral("org.apache.commons.io"),
             QStringLiteral("commons-io:commons-io:2.16.1")},
            {QStringLiteral("com.fasterxml.jackson.databind"),
             QStringLiteral("com.fasterxml.jackson.core:jackson-databind:2.17.0")},
            {QStringLiteral("com.fasterxml.jackson.core"),
             QStringLiteral("com.fasterxml.jackson.core:jackson-core:2.17.0")},
            {QStringLiteral("com.fasterxml.jackson.annotation"),
             QStringLiteral("com.fasterxml.jackson.core:jackson-annotations:2.17.0")},
            {QStringLiteral("com.google.common"),
             QStringLiteral("com.google.guava:guava:33.2.0-jre")},
            {QStringLiteral("org.json"), QStringLiteral("org.json:json:20240303")},
            {QStringLiteral("org.jsoup"), QStringLiteral("org.jsoup:jsoup:1.17.2")},
            {QStringLiteral("org.slf4j"), QStringLiteral("org.slf4j:slf4j-api:2.0.13")},
            {QStringLiteral("com.opencsv"), QStringLiteral("com.opencsv:opencsv:5.9")},
            {QStringLiteral("org.yaml.snakeyaml"), QStringLiteral("org.yaml:snakeyaml:2.2")},
            {QStringLiteral("okhttp3"), QStringLiteral("com.squareup.okhttp3:okhttp:4.12.0")},
            {QStringLiteral("org.joda.time"), QStringLiteral("joda-time:joda-time:2.12.7")},
            {QStringLiteral("tech.tablesaw"), QStringLiteral("tech.tablesaw:tablesaw-core:0.43.1")},
            {QStringLiteral("org.apache.poi"), QStringLiteral("org.apache.poi:poi-ooxml:5.2.5")},
        };
        std::sort(t.begin(), t.end(),
                  [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
        return t;
    }();
    return table;
}

void detectJava(const QString &code, QStringList *coordinates, QStringList *detected,
                QStringList *unknown)
{
    static const QRegularExpression importLine(
        QStringLiteral(R"re(^\s*import\s+(?:static\s+)?([\w.]+?)(?:\.\*)?\s*;)re"),
        QRegularExpression::MultilineOption);
    static const QStringList jdk = {QStringLiteral("java."),    QStringLiteral("javax."),
                                    QStringLiteral("jdk."),     QStringLiteral("sun."),
                                    QStringLiteral("com.sun."), QStringLiteral("org.w3c."),
                                    QStringLiteral("org.xml."), QStringLiteral("org.ietf.jgss.")};
    for (auto it = importLine.globalMatch(code); it.hasNext();) {
        const QString name = it.next().captured(1);
        if (std::any_of(jdk.begin(), jdk.end(),
                        [&](const QString &p) { return name.startsWith(p); }))
            continue;
        bool known = false;
        for (const auto &[prefix, coords] : javaArtifacts()) {
            if (name == prefix || name.startsWith(prefix + u'.')) {
                coordinates->append(coords);
                detected->append(prefix);
                known = true;
                break;
            }
        }
        if (!known)
            unknown->append(name);
    }
}

// ---- C and C++ ----------------------------------------------------------------------------

/// Header (or header folder with a trailing '/') -> Debian development package.
const QList<std::pair<QString, QString>> &cppPackages()
{
    static const QList<std::pair<QString, QString>> table = {
        {QStringLiteral("boost/"), QStringLiteral("libboost-dev")},
        {QStringLiteral("fmt/"), QStringLiteral("libfmt-dev")},
        {QStringLiteral("spdlog/"), QStringLiteral("libspdlog-dev")},
        {QStringLiteral("nlohmann/"), QStringLiteral("nlohmann-json3-dev")},
        {QStringLiteral("Eigen/"), QStringLiteral("libeigen3-dev")},
        {QStringLiteral("eigen3/"), QStringLiteral("libeigen3-dev")},
        {QStringLiteral("gmp.h"), QStringLiteral("libgmp-dev")},
        {QStringLiteral("gmpxx.h"), QStringLiteral("libgmp-dev")},
        {QStringLiteral("curl/"), QStringLiteral("libcurl4-openssl-dev")},
        {QStringLiteral("openssl/"), QStringLiteral("libssl-dev")},
        {QStringLiteral("sqlite3.h"), QStringLiteral("libsqlite3-dev")},
        {QStringLiteral("zlib.h"), QStringLiteral("zlib1g-dev")},
        {QStringLiteral("png.h"), QStringLiteral("libpng-dev")},
        {QStringLiteral("gsl/"), QStringLiteral("libgsl-dev")},
        {QStringLiteral("armadillo"), QStringLiteral("libarmadillo-dev")},
        {QStringLiteral("yaml-cpp/"), QStringLiteral("libyaml-cpp-dev")},
        {QStringLiteral("gtest/"), QStringLiteral("libgtest-dev")},
        {QStringLiteral("catch2/"), QStringLiteral("catch2")},
        {QStringLiteral("tbb/"), QStringLiteral("libtbb-dev")},
        {QStringLiteral("oneapi/tbb"), QStringLiteral("libtbb-dev")},
        {QStringLiteral("range/v3/"), QStringLiteral("librange-v3-dev")},
        {QStringLiteral("json/json.h"), QStringLiteral("libjsoncpp-dev")},
        {QStringLiteral("CLI/"), QStringLiteral("libcli11-dev")},
    };
    return table;
}

void detectCpp(const QString &code, QStringList *packages, QStringList *detected)
{
    static const QRegularExpression include(
        QStringLiteral(R"re(^\s*#\s*include\s*[<"]([^>"]+)[>"])re"),
        QRegularExpression::MultilineOption);
    for (auto it = include.globalMatch(code); it.hasNext();) {
        const QString header = it.next().captured(1);
        for (const auto &[prefix, pkg] : cppPackages()) {
            const bool match = prefix.endsWith(u'/') ? header.startsWith(prefix) : header == prefix;
            if (match) {
                packages->append(pkg);
                detected->append(header);
                break;
            }
        }
    }
}

// ---- Validation of named libraries --------------------------------------------------------

struct NameRule
{
    QRegularExpression pattern;
    const char *example;
};

const NameRule &nameRuleFor(const QString &installer)
{
    static const QHash<QString, NameRule> rules = {
        {QStringLiteral("pip"),
         {QRegularExpression(QStringLiteral(
              R"re(^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?(\s*(==|>=|<=|~=|!=|>|<|===)\s*[A-Za-z0-9.*+!_-]+(\s*,\s*(==|>=|<=|~=|!=|>|<)\s*[A-Za-z0-9.*+!_-]+)*)?$)re")),
          "tabulate, humanize==4.9.0, requests[socks]"}},
        {QStringLiteral("npm"),
         {QRegularExpression(QStringLiteral(
              R"re(^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*(@[A-Za-z0-9.^~<>=*|+ _-]+)?$)re")),
          "lodash, @scope/name, lodash@4.17.21"}},
        {QStringLiteral("maven"),
         {QRegularExpression(
              QStringLiteral(R"re(^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+:[A-Za-z0-9_.+-]+$)re")),
          "com.google.code.gson:gson:2.10.1"}},
        {QStringLiteral("go"),
         {QRegularExpression(QStringLiteral(
              R"re(^[A-Za-z0-9][A-Za-z0-9._~-]*(/[A-Za-z0-9._~-]+)*(@[A-Za-z0-9._+-]+)?$)re")),
          "github.com/google/uuid, github.com/google/uuid@v1.6.0"}},
        {QStringLiteral("cran"),
         {QRegularExpression(QStringLiteral(R"re(^[A-Za-z][A-Za-z0-9.]*[A-Za-z0-9]$)re")),
          "data.table, survival"}},
        {QStringLiteral("apt"),
         {QRegularExpression(QStringLiteral(R"re(^[a-z0-9][a-z0-9+.-]+$)re")), "libfmt-dev"}},
    };
    return rules.find(installer).value();
}

QString installerFor(const QString &language)
{
    static const QHash<QString, QString> table = {
        {QStringLiteral("python"), QStringLiteral("pip")},
        {QStringLiteral("javascript"), QStringLiteral("npm")},
        {QStringLiteral("java"), QStringLiteral("maven")},
        {QStringLiteral("go"), QStringLiteral("go")},
        {QStringLiteral("r"), QStringLiteral("cran")},
        {QStringLiteral("cpp"), QStringLiteral("apt")},
    };
    return table.value(language);
}

QString aptUnsupported(const QStringList &packages)
{
    return QStringLiteral("C/C++ libraries come from Debian packages (%1), and installing "
                          "packages into a running sandbox, which has no root and no "
                          "capabilities, is not supported: use an image that has them "
                          "(--image).")
        .arg(packages.join(QStringLiteral(", ")));
}

} // namespace

Result<DependencyPlan> planDependencies(const LanguageDescriptor &lang, const QString &code,
                                        const QStringList &libraries,
                                        const QStringList &localModules)
{
    DependencyPlan plan;
    plan.language = lang.id;
    const QString installer = installerFor(lang.id);
    if (installer.isEmpty()) {
        if (!libraries.isEmpty())
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("%1 has no package manager here").arg(lang.displayName));
        return plan;
    }

    QStringList named;
    for (const QString &lib : libraries)
        if (!lib.trimmed().isEmpty())
            named.append(lib.trimmed());

    if (!named.isEmpty()) {
        const NameRule &rule = nameRuleFor(installer);
        for (const QString &lib : named)
            if (!rule.pattern.match(lib).hasMatch())
                return fail(ErrorCode::InvalidArgument,
                            QStringLiteral("'%1' is not a %2 package name (for example: %3)")
                                .arg(lib, lang.displayName, QLatin1String(rule.example)));
        plan.installer = installer;
        plan.packages = sortedUnique(named);
        if (installer == QLatin1String("go")) {
            // Modules are resolved from the program's imports; the named ones are pins.
            QStringList paths;
            detectGo(code, &paths);
            plan.packages = sortedUnique(plan.packages + paths);
        }
        if (installer == QLatin1String("apt"))
            plan.unsupported = aptUnsupported(plan.packages);
        return plan;
    }

    // Nothing named: read the imports.
    plan.fromCode = true;
    QStringList found;
    if (lang.id == QLatin1String("python")) {
        QStringList modules;
        detectPython(code, &modules);
        const auto &table = pythonDistributions();
        for (const QString &module : modules) {
            const QString top = module.section(u'.', 0, 0);
            if (top.isEmpty() || pythonStdlib().contains(top) || pythonInImage().contains(top) ||
                top.startsWith(u'_') || localModules.contains(top))
                continue;
            const QString two = module.section(u'.', 0, 1);
            QString dist = table.value(two);
            if (dist.isEmpty())
                dist = table.value(top, top);
            plan.detected.append(top);
            found.append(dist);
        }
    } else if (lang.id == QLatin1String("javascript")) {
        QStringList pkgs;
        detectJavaScript(code, &pkgs);
        for (const QString &p : pkgs)
            if (!localModules.contains(p)) {
                plan.detected.append(p);
                found.append(p);
            }
    } else if (lang.id == QLatin1String("go")) {
        detectGo(code, &found);
        plan.detected = found;
    } else if (lang.id == QLatin1String("r")) {
        QStringList pkgs;
        detectR(code, &pkgs);
        for (const QString &p : pkgs)
            if (!rProvided().contains(p)) {
                plan.detected.append(p);
                found.append(p);
            }
    } else if (lang.id == QLatin1String("java")) {
        QStringList unknown;
        detectJava(code, &found, &plan.detected, &unknown);
        // Imports of the program's own classes have no package: only name what looks like a
        // library (a dotted name outside the JDK).
        unknown.removeDuplicates();
        for (const QString &name : unknown)
            if (name.contains(u'.'))
                plan.notes.append(QStringLiteral("no known Maven artifact for import %1: name "
                                                 "its coordinates (group:artifact:version) "
                                                 "as a library")
                                      .arg(name));
    } else if (lang.id == QLatin1String("cpp")) {
        detectCpp(code, &found, &plan.detected);
        if (!found.isEmpty())
            plan.unsupported = aptUnsupported(sortedUnique(found));
    }
    // What the code names is passed to the package manager as arguments: only what reads
    // as a package name (never an option such as require('--registry=...')).
    const NameRule &rule = nameRuleFor(installer);
    QStringList accepted;
    for (const QString &name : sortedUnique(found)) {
        if (rule.pattern.match(name).hasMatch() && !name.startsWith(u'-'))
            accepted.append(name);
        else
            plan.notes.append(QStringLiteral("'%1' does not look like a %2 package: not installed")
                                  .arg(name, lang.displayName));
    }
    plan.detected = sortedUnique(plan.detected);
    plan.packages = accepted;
    if (!plan.packages.isEmpty())
        plan.installer = installer;
    return plan;
}

QString dependencyVolumeName(const DependencyPlan &plan, const QString &image,
                             const QString &repository)
{
    QStringList parts{plan.language, image, plan.packages.join(u','),
                      QLatin1String(DependencyInstallerVersion)};
    if (plan.installer == QLatin1String("cran"))
        parts.append(repository);
    const QByteArray hash =
        QCryptographicHash::hash(parts.join(u'|').toUtf8(), QCryptographicHash::Sha256).toHex();
    return QStringLiteral("sandbox-studio-deps-%1-%2")
        .arg(plan.language, QString::fromLatin1(hash.left(12)));
}

QString cranRepositoryFor(const RunRequest &request)
{
    if (!request.cranRepo.isEmpty())
        return request.cranRepo;
    const QString env = qEnvironmentVariable("SANDBOX_CRAN_REPO");
    return env.isEmpty() ? QStringLiteral("https://cloud.r-project.org") : env;
}

QByteArray hostCaBundle(QString *path)
{
    QStringList candidates;
    for (const char *var : {"SANDBOX_STUDIO_CA_BUNDLE", "SSL_CERT_FILE"})
        if (const QString v = qEnvironmentVariable(var); !v.isEmpty())
            candidates.append(v);
    candidates.append(QStringLiteral("/etc/ssl/certs/ca-certificates.crt"));
    for (const QString &candidate : candidates) {
        QFile f(candidate);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray data = f.read(16ll << 20);
        if (!data.contains("-----BEGIN CERTIFICATE-----"))
            continue;
        if (path)
            *path = candidate;
        return data;
    }
    return {};
}

void setEnv(QStringList &env, const QString &name, const QString &value)
{
    const QString prefix = name + u'=';
    env.removeIf([&](const QString &e) { return e.startsWith(prefix); });
    env.append(prefix + value);
}

void addCaTrust(SandboxSpec &spec, QList<TarMember> &members, const QByteArray &bundle)
{
    if (bundle.isEmpty())
        return;
    const QString rel = QString::fromLatin1(SandboxCaBundlePath).mid(qstrlen(SandboxWorkDir) + 1);
    members.append({rel, TarMember::Type::File, bundle, 0644, {}});
    const QString path = QLatin1String(SandboxCaBundlePath);
    for (const char *var :
         {"SSL_CERT_FILE", "PIP_CERT", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS",
          "CURL_CA_BUNDLE", "GIT_SSL_CAINFO", "npm_config_cafile"})
        setEnv(spec.env, QLatin1String(var), path);
}

Result<QByteArray> javaTrustStore(const QByteArray &pemBundle)
{
    using X509Stack =
        std::unique_ptr<STACK_OF(X509),
                        decltype([](STACK_OF(X509) * s) { sk_X509_pop_free(s, X509_free); })>;
    X509Stack certs(sk_X509_new_null());
    std::unique_ptr<BIO, decltype(&BIO_free)> in(
        BIO_new_mem_buf(pemBundle.constData(), int(pemBundle.size())), BIO_free);
    if (!certs || !in)
        return fail(ErrorCode::Internal, QStringLiteral("Out of memory building a trust store"));
    while (X509 *cert = PEM_read_bio_X509(in.get(), nullptr, nullptr, nullptr))
        if (!sk_X509_push(certs.get(), cert)) {
            X509_free(cert);
            return fail(ErrorCode::Internal,
                        QStringLiteral("Out of memory building a trust store"));
        }
    ERR_clear_error(); // the end of the bundle reads as "no start line"
    if (sk_X509_num(certs.get()) == 0)
        return fail(
            ErrorCode::InvalidArgument,
            QStringLiteral("The CA bundle holds no certificate a Java trust store can use"));
    // Each certificate bag gets the attribute that makes the JDK load it as a trusted
    // certificate entry (without it the JVM skips certificates that have no key).
    ASN1_OBJECT *anyUsage = OBJ_nid2obj(NID_anyExtendedKeyUsage);
    auto markTrusted = [](PKCS12_SAFEBAG *bag, void *usage) -> int {
        return PKCS12_add1_attr_by_NID(bag, NID_oracle_jdk_trustedkeyusage, V_ASN1_OBJECT,
                                       static_cast<const unsigned char *>(usage), -1);
    };
    std::unique_ptr<PKCS12, decltype(&PKCS12_free)> p12(
        PKCS12_create_ex2("changeit", nullptr, nullptr, nullptr, certs.get(), 0, 0, 0, 0, 0,
                          nullptr, nullptr, markTrusted, anyUsage),
        PKCS12_free);
    std::unique_ptr<BIO, decltype(&BIO_free)> out(BIO_new(BIO_s_mem()), BIO_free);
    if (!p12 || !out || i2d_PKCS12_bio(out.get(), p12.get()) != 1) {
        char why[256] = {};
        ERR_error_string_n(ERR_get_error(), why, sizeof why);
        return fail(
            ErrorCode::Internal,
            QStringLiteral("Could not build a Java trust store: %1").arg(QLatin1String(why)));
    }
    char *data = nullptr;
    const long size = BIO_get_mem_data(out.get(), &data);
    return QByteArray(data, qsizetype(size));
}

QStringList javaTrustOptions()
{
    return {QStringLiteral("-Djavax.net.ssl.trustStore=") +
                QLatin1String(SandboxJavaTrustStorePath),
            QStringLiteral("-Djavax.net.ssl.trustStoreType=PKCS12"),
            QStringLiteral("-Djavax.net.ssl.trustStorePassword=changeit")};
}

// ---- Install phase ------------------------------------------------------------------------

namespace {

/// One lock per volume name: two runs of this process never fill the same volume at once.
std::shared_ptr<QMutex> volumeLock(const QString &name)
{
    static QMutex guard;
    static QHash<QString, std::shared_ptr<QMutex>> locks;
    QMutexLocker lock(&guard);
    auto &m = locks[name];
    if (!m)
        m = std::make_shared<QMutex>();
    return m;
}

QString xmlEscape(const QString &s)
{
    return s.toHtmlEscaped();
}

QByteArray pomFor(const QStringList &coordinates)
{
    QString deps;
    for (const QString &c : coordinates) {
        const QStringList p = c.split(u':');
        deps += QStringLiteral("    <dependency><groupId>%1</groupId><artifactId>%2</artifactId>"
                               "<version>%3</version></dependency>\n")
                    .arg(xmlEscape(p.value(0)), xmlEscape(p.value(1)), xmlEscape(p.value(2)));
    }
    return QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                          "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n"
                          "  <modelVersion>4.0.0</modelVersion>\n"
                          "  <groupId>sandbox</groupId><artifactId>deps</artifactId>"
                          "<version>1</version><packaging>pom</packaging>\n"
                          "  <dependencies>\n%1  </dependencies>\n</project>\n")
        .arg(deps)
        .toUtf8();
}

/// The shell script that installs into /deps, then writes the marker with "name version"
/// lines (also printed as "@@installed ..."). Packages come as "$@", never inside the text.
QString installScript(const QString &installer)
{
    // Written last, atomically: a volume without it is an interrupted install.
    const QString finish =
        QStringLiteral(" > /tmp/installed.txt && cp /tmp/installed.txt /deps/.installed.tmp && "
                       "mv /deps/.installed.tmp %1 && sed 's/^/@@installed /' %1\n")
            .arg(QLatin1String(DependencyMarker));
    if (installer == QLatin1String("pip"))
        return QStringLiteral(
                   "set -e\n"
                   "python3 -m pip install --no-cache-dir --user --break-system-packages "
                   "--no-warn-script-location --disable-pip-version-check --progress-bar off "
                   "\"$@\"\n"
                   "python3 -m pip list --user --format freeze --disable-pip-version-check | "
                   "sed 's/==/ /'") +
               finish;
    if (installer == QLatin1String("npm"))
        return QStringLiteral(
                   "set -e\n"
                   "mkdir -p /deps/node\n"
                   "npm install --prefix /deps/node --no-audit --no-fund --omit=dev "
                   "--no-update-notifier \"$@\"\n"
                   "node -e 'const fs=require(\"fs\"),p=\"/deps/node/node_modules\";"
                   "for(const d of fs.readdirSync(p)){if(d.startsWith(\".\"))continue;"
                   "const ns=d.startsWith(\"@\")?fs.readdirSync(p+\"/\"+d).map(x=>d+\"/\"+x):[d];"
                   "for(const n of ns){try{console.log(n+\" \"+require(p+\"/\"+n+"
                   "\"/package.json\").version)}catch(e){}}}'") +
               finish;
    if (installer == QLatin1String("maven"))
        return QStringLiteral(
                   "set -e\n"
                   "mkdir -p /deps/java/lib\n"
                   "if [ -f \"$SSL_CERT_FILE\" ]; then\n"
                   "  openssl pkcs12 -export -nokeys -in \"$SSL_CERT_FILE\" -out /tmp/trust.p12 "
                   "-passout pass:changeit -jdktrust anyExtendedKeyUsage\n"
                   "  export MAVEN_OPTS=\"-Djavax.net.ssl.trustStore=/tmp/trust.p12 "
                   "-Djavax.net.ssl.trustStorePassword=changeit "
                   "-Djavax.net.ssl.trustStoreType=PKCS12\"\n"
                   "fi\n"
                   "mvn -B -q -f /sandbox/pom.xml -Dmaven.repo.local=/tmp/m2 "
                   "dependency:copy-dependencies -DoutputDirectory=/deps/java/lib\n"
                   "for f in /deps/java/lib/*.jar; do basename \"$f\" .jar; done") +
               finish;
    if (installer == QLatin1String("go"))
        return QStringLiteral("set -e\n"
                              "mkdir -p /deps/go\n"
                              "cd /sandbox\n"
                              "go mod init sandbox\n"
                              "for m in \"$@\"; do case \"$m\" in *@*) go get \"$m\";; esac; done\n"
                              "go mod tidy\n"
                              "go list -m all | tail -n +2 > /tmp/modules.txt\n"
                              "cp go.mod /deps/go/go.mod\n"
                              "if [ -f go.sum ]; then cp go.sum /deps/go/go.sum; else : > "
                              "/deps/go/go.sum; fi\n"
                              "cat /tmp/modules.txt") +
               finish;
    if (installer == QLatin1String("cran"))
        return QStringLiteral(
                   "set -e\n"
                   "mkdir -p /deps/r\n"
                   "Rscript -e 'pkgs <- commandArgs(TRUE); "
                   "install.packages(pkgs, lib = \"/deps/r\", repos = "
                   "Sys.getenv(\"SANDBOX_CRAN_REPO\")); "
                   "ok <- pkgs %in% rownames(installed.packages(lib.loc = \"/deps/r\")); "
                   "if (!all(ok)) { message(\"ERROR: not installed: \", paste(pkgs[!ok], "
                   "collapse = \", \"), \" (not found in \", Sys.getenv(\"SANDBOX_CRAN_REPO\"), "
                   "\"?)\"); quit(status = 1) }' \"$@\"\n"
                   "Rscript -e 'ip <- installed.packages(lib.loc = \"/deps/r\"); "
                   "cat(paste(ip[, \"Package\"], ip[, \"Version\"]), sep = \"\\n\")'") +
               finish;
    return {};
}

QString installerDisplay(const QString &installer)
{
    static const QHash<QString, QString> names = {
        {QStringLiteral("pip"), QStringLiteral("pip")},
        {QStringLiteral("npm"), QStringLiteral("npm")},
        {QStringLiteral("maven"), QStringLiteral("Maven")},
        {QStringLiteral("go"), QStringLiteral("Go modules")},
        {QStringLiteral("cran"), QStringLiteral("install.packages")},
    };
    return names.value(installer, installer);
}

/// The installer's own words for a failure: its error lines (last few), else its last lines.
QString installerMessage(const QString &output)
{
    static const QRegularExpression errorish(
        QStringLiteral(R"re(error|not found|no matching|not available|cannot|unable|404|ERR!)re"),
        QRegularExpression::CaseInsensitiveOption);
    QStringList lines;
    for (const QString &l : output.split(u'\n'))
        if (!l.trimmed().isEmpty() && !l.startsWith(QLatin1String("@@")))
            lines.append(l.trimmed());
    QStringList picked;
    for (const QString &l : lines)
        if (errorish.match(l).hasMatch())
            picked.append(l);
    picked.removeDuplicates();
    if (picked.isEmpty())
        picked = lines;
    return picked.mid(qMax<qsizetype>(0, picked.size() - 4)).join(QStringLiteral(" | "));
}

} // namespace

namespace {

/// Whether the process named by an owner label ("host/pid") may still run.
bool ownerMayBeAlive(const QString &owner)
{
    const QString host = owner.section(u'/', 0, -2);
    const qint64 pid = owner.section(u'/', -1).toLongLong();
    if (host != QHostInfo::localHostName() || pid <= 0)
        return true; // another machine's: cannot tell
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

} // namespace

Result<bool> waitForInstalls(Runtime &runtime, const QString &volume,
                             const std::function<void(const QString &)> &status,
                             const CancelToken &cancel)
{
    const Deadline deadline = Deadline::in(std::chrono::minutes(20));
    bool waited = false;
    for (;;) {
        auto installs = runtime.list(QLatin1String(DependencyVolumeLabel), volume);
        if (!installs)
            return std::unexpected(installs.error());
        bool live = false;
        for (const SandboxInfo &s : *installs) {
            if (ownerMayBeAlive(s.labels.value(QLatin1String(labels::Owner))))
                live = true;
            else
                runtime.remove(s.id); // left by a process that died mid-install
        }
        if (!live)
            return waited;
        if (!waited && status)
            status(QStringLiteral("waiting for another install into %1").arg(volume));
        waited = true;
        if (cancel.isCancelled())
            return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled while waiting for an "
                                                             "install"));
        if (deadline.expired())
            return fail(ErrorCode::Timeout,
                        QStringLiteral("Another install into %1 did not finish").arg(volume));
        QThread::msleep(500);
    }
}

Result<PreparedDependencies> ensureDependencies(Runtime &runtime, const LanguageDescriptor &lang,
                                                const DependencyPlan &plan,
                                                const InstallOptions &options,
                                                const CancelToken &cancel)
{
    auto status = [&](const QString &s) {
        if (options.status)
            options.status(s);
    };
    PreparedDependencies prepared;
    const QString repo = options.cranRepo;
    prepared.volume = dependencyVolumeName(plan, options.image, repo);
    const QString what = plan.packages.join(QStringLiteral(", "));

    const std::shared_ptr<QMutex> lock = volumeLock(prepared.volume);
    QMutexLocker locked(lock.get());

    // Another process may be filling this volume right now: its result is ours.
    if (auto w = waitForInstalls(runtime, prepared.volume, options.status, cancel); !w)
        return std::unexpected(w.error());
    auto exists = runtime.volumeExists(prepared.volume);
    if (!exists)
        return std::unexpected(exists.error());
    if (*exists) {
        prepared.cached = true;
        status(
            QStringLiteral("dependency volume %1 exists: nothing to install").arg(prepared.volume));
        return prepared;
    }

    QElapsedTimer timer;
    timer.start();
    const QString script = installScript(plan.installer);
    if (script.isEmpty())
        return fail(
            ErrorCode::DependencyFailed,
            QStringLiteral("%1 dependencies cannot be installed: %2")
                .arg(lang.displayName, plan.unsupported.isEmpty() ? what : plan.unsupported));

    status(QStringLiteral("installing %1 with %2").arg(what, installerDisplay(plan.installer)));
    const QMap<QString, QString> volumeLabels = {
        {QLatin1String(labels::Managed), QStringLiteral("true")},
        {QLatin1String(labels::Kind), QStringLiteral("deps")},
        {QStringLiteral("io.sandbox-studio.language"), lang.id},
        {QLatin1String(labels::Created), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
    if (auto c = runtime.createVolume(prepared.volume, volumeLabels); !c)
        return std::unexpected(c.error());
    // Until the install succeeded, the volume is removed on every way out.
    bool keepVolume = false;
    auto volumeGuard = qScopeGuard([&] {
        if (keepVolume)
            return;
        if (auto r = runtime.removeVolume(prepared.volume); !r)
            qCWarning(lcDeps).noquote()
                << "could not remove volume" << prepared.volume << r.error().toString();
    });

    QStringList notes;
    auto network = resolveNetwork(runtime, NetworkMode::Bridge, &notes);
    if (!network)
        return std::unexpected(network.error());

    Limits limits;
    limits.memoryBytes = 2ll << 30;
    limits.nanoCpus = 2'000'000'000;
    limits.pids = 1024;
    limits.workDirBytes = 256ll << 20;
    SandboxSpec spec = hardenedSpec(lang, options.image, limits, *network, QStringLiteral("deps"));
    spec.labels.insert(QLatin1String(DependencyVolumeLabel), prepared.volume);
    spec.tmpBytes = 1ll << 30;
    setEnv(spec.env, QStringLiteral("HOME"), QStringLiteral("/tmp"));
    setEnv(spec.env, QStringLiteral("PYTHONUSERBASE"), QStringLiteral("/deps/python"));
    setEnv(spec.env, QStringLiteral("npm_config_cache"), QStringLiteral("/tmp/npm-cache"));
    setEnv(spec.env, QStringLiteral("GOMODCACHE"), QStringLiteral("/deps/go/mod"));
    setEnv(spec.env, QStringLiteral("GOPATH"), QStringLiteral("/deps/go"));
    setEnv(spec.env, QStringLiteral("GOCACHE"), QStringLiteral("/tmp/go-build"));
    setEnv(spec.env, QStringLiteral("GOFLAGS"), QStringLiteral("-mod=mod"));
    setEnv(spec.env, QStringLiteral("SANDBOX_CRAN_REPO"), repo);
    spec.volumes.append(
        {VolumeMount::Type::Volume, prepared.volume, QLatin1String(DependencyMountPoint), false});
    spec.volumes += options.extraMounts;

    QList<TarMember> members{
        {QStringLiteral(".sandbox"), TarMember::Type::Directory, {}, 0755, {}}};
    if (options.trustHostCa)
        addCaTrust(spec, members, hostCaBundle());
    if (plan.installer == QLatin1String("maven"))
        members.append(
            {QStringLiteral("pom.xml"), TarMember::Type::File, pomFor(plan.packages), 0644, {}});
    if (plan.installer == QLatin1String("go"))
        members.append(
            {QStringLiteral("main.go"), TarMember::Type::File, options.code.toUtf8(), 0644, {}});
    auto tar = makeTar(members);
    if (!tar)
        return std::unexpected(tar.error());

    // One install per volume on this engine: the name is the lock.
    spec.name = QStringLiteral("sandbox-studio-install-") + prepared.volume.section(u'-', -1);
    auto created = runtime.create(spec);
    if (!created) {
        if (!created.error().detail.contains(QLatin1String("-> 409")))
            return std::unexpected(created.error());
        // Another process started the same install a moment ago: use its result.
        keepVolume = true;
        if (auto w = waitForInstalls(runtime, prepared.volume, options.status, cancel); !w)
            return std::unexpected(w.error());
        prepared.cached = true;
        return prepared;
    }
    const QString id = *created;
    auto sandboxGuard = qScopeGuard([&] {
        if (auto r = runtime.remove(id); !r)
            qCWarning(lcDeps).noquote()
                << "could not remove install sandbox" << id << r.error().toString();
    });
    if (auto s = runtime.start(id); !s)
        return std::unexpected(s.error());
    if (auto c = copyIntoSandbox(runtime, id, *tar, cancel); !c)
        return std::unexpected(c.error());

    // The fresh volume is root's: root (with no capabilities, so only as the owner) opens it
    // to the sandbox user, who installs.
    {
        ExecSpec chmod;
        chmod.argv = {QStringLiteral("chmod"), QStringLiteral("0777"),
                      QLatin1String(DependencyMountPoint)};
        chmod.user = QStringLiteral("0");
        QByteArray err;
        ExecIo io;
        io.onStderr = [&](QByteArrayView d) {
            err += d;
            return true;
        };
        auto r = runtime.exec(id, chmod, io, cancel, Deadline::in(std::chrono::seconds(30)));
        if (!r)
            return std::unexpected(r.error());
        if (r->cancelled)
            return fail(ErrorCode::Cancelled, QStringLiteral("Cancelled while installing"));
        if (r->exitCode != 0)
            return fail(ErrorCode::DependencyFailed,
                        QStringLiteral("Preparing the dependency volume failed"),
                        QString::fromUtf8(err.left(1000)));
    }

    ExecSpec install;
    install.argv = {QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("sh")};
    install.argv += plan.packages;
    QString output;
    QByteArray pending;
    QStringList installed;
    const QString prefix =
        plan.packages.size() <= 3
            ? what
            : plan.packages.mid(0, 3).join(QStringLiteral(", ")) + QStringLiteral(", ...");
    auto onData = [&](QByteArrayView d) {
        pending += d;
        qsizetype nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const QString line = QString::fromUtf8(pending.left(nl)).trimmed();
            pending.remove(0, nl + 1);
            if (line.isEmpty())
                continue;
            if (line.startsWith(QLatin1String("@@installed "))) {
                installed.append(line.mid(12));
                continue;
            }
            output += line + u'\n';
            if (output.size() > 64000)
                output = output.right(32000);
            status(QStringLiteral("installing %1: %2").arg(prefix, line.left(300)));
        }
        return true;
    };
    ExecIo io;
    io.onStdout = onData;
    io.onStderr = onData;
    auto r = runtime.exec(id, install, io, cancel, Deadline::in(std::chrono::minutes(15)));
    if (!r)
        return std::unexpected(r.error());
    onData("\n");
    if (r->cancelled)
        return fail(ErrorCode::Cancelled,
                    QStringLiteral("Cancelled while installing %1").arg(what));
    if (r->deadlineExceeded)
        return fail(ErrorCode::DependencyFailed,
                    QStringLiteral("Installing %1 with %2 took longer than 15 minutes")
                        .arg(what, installerDisplay(plan.installer)));
    if (r->exitCode != 0) {
        status(QStringLiteral("installing %1 failed").arg(what));
        return fail(ErrorCode::DependencyFailed,
                    QStringLiteral("Installing %1 with %2 failed: %3%4")
                        .arg(what, installerDisplay(plan.installer), installerMessage(output),
                             plan.fromCode
                                 ? QStringLiteral(" (worked out from the code's imports: name "
                                                  "the libraries to install them explicitly)")
                                 : QString()),
                    output.right(4000));
    }
    keepVolume = true;
    prepared.installed = installed;
    prepared.installMs = timer.elapsed();
    status(QStringLiteral("install finished in %1 s")
               .arg(double(prepared.installMs) / 1000.0, 0, 'f', 1));
    return prepared;
}

void useDependencies(const DependencyPlan &plan, const QString &volume, SandboxSpec &spec,
                     QList<TarMember> &members, QStringList *linkNames)
{
    spec.volumes.append(
        {VolumeMount::Type::Volume, volume, QLatin1String(DependencyMountPoint), true});
    auto link = [&](const QString &name, const QString &target) {
        members.append({name, TarMember::Type::Symlink, {}, 0777, target});
        if (linkNames)
            linkNames->append(name);
    };
    const QString &installer = plan.installer;
    if (installer == QLatin1String("pip")) {
        setEnv(spec.env, QStringLiteral("PYTHONUSERBASE"), QStringLiteral("/deps/python"));
    } else if (installer == QLatin1String("npm")) {
        // NODE_PATH serves require(); ES modules resolve bare names through node_modules only.
        setEnv(spec.env, QStringLiteral("NODE_PATH"), QStringLiteral("/deps/node/node_modules"));
        link(QStringLiteral("node_modules"), QStringLiteral("/deps/node/node_modules"));
    } else if (installer == QLatin1String("maven")) {
        setEnv(spec.env, QStringLiteral("CLASSPATH"), QStringLiteral("/deps/java/lib/*"));
    } else if (installer == QLatin1String("go")) {
        setEnv(spec.env, QStringLiteral("GOMODCACHE"), QStringLiteral("/deps/go/mod"));
        setEnv(spec.env, QStringLiteral("GOFLAGS"), QStringLiteral("-mod=mod"));
        setEnv(spec.env, QStringLiteral("GOPROXY"), QStringLiteral("off"));
        setEnv(spec.env, QStringLiteral("GOSUMDB"), QStringLiteral("off"));
        link(QStringLiteral("go.mod"), QStringLiteral("/deps/go/go.mod"));
        link(QStringLiteral("go.sum"), QStringLiteral("/deps/go/go.sum"));
    } else if (installer == QLatin1String("cran")) {
        setEnv(spec.env, QStringLiteral("R_LIBS_USER"), QStringLiteral("/deps/r"));
    }
}

} // namespace sandbox
