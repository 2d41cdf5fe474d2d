// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>
#include <QPlainTextEdit>
#include <QWidget>

class QToolButton;

/// A block of monospace output text in a notebook cell: selectable, as tall as its
/// content, and collapsed to CollapsedLines (with its own scroll bar and a "Show all"
/// button) when longer. Used for streams, results, tracebacks and notices.
///
/// Text is shown as a terminal would: ANSI escapes are dropped and a lone "\r" returns to
/// the start of the line (progress bars overwrite themselves).
class OutputText final : public QWidget
{
    Q_OBJECT

public:
    enum class Style
    {
        Stdout,    ///< plain
        Stderr,    ///< tinted red
        Result,    ///< an execute_result
        Traceback, ///< red-ish, inside an error block
        Notice     ///< grey: not the program's output (engine messages)
    };
    Q_ENUM(Style)

    /// Longer outputs start collapsed.
    static constexpr int CollapsedLines = 50;
    /// Past twice this, the oldest text of a block is dropped down to it (a cell that prints
    /// forever must not grow the window's memory without bound).
    static constexpr qsizetype MaximumCharacters = 1'000'000;
    /// text without its oldest part, cut at a line start, when it is past twice
    /// MaximumCharacters; else text unchanged.
    static QString bounded(const QString &text);

    explicit OutputText(Style style, QWidget *parent = nullptr);

    Style style() const { return m_style; }
    /// The text as shown (after "\r" and ANSI processing).
    QString text() const;
    void setText(const QString &raw);
    /// Adds raw text at the end; a chunk with a lone "\r" re-renders the whole block.
    void appendText(const QString &raw);

    /// Number of lines of the text (logical lines, not wrapped ones).
    int lineCount() const;
    bool isCollapsible() const;
    bool isCollapsed() const { return m_collapsed; }
    void setCollapsed(bool collapsed);

    QPlainTextEdit *view() const { return m_view; }

    /// Terminal-like rendering of raw program text (ANSI dropped, "\r" overwrites).
    static QString render(const QString &raw);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateHeight();
    void updateToggle();
    void applyColors();

    Style m_style;
    QPlainTextEdit *m_view;
    QToolButton *m_toggle;
    QString m_raw;
    bool m_collapsed = true;
    bool m_rawHasCarriageReturn = false;
    bool m_pendingNewline = false; // the text ends in a line break not shown as a blank line
};

/// An image output: scaled down to the available width (aspect kept, never enlarged);
/// a click opens it full size in a dialog; the context menu offers Save As and Copy.
class OutputImage final : public QLabel
{
    Q_OBJECT

public:
    /// data: the encoded image (PNG, JPEG), saved as is by Save As.
    OutputImage(const QByteArray &data, const QString &mimeType, QWidget *parent = nullptr);

    bool isValid() const { return !m_image.isNull(); }
    QImage image() const { return m_image; }
    QByteArray data() const { return m_data; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    /// Opens the image at full size in a non-modal dialog.
    void showFullSize();
    /// Asks for a file name and writes the image there.
    void saveAs();
    void copyToClipboard();

protected:
    void resizeEvent(QResizeEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    QSize naturalSize() const;
    void updateScaled();

    QByteArray m_data;
    QString m_mimeType;
    QImage m_image;
};

/// An error raised by the cell's code: "ename: evalue" in red, then the traceback behind
/// a disclosure button (expanded, except for interrupts).
class OutputError final : public QWidget
{
    Q_OBJECT

public:
    OutputError(const QString &ename, const QString &evalue, const QStringList &traceback,
                QWidget *parent = nullptr);

    QString headline() const;
    bool isTracebackVisible() const;
    void setTracebackVisible(bool visible);
    OutputText *traceback() const { return m_traceback; }

private:
    QLabel *m_headline;
    QToolButton *m_toggle;
    OutputText *m_traceback;
};
