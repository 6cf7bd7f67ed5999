// ModelGridView: every layer x head of a model as small heatmaps; a click opens that head.
#pragma once

#include "model/modelrun.h"
#include "models/modelthumbnails.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>
#include <vector>

class QGridLayout;
class QLabel;

namespace headlens {

class ColorLegend;
class HeatmapPlot;

/// Passive: row = layer, column = head, thumbnails max-pooled to kThumbnailCells per side
/// (ModelThumbnailMaker: in the thread pool for a large run, the previous thumbnails staying
/// until then), coloured by the View menu's colour scale (by default shared by every head, up
/// to the largest weight of the model), with a legend. Plots are reused when the shape stays
/// the same. While its tab is hidden in a shown window nothing is pooled: the newest run's
/// thumbnails are asked for when it shows (pooling 144 heads at 1,024 tokens took a view
/// thread for half a second on every keystroke, beside the pass).
class ModelGridView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kThumbnailCells = 48;

    explicit ModelGridView(QWidget *parent = nullptr);

    void setRun(std::shared_ptr<const ModelRun> run);
    void setPlotStyle(const PlotStyle &style);
    /// Marks the layer and head the heads view shows (-1: none).
    void setCurrent(int layer, int head);

    int layerCount() const { return m_layers; }
    int headCount() const { return m_heads; }
    int plotCount() const { return int(m_plots.size()); }
    HeatmapPlot *plot(int layer, int head) const;
    ColorLegend *legend() const { return m_legend; }
    /// The thumbnails drawn: the newest that came, possibly of an older run for a moment.
    const ModelThumbnails &thumbnails() const { return m_thumbnails; }

signals:
    void headClicked(int layer, int head);
    void headMenuRequested(int layer, int head, const QPoint &globalPosition);

protected:
    void showEvent(QShowEvent *event) override;

private:
    /// The grid for `layers` x `heads`; with kvHeads < heads a row above the head numbers names
    /// each K/V group ("K/V 1" over the heads that share it) and groups stand apart.
    void rebuild(int layers, int heads, int kvHeads);
    /// Asks for the run's thumbnails; draw() shows them when they come.
    void refill();
    /// Puts `m_thumbnails` into the plots with the current style, tooltips and legend.
    void draw();
    void markCurrent();

    std::shared_ptr<const ModelRun> m_run;
    ModelThumbnailMaker *m_thumbnailMaker = nullptr;
    ModelThumbnails m_thumbnails; ///< the newest that came, possibly of an older run
    PlotStyle m_style;
    QGridLayout *m_grid = nullptr;
    std::vector<HeatmapPlot *> m_plots; ///< layer * heads + head
    std::vector<QLabel *> m_labels;     ///< row and column headers
    ColorLegend *m_legend = nullptr;
    int m_layers = 0;
    int m_heads = 0;
    int m_kvHeads = 0;
    int m_currentLayer = -1;
    int m_currentHead = -1;
    bool m_refillPending = false; ///< the run came while hidden; refill when shown
};

} // namespace headlens
