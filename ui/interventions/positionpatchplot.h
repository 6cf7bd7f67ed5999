// PositionPatchPlot: one head of a patching map patched at one position at a time, as bars.
#pragma once

#include "model/patchingmap.h"
#include "plot/plotstyle.h"

#include <qcustomplot.h>

#include <vector>

namespace headlens {

/// A bar per token of the run patched into (PatchingMap::byPosition): where in the text the
/// head's output carries the answer. Bars above 0 move the metric the patch's way, below 0 the
/// other; the y range is symmetric so the two read alike. Hovering a bar shows its value.
class PositionPatchPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit PositionPatchPlot(QWidget *parent = nullptr);

    void setPatching(const PatchingMap &map);
    void setPlotStyle(const PlotStyle &style);
    /// What the bars draw, one per position (empty before the first map).
    const std::vector<double> &values() const { return m_values; }
    QString title() const { return m_title->text(); }
    /// What hovering position `p` (from 0) shows, counted from 1 ("token 3 “␣Mary” · 0.412" for
    /// p = 2); empty off the range.
    QString hoverText(int p) const;
    QSize sizeHint() const override { return {480, 200}; }

protected:
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    QCPTextElement *m_title = nullptr;
    QCPBars *m_bars = nullptr;
    std::vector<double> m_values;
    std::vector<QString> m_tokens;
};

} // namespace headlens
