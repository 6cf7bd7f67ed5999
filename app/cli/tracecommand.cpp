// TraceCommand: the job through a Session, then the tables and files the person asked for.
#include "tracecommand.h"
#include "util/bytesize.h"

#include "commandlinejob.h"
#include "comparisonprinter.h"
#include "corpuscommand.h"
#include "costcommand.h"
#include "datasetcommand.h"
#include "figurewriter.h"
#include "modelcommand.h"
#include "session/comparisonjob.h"

#include "attention/attentionforward.h"
#include "attention/implementations.h"
#include "attention/tracejson.h"
#include "linalg/blaslibrary.h"
#include "linalg/productprecision.h"
#include "model/modelcatalog.h"
#include "session/session.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <cstdio>
#include <iomanip>
#include <optional>
#include <sstream>

namespace headlens {

namespace {

std::string fixed(double value, int decimals)
{
    std::ostringstream text;
    text << std::fixed << std::setprecision(decimals) << value;
    return text.str();
}

std::string flopsText(double flops)
{
    char text[32];
    if (flops >= 1e9)
        std::snprintf(text, sizeof text, "%.2f GFLOP", flops / 1e9);
    else if (flops >= 1e6)
        std::snprintf(text, sizeof text, "%.2f MFLOP", flops / 1e6);
    else
        std::snprintf(text, sizeof text, "%.0f FLOP", flops);
    return text;
}

std::string padRight(const std::string &text, size_t width)
{
    return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

std::string shapeOf(const Trace &trace, const std::vector<TraceKey> &keys)
{
    if (keys.empty() || !trace.hasTensor(keys.front()))
        return "-";
    return trace.tensor(keys.front()).shape().toPlainString();
}

/// Checked before any work, so a mistake costs nothing and prints nothing else.
void checkFigureRequest(const CommandLineRequest &request)
{
    if (!request.figureFormats.empty() && request.exportDir.empty())
        throw InputError("--figures writes into the folder given by --export-dir: add "
                         "--export-dir DIR.");
    for (const std::string &format : request.figureFormats)
        if (format != "png" && format != "pdf" && format != "svg")
            throw InputError("--figures takes png, pdf and svg (comma-separated), not '" +
                             quotedText(format) + "'.");
    for (const char *option : {"--figure", "--figure-size", "--dpi"})
        if (request.given.count(option) && request.figureFormats.empty())
            throw InputError(std::string(option) +
                             " chooses what --figures draws: add --figures png,pdf,svg (and "
                             "--export-dir DIR).");
    for (const std::string &item : request.figureContents) {
        if (item == "model" && request.modelDir.empty())
            throw InputError("--figure model draws every layer and head of a model: add --model "
                             "DIR (a GPT-2 folder) or --model TOY.npz.");
        // An analysis's figure: the option that computes it.
        const std::pair<const char *, std::pair<bool, const char *>> analyses[] = {
            {"atlas", {request.lens.atlas, "--atlas"}},
            {"lens", {request.lens.logitLens, "--logit-lens"}},
            {"rollout", {request.lens.flow, "--rollout"}},
            {"dla", {!request.lens.token.empty(), "--dla TOKEN"}},
            {"circuits", {request.lens.circuitsLayer >= 0, "--circuits L.H"}}};
        for (const auto &[name, computed] : analyses)
            if (item == name && (request.modelDir.empty() || !computed.first))
                throw InputError("--figure " + item +
                                 " draws an analysis of a model: add --model DIR and " +
                                 computed.second + ".");
    }
    if (!request.handoutPath.empty() && !request.intervene.corpusPath.empty())
        throw InputError("--handout prints the steps of one text's trace; --corpus runs every "
                         "line of a file: use one of them.");
#ifndef HEADLENS_WITH_FIGURES // --handout draws with the window's code
    if (!request.handoutPath.empty())
        throw InputError("This headlens-cli was built without the window (HEADLENS_BUILD_GUI=OFF), "
                         "so it cannot print the handout; rebuild with the window to use "
                         "--handout.");
#endif
    if (request.figureFormats.empty())
        return;
#ifndef HEADLENS_WITH_FIGURES // --figures draws with the window's code
    throw InputError("This headlens-cli was built without the window (HEADLENS_BUILD_GUI=OFF), "
                     "so it cannot draw figures; rebuild with the window to use --figures.");
#endif
}

} // namespace

int TraceCommand::run(CommandLineRequest request)
{
    if (request.help) {
        m_out << CommandLine::helpText("headlens-cli", false);
        return 0;
    }
    if (request.version) {
        // The products' libraries as loaded here (OpenBLAS's kernel with them): what a speed
        // report needs to name.
        m_out << "headlens-cli " << HEADLENS_VERSION << "\n"
              << "OpenBLAS: " << BlasLibrary::get(BlasLibrary::Kind::OpenBlas).description() << "\n"
              << "BLIS: " << BlasLibrary::get(BlasLibrary::Kind::Blis).description() << "\n"
              << "BF16 weights: " << ProductPrecision::shared().reason() << "\n";
        return 0;
    }
    if (request.cost.requested)
        return CostCommand(m_out).run(request);
    if (request.listModels) {
        const std::string cache = ModelCatalog::cacheFolder();
        m_out << ModelCatalog::table(ModelCatalog::listEverywhere(), cache);
        return 0;
    }
    checkFigureRequest(request);
    if (!request.intervene.datasetPath.empty())
        return DatasetCommand(m_out, m_err).run(request);
    if (!request.intervene.corpusPath.empty())
        return CorpusCommand(m_out, m_err).run(request);
    if (!request.modelDir.empty())
        return ModelCommand(m_out, m_err).run(request);
    Session session;
    const TraceJob job = CommandLineJob::from(request);
    const TraceRun run = session.run(job);
#ifdef HEADLENS_WITH_FIGURES
    checkFigures(run, request); // before anything is printed
#endif
    const Trace &trace = *run.trace;
    const AttentionWeights &weights = run.parameters;

    const bool anyOutput = request.printShapes || request.printStats || request.compare ||
                           request.json || !request.exportDir.empty() ||
                           !request.handoutPath.empty();
    if (request.json) {
        m_out << TraceJson::summary(trace) << "\n";
    } else {
        printSummary(trace);
        if (request.printShapes || !anyOutput)
            printShapes(m_out, trace);
        if (request.printStats)
            printStats(trace);
        if (request.compare)
            printComparison(trace, weights);
    }
    const ComparisonRequest &b = request.intervene.compare;
    std::optional<TraceRun> runB;
    if (b.wanted()) {
        runB = session.run(CommandLineJob::comparisonB(job, b));
        if (!request.json)
            ComparisonPrinter(m_out, "seq")
                .print(trace.tensor(keys::attentionWeights),
                       runB->trace->tensor(keys::attentionWeights), describeComparison(job, b));
    }
    for (const std::string &warning : trace.warnings)
        m_err << "warning: " << warning << "\n";
    if (!request.exportDir.empty()) {
        TraceJson::exportDirectory(trace, request.exportDir);
        const std::string compared =
            runB ? ", " + ComparisonPrinter::write(trace.tensor(keys::attentionWeights),
                                                   runB->trace->tensor(keys::attentionWeights),
                                                   request.exportDir)
                 : "";
        if (!request.json)
            m_out << "Wrote " << trace.tensors().size() << " tensors and trace.json" << compared
                  << " to " << request.exportDir << "\n";
    }
#ifdef HEADLENS_WITH_FIGURES
    if (!request.figureFormats.empty())
        writeFigures(run, request);
    if (!request.handoutPath.empty()) {
        const int pages = writeHandout(run, request);
        if (!request.json)
            m_out << "Wrote " << request.handoutPath << " (" << pages << " pages)\n";
    }
#endif
    return 0;
}

void TraceCommand::printSummary(const Trace &trace) const
{
    const AttentionConfig &c = trace.config;
    m_out << "Multi-head attention: d_model=" << c.dModel << ", h=" << c.heads
          << (c.kvHeadCount() != c.heads ? ", h_kv=" + std::to_string(c.kvHeadCount()) : "")
          << ", d_k=" << c.headDimK() << ", d_v=" << c.headDimV() << ", b=" << trace.batch()
          << ", n=" << trace.queryLength() << ", n_kv=" << trace.keyLength()
          << (c.causal ? ", causal" : "") << (trace.input.isCrossAttention() ? ", cross" : "")
          << (c.attentionPositions != AttentionPositions::None
                  ? ", " + toString(c.attentionPositions)
                  : "")
          << (c.window > 0 ? ", window " + std::to_string(c.window) : "") << "\n";
    for (size_t b = 0; b < trace.input.tokens.size(); ++b) {
        m_out << "  tokens[" << b << "]:";
        for (const std::string &token : trace.input.tokens[b])
            m_out << " [" << token << "]";
        m_out << "\n";
    }
}

void TraceCommand::printShapes(std::ostream &out, const Trace &trace)
{
    auto chain = [&](TraceKey a, TraceKey b, TraceKey c) {
        return trace.tensor(a).shape().toPlainString() + " -> " +
               trace.tensor(b).shape().toPlainString() + " -> " +
               trace.tensor(c).shape().toPlainString();
    };
    out << "\nSplit into heads:  q " << chain(keys::q, keys::qView, keys::qHeads) << "\n";
    out << "And back again:    context " << chain(keys::context, keys::contextT, keys::concat)
        << "\n\n";
    out << padRight("step", 19) << padRight("shape before", 22) << padRight("-> shape after", 26)
        << padRight("formula", 38) << "PyTorch\n";
    for (const TraceStep &step : trace.steps)
        out << padRight(step.id, 19) << padRight(shapeOf(trace, step.inputs), 22)
            << padRight("-> " + shapeOf(trace, step.outputs), 26) << padRight(step.formula, 38)
            << step.pytorch << "\n";
    out << "\nTotal " << flopsText(trace.totalFlops()) << ", trace holds "
        << formatBytes(trace.bytes()) << "\n";
}

void TraceCommand::printStats(const Trace &trace) const
{
    m_out << "\n"
          << padRight("seq", 5) << padRight("head", 6) << padRight("entropy", 9)
          << padRight("distance", 10) << padRight("diagonal", 10) << padRight("previous", 10)
          << padRight("first", 8) << "max\n";
    for (int64_t b = 0; b < trace.batch(); ++b)
        for (int head = 0; head < trace.heads(); ++head) {
            const HeadStats &s = trace.stats(b, head);
            m_out << padRight(std::to_string(b), 5) << padRight(std::to_string(head + 1), 6)
                  << padRight(fixed(s.entropy, 3), 9) << padRight(fixed(s.meanDistance, 2), 10)
                  << padRight(fixed(s.diagonal, 3), 10) << padRight(fixed(s.previousToken, 3), 10)
                  << padRight(fixed(s.firstToken, 3), 8) << fixed(s.maxWeight, 3) << "\n";
        }
}

void TraceCommand::printComparison(const Trace &trace, const AttentionWeights &weights) const
{
    const ImplementationComparison comparison = compareImplementations(trace, weights);
    m_out << "\nFour ways, one answer:\n";
    for (const Implementation &way : comparison.ways) {
        m_out << "  " << padRight(way.title, 32);
        if (way.skipped)
            m_out << way.note << "\n";
        else
            m_out << "max |difference| " << std::scientific << std::setprecision(2)
                  << way.maxAbsDifference << std::defaultfloat << "  " << flopsText(way.flops)
                  << (way.note.empty() ? "" : "  (" + way.note + ")") << "\n";
    }
    m_out << "  largest difference: " << std::scientific << std::setprecision(2)
          << comparison.largestDifference << std::defaultfloat << "\n";
    m_out << "  attention core (Q K^T, softmax, P V), h heads vs one head of width h*d_k: "
          << flopsText(comparison.multiHeadFlops) << " vs " << flopsText(comparison.singleHeadFlops)
          << ", " << comparison.parameters << " parameters either way\n";
}

} // namespace headlens
