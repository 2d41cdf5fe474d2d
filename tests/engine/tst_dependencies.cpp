// SPDX-License-Identifier: GPL-3.0-or-later
// Working out a run's dependencies from its libraries or its code (pure: no engine).
#include "languages/language.h"
#include "session/dependencies.h"

#include <QTest>

using namespace sandbox;

class TestDependencies final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pythonImports();
    void pythonExplicitLibrariesWin();
    void pythonCaseFiles();
    void javascriptImports();
    void goImports();
    void rLibraries();
    void javaImportsAndCoordinates();
    void cppIncludesAreReportedNotInstalled();
    void badNamesAreRefused_data();
    void badNamesAreRefused();
    void volumeNames();
    void setEnvReplaces();
};

static const LanguageDescriptor &lang(const char *id)
{
    const LanguageDescriptor *d = LanguageRegistry::instance().find(QLatin1String(id));
    Q_ASSERT(d);
    return *d;
}

static DependencyPlan plan(const char *language, const QString &code,
                           const QStringList &libraries = {}, const QStringList &local = {})
{
    auto p = planDependencies(lang(language), code, libraries, local);
    if (!p)
        qFatal("planDependencies failed: %s", qPrintable(p.error().toString()));
    return *p;
}

void TestDependencies::pythonImports()
{
    const QString code = QStringLiteral("import os, sys\n"
                                        "import numpy as np\n"
                                        "import pandas\n"
                                        "from tabulate import tabulate\n"
                                        "import yaml\n"
                                        "from sklearn.model_selection import train_test_split\n"
                                        "import helper\n"
                                        "from . import sibling\n"
                                        "from .pkg import thing\n"
                                        "import cv2, bs4 as soup\n"
                                        "from PIL import Image\n"
                                        "from google.protobuf import message\n"
                                        "from matplotlib import pyplot as plt\n"
                                        "def f():\n"
                                        "    import requests  # lazily\n"
                                        "from __future__ import annotations\n");
    const DependencyPlan p = plan("python", code, {}, {QStringLiteral("helper")});
    QVERIFY(p.fromCode);
    QCOMPARE(p.installer, QStringLiteral("pip"));
    QCOMPARE(p.packages, QStringList({QStringLiteral("PyYAML"), QStringLiteral("beautifulsoup4"),
                                      QStringLiteral("opencv-python-headless"),
                                      QStringLiteral("protobuf"), QStringLiteral("requests"),
                                      QStringLiteral("scikit-learn"), QStringLiteral("tabulate")}));
    QVERIFY(p.detected.contains(QStringLiteral("yaml")));
    QVERIFY(p.detected.contains(QStringLiteral("sklearn")));
    QVERIFY(!p.detected.contains(QStringLiteral("numpy")));
    QVERIFY(!p.detected.contains(QStringLiteral("helper")));
    QVERIFY(p.needsInstall());

    // Only the standard library and what the image has: nothing to install.
    const DependencyPlan none =
        plan("python", QStringLiteral("import json\nimport numpy\nimport seaborn as sns\n"
                                      "from mpl_toolkits.mplot3d import Axes3D\n"));
    QVERIFY(none.packages.isEmpty());
    QVERIFY(!none.needsInstall());
}

void TestDependencies::pythonExplicitLibrariesWin()
{
    const DependencyPlan p = plan("python", QStringLiteral("import tabulate\n"),
                                  {QStringLiteral("humanize"), QStringLiteral("  "),
                                   QStringLiteral("requests[socks]>=2.31,<3")});
    QVERIFY(!p.fromCode);
    QCOMPARE(p.packages,
             QStringList({QStringLiteral("humanize"), QStringLiteral("requests[socks]>=2.31,<3")}));
    QVERIFY(p.detected.isEmpty());
}

void TestDependencies::pythonCaseFiles()
{
    QCOMPARE(plan("python", QStringLiteral("from tabulate import tabulate\n")).packages,
             QStringList{QStringLiteral("tabulate")});
    QCOMPARE(plan("python", QStringLiteral("import humanize\n")).packages,
             QStringList{QStringLiteral("humanize")});
    QCOMPARE(plan("python", QStringLiteral("from dateutil import parser\n")).packages,
             QStringList{}); // python3-dateutil is in the image
}

