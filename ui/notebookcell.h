// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/notebook.h"

#include <QFrame>
#include <QList>
#include <QPointer>

class CodeEditor;
class OutputText;
class QLabel;
class QToolButton;
class QVBoxLayout;

/// One code cell of a NotebookConsole: an execution prompt ("[3]", "[*]" while queued or
/// running) beside a code editor that grows with its content, and the cell's outputs
/// below it (streams, "Out[3]:" results, images, errors), Jupyter style.
///
/// Keys in the editor: Shift+Return runs and moves on, Ctrl+Return runs in place,
/// Alt+Return runs and inserts a cell below, Ctrl+Shift+Return inserts a cell below,
/// Ctrl+Shift+Up/Down moves the cell, Ctrl+Shift+D deletes it, Up on the first line and
/// Down on the last line move to the neighbouring cell. The cell only asks (signals); the
/// console decides.
class NotebookCell final : public QFrame
{
    Q_OBJECT

public:
    enum class State
    {
        Idle,
        Queued,
        Running
    };
    Q_ENUM(State)

    /// What to do after a run was asked for.
    enum class RunMode
    {
        InPlace,    ///< Ctrl+Return
        Advance,    ///< Shift+Return: focus the next cell, creating one at the end
        InsertBelow ///< Alt+Return: always insert a new cell below
    };
    Q_ENUM(RunMode)

    explicit NotebookCell(QWidget *parent = nullptr);

    CodeEditor *editor() const { return m_editor; }
    QString source() const;
    void setSource(const QString &source);
    /// KSyntaxHighlighting definition name ("Python", "JavaScript", "R Script").
    void setHighlighting(const QString &highlightName);

    /// nbformat 4.5 cell id: 8 hex digits, fixed for the cell's life.
    QString cellId() const { return m_id; }

    /// 0 while the cell has not run (prompt "[ ]").
    int executionCount() const { return m_executionCount; }
    void setExecutionCount(int count);
    State state() const { return m_state; }
    void setState(State state);
    /// "[3]", "[*]" or "[ ]".
    QString promptText() const;

    bool isCurrent() const { return m_current; }
    void setCurrent(bool current);

    /// The kernel's outputs, as exported to .ipynb (notices are not among them).
    const QList<sandbox::CellOutput> &outputs() const { return m_outputs; }
    /// Adds an output; consecutive chunks of one stream merge into one block, as Jupyter
    /// front ends show them.
    void appendOutput(const sandbox::CellOutput &output);
    /// A message that is not the kernel's (engine errors, "Starting Python kernel…"):
    /// shown in the outputs, never exported. error: in red with detail below.
    void showNotice(const QString &text, bool error = false, const QString &detail = {});
    /// Removes outputs, notices and the footer.
    void clearOutputs();
    /// Removes notices only (the "starting kernel" line once the cell runs).
    void clearNotices();
    /// A small line under the outputs: "0.12 s", "interrupted · 2.3 s".
    void setFooter(const QString &text, bool warning = false);
    QString footer() const;

    /// The widgets showing outputs and notices, top to bottom.
    QList<QWidget *> outputWidgets() const;

Q_SIGNALS:
    void runRequested(NotebookCell *cell, NotebookCell::RunMode mode);
    void focusEntered(NotebookCell *cell);
    /// Up on the first line (-1) or Down on the last line (+1).
    void leaveRequested(NotebookCell *cell, int direction);
    void moveRequested(NotebookCell *cell, int delta);
    void deleteRequested(NotebookCell *cell);
    /// below: insert after this cell, else before it.
    void insertRequested(NotebookCell *cell, bool below);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    bool handleKey(const QKeyEvent *event, bool dryRun);
    void updatePrompt();
    void updateEditorHeight();
    void addRow(const QString &prompt, QWidget *widget, bool notice);
    void showMenu();

    QString m_id;
    CodeEditor *m_editor;
    QLabel *m_prompt;
    QToolButton *m_runButton;
    QToolButton *m_menuButton;
    QWidget *m_outputArea;
    QVBoxLayout *m_outputLayout;
    QLabel *m_footer;
    QList<sandbox::CellOutput> m_outputs;
    QList<QPointer<QWidget>> m_notices;
    QPointer<OutputText> m_lastStream; // the block the next chunk of m_lastStreamName joins
    QString m_lastStreamName;
    int m_executionCount = 0;
    int m_promptWidth = 0;
    State m_state = State::Idle;
    bool m_current = false;
};
