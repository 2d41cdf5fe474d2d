// SPDX-License-Identifier: GPL-3.0-or-later
#include "enginebanner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

EngineBanner::EngineBanner(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_headline(new QLabel(this))
    , m_detail(new QLabel(this))
    , m_retry(new QPushButton(tr("&Retry"), this))
{
    setObjectName(u"engineBanner"_s);
    setAccessibleName(tr("Container engine problem"));
    setAutoFillBackground(true);
    setFrameShape(QFrame::StyledPanel);

    const int iconSize = style()->pixelMetric(QStyle::PM_LargeIconSize, nullptr, this);
    m_icon->setPixmap(style()
                          ->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this)
                          .pixmap(iconSize, iconSize));
    m_icon->setAlignment(Qt::AlignTop);

    QFont bold = m_headline->font();
    bold.setBold(true);
    m_headline->setFont(bold);
    m_headline->setObjectName(u"engineBannerText"_s);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setObjectName(u"engineBannerDetail"_s);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_retry->setObjectName(u"retryButton"_s);
    m_retry->setToolTip(tr("Check the container engine again"));
    connect(m_retry, &QPushButton::clicked, this, &EngineBanner::retryRequested);

    auto *text = new QVBoxLayout;
    text->setSpacing(2);
    text->addWidget(m_headline);
    text->addWidget(m_detail);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 8, 12, 8);
    layout->setSpacing(12);
    layout->addWidget(m_icon);
    layout->addLayout(text, 1);
    layout->addWidget(m_retry, 0, Qt::AlignVCenter);

    updateColors();
    hide();
}

void EngineBanner::showProblem(const QString &headline, const QString &detail)
{
    m_headline->setText(headline);
    m_detail->setText(detail);
    m_detail->setVisible(!detail.isEmpty());
    setToolTip(detail);
    setChecking(false);
    show();
}

void EngineBanner::setChecking(bool checking)
{
    m_retry->setEnabled(!checking);
    m_retry->setText(checking ? tr("Checking…") : tr("&Retry"));
}

QString EngineBanner::headline() const
{
    return m_headline->text();
}

QString EngineBanner::detail() const
{
    return m_detail->text();
}

void EngineBanner::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::ApplicationPaletteChange)
        updateColors();
}

void EngineBanner::updateColors()
{
    // A warm tint of the window colour that reads as "attention" in light and dark themes.
    QPalette pal = QPalette();
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    pal.setColor(QPalette::Window, dark ? QColor(0x4a, 0x2a, 0x1a) : QColor(0xff, 0xf1, 0xd6));
    pal.setColor(QPalette::WindowText, dark ? QColor(0xff, 0xe0, 0xc2) : QColor(0x5c, 0x2c, 0x00));
    setPalette(pal);
}
