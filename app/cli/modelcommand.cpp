// ModelCommand: a model from the command line: the job through a Session, predictions, export.
#include "modelcommand.h"

#include "commandlinejob.h"
#include "figurewriter.h"

#include "io/npyfile.h"
#include "io/tracejson.h"
#include "session/session.h"

#include <algorithm>
#include <chrono>
#include <iomanip>

namespace headlens {

namespace {

constexpr size_t kPrintedPredictions = 5;

void exportRun(const ModelRun &run, const std::string &dir)
{
    TraceJson::exportDirectory(*run.layerTrace, dir);
    NpyFile::write(dir + "/all_weights.npy", run.attention);
    Tensor ids(Shape{{"n", int64_t(run.tokenIds.size())}});
    for (size_t i = 0; i < run.tokenIds.size(); ++i)
        ids.data()[i] = float(run.tokenIds[i]);
    NpyFile::write(dir + "/token_ids.npy", ids);
}

} // namespace

int ModelCommand::run(const CommandLineRequest &request)
{
    const TraceJob job = CommandLineJob::from(request);
    const auto start = std::chrono::steady_clock::now();
    const TraceRun traced = Session().run(job);
#ifdef HEADLENS_WITH_FIGURES
    checkFigures(traced, request); // before anything is printed
#endif
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const ModelRun &run = *traced.model;
    const Trace &trace = *traced.trace;
    if (request.json)
        m_out << TraceJson::summary(trace) << "\n";
    else
        printSummary(run, ms);
    if (request.printStats && !request.json)
        printStats(run);
    for (const std::string &warning : trace.warnings)
        m_err << "warning: " << warning << "\n";
    if (!request.exportDir.empty()) {
        exportRun(run, request.exportDir);
        if (!request.json)
            m_out << "Wrote layer " << run.source.layer << "'s " << trace.tensors().size()
                  << " tensors, trace.json, all_weights.npy and token_ids.npy to "
                  << request.exportDir << "\n";
    }
#ifdef HEADLENS_WITH_FIGURES
    if (!request.figureFormats.empty())
        writeFigures(traced, request);
#endif
    return 0;
}

void ModelCommand::printSummary(const ModelRun &run, double ms) const
{
    const AttentionConfig &c = run.layerTrace->config;
    m_out << run.name << " (" << run.source.path << "): layers=" << run.layers
          << ", heads=" << run.heads << ", kv_heads=" << c.kvHeadCount() << ", d_model=" << c.dModel
          << ", n=" << run.tokenIds.size() << " tokens, layer " << run.source.layer << " traced, "
          << std::fixed << std::setprecision(1) << ms << " ms\n  tokens:";
    for (size_t i = 0; i < run.tokenIds.size(); ++i)
        m_out << " [" << run.tokens[i] << " " << run.tokenIds[i] << "]";
    m_out << "\nNext token:\n";
    for (size_t i = 0; i < std::min(run.topNext.size(), kPrintedPredictions); ++i)
        m_out << "  " << i + 1 << ". " << std::setw(8) << std::setprecision(4)
              << run.topNext[i].probability << "  [" << run.topNext[i].label << "] (id "
              << run.topNext[i].tokenId << ")\n";
    m_out << std::defaultfloat;
}

void ModelCommand::printStats(const ModelRun &run) const
{
    m_out << "\nlayer head  entropy  distance  previous  first\n" << std::fixed;
    for (int layer = 0; layer < run.layers; ++layer)
        for (int head = 0; head < run.heads; ++head) {
            const HeadStats &s = run.stat(layer, head);
            m_out << std::setw(5) << layer << std::setw(5) << head + 1 << std::setw(9)
                  << std::setprecision(3) << s.entropy << std::setw(10) << std::setprecision(2)
                  << s.meanDistance << std::setw(10) << std::setprecision(3) << s.previousToken
                  << std::setw(7) << s.firstToken << "\n";
        }
    m_out << std::defaultfloat;
}

} // namespace headlens
