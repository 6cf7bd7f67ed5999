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
    /// (n) the segment of every token (ModelRun::segments). With a sentence B, a band under
    /// the chips shows which sentence each token belongs to; empty or all 0: no band.
    void setSegments(const std::vector<int> &segments);
    /// The band's colour under a token of `segment`: the same in light and dark themes, and
    /// apart from the chips' grey and the highlight's pink.
    static QColor segmentColor(int segment);
    static bool hasSentenceB(const std::vector<int> &segments);
    /// Where the band under chip `index` is drawn; empty when there is no band.
    QRect segmentBand(int index) const;
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
    bool event(QEvent *event) override;

private:
    void layoutChips();

    bool showsSegments() const;

    QStringList m_tokens;
    std::vector<int> m_segments;
    std::vector<QRect> m_chips;
    Selection *m_selection = nullptr;
    PlotStyle m_style;
    int m_highlighted = -1;
};

} // namespace headlens
