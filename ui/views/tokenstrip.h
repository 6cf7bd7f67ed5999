// TokenStrip: the tokens of the shown sequence as chips; hovering one highlights its row
// everywhere.
#pragma once

#include "plot/plotstyle.h"

#include <QStringList>
#include <QWidget>

#include <vector>

namespace headlens {

class Selection;

class TokenStrip : public QWidget
{
    Q_OBJECT
public:
    explicit TokenStrip(QWidget *parent = nullptr);

    void setTokens(const QStringList &tokens);
    void setSelection(Selection *selection);
    void setPlotStyle(const PlotStyle &style);
    const QStringList &tokens() const { return m_tokens; }
    /// Index of the chip under `position`, or -1.
    int tokenAt(const QPoint &position) const;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    void layoutChips();

    QStringList m_tokens;
    std::vector<QRect> m_chips;
    Selection *m_selection = nullptr;
    PlotStyle m_style;
    int m_highlighted = -1;
};

} // namespace headlens
