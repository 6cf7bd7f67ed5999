// FigureExporter: print layouts on a PrintCanvas; views as they are through grab and toPainter.
#include "export/figureexporter.h"

#include "print/heatmapsheet.h"
#include "print/printcanvas.h"
#include "print/sheetbuilder.h"
#include "print/steppage.h"
#include "util/inputerror.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace headlens {

namespace {

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
    if (suffix != "png" && suffix != "jpg" && suffix != "svg" && suffix != "pdf")
        failIf(true, path, "use a .png, .pdf or .svg file name");
    // Through QSaveFile: a crash or a failure leaves whatever was at `path` untouched.
    QSaveFile file(path);
    failIf(!file.open(QIODevice::WriteOnly), path, qPrintable(file.errorString()));
    const QSize size = widget->size();
    if (suffix == "png" || suffix == "jpg") {
        failIf(!widget->grab().save(&file, qPrintable(suffix)), path,
               "the image could not be saved");
    } else if (suffix == "svg") {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle("HeadLens");
        QCPPainter painter;
        failIf(!painter.begin(&generator), path, "the SVG file could not be opened");
        painter.setMode(QCPPainter::pmVectorized);
        paintPlots(widget, painter, background);
        painter.end();
    } else if (suffix == "pdf") {
        QPdfWriter writer(&file);
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
    }
    failIf(file.size() == 0, path, "the file is empty");
    failIf(!file.commit(), path, qPrintable(file.errorString()));
}

namespace {

/// The step page's fonts at an A4 page across (the default) are the handout's; smaller or
/// larger figures scale them, within reason.
double stepScale(const QSizeF &inches)
{
    const QSizeF page = FigureRequest::defaultInches(FigureRequest::Content::Step);
    return std::clamp(std::min(inches.width() / page.width(), inches.height() / page.height()),
                      0.55, 1.3);
}

} // namespace

void FigureExporter::setAnalysis(std::shared_ptr<const TraceAnalysis> analysis)
{
    m_analysis = std::move(analysis);
}

void FigureExporter::setModel(std::shared_ptr<const ModelRun> model)
{
    m_model = std::move(model);
}

QString FigureExporter::problemWith(const FigureRequest &request) const
{
    using Content = FigureRequest::Content;
    const QSizeF inches = request.size();
    if (!(inches.width() > 0.0 && inches.height() > 0.0 && inches.width() <= 40.0 &&
          inches.height() <= 40.0))
        return QObject::tr("a figure's width and height must be more than 0 and at most 100 cm "
                           "(40 in)");
    if (request.dpi < 30 || request.dpi > 2400)
        return QObject::tr("the resolution must be from 30 to 2400 dpi, not %1").arg(request.dpi);
    if (request.content == Content::Model)
        return m_model ? QString()
                       : QObject::tr("a model figure needs a model: open a GPT-2 folder or a "
                                     "toy model first");
    // An analysis's figure: its analysis, of a model's run.
    const std::pair<Content, QString> analyses[] = {
        {Content::Atlas, m_analyses.atlas ? QString() : QObject::tr("the head atlas")},
        {Content::Lens, m_analyses.lens ? QString() : QObject::tr("the logit lens")},
        {Content::Rollout, m_analyses.flow ? QString() : QObject::tr("the rollout")},
        {Content::Attribution,
         m_analyses.attribution ? QString() : QObject::tr("the direct logit attribution")},
        {Content::Circuits, m_analyses.circuits ? QString() : QObject::tr("a head's circuits")}};
    for (const auto &[content, missing] : analyses) {
        if (request.content != content)
            continue;
        if (!missing.isEmpty() || !m_model)
            return QObject::tr("this figure needs %1 of a model's run: open a checkpoint and "
                               "compute it first")
                .arg(missing.isEmpty() ? QObject::tr("the run") : missing);
        if (content == Content::Circuits &&
            m_analyses.circuits->textTokenCount(m_model->tokenIds, HeadCircuits::kMapTokens) == 0)
            return QObject::tr("the circuits were read on none of the text's tokens");
        return QString();
    }
    if (!m_trace)
        return QObject::tr("there is no computed attention to draw yet");
    if (request.content == Content::Head &&
        (request.index < 0 || request.index >= m_trace->heads()))
        return QObject::tr("there is no head %1: the layer has heads 1 to %2")
            .arg(request.index + 1)
            .arg(m_trace->heads());
    const int steps = int(m_trace->steps.size());
    if (request.content == Content::Step && (request.index < 0 || request.index >= steps))
        return QObject::tr("there is no step %1: the pipeline has steps 1 to %2")
            .arg(request.index + 1)
            .arg(steps);
    return QString();
}

