// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

/// A banner across the top of the window that says the container engine cannot be used,
/// what to do about it, and offers Retry. Hidden while the engine is fine.
class EngineBanner final : public QFrame
{
    Q_OBJECT

public:
    explicit EngineBanner(QWidget *parent = nullptr);

    /// Shows the banner with a headline (what to do) and the technical detail.
    void showProblem(const QString &headline, const QString &detail);
    /// While checking, Retry is disabled and says so.
    void setChecking(bool checking);

    QString headline() const;
    QString detail() const;

Q_SIGNALS:
    void retryRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateColors();

    QLabel *m_icon;
    QLabel *m_headline;
    QLabel *m_detail;
    QPushButton *m_retry;
};
