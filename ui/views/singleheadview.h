// SingleHeadView: one head at full resolution, large, with its own color bar and the same hover.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QLabel;
class QToolButton;

namespace headlens {

class HeatmapPlot;
class Selection;

class SingleHeadView : public QWidget
{
    Q_OBJECT
public:
    explicit SingleHeadView(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batchIndex);
    void setSelection(Selection *selection);
    void setPlotStyle(const PlotStyle &style);
    int head() const { return m_head; }
    HeatmapPlot *plot() const { return m_plot; }
    const QString &hoverText() const { return m_hoverText; }

signals:
    void hoverTextChanged(const QString &text);

private:
    void setHead(int head);
    void refill();
    void onCellHovered(int row, int col);

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    int m_head = -1;
    Selection *m_selection = nullptr;
    PlotStyle m_style;
    HeatmapPlot *m_plot = nullptr;
    QToolButton *m_close = nullptr;
    QString m_hoverText;
};

} // namespace headlens
