// CurvePlot: a small line chart over training steps (loss, accuracy, head scores), appended live.
#pragma once

#include "plot/plotstyle.h"

#include <qcustomplot.h>

#include <QTimer>

#include <limits>
#include <vector>

namespace headlens {

/// One QCPGraph per series, created once and appended to; replots are coalesced to at most
/// one per kReplotMs however fast points arrive. x is the step count, or the seconds of
/// training when the points carry them and setAgainstSeconds(true) (a language model's loss
/// "against steps and seconds": steps compare runs, seconds what a run costs).
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
    QString title() const { return m_titleText; }
    /// A point at `step` (and `seconds` of training, when known: NaN for none).
    void addPoint(int series, double step, double value,
                  double seconds = std::numeric_limits<double>::quiet_NaN());
    /// x in seconds instead of steps: every point drawn again at its seconds (points without
    /// seconds are left out), the marker too, the axis labelled "seconds".
    void setAgainstSeconds(bool seconds);
    bool againstSeconds() const { return m_againstSeconds; }
    /// Empties every series but keeps them (a run starting again); removes the marker.
    void clearPoints();
    /// A dashed vertical line at step `x` labelled `label` (the moment something appeared);
    /// one at a time.
    void setMarker(double x, const QString &label,
                   double seconds = std::numeric_limits<double>::quiet_NaN());
    /// The marker's step, or -1 without one.
    double markerStep() const;
    /// Where the marker is drawn on the x axis now (its step or its seconds), or -1.
    double markerX() const;

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
    void placeMarker();
    /// The point's x on the axis shown: its step, or its seconds (NaN: not drawn).
    double xOf(double step, double seconds) const;

    struct Point
    {
        double step;
        double seconds;
        double value;
    };
    std::vector<std::vector<Point>> m_points; ///< every series' points, as added
    bool m_againstSeconds = false;
    double m_markerStepValue = -1.0;
    double m_markerSeconds = std::numeric_limits<double>::quiet_NaN();

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
