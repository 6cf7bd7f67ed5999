// SnapshotGrid: every head's attention on the probe sequence, one heatmap each (layers x heads).
#pragma once

#include "plot/plotstyle.h"
#include "train/trainer.h"

#include <QWidget>

#include <vector>

class QLabel;

namespace headlens {

class HeatmapPlot;

/// Passive: setSnapshot() refills the heatmaps (created only when the head count changes).
/// Row r is layer r; column h is head h, titled in the head's color with the score of the
/// pattern the task needs.
class SnapshotGrid : public QWidget
{
    Q_OBJECT
public:
    explicit SnapshotGrid(QWidget *parent = nullptr);

    void setSnapshot(const AttentionSnapshot &snapshot, TaskKind task);
    /// When no arrangement fits cells of 8 px with labels in the visible height: true shrinks
    /// the cells to fit, without token labels (every head still in view: the language
    /// model's probe); false (the default) keeps 8 px cells and labels, and the page scrolls.
    void setShrinkToFit(bool shrink);
    void clear();
    void setPlotStyle(const PlotStyle &style);

    QSize sizeHint() const override { return {600, 480}; }
    /// The training step of the snapshot on screen; -1 before the first.
    int64_t shownStep() const { return m_step; }
    int plotCount() const { return int(m_plots.size()); }
    /// The heatmap of layer * heads + head, like AttentionSnapshot::weights.
    HeatmapPlot *plot(int index) const { return m_plots.at(size_t(index)); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    static constexpr int kGap = 4;       ///< px between heads
    static constexpr int kLayerGap = 14; ///< px between layers
    void rebuild(int layers, int heads);
    /// Square cells, as large as the area allows: stretched ones would hide the diagonal.
    void placePlots();

    QWidget *m_host = nullptr;
    QLabel *m_caption = nullptr;
    std::vector<HeatmapPlot *> m_plots;
    int64_t m_step = -1;
    bool m_shrinkToFit = false;
    int m_layers = 0;
    int m_heads = 0;
    PlotStyle m_style;
};

} // namespace headlens
