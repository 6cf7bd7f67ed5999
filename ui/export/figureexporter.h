// FigureExporter: the heads grid and each head's heatmap as PNG, PDF or SVG, without a window.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>

class QWidget;

namespace headlens {

/// Draws with the window's own views (HeadsGridView, SingleHeadView), laid out off screen, so
/// a figure looks like the window. Needs a QApplication (QT_QPA_PLATFORM=offscreen is enough).
/// PDF and SVG are vector graphics: QCustomPlot draws straight into the file.
class FigureExporter
{
public:
    explicit FigureExporter(std::shared_ptr<const Trace> trace, int batchIndex = 0,
                            PlotStyle style = {});

    /// The grid of all heads; the format follows the suffix (.png, .pdf, .svg). Throws InputError.
    void writeGrid(const QString &path, QSize size = QSize(1400, 900)) const;
    /// One head at full resolution. Throws InputError.
    void writeHead(const QString &path, int head, QSize size = QSize(900, 820)) const;
    /// heads.<format> and head_<i>.<format> in `directory` (created); the paths written.
    QStringList writeAll(const QString &directory, const QString &format) const;

    /// Any widget (e.g. the window's views) to `path`; vector for .pdf and .svg.
    static void writeWidget(QWidget *widget, const QString &path, const QColor &background);

private:
    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    PlotStyle m_style;
};

} // namespace headlens
