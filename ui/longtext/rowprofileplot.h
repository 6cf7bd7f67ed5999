// RowProfilePlot: where one head's queries of a long text look, over the position.
#pragma once

#include "model/modelrun.h"
#include "plot/plotstyle.h"
#include "stats/rowprofiles.h"

#include <qcustomplot.h>

namespace headlens {

/// Per query position of the pinned head (TiledAttention::profiles): its share of attention on
/// the first sink tokens, within the recent window and on keys far away (left axis, 0..1), and
/// its mean attention distance in tokens (right axis). An attention sink is a sink share near 1
/// at every position; a local head's share within the window stays near 1 and its distance
/// flat; a long-range head's far share and distance grow with the position. What StreamingLLM
/// would keep of a query's attention is its sink share plus its share within the window.
class RowProfilePlot : public QCustomPlot
{
    Q_OBJECT
public:
    enum Series
    {
        Sink,
        Near,
        Far,
        Distance
    };

    explicit RowProfilePlot(QWidget *parent = nullptr);

    /// Head `head` of `layer` of `run` (a tiled run).
    void setHead(const ModelRun &run, int layer, int head);
    void setPlotStyle(const PlotStyle &style);
    /// What hovering query `position` says; empty off the text.
    QString hoverText(int64_t position) const;
    QSize sizeHint() const override { return {480, 220}; }

    /// Each line holds at most twice this many points (LineEnvelope): wider than any screen.
    static constexpr int64_t kEnvelopeBuckets = 2048;

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QCPTextElement *m_title = nullptr;
    ProfileRanges m_ranges;
    RowProfiles m_profiles; ///< the head's exact values, which hover reads
};

} // namespace headlens
