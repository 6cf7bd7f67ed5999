// CurvePlot: a small line chart over training steps (loss, accuracy, head scores), appended live.
#pragma once

#include "plot/plotstyle.h"

#include <qcustomplot.h>

#include <QTimer>

namespace headlens {

/// One QCPGraph per series, created once and appended to; replots are coalesced to at most
/// one per kReplotMs however fast points arrive. x is the step count.
class CurvePlot : public QCustomPlot
{
    Q_OBJECT
public:
    static constexpr int kReplotMs = 100;
    static constexpr int kMinimumWidth = 150;
    static constexpr int kMinimumHeight = 130; ///< the axes and title, without a legend below

    explicit CurvePlot(const QString &title, QWidget *parent = nullptr);

    /// Removes every series (the heads changed).
    void clearSeries();
    int addSeries(const QString &name, const QColor &color, Qt::PenStyle style = Qt::SolidLine,
                  double width = 1.6);
    /// A fixed y range (accuracy, scores: 0..1); without one the axis follows the data (loss).
    void setFixedYRange(double lower, double upper);
    void setPercentAxis(bool percent);
    /// A logarithmic y axis (a language model's loss: 5.5 nats at step 0, under 1 later, where
    /// the differences that matter are).
    void setLogarithmicY(bool logarithmic);
    /// The legend in a row of its own below the axes, for curves that fill every corner.
    void setLegendBelow();
    /// Legend entries side by side, `columns` per row (a row per layer of heads).
    void setLegendColumns(int columns);
    void setTitle(const QString &title);
    void addPoint(int series, double step, double value);
    /// Empties every series but keeps them (a run starting again); removes the marker.
    void clearPoints();
    /// A dashed vertical line at step `x` labelled `label` (the moment something appeared);
    /// one at a time.
    void setMarker(double x, const QString &label);
    /// The marker's step, or -1 without one.
    double markerStep() const;

    QSize sizeHint() const override { return {260, 190}; }
    int seriesCount() const { return graphCount(); }
    int pointCount(int series) const;
    void setPlotStyle(const PlotStyle &style);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitTitle();
    void fitLegend();
    void scheduleReplot();
    void rescale();

    QCPTextElement *m_title = nullptr;
    QCPItemStraightLine *m_marker = nullptr; ///< null until setMarker()
    QCPItemText *m_markerLabel = nullptr;
    QString m_titleText;     ///< as set; shown on two lines when one is wider than the plot
    int m_legendColumns = 1; ///< as set; fewer when the entries would not fit the width
    bool m_legendBelow = false;
    QTimer m_replot;
    PlotStyle m_style;
    bool m_fixedY = false;
    bool m_logY = false;
};

} // namespace headlens
