// CorpusMapPlot: the heads of a model placed by how alike they attend (Clark et al. 2019,
// Figure 6), one dot per head coloured by its layer.
#pragma once

#include "corpus/corpussummary.h"
#include "plot/plotstyle.h"

#include <qcustomplot.h>

namespace headlens {

/// One scatter graph per layer (its legend entry), dots at CorpusSummary::map. Hovering a dot
/// names the head and its numbers; clicking it asks to open the head. Heads are labelled
/// "L0 H4" (layers from 0, heads from 1) when there are few enough to read.
class CorpusMapPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit CorpusMapPlot(QWidget *parent = nullptr);

    void setSummary(const CorpusSummary &summary);
    void clearSummary();
    void setPlotStyle(const PlotStyle &style);
    /// The head whose dot is nearest to `pixel` within a few pixels, or (-1, -1).
    std::pair<int, int> headAt(const QPointF &pixel) const;
    /// What hovering a head shows.
    QString hoverText(int layer, int head) const;
    /// Draw a label beside each dot up to this many heads (GPT-2 small's 144 would be a blur).
    static constexpr int kLabelledHeads = 48;
    QSize sizeHint() const override { return {480, 400}; }

signals:
    void headChosen(int layer, int head);

protected:
    void mouseMoveEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    void rebuild();

    CorpusSummary m_summary;
    bool m_hasSummary = false;
    bool m_dark = false;
    QFont m_labelFont;
    QCPTextElement *m_title = nullptr;
};

} // namespace headlens
