// SPDX-License-Identifier: GPL-3.0-or-later
#include "celloutputs.h"

#include "artifactactions.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QContextMenuEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QMenu>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtMath>

using namespace Qt::StringLiterals;

namespace {

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QColor errorColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xff, 0x7b, 0x72) : QColor(0xc0, 0x1c, 0x28);
}

} // namespace

// ---------------------------------------------------------------------------------------
// OutputText

OutputText::OutputText(Style style, QWidget *parent)
    : QWidget(parent)
    , m_style(style)
    , m_view(new QPlainTextEdit(this))
    , m_toggle(new QToolButton(this))
{
    m_view->setObjectName(u"outputTextView"_s);
    m_view->setReadOnly(true);
    m_view->setUndoRedoEnabled(false);
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_view->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_view->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    // Outputs are reached by mouse; Tab moves between the cells' editors.
    m_view->setFocusPolicy(Qt::ClickFocus);
    m_view->document()->setDocumentMargin(3);
    m_view->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_view->setAccessibleName(style == Style::Stderr      ? tr("Error output")
                              : style == Style::Result    ? tr("Result")
                              : style == Style::Traceback ? tr("Traceback")
                                                          : tr("Output"));

    m_toggle->setObjectName(u"showAllButton"_s);
    m_toggle->setAutoRaise(true);
    m_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toggle->setCursor(Qt::PointingHandCursor);
    QFont small = m_toggle->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_toggle->setFont(small);
    m_toggle->hide();
    connect(m_toggle, &QToolButton::clicked, this, [this] { setCollapsed(!m_collapsed); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_view);
    layout->addWidget(m_toggle, 0, Qt::AlignLeft);

    // Height follows the laid-out text: after edits and after the width changed.
    auto *relayout = new QTimer(this);
    relayout->setSingleShot(true);
    relayout->setInterval(0);
    connect(relayout, &QTimer::timeout, this, &OutputText::updateHeight);
    connect(m_view->document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged,
            relayout, [relayout] { relayout->start(); });

    applyColors();
    updateHeight();
}

QString OutputText::render(const QString &raw)
{
    static const QRegularExpression ansi(
        u"\x1b\\[[0-?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|\x1b[()][0-9A-Za-z]"_s);
    QString text = raw;
    if (text.contains(u'\x1b'))
        text.remove(ansi);

    QString out;
    out.reserve(text.size());
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if (c == u'\r') {
            if (i + 1 < text.size() && text.at(i + 1) == u'\n')
                continue;            // "\r\n" is a line break
            out.truncate(lineStart); // back to the start of the line, as a terminal would
        } else if (c == u'\n') {
            out.append(u'\n');
            lineStart = out.size();
        } else if (c < 0x20 && c != u'\t') {
            out.append(QChar(char16_t(0x2400 + c))); // Control Pictures: NUL -> ␀
        } else {
            out.append(text.at(i));
        }
    }
    return out;
}

QString OutputText::bounded(const QString &text)
{
    if (text.size() <= 2 * MaximumCharacters)
        return text;
    // Keep the newest text, from a line start; amortised so a flood stays linear.
    qsizetype cut = text.size() - MaximumCharacters;
    const qsizetype lineStart = text.indexOf(u'\n', cut);
    if (lineStart >= 0 && lineStart < text.size() - 1)
        cut = lineStart + 1;
    return tr("[earlier output removed]") + u'\n' + text.mid(cut);
}

QString OutputText::text() const
{
    return m_view->toPlainText();
}

void OutputText::setText(const QString &raw)
{
    m_raw = raw;
    m_rawHasCarriageReturn = raw.contains(u'\r');
    QString shown = render(raw);
    if (shown.endsWith(u'\n'))
        shown.chop(1); // the block ends where the text does; no empty last line
    m_view->setPlainText(shown);
    m_pendingNewline = raw.endsWith(u'\n');
    updateToggle();
}

