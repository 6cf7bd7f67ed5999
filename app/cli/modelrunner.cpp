// ModelRunner: GPT-2 from the command line: open, run, print predictions, export.
#include "modelrunner.h"

#include "io/npyfile.h"
#include "io/tracejson.h"
#include "model/gpt2model.h"
#include "util/inputerror.h"

#include <chrono>
#include <iomanip>

namespace headlens {

namespace {

std::vector<int> tokenIdsOf(const CommandLineRequest &request, const Gpt2Model &model)
{
    if (!request.tokenIds.empty()) {
        if (!request.texts.empty())
            throw InputError("Give either --text or --token-ids with --model, not both.");
        return request.tokenIds;
    }
    if (request.texts.size() != 1)
        throw InputError(request.texts.empty()
                             ? "There is no text for GPT-2: give one with --text \"Hello "
                               "world\" or ids with --token-ids 15496,995."
                             : "--model runs one text at a time; give a single --text.");
    if (!request.kvTexts.empty() || !request.inputPath.empty() || !request.weightsPath.empty())
        throw InputError("--model runs GPT-2's own layers: --kv-text, --input and --weights do "
                         "not apply to it.");
    return model.encode(request.texts.front());
}

void exportRun(const Gpt2Run &run, const std::string &dir)
{
    TraceJson::exportDirectory(run.layerTrace, dir);
    NpyFile::write(dir + "/all_weights.npy", run.attention);
    Tensor ids(Shape{{"n", int64_t(run.tokenIds.size())}});
    for (size_t i = 0; i < run.tokenIds.size(); ++i)
        ids.data()[i] = float(run.tokenIds[i]);
    NpyFile::write(dir + "/token_ids.npy", ids);
}

} // namespace

int ModelRunner::run(const CommandLineRequest &request)
{
    const Gpt2Model model = Gpt2Model::open(request.modelDir);
    const std::vector<int> ids = tokenIdsOf(request, model);
    Gpt2RunOptions options;
    options.viewedLayer = request.modelLayer;
    const auto start = std::chrono::steady_clock::now();
    const Gpt2Run run = model.run(ids, options);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (request.json)
        m_out << TraceJson::summary(run.layerTrace) << "\n";
    else
        printSummary(model, run, ms);
    if (request.printStats && !request.json)
        printStats(run);
    for (const std::string &warning : run.layerTrace.warnings)
        m_err << "warning: " << warning << "\n";
    if (!request.exportDir.empty()) {
        exportRun(run, request.exportDir);
        if (!request.json)
            m_out << "Wrote layer " << run.viewedLayer << "'s " << run.layerTrace.tensors().size()
                  << " tensors, trace.json, all_weights.npy and token_ids.npy to "
                  << request.exportDir << "\n";
    }
    return 0;
}

void ModelRunner::printSummary(const Gpt2Model &model, const Gpt2Run &run, double ms) const
{
    const Gpt2Config &c = model.config();
    m_out << "GPT-2 " << model.directory() << ": n_layer=" << c.nLayer << ", n_head=" << c.nHead
          << ", n_embd=" << c.nEmbd << ", n=" << run.tokenIds.size() << " tokens, layer "
          << run.viewedLayer << " traced, " << std::fixed << std::setprecision(1) << ms
          << " ms\n  tokens:";
    for (size_t i = 0; i < run.tokenIds.size(); ++i)
        m_out << " [" << run.tokens[i] << " " << run.tokenIds[i] << "]";
    m_out << "\nNext token:\n";
    for (size_t i = 0; i < run.topNext.size(); ++i)
        m_out << "  " << i + 1 << ". " << std::setw(8) << std::setprecision(4)
              << run.topNext[i].probability << "  [" << run.topNext[i].label << "] (id "
              << run.topNext[i].tokenId << ")\n";
    m_out << std::defaultfloat;
}

void ModelRunner::printStats(const Gpt2Run &run) const
{
    m_out << "\nlayer head  entropy  distance  previous  first\n" << std::fixed;
    for (int layer = 0; layer < run.layers(); ++layer)
        for (int head = 0; head < run.heads(); ++head) {
            const HeadStats &s = run.stats(layer, head);
            m_out << std::setw(5) << layer << std::setw(5) << head + 1 << std::setw(9)
                  << std::setprecision(3) << s.entropy << std::setw(10) << std::setprecision(2)
                  << s.meanDistance << std::setw(10) << std::setprecision(3) << s.previousToken
                  << std::setw(7) << s.firstToken << "\n";
        }
    m_out << std::defaultfloat;
}

} // namespace headlens