void FigureExporter::write(const QString &path, const FigureRequest &request) const
{
    using Content = FigureRequest::Content;
    const QString problem = problemWith(request);
    if (!problem.isEmpty())
        throw InputError("Cannot draw " + path.toStdString() + ": " + problem.toStdString() + ".");
    const QSizeF inches = request.size();
    PrintCanvas canvas(path, PrintCanvas::pageOfSize(inches), request.dpi);
    const double margin = 0.06 * PrintCanvas::layoutDpi();
    const QRectF area = canvas.rect().adjusted(margin, margin, -margin, -margin);
    PlotStyle style = m_style;
    style.dark = false; // figures are for paper and slides: drawn on white
    if (request.content == Content::Step) {
        PrintSource source{m_trace, m_analysis, m_batch, style, {}};
        source.cell = m_cell ? *m_cell : CellChoice::strongest(*m_trace, m_batch, 0);
        StepPage(source, request.index, stepScale(inches)).paint(canvas.painter(), area);
        canvas.finish();
        return;
    }
    HeatmapSheet sheet(sheetOf(request, style), style, 7.5);
    sheet.fitLabels(5.0, 10.0, area.size());
    // Centred on the page both ways: square cells rarely use all of it.
    const double height = std::min(sheet.sizeIn(area.size()).height() + 1.0, area.height());
    sheet.paint(canvas.painter(), QRectF(area.left(), area.top() + (area.height() - height) / 2,
                                         area.width(), height));
    canvas.finish();
}

SheetContent FigureExporter::sheetOf(const FigureRequest &request, const PlotStyle &style) const
{
    using Content = FigureRequest::Content;
    switch (request.content) {
    case Content::Model:
        return SheetBuilder::model(*m_model, style);
    case Content::Atlas:
        return SheetBuilder::atlas(*m_analyses.atlas);
    case Content::Lens:
        return SheetBuilder::logitLens(*m_analyses.lens, m_model->tokens);
    case Content::Rollout:
        return SheetBuilder::rollout(*m_analyses.flow, m_model->tokens);
    case Content::Attribution:
        return SheetBuilder::attribution(*m_analyses.attribution);
    case Content::Circuits: {
        const HeadCircuits &circuits = *m_analyses.circuits;
        return SheetBuilder::circuits(
            circuits, circuits.textTokenCount(m_model->tokenIds, HeadCircuits::kMapTokens));
    }
    case Content::Head:
        return SheetBuilder::head(m_trace, m_batch, request.index, style);
    case Content::Step: // laid out as a page, not a sheet
    case Content::Heads:
        break;
    }
    return SheetBuilder::heads(m_trace, m_batch, style);
}

QStringList FigureExporter::writeAll(const QString &directory, const QString &format,
                                     const FigureRequest &request) const
{
    if (!QDir().mkpath(directory))
        throw InputError("Cannot create the folder " + directory.toStdString() + ".");
    QStringList written;
    const QDir dir(directory);
    FigureRequest figure = request;
    figure.content = FigureRequest::Content::Heads;
    written << dir.filePath("heads." + format);
    write(written.back(), figure);
    figure.content = FigureRequest::Content::Head;
    for (int head = 0; head < (m_trace ? m_trace->heads() : 0); ++head) {
        // Named as people count heads (head_1 is the first), like the window's titles.
        written << dir.filePath(QString("head_%1.%2").arg(head + 1).arg(format));
        figure.index = head;
        write(written.back(), figure);
    }
    return written;
}

} // namespace headlens
