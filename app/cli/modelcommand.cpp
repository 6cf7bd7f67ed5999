// ModelCommand: a model from the command line: the job through a Session, predictions, export.
#include "modelcommand.h"

#include "atlasprinter.h"
#include "circuitsprinter.h"
#include "commandlinejob.h"
#include "comparisonprinter.h"
#include "figurewriter.h"
#include "flowprinter.h"
#include "lensprinter.h"
#include "rankingprinter.h"
#include "session/comparisonjob.h"
#include "tracecommand.h"

#include "attention/tracejson.h"
#include "io/atomicfile.h"
#include "io/headtablefile.h"
#include "io/npyfile.h"
#include "session/session.h"
#include "util/inputerror.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <optional>

namespace headlens {

namespace {

constexpr size_t kPrintedPredictions = 5;

/// What only the run can tell: whether the model reads pairs and fills masks.
void checkRun(const ModelRun &run, const CommandLineRequest &request)
{
    if (!request.textPair.empty() && !run.readsPairs)
        throw InputError("--text-pair is sentence B of an encoder's pair, but " + run.name +
                         " reads one text. Leave --text-pair out.");
    if (!request.fillMask)
        return;
    if (!run.readsPairs)
        throw InputError("--fill-mask needs an encoder (BERT, RoBERTa, DistilBERT); " + run.name +
                         " predicts the next token instead, which is printed without --fill-mask.");
    if (!run.noMaskHead.empty())
        throw InputError(run.noMaskHead);
    if (run.maskFills.empty())
        throw InputError("The text has no " + run.maskToken + " for --fill-mask to fill: write " +
                         run.maskToken +
                         " where a word should go, e.g. --text \"The cat sat on the " +
                         run.maskToken + ".\"");
}

void exportRun(const ModelRun &run, const std::string &dir)
{
    TraceJson::exportDirectory(*run.layerTrace, dir);
    NpyFile::write(dir + "/all_weights.npy", run.attention);
    const std::vector<int64_t> ids(run.tokenIds.begin(), run.tokenIds.end());
    NpyFile::writeInt64(dir + "/token_ids.npy", ids, {int64_t(ids.size())});
}

} // namespace

int ModelCommand::run(const CommandLineRequest &request)
{
    const TraceJob job = CommandLineJob::from(request);
    const auto start = std::chrono::steady_clock::now();
    Session session;
    const TraceRun traced = session.run(job);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const ModelRun &run = *traced.model;
    if (run.tiled())
        return runTiled(request, session, job, traced, ms);
#ifdef HEADLENS_WITH_FIGURES
    checkFigures(traced, request); // before anything is printed
#endif
    checkRun(run, request);
    const Trace &trace = *traced.trace;
    if (request.json)
        m_out << TraceJson::summary(trace) << "\n";
    else
        printSummary(run, ms, request.fillMask);
    if (request.printShapes && !request.json) {
        m_out << "\nLayer " << run.source.layer << "'s attention, step by step:\n";
        TraceCommand::printShapes(m_out, trace);
    }
    if (!job.interventions.empty() && !request.json)
        printAblation(session, job, run);
    if (request.printStats && !request.json)
        printStats(run);
    if (traced.importance && !request.json)
        RankingPrinter(m_out).print(*traced.importance);
    if (traced.patching && !request.json)
        RankingPrinter(m_out).print(*traced.patching, *run.source.model, run);
    if (traced.atlas && !request.json)
        AtlasPrinter(m_out).print(*traced.atlas);
    if (traced.circuits && !request.json)
        CircuitsPrinter(m_out).print(*traced.circuits, run.tokenIds);
    if (traced.flow && !request.json)
        FlowPrinter(m_out).print(*traced.flow, run.attention, run.tokens);
    if (traced.logitLens && !request.json)
        LensPrinter(m_out).print(*traced.logitLens, run.tokens);
    if (traced.attribution && !request.json)
        LensPrinter(m_out).print(*traced.attribution, run.tokens);
    const ComparisonRequest &b = request.intervene.compare;
    std::optional<TraceRun> runB;
    if (b.wanted()) {
        runB = session.run(CommandLineJob::comparisonB(job, b));
        if (b.change == ComparedChange::Model)
            if (const auto problem = modelComparisonProblem(run, *runB->model))
                throw InputError(*problem);
        if (!request.json)
            ComparisonPrinter(m_out, "layer")
                .print(run.attention, runB->model->attention, describeComparison(job, b));
        if (b.change == ComparedChange::Model && !request.json)
            printModelB(*runB->model);
    }
    for (const std::string &warning : trace.warnings)
        m_err << "warning: " << warning << "\n";
    if (!request.exportDir.empty()) {
        exportRun(run, request.exportDir);
        std::string ranking;
        if (runB)
            ranking = ", " + ComparisonPrinter::write(run.attention, runB->model->attention,
                                                      request.exportDir);
        if (traced.importance) {
            HeadTableFile::write(traced.importance->lossIncrease, request.exportDir, "importance");
            ranking += ", importance.npy, importance.csv";
        }
        if (traced.patching) {
            HeadTableFile::write(traced.patching->restored, request.exportDir, "patching");
            RankingPrinter::writePositions(*traced.patching, request.exportDir);
            ranking += ", patching.npy, patching.csv, patching_positions.csv";
        }
        if (traced.atlas) {
            AtlasPrinter::write(*traced.atlas, request.exportDir);
            ranking += ", atlas.npy, atlas.csv";
        }
        if (traced.flow)
            ranking += FlowPrinter::write(*traced.flow, request.exportDir);
        if (traced.circuits) {
            CircuitsPrinter::write(*traced.circuits, request.exportDir);
            ranking += ", circuits_qk.npy, circuits_ov.npy, circuits_tokens.csv, "
                       "circuits_singular_values.csv";
        }
        if (traced.logitLens) {
            LensPrinter::write(*traced.logitLens, run.tokens, request.exportDir);
            ranking += ", logit_lens.npy, logit_lens_top.npy, logit_lens.csv";
        }
        if (traced.attribution) {
            LensPrinter::write(*traced.attribution, request.exportDir);
            ranking += ", dla.npy, dla.csv, dla_parts.csv, dla_tokens.csv";
        }
        if (!request.json)
            m_out << "Wrote layer " << run.source.layer << "'s " << trace.tensors().size()
                  << " tensors, trace.json, all_weights.npy, token_ids.npy" << ranking << " to "
                  << request.exportDir << "\n";
    }
#ifdef HEADLENS_WITH_FIGURES
    if (!request.figureFormats.empty())
        writeFigures(traced, request);
    if (!request.handoutPath.empty()) { // the traced layer, as the window's Pipeline tab shows it
        const int pages = writeHandout(traced, request);
        if (!request.json)
            m_out << "Wrote " << request.handoutPath << " (" << pages << " pages)\n";
    }
#endif
    return 0;
}

int ModelCommand::runTiled(const CommandLineRequest &request, Session &session, const TraceJob &job,
                           const TraceRun &traced, double ms)
{
    const ModelRun &run = *traced.model;
    checkRun(run, request);
    const int64_t n = int64_t(run.tokenIds.size());
    const std::vector<std::pair<bool, std::string>> needsMatrices{
        {request.json, "--json summarises the traced layer"},
        {request.printShapes, "--print-shapes prints the traced layer's steps"},
        {request.intervene.compare.wanted(),
         "--compare-text, --compare-model and --compare-change compare every head's whole matrix"},
        {!request.figureFormats.empty(), "--figures draws the traced layer"},
        {!request.handoutPath.empty(), "--handout prints the traced layer"},
        {request.lens.wanted(), "the lens analyses read every head's matrix or a traced layer"},
    };
    for (const auto &[asked, what] : needsMatrices)
        if (asked)
            throw InputError(TiledAttention::refusal(what, run.layers, run.heads, n) +
                             " Leave the option out, or use a text of at most " +
                             std::to_string(TiledAttention::longestWhole(run.layers, run.heads)) +
                             " tokens.");
    printSummary(run, ms, request.fillMask);
    if (!job.interventions.empty())
        printAblation(session, job, run);
    if (request.printStats)
        printStats(run);
    if (traced.importance)
        RankingPrinter(m_out).print(*traced.importance);
    if (traced.patching)
        RankingPrinter(m_out).print(*traced.patching, *run.source.model, run);
    if (!request.exportDir.empty()) {
        const TiledAttention &tiles = *run.tiles;
        AtomicFile::createFolder(request.exportDir);
        NpyFile::write(request.exportDir + "/pooled_max.npy", tiles.pooledMax);
        NpyFile::write(request.exportDir + "/pooled_mean.npy", tiles.pooledMean);
        NpyFile::write(request.exportDir + "/row_profiles.npy", tiles.rowProfiles);
        const std::vector<int64_t> ids(run.tokenIds.begin(), run.tokenIds.end());
        NpyFile::writeInt64(request.exportDir + "/token_ids.npy", ids, {n});
        m_out << "Wrote pooled_max.npy and pooled_mean.npy (layers, heads, "
              << tiles.pooledMax.shape().size(2) << ", " << tiles.pooledMax.shape().size(3)
              << ": bins of " << tiles.binSize << " x " << tiles.binSize
              << " tokens), row_profiles.npy (layers, heads, 5, n: each query's share on the first "
              << tiles.settings.ranges.sinkTokens << " tokens, its share "
              << tiles.settings.ranges.farTokens
              << " or more tokens away, its mean distance, its entropy, its share fewer than "
              << tiles.settings.ranges.nearTokens << " tokens away), token_ids.npy to "
              << request.exportDir << "\n";
    }
    return 0;
}

void ModelCommand::printSummary(const ModelRun &run, double ms, bool fillMask) const
{
    const AttentionConfig &c = run.tiled() ? run.tiles->config : run.layerTrace->config;
    m_out << run.name << " (" << run.source.path << "): layers=" << run.layers
          << ", heads=" << run.heads << ", kv_heads=" << c.kvHeadCount() << ", d_model=" << c.dModel
          << ", n=" << run.tokenIds.size() << " tokens, ";
    if (run.tiled())
        m_out << "kept as tiles ("
              << TiledAttention::why(run.layers, run.heads, int64_t(run.tokenIds.size())) << "), ";
    else
        m_out << "layer " << run.source.layer << " traced, ";
    m_out << std::fixed << std::setprecision(1) << ms << " ms\n  tokens:";
    for (size_t i = 0; i < run.tokenIds.size(); ++i)
        m_out << (i > 0 && run.segments.at(i) != run.segments.at(i - 1) ? " | sentence B:" : "")
              << " [" << run.tokens[i] << " " << run.tokenIds[i] << "]";
    m_out << "\n";
    if (!run.readsPairs) {
        m_out << "Next token:\n";
        printPredictions(run.topNext);
    } else if (fillMask) {
        for (const MaskFill &fill : run.maskFills) {
            // Counted from 1 as the window's "t7 [MASK]" and the formulas' t_1 … t_n.
            m_out << run.maskToken << " at token " << fill.position + 1 << ":\n";
            printPredictions(fill.top);
        }
    } else {
        m_out << "An encoder predicts no next token; --fill-mask lists what fills each "
              << run.maskToken << ".\n";
    }
}

void ModelCommand::printAblation(Session &session, const TraceJob &job, const ModelRun &run) const
{
    m_out << "Ablated (" << toString(job.interventions.items.front().kind) << "):";
    for (const HeadIntervention &item : job.interventions.items)
        m_out << " " << item.layer << "." << item.head + 1;
    m_out << " (layer.head); the predictions above are the ablated model's.\n";
    if (run.readsPairs || run.topNext.empty())
        return;
    TraceJob clean = job;
    clean.interventions = {};
    const TraceRun unablated = session.run(clean);
    if (unablated.model->topNext.empty())
        return; // NaN logits (the weights hold NaN): no top token to follow
    const TokenPrediction &before = unablated.model->topNext.front();
    double after = 0.0;
    for (const TokenPrediction &p : run.topNext)
        if (p.tokenId == before.tokenId)
            after = p.probability;
    m_out << "  unablated top token [" << before.label << "]: probability " << std::fixed
          << std::setprecision(4) << before.probability << " -> ";
    if (after > 0.0)
        m_out << after << ", log-probability " << std::log(before.probability) << " -> "
              << std::log(after);
    else
        m_out << "below the ablated model's top 10";
    m_out << std::defaultfloat << "\n";
}

void ModelCommand::printModelB(const ModelRun &b) const
{
    m_out << "Next token, model B (" << b.name << "):\n";
    printPredictions(b.topNext);
}

void ModelCommand::printPredictions(const std::vector<TokenPrediction> &predictions) const
{
    for (size_t i = 0; i < std::min(predictions.size(), kPrintedPredictions); ++i)
        m_out << "  " << i + 1 << ". " << std::fixed << std::setw(8) << std::setprecision(4)
              << predictions[i].probability << "  [" << predictions[i].label << "] (id "
              << predictions[i].tokenId << ")\n";
    m_out << std::defaultfloat;
}

void ModelCommand::printStats(const ModelRun &run) const
{
    // An encoder's first token is its [CLS] (<s>): one column named so, then the [SEP] and
    // punctuation shares (Clark et al. 2019).
    const bool shares = run.readsPairs;
    m_out << "\nlayer head  entropy  distance  previous" << (shares ? "    cls" : "  first")
          << (shares ? "    sep  punct" : "") << "\n"
          << std::fixed;
    for (int layer = 0; layer < run.layers; ++layer)
        for (int head = 0; head < run.heads; ++head) {
            const HeadStats &s = run.stat(layer, head);
            m_out << std::setw(5) << layer << std::setw(5) << head + 1 << std::setw(9)
                  << std::setprecision(3) << s.entropy << std::setw(10) << std::setprecision(2)
                  << s.meanDistance << std::setw(10) << std::setprecision(3) << s.previousToken
                  << std::setw(7) << s.firstToken;
            if (shares)
                for (double share : {s.sepShare, s.punctuationShare})
                    m_out << std::setw(7) << share; // nan when the text has no such token
            m_out << "\n";
        }
    m_out << std::defaultfloat;
}

} // namespace headlens