void TestDependencies::javascriptImports()
{
    const QString code = QStringLiteral("const _ = require('lodash');\n"
                                        "const fs = require(\"fs\");\n"
                                        "const p = require('node:path');\n"
                                        "const local = require('./local');\n"
                                        "const fp = require('lodash/fp');\n"
                                        "import chalk from 'chalk';\n"
                                        "import { thing } from '@scope/pkg/sub/path';\n"
                                        "import * as ns from \"uuid\";\n"
                                        "import 'dotenv/config';\n"
                                        "const utc = await import('dayjs/plugin/utc');\n"
                                        "export * from 'ramda';\n"
                                        "import { readFile } from 'fs/promises';\n"
                                        "import x from 'https://example.com/x.js';\n"
                                        "const evil = require('--ignore-scripts=false');\n"
                                        "const Bad = require('Upper Case');\n");
    const DependencyPlan p = plan("javascript", code);
    QCOMPARE(p.installer, QStringLiteral("npm"));
    QCOMPARE(p.packages, QStringList({QStringLiteral("@scope/pkg"), QStringLiteral("chalk"),
                                      QStringLiteral("dayjs"), QStringLiteral("dotenv"),
                                      QStringLiteral("lodash"), QStringLiteral("ramda"),
                                      QStringLiteral("uuid")}));
    QCOMPARE(p.notes.size(), 2); // the option and the name with a space: not installed
    QCOMPARE(
        plan("javascript", QStringLiteral("console.log(require('os').cpus().length)")).packages,
        QStringList{});
}

void TestDependencies::goImports()
{
    const QString code = QStringLiteral("package main\n\n"
                                        "import (\n"
                                        "\t\"fmt\"\n"
                                        "\t\"net/http\" // stdlib\n"
                                        "\tu \"github.com/google/uuid\"\n"
                                        "\t_ \"golang.org/x/text/language\"\n"
                                        ")\n"
                                        "import \"gopkg.in/yaml.v3\"\n"
                                        "import \"strings\"\n");
    const DependencyPlan p = plan("go", code);
    QCOMPARE(p.installer, QStringLiteral("go"));
    QCOMPARE(p.packages, QStringList({QStringLiteral("github.com/google/uuid"),
                                      QStringLiteral("golang.org/x/text/language"),
                                      QStringLiteral("gopkg.in/yaml.v3")}));
    // A named pin keeps the detected imports (go mod tidy works from the code).
    const DependencyPlan pinned =
        plan("go", code, {QStringLiteral("github.com/google/uuid@v1.6.0")});
    QVERIFY(pinned.packages.contains(QStringLiteral("github.com/google/uuid@v1.6.0")));
    QVERIFY(pinned.packages.contains(QStringLiteral("gopkg.in/yaml.v3")));
    QVERIFY(plan("go", QStringLiteral("package main\nimport \"fmt\"\nfunc main(){fmt.Println()}"))
                .packages.isEmpty());
    // Several specs on one line of a group (not gofmt'ed).
    QCOMPARE(plan("go", QStringLiteral("package main\nimport (\"fmt\"; h "
                                       "\"github.com/dustin/go-humanize\")\nfunc main(){}\n"))
                 .packages,
             QStringList{QStringLiteral("github.com/dustin/go-humanize")});
}

void TestDependencies::rLibraries()
{
    const QString code = QStringLiteral("library(data.table)\n"
                                        "require(\"zoo\")\n"
                                        "suppressPackageStartupMessages(library(ggplot2))\n"
                                        "fit <- survival::coxph(x)\n"
                                        "d <- dplyr::filter(df, a > 1)\n"
                                        "base::paste('a')\n"
                                        "if (!requireNamespace('lubridate', quietly = TRUE)) 1\n"
                                        "# library(commented)\n"
                                        "for (p in pkgs) library(p, character.only = TRUE)\n"
                                        "x$y::z\n");
    const DependencyPlan p = plan("r", code);
    QCOMPARE(p.installer, QStringLiteral("cran"));
    QCOMPARE(p.packages, QStringList({QStringLiteral("data.table"), QStringLiteral("lubridate"),
                                      QStringLiteral("survival"), QStringLiteral("zoo")}));
    QVERIFY(plan("r", QStringLiteral("library(ggplot2)\nlibrary(jsonlite)\n")).packages.isEmpty());
}

void TestDependencies::javaImportsAndCoordinates()
{
    const QString code = QStringLiteral("import com.google.gson.Gson;\n"
                                        "import com.google.gson.GsonBuilder;\n"
                                        "import java.util.List;\n"
                                        "import javax.swing.*;\n"
                                        "import static org.apache.commons.lang3.StringUtils.*;\n"
                                        "import com.fasterxml.jackson.databind.ObjectMapper;\n"
                                        "import com.example.Unknown;\n"
                                        "public class Main {}\n");
    const DependencyPlan p = plan("java", code);
    QCOMPARE(p.installer, QStringLiteral("maven"));
    QCOMPARE(p.packages,
             QStringList({QStringLiteral("com.fasterxml.jackson.core:jackson-databind:2.17.0"),
                          QStringLiteral("com.google.code.gson:gson:2.10.1"),
                          QStringLiteral("org.apache.commons:commons-lang3:3.14.0")}));
    QCOMPARE(p.notes.size(), 1);
    QVERIFY(p.notes.first().contains(QStringLiteral("com.example.Unknown")));

    const DependencyPlan named =
        plan("java", code, {QStringLiteral("com.google.code.gson:gson:2.10.1")});
    QCOMPARE(named.packages, QStringList{QStringLiteral("com.google.code.gson:gson:2.10.1")});
    QVERIFY(!named.fromCode);
}