void OutputText::appendText(const QString &raw)
{
    if (raw.isEmpty())
        return;
    if (m_raw.size() + raw.size() > 2 * MaximumCharacters) {
        setText(bounded(m_raw + raw));
        return;
    }
    if (raw.contains(u'\r') || raw.contains(u'\x1b') || m_rawHasCarriageReturn) {
        setText(m_raw + raw);
        return;
    }
    m_raw += raw;
    QScrollBar *bar = m_view->verticalScrollBar();
    const bool follow = bar->value() == bar->maximum();
    QString shown = render(raw);
    if (m_pendingNewline)
        shown.prepend(u'\n');
    m_pendingNewline = shown.endsWith(u'\n');
    if (m_pendingNewline)
        shown.chop(1);
    QTextCursor cursor(m_view->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(shown);
    if (follow)
        bar->setValue(bar->maximum());
    updateToggle();
}

int OutputText::lineCount() const
{
    return m_view->document()->blockCount();
}

bool OutputText::isCollapsible() const
{
    return lineCount() > CollapsedLines;
}

void OutputText::setCollapsed(bool collapsed)
{
    if (m_collapsed == collapsed)
        return;
    m_collapsed = collapsed;
    updateToggle();
    updateHeight();
}

void OutputText::updateToggle()
{
    const bool collapsible = isCollapsible();
    m_toggle->setVisible(collapsible);
    if (collapsible) {
        m_toggle->setText(m_collapsed ? tr("Show all %1 lines").arg(QLocale().toString(lineCount()))
                                      : tr("Collapse"));
        m_toggle->setArrowType(m_collapsed ? Qt::DownArrow : Qt::UpArrow);
    }
    m_view->setVerticalScrollBarPolicy(collapsible && m_collapsed ? Qt::ScrollBarAsNeeded
                                                                  : Qt::ScrollBarAlwaysOff);
}

void OutputText::updateHeight()
{
    // Sum the laid-out (wrapped) block heights; when collapsed, only up to the limit.
    const QTextDocument *document = m_view->document();
    const auto *layout = document->documentLayout();
    const int lineHeight = QFontMetrics(m_view->font()).lineSpacing();
    const qreal limit = isCollapsible() && m_collapsed ? CollapsedLines * lineHeight : 1e9;
    qreal height = 0;
    for (QTextBlock block = document->begin(); block.isValid() && height < limit;
         block = block.next())
        height += layout->blockBoundingRect(block).height();
    height = qMin(height, limit);
    const int frame = 2 * m_view->frameWidth() + qCeil(2 * document->documentMargin());
    const int pixels = qMax(lineHeight, qCeil(height)) + frame;
    m_view->setFixedHeight(qMin(pixels, QWIDGETSIZE_MAX));
}

void OutputText::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateHeight();
}

void OutputText::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        applyColors();
}

void OutputText::applyColors()
{
    const QPalette app = QApplication::palette(this);
    QPalette pal = m_view->palette();
    const QColor base = app.color(QPalette::Base);
    const QColor red = errorColor(app);
    QColor background = base;
    QColor text = app.color(QPalette::Text);
    switch (m_style) {
    case Style::Stdout:
    case Style::Result:
        // Output reads as text on the page, not as another input box.
        background = app.color(QPalette::Window);
        break;
    case Style::Stderr:
        background = mix(base, red, isDark(app) ? 0.14 : 0.08);
        text = isDark(app) ? mix(text, red, 0.35) : mix(text, red, 0.55);
        break;
    case Style::Traceback:
        background = mix(base, red, isDark(app) ? 0.08 : 0.04);
        break;
    case Style::Notice:
        background = app.color(QPalette::Window);
        text = mix(text, base, 0.4);
        break;
    }
    pal.setColor(QPalette::Base, background);
    pal.setColor(QPalette::Text, text);
    m_view->setPalette(pal);
}

// ---------------------------------------------------------------------------------------
// OutputImage

OutputImage::OutputImage(const QByteArray &data, const QString &mimeType, QWidget *parent)
    : QLabel(parent)
    , m_data(data)
    , m_mimeType(mimeType)
    , m_image(QImage::fromData(data))
{
    setObjectName(u"outputImage"_s);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setCursor(Qt::PointingHandCursor);
    setContextMenuPolicy(Qt::DefaultContextMenu);
    setAccessibleName(tr("Image output"));
    if (m_image.isNull()) {
        setText(tr("[%1 image that could not be decoded, %2]")
                    .arg(mimeType, QLocale().formattedDataSize(data.size())));
        return;
    }
    setToolTip(tr("%1 × %2 image — click to view full size, right-click to save or copy")
                   .arg(m_image.width())
                   .arg(m_image.height()));
    updateScaled();
}

QSize OutputImage::naturalSize() const
{
    return m_image.isNull() ? QLabel::sizeHint() : m_image.deviceIndependentSize().toSize();
}

int OutputImage::heightForWidth(int width) const
{
    const QSize natural = naturalSize();
    if (m_image.isNull() || natural.width() <= 0)
        return QLabel::heightForWidth(width);
    const int shown = qMin(width, natural.width());
    return qMax(1, shown * natural.height() / natural.width());
}

