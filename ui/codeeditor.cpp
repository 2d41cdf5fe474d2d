// SPDX-License-Identifier: GPL-3.0-or-later
#include "codeeditor.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#include <QApplication>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace {
constexpr int IndentWidth = 4;
constexpr int GutterPadding = 6;

/// Colour of a finding's action: block red, ask orange, warn yellow.
QColor findingColor(const QString &action)
{
    if (action == QLatin1String("block"))
        return QColor(0xd0, 0x30, 0x30);
    if (action == QLatin1String("ask"))
        return QColor(0xe6, 0x7e, 0x22);
    return QColor(0xd4, 0xac, 0x0d);
}

int actionRank(const QString &action)
{
    return action == QLatin1String("block") ? 3 : action == QLatin1String("ask") ? 2 : 1;
}
} // namespace

Q_GLOBAL_STATIC(KSyntaxHighlighting::Repository, g_repository)

KSyntaxHighlighting::Repository &syntaxRepository()
{
    return *g_repository;
}

/// The line-number gutter; all painting is done by the editor, which knows the layout.
class LineNumberArea final : public QWidget
{
public:
    explicit LineNumberArea(CodeEditor *editor)
        : QWidget(editor)
        , m_editor(editor)
    {}
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }
    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(event);
            // The gutter and the viewport share their vertical coordinates.
            m_editor->showFindingsTip(help->globalPos(), help->pos().y());
            return true;
        }
        return QWidget::event(event);
    }

private:
    CodeEditor *m_editor;
};

CodeEditor::CodeEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new LineNumberArea(this))
    // Attached before any text is set: text set first and highlighted later renders blank.
    , m_highlighter(new KSyntaxHighlighting::SyntaxHighlighter(document()))
{
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTabStopDistance(IndentWidth * fontMetrics().horizontalAdvance(u' '));
    setCenterOnScroll(false);
    setAccessibleName(tr("Code editor"));

    connect(this, &QPlainTextEdit::blockCountChanged, this, &CodeEditor::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &CodeEditor::updateGutter);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &CodeEditor::highlightCurrentLine);

    applyTheme();
    setLanguage(QStringLiteral("None"));
    updateGutterWidth();
    highlightCurrentLine();
}

CodeEditor::~CodeEditor() = default;

void CodeEditor::setLanguage(const QString &highlightName)
{
    auto &repository = syntaxRepository();
    auto definition = repository.definitionForName(highlightName);
    if (!definition.isValid())
        definition = repository.definitionForName(QStringLiteral("None"));
    if (definition == m_highlighter->definition())
        return;
    // setDefinition() re-highlights the whole document.
    m_highlighter->setDefinition(definition);
}

QString CodeEditor::highlightingDefinition() const
{
    const auto definition = m_highlighter->definition();
    return definition.isValid() ? definition.name() : QStringLiteral("None");
}

QString CodeEditor::themeName() const
{
    return m_themeName;
}

int CodeEditor::gutterWidth() const
{
    int digits = 1;
    for (int max = qMax(1, blockCount()); max >= 10; max /= 10)
        ++digits;
    digits = qMax(digits, 3); // no jitter between 9 and 10 lines, or 99 and 100
    return 2 * GutterPadding + fontMetrics().horizontalAdvance(u'9') * digits;
}

void CodeEditor::applyTheme()
{
    using KSyntaxHighlighting::Repository;
    using KSyntaxHighlighting::Theme;

    // The application palette, not ours: ours is the theme's and would pin the choice.
    QPalette palette = QApplication::palette(this);
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    const Theme theme =
        syntaxRepository().defaultTheme(dark ? Repository::DarkTheme : Repository::LightTheme);
    m_themeName = theme.name();

    const auto editorColor = [&theme](Theme::EditorColorRole role) {
        return QColor::fromRgb(theme.editorColor(role));
    };
    const QColor text = QColor::fromRgb(theme.textColor(Theme::Normal));
    palette.setColor(QPalette::Base, editorColor(Theme::BackgroundColor));
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Highlight, editorColor(Theme::TextSelection));
    // Theme selections are subtle tints meant to keep the syntax colours readable.
    palette.setColor(QPalette::HighlightedText, text);
    setPalette(palette);

    m_currentLineColor = editorColor(Theme::CurrentLine);
    m_gutterBackground = editorColor(Theme::IconBorder);
    m_gutterForeground = editorColor(Theme::LineNumbers);
    m_gutterCurrentForeground = editorColor(Theme::CurrentLineNumber);
    m_gutterSeparator = editorColor(Theme::Separator);

    m_highlighter->setTheme(theme);
    m_highlighter->rehighlight();
    highlightCurrentLine();
    m_gutter->update();
}

