// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace sandbox {

/// One phase of running a program: compile steps come before the run step.
struct LanguageStep
{
    enum class Phase
    {
        Compile,
        Run
    };
    Phase phase = Phase::Run;
    QStringList argv;
};

/// Everything the engine knows about one language. Adding a language is adding one
/// descriptor to LanguageRegistry.
struct LanguageDescriptor
{
    QString id;            ///< "python": what RunRequest::language, the CLI and MCP use
    QString displayName;   ///< "Python"
    QString highlightName; ///< KSyntaxHighlighting definition name ("Python")
    QString imageRecipe;   ///< name of the image recipe under resources/images ("python")
    QString sampleCode;    ///< shown in a new editor
    QStringList env;       ///< extra environment ("NAME=value") for every run

    /// File name for the code inside the work directory (e.g. "main.py", "FizzBuzz.java").
    QString (*fileNameFor)(const QString &code) = nullptr;
    /// Steps to run file (a name inside the work directory), compiled with standard (one
    /// of standards, already checked; empty = defaultStandard).
    QList<LanguageStep> (*stepsFor)(const QString &file, const QString &standard) = nullptr;
    QStringList standards;   ///< language standards a run may ask for ("c++17", ...)
    QString defaultStandard; ///< used when a run names none
    /// Smallest memory limit a run may ask for: below it the runtime or the compiler cannot
    /// start (JVM heap, R, g++, go build). Checked by validateLimitsFor (policy/preflight.h).
    qint64 minMemoryBytes = 32ll << 20;
};

/// The built-in languages, keyed by id. Lookup is case-insensitive and accepts aliases
/// ("py", "js", "node", "c++", "golang", "rscript").
class LanguageRegistry
{
public:
    static const LanguageRegistry &instance();

    /// nullptr for an unknown id.
    const LanguageDescriptor *find(const QString &idOrAlias) const;
    const QList<LanguageDescriptor> &all() const { return m_languages; }
    QStringList ids() const;

private:
    LanguageRegistry();
    QList<LanguageDescriptor> m_languages;
};

} // namespace sandbox
