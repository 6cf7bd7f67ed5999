// FigureWriter: an offscreen QApplication around the window's FigureExporter and HandoutWriter.
#include "figurewriter.h"

#include "commandline.h"
#include "export/figureexporter.h"
#include "print/handoutwriter.h"
#include "session/tracerun.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <QApplication>
#include <QDir>

#include <memory>

namespace headlens {

namespace {

/// The QApplication the drawing code needs; offscreen unless the caller chose a platform.
std::unique_ptr<QApplication> ensureApplication()
{
    if (QApplication::instance())
        return nullptr;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "headlens-cli";
    static char *argv[] = {name, nullptr};
    return std::make_unique<QApplication>(argc, argv);
}

/// One --figure item as a request and its file name (without the suffix).
std::pair<FigureRequest, QString> figureFor(const std::string &item, const Trace &trace,
                                            FigureRequest request)
{
    using Content = FigureRequest::Content;
    const QString text = QString::fromStdString(item);
    const QString what = text.section(':', 1);
    const std::pair<const char *, Content> whole[] = {
        {"heads", Content::Heads},      {"model", Content::Model},
        {"atlas", Content::Atlas},      {"lens", Content::Lens},
        {"rollout", Content::Rollout},  {"dla", Content::Attribution},
        {"circuits", Content::Circuits}};
    for (const auto &[name, content] : whole)
        if (text == name) {
            request.content = content;
            return {request, text};
        }
    request.content = text.startsWith("head:") ? Content::Head : Content::Step;
    bool number = false;
    request.index = what.toInt(&number) - 1;
    if (request.content == Content::Step && !number) {
        const TraceStep *step = trace.step(what.toStdString());
        if (!step) {
            QStringList ids;
            for (const TraceStep &s : trace.steps)
                ids << QString::fromStdString(s.id);
            throw InputError("--figure " + quotedText(item) +
                             ": there is no step of that name; "
                             "the steps are " +
                             ids.join(", ").toStdString() + ".");
        }
        request.index = int(step - trace.steps.data());
    }
    const QString name = request.content == Content::Head
                             ? QString("head_%1").arg(request.index + 1)
                             : QString("step_%1").arg(request.index + 1);
    return {request, name};
}

/// What the job computed that a figure can draw.
FigureAnalyses analysesOf(const TraceRun &run)
{
    return {run.atlas, run.logitLens, run.flow, run.attribution, run.circuits};
}

/// --figure-size and --dpi as a request (its content set per figure).
FigureRequest sizedRequest(const CommandLineRequest &request)
{
    FigureRequest sized;
    sized.inches = QSizeF(request.figureWidthInches, request.figureHeightInches);
    sized.dpi = request.figureDpi;
    return sized;
}

/// What --figure asks for, each checked against the run.
std::vector<std::pair<FigureRequest, QString>> figuresFor(const TraceRun &run,
                                                          const CommandLineRequest &request)
{
    std::vector<std::pair<FigureRequest, QString>> figures;
    FigureExporter exporter(run.trace);
    exporter.setModel(run.model);
    exporter.setAnalyses(analysesOf(run));
    for (const std::string &item : request.figureContents) {
        figures.push_back(figureFor(item, *run.trace, sizedRequest(request)));
        if (const QString problem = exporter.problemWith(figures.back().first); !problem.isEmpty())
            throw InputError("--figure " + quotedText(item) + ": " + problem.toStdString() + ".");
    }
    return figures;
}

/// The trace and the weights W_O's picture needs.
std::shared_ptr<TraceAnalysis> analysisOf(const TraceRun &run)
{
    auto analysis = std::make_shared<TraceAnalysis>();
    analysis->trace = run.trace;
    analysis->parameters = run.parameters;
    return analysis;
}

} // namespace

void checkFigures(const TraceRun &run, const CommandLineRequest &request)
{
    figuresFor(run, request);
}

int writeFigures(const TraceRun &run, const CommandLineRequest &request)
{
    const Trace &trace = *run.trace;
    const FigureRequest sized = sizedRequest(request);
    const std::vector<std::pair<FigureRequest, QString>> figures = figuresFor(run, request);
    const std::unique_ptr<QApplication> application = ensureApplication();
    const std::shared_ptr<TraceAnalysis> analysis = analysisOf(run);
    int written = 0;
    const QDir root(QString::fromStdString(request.exportDir));
    for (int64_t b = 0; b < trace.batch(); ++b) {
        const QString folder =
            trace.batch() == 1 ? root.path() : root.filePath(QString("seq_%1").arg(b));
        FigureExporter exporter(run.trace, static_cast<int>(b));
        exporter.setAnalysis(analysis);
        exporter.setModel(run.model);
        exporter.setAnalyses(analysesOf(run));
        if (!QDir().mkpath(folder))
            throw InputError("Cannot create the folder " + folder.toStdString() + ".");
        for (const std::string &format : request.figureFormats) {
            const QString suffix = QString::fromStdString(format);
            if (figures.empty())
                written += int(exporter.writeAll(folder, suffix, sized).size());
            for (const auto &[figure, name] : figures) {
                exporter.write(QDir(folder).filePath(name + "." + suffix), figure);
                ++written;
            }
        }
    }
    return written;
}

int writeHandout(const TraceRun &run, const CommandLineRequest &request)
{
    const std::unique_ptr<QApplication> application = ensureApplication();
    HandoutWriter writer(run.trace, analysisOf(run), 0, PlotStyle());
    writer.setPage({request.page == "letter" ? QPageSize::Letter : QPageSize::A4,
                    request.landscape ? QPageLayout::Landscape : QPageLayout::Portrait});
    if (run.atlas) // --model DIR --atlas: the atlas's page after the steps
        writer.setAtlas(run.atlas, QString::fromStdString(run.model->name));
    return writer.write(QString::fromStdString(request.handoutPath));
}

} // namespace headlens