QSize OutputImage::sizeHint() const
{
    return naturalSize();
}

QSize OutputImage::minimumSizeHint() const
{
    if (m_image.isNull())
        return QLabel::minimumSizeHint();
    const int width = qMin(naturalSize().width(), 48);
    return {width, heightForWidth(width)};
}

void OutputImage::updateScaled()
{
    if (m_image.isNull())
        return;
    const QSize natural = naturalSize();
    // Before the first layout the label is a default 100 px wide: show the natural size.
    const int available = testAttribute(Qt::WA_Resized) || isVisible() ? width() : natural.width();
    const int shown = qBound(1, available, natural.width());
    const qreal ratio = devicePixelRatioF();
    QPixmap pixmap;
    if (shown == natural.width() && qFuzzyCompare(ratio, m_image.devicePixelRatio()))
        pixmap = QPixmap::fromImage(m_image);
    else
        pixmap = QPixmap::fromImage(
            m_image.scaledToWidth(qRound(shown * ratio), Qt::SmoothTransformation));
    pixmap.setDevicePixelRatio(ratio);
    setPixmap(pixmap);
}

void OutputImage::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    updateScaled();
}

void OutputImage::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && !m_image.isNull() &&
        pixmap().rect().contains(event->position().toPoint()))
        showFullSize();
    QLabel::mouseReleaseEvent(event);
}

void OutputImage::contextMenuEvent(QContextMenuEvent *event)
{
    if (m_image.isNull())
        return;
    QMenu menu(this);
    menu.addAction(tr("&View Full Size"), this, &OutputImage::showFullSize);
    menu.addSeparator();
    menu.addAction(QIcon::fromTheme(QIcon::ThemeIcon::DocumentSaveAs), tr("&Save Image As…"), this,
                   &OutputImage::saveAs);
    menu.addAction(QIcon::fromTheme(QIcon::ThemeIcon::EditCopy), tr("&Copy Image"), this,
                   &OutputImage::copyToClipboard);
    menu.exec(event->globalPos());
}

void OutputImage::showFullSize()
{
    ArtifactActions::showImage(this, m_image, m_data, m_mimeType);
}

void OutputImage::saveAs()
{
    ArtifactActions::saveImageAs(this, m_image, m_data, m_mimeType);
}

void OutputImage::copyToClipboard()
{
    ArtifactActions::copyImage(m_image);
}

// ---------------------------------------------------------------------------------------
// OutputError

OutputError::OutputError(const QString &ename, const QString &evalue, const QStringList &traceback,
                         QWidget *parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_toggle(new QToolButton(this))
    , m_traceback(new OutputText(OutputText::Style::Traceback, this))
{
    setObjectName(u"outputError"_s);
    m_headline->setObjectName(u"errorHeadline"_s);
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_headline->setText(evalue.isEmpty() ? ename : ename + u": "_s + evalue);
    QFont bold = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    bold.setBold(true);
    m_headline->setFont(bold);
    QPalette pal = m_headline->palette();
    pal.setColor(QPalette::WindowText, errorColor(QApplication::palette(this)));
    m_headline->setPalette(pal);

    QStringList lines;
    lines.reserve(traceback.size());
    for (QString entry : traceback) {
        if (entry.endsWith(u'\n'))
            entry.chop(1); // Python's entries end in a newline, others' do not
        lines << entry;
    }
    m_traceback->setText(lines.join(u'\n'));

    m_toggle->setObjectName(u"tracebackToggle"_s);
    m_toggle->setAutoRaise(true);
    m_toggle->setAccessibleName(tr("Traceback"));
    connect(m_toggle, &QToolButton::clicked, this,
            [this] { setTracebackVisible(!isTracebackVisible()); });

    auto *header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->setSpacing(2);
    header->addWidget(m_toggle, 0, Qt::AlignTop);
    header->addWidget(m_headline, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(m_traceback);

    const bool hasTraceback = !traceback.isEmpty();
    m_toggle->setVisible(hasTraceback);
    // An interrupt's traceback only says where the cell was stopped.
    setTracebackVisible(hasTraceback && ename != u"KeyboardInterrupt");
}

QString OutputError::headline() const
{
    return m_headline->text();
}

bool OutputError::isTracebackVisible() const
{
    return !m_traceback->isHidden();
}

void OutputError::setTracebackVisible(bool visible)
{
    m_traceback->setVisible(visible);
    m_toggle->setArrowType(visible ? Qt::DownArrow : Qt::RightArrow);
    m_toggle->setToolTip(visible ? tr("Hide the traceback") : tr("Show the traceback"));
}
