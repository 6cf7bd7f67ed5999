// RankingHeatmap: a layers x heads ranking drawn as a heatmap, listed sortable, with its progress.
#pragma once

#include "plot/plotstyle.h"
#include "tensor/tensor.h"

#include <QWidget>

#include <functional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace headlens {

class HeatmapPlot;
class RankingTable;

/// The part the importance and patching views share. Passive: setValues() draws a finished
/// ranking; while one is computed (setRunning) a progress bar and Cancel show, and a ranking
/// that stops (showCancelled, showFailed) leaves the last picture as it was. A click on a
/// cell or a row asks to open that head.
class RankingHeatmap : public QWidget
{
    Q_OBJECT
public:
    explicit RankingHeatmap(QWidget *parent = nullptr);

    /// `values` (L, h); `valueName` heads the list's value column ("Δ loss").
    void setValues(const RowMatrix &values, const QString &title, const QString &valueName);
    void setPlotStyle(const PlotStyle &style);
    void setRunning(bool running);
    void setProgress(int percent);
    void showCancelled();
    void showFailed(const QString &message);
    /// Outlines head (layer, head) on the map (the head pinned elsewhere); -1: none.
    void chooseHead(int layer, int head);
    /// The line under the title says `text` (what runs, what was written).
    void setStatus(const QString &text);
    /// Back to before the first ranking: no values, no map, no status.
    void clear();
    /// What hovering cell (layer, head) shows; by default "layer L · head H: value".
    void setCellDescriber(std::function<QString(int layer, int head)> describe);
    /// The line under the title: what is computing, was cancelled or went wrong.
    QString status() const;
    /// The line above the map: what the values are ("… (at token 6 “␣sat”)").
    QString title() const;
    bool isRunning() const { return m_running; }
    const RowMatrix &values() const { return m_values; }
    HeatmapPlot *plot() const { return m_plot; }
    RankingTable *table() const { return m_table; }
    QPushButton *cancelButton() const { return m_cancel; }

signals:
    void cancelRequested();
    /// 0-based layer and head.
    void headActivated(int layer, int head);

private:
    RowMatrix m_values;
    std::function<QString(int, int)> m_describe;
    bool m_running = false;
    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    HeatmapPlot *m_plot = nullptr;
    RankingTable *m_table = nullptr;
    QWidget *m_results = nullptr; ///< the plot and the table, hidden before the first ranking
};

} // namespace headlens