void TestDependencies::cppIncludesAreReportedNotInstalled()
{
    const DependencyPlan p = plan("cpp", QStringLiteral("#include <vector>\n"
                                                        "#include <fmt/core.h>\n"
                                                        "#include <boost/algorithm/string.hpp>\n"
                                                        "#include \"local.h\"\n"));
    QCOMPARE(p.packages,
             QStringList({QStringLiteral("libboost-dev"), QStringLiteral("libfmt-dev")}));
    QVERIFY(!p.unsupported.isEmpty());
    QVERIFY(p.unsupported.contains(QStringLiteral("libfmt-dev")));
    QVERIFY(!p.needsInstall());
    QVERIFY(plan("cpp", QStringLiteral("#include <iostream>\n#include <ranges>\n"))
                .unsupported.isEmpty());
    const DependencyPlan named = plan("cpp", QString(), {QStringLiteral("libfmt-dev")});
    QVERIFY(!named.unsupported.isEmpty());
    QVERIFY(!named.needsInstall());
}

void TestDependencies::badNamesAreRefused_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("library");
    QTest::newRow("pip option") << "python" << "--index-url=http://evil";
    QTest::newRow("pip shell") << "python" << "tabulate; rm -rf /";
    QTest::newRow("pip url") << "python" << "https://example.com/x.whl";
    QTest::newRow("npm option") << "javascript" << "--registry=http://evil";
    QTest::newRow("npm path") << "javascript" << "../x";
    QTest::newRow("maven no version") << "java" << "com.google.code.gson:gson";
    QTest::newRow("maven injection") << "java" << "a:b:1</version><x>";
    QTest::newRow("go option") << "go" << "-insecure";
    QTest::newRow("r code") << "r" << "x'); system('id";
    QTest::newRow("r space") << "r" << "data table";
}

void TestDependencies::badNamesAreRefused()
{
    QFETCH(QString, language);
    QFETCH(QString, library);
    auto p = planDependencies(*LanguageRegistry::instance().find(language), QString(), {library});
    QVERIFY(!p);
    QCOMPARE(p.error().code, ErrorCode::InvalidArgument);
    QVERIFY(p.error().message.contains(library));
}

void TestDependencies::volumeNames()
{
    const DependencyPlan a = plan("python", QString(), {QStringLiteral("b"), QStringLiteral("a")});
    const DependencyPlan b = plan("python", QString(), {QStringLiteral("a"), QStringLiteral("b")});
    const DependencyPlan c = plan("python", QString(), {QStringLiteral("a")});
    const QString name = dependencyVolumeName(a, QStringLiteral("img:1"), {});
    QVERIFY(name.startsWith(QStringLiteral("sandbox-studio-deps-python-")));
    QCOMPARE(name.size(), QStringLiteral("sandbox-studio-deps-python-").size() + 12);
    QCOMPARE(dependencyVolumeName(b, QStringLiteral("img:1"), {}), name); // order-free
    QVERIFY(dependencyVolumeName(c, QStringLiteral("img:1"), {}) != name);
    QVERIFY(dependencyVolumeName(a, QStringLiteral("img:2"), {}) != name);
    // The repository matters for R only.
    QCOMPARE(dependencyVolumeName(a, QStringLiteral("img:1"), QStringLiteral("file:///x")), name);
    const DependencyPlan r = plan("r", QString(), {QStringLiteral("zoo")});
    QVERIFY(dependencyVolumeName(r, QStringLiteral("img"), QStringLiteral("file:///x")) !=
            dependencyVolumeName(r, QStringLiteral("img"), QStringLiteral("https://cran")));
}

void TestDependencies::setEnvReplaces()
{
    QStringList env{QStringLiteral("A=1"), QStringLiteral("AB=2")};
    setEnv(env, QStringLiteral("A"), QStringLiteral("3"));
    QCOMPARE(env, QStringList({QStringLiteral("AB=2"), QStringLiteral("A=3")}));
}

QTEST_GUILESS_MAIN(TestDependencies)
#include "tst_dependencies.moc"
