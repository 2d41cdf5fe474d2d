// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/runtypes.h"

#include <QPlainTextEdit>

namespace KSyntaxHighlighting {
class Repository;
class SyntaxHighlighter;
} // namespace KSyntaxHighlighting

/// The application's one KSyntaxHighlighting repository (building it reads every syntax
/// definition from disk, so it is created once, on first use, and kept).
KSyntaxHighlighting::Repository &syntaxRepository();

/// Plain-text code editor: syntax highlighting, a line-number gutter, current-line
/// highlight, a monospace font and light auto-indent (Return keeps the indentation, Tab
/// inserts spaces, Shift+Tab removes them).
class CodeEditor final : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit CodeEditor(QWidget *parent = nullptr);
    ~CodeEditor() override;

    /// Switches the highlighting definition by KSyntaxHighlighting name ("Python", "C++"),
    /// case-insensitive; an unknown name falls back to "None" (plain text).
    void setLanguage(const QString &highlightName);
    /// Name of the definition in use ("None" when there is none).
    QString highlightingDefinition() const;
    /// Name of the theme in use ("Breeze Light", ...).
    QString themeName() const;

    /// Width of the line-number gutter in pixels.
    int gutterWidth() const;

    /// Policy findings to show (lines are 1-based): a wavy underline under each finding's
    /// line, a coloured mark in the gutter (red for block, orange for ask, yellow for warn)
    /// and the findings' messages as the line's tooltip. An empty list clears them.
    void setFindings(const QList<sandbox::PolicyFinding> &findings);
    const QList<sandbox::PolicyFinding> &findings() const { return m_findings; }
    /// Tooltip text for a 1-based line: its findings, one per line; empty when none.
    QString findingsTooltip(int line) const;

protected:
    bool viewportEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    friend class LineNumberArea;

    void applyTheme();
    void paintGutter(QPaintEvent *event);
    void updateGutterWidth();
    void updateGutter(const QRect &rect, int dy);
    void highlightCurrentLine();
    void indentSelection(bool indent);
    /// Shows the findings of the line at viewport y as a tooltip; false when it has none.
    bool showFindingsTip(const QPoint &globalPos, int viewportY);

    QWidget *m_gutter;
    KSyntaxHighlighting::SyntaxHighlighter *m_highlighter;
    QString m_themeName;
    QColor m_currentLineColor;
    QColor m_gutterBackground;
    QColor m_gutterForeground;
    QColor m_gutterCurrentForeground;
    QColor m_gutterSeparator;
    QList<sandbox::PolicyFinding> m_findings;
};
