// FigureExporter: raster through QWidget::grab, vectors through QCustomPlot::toPainter.
#include "export/figureexporter.h"

#include "plot/heatmapplot.h"

#include "selection/selection.h"
#include "util/inputerror.h"
#include "views/headsgridview.h"
#include "views/singleheadview.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSvgGenerator>

namespace headlens {

namespace {

// Lays a widget out at `size` without showing it on any screen.
void prepare(QWidget *widget, QSize size)
{
    widget->setAttribute(Qt::WA_DontShowOnScreen);
    widget->resize(size);
    widget->show();
    QApplication::processEvents();
    widget->resize(size); // a second pass after the first layout settled the plots' sizes
    QApplication::processEvents();
}

// Runs the event loop until `drawn()` holds: a long text's heatmaps are pooled in Qt's thread
// pool (HeadImageMaker) and reach the view as a queued signal, after prepare() has returned.
template <typename Drawn> void waitUntil(Drawn drawn)
{
    while (!drawn())
        QApplication::processEvents(QEventLoop::WaitForMoreEvents);
}

// `widget` itself when it is a plot (a head's figure), and every plot inside it.
QList<QCustomPlot *> plotsOf(QWidget *widget)
{
    QList<QCustomPlot *> plots = widget->findChildren<QCustomPlot *>();
    if (auto *self = qobject_cast<QCustomPlot *>(widget))
        plots.prepend(self);
    return plots;
}

void paintPlots(QWidget *widget, QCPPainter &painter, const QColor &background)
{
    painter.fillRect(QRect(QPoint(0, 0), widget->size()), background);
    for (QCustomPlot *plot : plotsOf(widget)) {
        if (!plot->isVisibleTo(widget))
            continue;
        painter.save();
        painter.translate(plot->mapTo(widget, QPoint(0, 0)));
        plot->toPainter(&painter, plot->width(), plot->height());
        painter.restore();
    }
}

void failIf(bool failed, const QString &path, const char *why)
{
    if (failed)
        throw InputError("Cannot write " + path.toStdString() + ": " + why);
}

} // namespace

FigureExporter::FigureExporter(std::shared_ptr<const Trace> trace, int batchIndex, PlotStyle style)
    : m_trace(std::move(trace)), m_batch(batchIndex), m_style(style)
{}

void FigureExporter::writeWidget(QWidget *widget, const QString &path, const QColor &background)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    // The plot itself too: a head's figure is its plot, which findChildren leaves out, and it
    // was saved as its last replot had left it (before the pooled image arrived, no labels).
    for (QCustomPlot *plot : plotsOf(widget))
        plot->replot(QCustomPlot::rpImmediateRefresh);
    if (suffix == "png" || suffix == "jpg") {
        failIf(!widget->grab().save(path), path, "the image could not be saved");
        return;
    }
    const QSize size = widget->size();
    if (suffix == "svg") {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle("HeadLens");
        QCPPainter painter;
        failIf(!painter.begin(&generator), path, "the SVG file could not be opened");
        painter.setMode(QCPPainter::pmVectorized);
        paintPlots(widget, painter, background);
        painter.end();
    } else if (suffix == "pdf") {
        QPdfWriter writer(path);
        writer.setResolution(72); // one pixel of the window = one point of the page
        writer.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setCreator("HeadLens");
        QCPPainter painter;
        failIf(!painter.begin(&writer), path, "the PDF file could not be opened");
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        paintPlots(widget, painter, background);
        painter.end();
    } else {
        failIf(true, path, "use a .png, .pdf or .svg file name");
    }
    failIf(QFileInfo(path).size() == 0, path, "the file is empty");
}

void FigureExporter::writeGrid(const QString &path, QSize size) const
{
    HeadsGridView view;
    view.setPlotStyle(m_style);
    view.setTrace(m_trace, m_batch);
    prepare(&view, size);
    if (m_trace)
        waitUntil([&] { return view.drawnTrace() == m_trace; });
    writeWidget(&view, path, m_style.background());
}

void FigureExporter::writeHead(const QString &path, int head, QSize size) const
{
    Selection selection;
    SingleHeadView view;
    view.setAttribute(Qt::WA_DontShowOnScreen); // pinning a head shows the view
    view.setSelection(&selection);
    view.setPlotStyle(m_style);
    view.setTrace(m_trace, m_batch);
    selection.setPinnedHead(head);
    prepare(&view, size);
    // The view puts its Close bar above the plot: grown by that much, the plot itself is `size`.
    prepare(&view, size + (view.size() - view.plot()->size()));
    if (m_trace && head >= 0 && head < m_trace->heads())
        waitUntil([&] { return view.drawnTrace() == m_trace; });
    writeWidget(view.plot(), path, m_style.background());
}

QStringList FigureExporter::writeAll(const QString &directory, const QString &format) const
{
    if (!QDir().mkpath(directory))
        throw InputError("Cannot create the folder " + directory.toStdString() + ".");
    QStringList written;
    const QDir dir(directory);
    written << dir.filePath("heads." + format);
    writeGrid(written.back());
    for (int head = 0; head < (m_trace ? m_trace->heads() : 0); ++head) {
        // Named as people count heads (head_1 is the first), like the window's titles.
        written << dir.filePath(QString("head_%1.%2").arg(head + 1).arg(format));
        writeHead(written.back(), head);
    }
    return written;
}

} // namespace headlens
