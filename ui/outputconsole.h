// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "session/runtypes.h"
#include "util/error.h"

#include <QCache>
#include <QElapsedTimer>
#include <QHash>
#include <QImage>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QStringDecoder>
#include <QTextBlock>
#include <QTextCharFormat>
#include <QTextObjectInterface>
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
///
/// After a run's summary come its artifacts: images (PNG, JPEG, GIF) inline, scaled down to
/// the console's width and height (never enlarged), a click opens them full size and the
/// context menu saves or copies them; other files as a line with name, MIME type and size
/// and Open / Save As… links. Artifacts leave memory with the text they belong to.
class OutputConsole final : public QPlainTextEdit, public QTextObjectInterface
{
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    /// What a piece of text is; stored in each fragment's char format under StreamProperty.
    enum class Kind
    {
        Stdout = 1,
        Stderr,
        Status,
        Error,
        Summary,
        Artifact
    };
    Q_ENUM(Kind)
    static constexpr int StreamProperty = QTextFormat::UserProperty + 1;
    /// The id of the artifact a fragment shows or links to (int, > 0).
    static constexpr int ArtifactProperty = QTextFormat::UserProperty + 2;
    /// Object type of inline images (U+FFFC characters on a block of their own).
    static constexpr int ImageObjectType = QTextFormat::UserObject + 1;

    explicit OutputConsole(QWidget *parent = nullptr);

    /// Starts the output of a new run: resets the decoders, adds a header line with title.
    void beginRun(const QString &title);
    void appendStdout(QByteArrayView bytes);
    void appendStderr(QByteArrayView bytes);
    void appendStatus(const QString &text);
    /// An engine error: message on a bold line, the failing call's detail below it.
    void appendError(const sandbox::Error &error);
    /// The summary of a finished run ("exit 0 · 123 ms" and flags), compile outcome,
    /// artifacts (images inline, files as lines with Open / Save As…; the artifact limit and
    /// refused paths), policy findings. Writes everything pending to the document at once.
    void appendResult(const sandbox::RunResult &result);

    /// The images shown inline, in the order of the document (those not yet trimmed away).
    QList<QImage> inlineImages() const;
    /// The artifacts shown (images and files), in the order of the document.
    QList<sandbox::Artifact> shownArtifacts() const;
    /// The artifact whose line or image is at pos (viewport coordinates), or nullptr.
    const sandbox::Artifact *artifactAt(const QPoint &pos) const;
    /// Whether pos (viewport coordinates) is on an inline image.
    bool isImageAt(const QPoint &pos) const;
    /// Where the index-th inline image is drawn, in viewport coordinates (it may be outside
    /// the viewport); an empty rectangle if there is no such image.
    QRect inlineImageRect(int index) const;
    /// Scrolls so that the index-th inline image is at the top of the viewport.
    void scrollToInlineImage(int index);
    /// Size an image is shown at: fit to the viewport's width and height, never enlarged.
    QSizeF displaySize(const QImage &image) const;

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

    /// QTextObjectInterface, for the inline images.
    QSizeF intrinsicSize(QTextDocument *document, int positionInDocument,
                         const QTextFormat &format) override;
    void drawObject(QPainter *painter, const QRectF &rect, QTextDocument *document,
                    int positionInDocument, const QTextFormat &format) override;

    /// Lines longer than this are broken so layout stays fast.
    static constexpr qsizetype MaximumLineLength = 10'000;

protected:
    void changeEvent(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Shown
    {
        sandbox::Artifact artifact;
        QSizeF imageSize; // device-independent; empty for files
        bool isImage() const { return !imageSize.isEmpty(); }
    };
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
    void appendArtifact(const sandbox::Artifact &artifact);
    int artifactIdAt(const QPoint &pos) const;
    int imageIdAt(const QPoint &pos) const;
    QSizeF displaySize(const QSizeF &natural) const;
    QTextBlock imageBlock(int index) const;
    void activateLink(const QString &href);
    void pruneArtifacts();
    void relayoutImages();

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

    QHash<int, Shown> m_artifacts;
    // Scaled pixmaps of the images painted last, by artifact id; cost in KiB. The decoded
    // images are not kept: many runs with many figures must not hold them all.
    QCache<int, QPixmap> m_pixmaps{64 * 1024};
    int m_nextArtifactId = 1;
    QTimer m_relayoutTimer;
    QSize m_laidOutSize;
    QString m_pressedLink;
    int m_pressedImage = 0;
};