void CodeEditor::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    switch (event->type()) {
    case QEvent::ApplicationPaletteChange:
        applyTheme();
        break;
    case QEvent::FontChange:
        setTabStopDistance(IndentWidth * fontMetrics().horizontalAdvance(u' '));
        updateGutterWidth();
        break;
    default:
        break;
    }
}

void CodeEditor::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect area = contentsRect();
    m_gutter->setGeometry(QRect(area.left(), area.top(), gutterWidth(), area.height()));
}

void CodeEditor::updateGutterWidth()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

void CodeEditor::updateGutter(const QRect &rect, int dy)
{
    if (dy != 0)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    if (rect.contains(viewport()->rect()))
        updateGutterWidth();
}

void CodeEditor::paintGutter(QPaintEvent *event)
{
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), m_gutterBackground);
    painter.setPen(m_gutterSeparator);
    painter.drawLine(m_gutter->width() - 1, event->rect().top(), m_gutter->width() - 1,
                     event->rect().bottom());

    const int currentBlock = textCursor().blockNumber();
    QFont current = font();
    current.setBold(true);

    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber();
    qreal top = blockBoundingGeometry(block).translated(contentOffset()).top();
    qreal bottom = top + blockBoundingRect(block).height();
    const int height = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            const bool isCurrent = number == currentBlock;
            painter.setFont(isCurrent ? current : font());
            painter.setPen(isCurrent ? m_gutterCurrentForeground : m_gutterForeground);
            painter.drawText(0, qRound(top), m_gutter->width() - GutterPadding, height,
                             Qt::AlignRight | Qt::AlignVCenter, QString::number(number + 1));
            // The strongest finding of the line, as a bar at the gutter's left edge.
            int rank = 0;
            QString action;
            for (const sandbox::PolicyFinding &f : std::as_const(m_findings))
                if (f.line == number + 1 && actionRank(f.action) > rank) {
                    rank = actionRank(f.action);
                    action = f.action;
                }
            if (rank > 0)
                painter.fillRect(0, qRound(top), 4, height, findingColor(action));
        }
        block = block.next();
        top = bottom;
        bottom = top + blockBoundingRect(block).height();
        ++number;
    }
}

void CodeEditor::setFindings(const QList<sandbox::PolicyFinding> &findings)
{
    if (findings == m_findings)
        return;
    m_findings = findings;
    highlightCurrentLine();
}

QString CodeEditor::findingsTooltip(int line) const
{
    QStringList lines;
    for (const sandbox::PolicyFinding &f : m_findings)
        if (f.line == line)
            lines << tr("Policy %1 (%2, %3): %4").arg(f.action, f.severity, f.rule, f.message);
    return lines.join(u'\n');
}

bool CodeEditor::showFindingsTip(const QPoint &globalPos, int viewportY)
{
    const int line = cursorForPosition(QPoint(0, viewportY)).blockNumber() + 1;
    const QString tip = findingsTooltip(line);
    if (tip.isEmpty()) {
        QToolTip::hideText();
        return false;
    }
    QToolTip::showText(globalPos, tip, this);
    return true;
}

bool CodeEditor::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        if (showFindingsTip(help->globalPos(), help->pos().y()))
            return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

void CodeEditor::highlightCurrentLine()
{
    QList<QTextEdit::ExtraSelection> selections;
    QTextEdit::ExtraSelection line;
    line.format.setBackground(m_currentLineColor);
    line.format.setProperty(QTextFormat::FullWidthSelection, true);
    line.cursor = textCursor();
    line.cursor.clearSelection();
    selections.append(line);
    for (const sandbox::PolicyFinding &f : std::as_const(m_findings)) {
        const QTextBlock block = document()->findBlockByNumber(f.line - 1);
        if (!block.isValid() || f.line <= 0)
            continue;
        QTextEdit::ExtraSelection mark;
        mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        mark.format.setUnderlineColor(findingColor(f.action));
        mark.format.setToolTip(findingsTooltip(f.line));
        mark.cursor = QTextCursor(block);
        mark.cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        selections.append(mark);
    }
    setExtraSelections(selections);
    m_gutter->update(); // the bold current line number moves
}

