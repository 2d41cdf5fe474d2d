// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/runtypes.h"
#include "util/error.h"

#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QStringDecoder>
#include <QTextCharFormat>
#include <QTimer>

/// Read-only console for the output of runs: stdout in the normal colour, stderr in a
/// distinct red, status lines in grey italics, and a summary line per run
/// ("exit 0 · 123 ms · timed out").
///
/// Program output is raw bytes: it is decoded as UTF-8 (invalid sequences become U+FFFD,
/// sequences split across chunks are joined), NUL and other control characters are shown
/// as their Control Pictures (U+2400 "␀"), and ANSI colour escapes are dropped. A line
/// is shown once complete (or after 250 ms), so stdout and stderr never mix mid-line. Appends
/// are batched (one document update per 30 ms) and the console holds at most
/// maximumCharacters(); older output is removed from the top, so a flood cannot freeze
/// the window.
class OutputConsole final : public QPlainTextEdit
{
    Q_OBJECT

public:
    /// What a piece of text is; stored in each fragment's char format under StreamProperty.
    enum class Kind
    {
        Stdout = 1,
        Stderr,
        Status,
        Error,
        Summary
    };
    Q_ENUM(Kind)
    static constexpr int StreamProperty = QTextFormat::UserProperty + 1;

    explicit OutputConsole(QWidget *parent = nullptr);

    /// Starts the output of a new run: resets the decoders, adds a header line with title.
    void beginRun(const QString &title);
    void appendStdout(QByteArrayView bytes);
    void appendStderr(QByteArrayView bytes);
    void appendStatus(const QString &text);
    /// An engine error: message on a bold line, the failing call's detail below it.
    void appendError(const sandbox::Error &error);
    /// The summary of a finished run ("exit 0 · 123 ms" and flags), compile outcome,
    /// artifacts, policy findings. Writes everything pending to the document at once.
    void appendResult(const sandbox::RunResult &result);

    /// Writes all pending text, partial lines included, to the document now (normally the
    /// 30 ms batch timer does).
    void flush();
    /// Removes all output.
    void clearOutput();

    /// Colours in use (they follow the palette's lightness).
    QColor stdoutColor() const;
    QColor stderrColor() const;
    QColor statusColor() const;

    qsizetype maximumCharacters() const { return m_maxChars; }
    /// Upper bound on characters held (default 2,000,000, at least 10,000).
    void setMaximumCharacters(qsizetype count);

    /// Lines longer than this are broken so layout stays fast.
    static constexpr qsizetype MaximumLineLength = 10'000;

protected:
    void changeEvent(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    struct Segment
    {
        Kind kind;
        QTextCharFormat format;
        QString text;
    };
    struct StreamState
    {
        explicit StreamState(Kind streamKind)
            : kind(streamKind)
        {}
        Kind kind;
        QStringDecoder decoder{QStringDecoder::Utf8};
        bool lastWasCarriageReturn = false;
        qsizetype column = 0;       // for breaking very long lines
        QString partialLine;        // held back so stdout and stderr do not mix mid-line
        QElapsedTimer partialSince; // a partial line waits PartialLineDelayMs at most
    };

    void appendBytes(Kind kind, StreamState &state, QByteArrayView bytes);
    void appendLine(Kind kind, const QString &text);
    void enqueue(Kind kind, const QTextCharFormat &format, QString text);
    QString sanitize(QString text, StreamState *state);
    void releasePartialLines(bool force);
    void flushBatch(bool force);
    void trimDocument();
    void updateFormats();
    QTextCharFormat formatFor(Kind kind) const;

    StreamState m_stdout{Kind::Stdout};
    StreamState m_stderr{Kind::Stderr};
    QList<Segment> m_pending;
    qsizetype m_pendingChars = 0;
    qsizetype m_column = 0; // length of the last line, document and pending text included
    qsizetype m_maxChars = 2'000'000;
    bool m_droppedOutput = false;
    QTimer m_flushTimer;
    QColor m_stderrColor;
    QColor m_statusColor;
    QColor m_successColor;
};
