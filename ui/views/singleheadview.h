// SingleHeadView: one head, large, with its own color bar and the same hover.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"
#include "views/headimagemaker.h"

#include <QWidget>

#include <memory>

class QLabel;
class QToolButton;

namespace headlens {

class HeatmapPlot;
class Selection;

/// The pinned head at full resolution up to kMaxCells per side; longer texts are max-pooled to
/// that (more cells than the plot has pixels cannot be seen, and pooling keeps the strongest
/// weights), and hovering still names the exact cell. Drawn when HeadImageMaker has the image.
class SingleHeadView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxCells = 1024;

    explicit SingleHeadView(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batchIndex);
    void setSelection(Selection *selection);
    void setPlotStyle(const PlotStyle &style);
    int head() const { return m_head; }
    HeatmapPlot *plot() const { return m_plot; }
    const QString &hoverText() const { return m_hoverText; }
    /// The trace whose weights the plot shows now (it follows setTrace with a delay for long
    /// texts); null once that trace is freed.
    std::shared_ptr<const Trace> drawnTrace() const { return m_shown.trace.lock(); }

signals:
    void hoverTextChanged(const QString &text);
    /// Right-click on the head: `layer` is the trace's (0 for the built-in layer).
    void headMenuRequested(int layer, int head, const QPoint &globalPosition);

private:
    void setHead(int head);
    void refill();
    void applyImage(const HeadImages &images);
    /// `images` show the pinned head of the trace and sequence on screen now.
    bool isCurrent(const HeadImages &images) const;
    void onCellHovered(int row, int col);

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    int m_head = -1;
    Selection *m_selection = nullptr;
    PlotStyle m_style;
    HeatmapPlot *m_plot = nullptr;
    QToolButton *m_close = nullptr;
    QString m_hoverText;
    HeadImageMaker *m_images = nullptr;
    HeadImages m_shown; ///< kept so a style change redraws without pooling again
};

} // namespace headlens