namespace {

/// Leading spaces and tabs of text.
QString leadingWhitespace(const QString &text)
{
    qsizetype n = 0;
    while (n < text.size() && (text[n] == u' ' || text[n] == u'\t'))
        ++n;
    return text.left(n);
}

} // namespace

void CodeEditor::indentSelection(bool indent)
{
    QTextCursor cursor = textCursor();
    const int start = cursor.selectionStart();
    const int end = cursor.selectionEnd();
    QTextBlock block = document()->findBlock(start);
    QTextBlock last = document()->findBlock(end);
    // A selection that ends at the start of a line does not include that line.
    if (last.position() == end && last != block)
        last = last.previous();

    cursor.beginEditBlock();
    for (;; block = block.next()) {
        QTextCursor line(block);
        if (indent) {
            if (!block.text().isEmpty())
                line.insertText(QString(IndentWidth, u' '));
        } else {
            const QString text = block.text();
            int remove = 0;
            if (text.startsWith(u'\t'))
                remove = 1;
            else
                while (remove < IndentWidth && remove < text.size() && text[remove] == u' ')
                    ++remove;
            line.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, remove);
            line.removeSelectedText();
        }
        if (block == last)
            break;
    }
    cursor.endEditBlock();
}

void CodeEditor::keyPressEvent(QKeyEvent *event)
{
    const auto mods = event->modifiers() & ~Qt::KeypadModifier;
    QTextCursor cursor = textCursor();
    if (isReadOnly() || (mods != Qt::NoModifier && mods != Qt::ShiftModifier)) {
        QPlainTextEdit::keyPressEvent(event);
        return;
    }

    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter: {
        // Keep the indentation; one level more after an opening bracket (or ':' in Python).
        const QString before = cursor.block().text().left(cursor.positionInBlock());
        QString indent = leadingWhitespace(before);
        const QString trimmed = before.trimmed();
        if (trimmed.endsWith(u'{') || trimmed.endsWith(u'(') || trimmed.endsWith(u'[') ||
            (trimmed.endsWith(u':') && highlightingDefinition() == u"Python"))
            indent += QString(IndentWidth, u' ');
        cursor.insertText(u'\n' + indent);
        setTextCursor(cursor);
        ensureCursorVisible();
        return;
    }
    case Qt::Key_Tab:
        if (cursor.hasSelection() && document()->findBlock(cursor.selectionStart()) !=
                                         document()->findBlock(cursor.selectionEnd())) {
            indentSelection(true);
        } else {
            const int column = cursor.positionInBlock();
            cursor.insertText(QString(IndentWidth - column % IndentWidth, u' '));
        }
        return;
    case Qt::Key_Backtab:
        indentSelection(false);
        return;
    case Qt::Key_Backspace:
        // In leading spaces, go back to the previous indentation stop.
        if (!cursor.hasSelection() && cursor.positionInBlock() > 0) {
            const QString before = cursor.block().text().left(cursor.positionInBlock());
            if (before.count(u' ') == before.size()) {
                const int remove = (int(before.size()) - 1) % IndentWidth + 1;
                cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, remove);
                cursor.removeSelectedText();
                return;
            }
        }
        break;
    case Qt::Key_BraceRight:
        // A closing brace on a line of only spaces goes back one level.
        if (!cursor.hasSelection()) {
            const QString before = cursor.block().text().left(cursor.positionInBlock());
            if (before.size() >= IndentWidth && before.count(u' ') == before.size()) {
                cursor.beginEditBlock();
                cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, IndentWidth);
                cursor.insertText(QStringLiteral("}"));
                cursor.endEditBlock();
                return;
            }
        }
        break;
    default:
        break;
    }
    QPlainTextEdit::keyPressEvent(event);
}
