// CorpusCommand: the corpus loop with a progress line, then a table per head.
#include "corpuscommand.h"

#include "corpus/corpusexport.h"
#include "corpus/corpusfile.h"
#include "corpus/corpusrun.h"
#include "model/modelopener.h"
#include "util/inputerror.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace headlens {
namespace {

/// A share, or "-" where the corpus has no such token.
std::string shareText(double share)
{
    if (std::isnan(share))
        return "-";
    std::ostringstream out;
    out << std::fixed << std::setprecision(3) << share;
    return out.str();
}

} // namespace

int CorpusCommand::run(const CommandLineRequest &request)
{
    if (request.modelDir.empty())
        throw InputError("--corpus runs a model's heads over a file: give --model with a "
                         "checkpoint folder or a toy model .npz.");
    if (!request.texts.empty() || !request.tokenIds.empty())
        throw InputError("--corpus reads its texts from the file; leave out --text, --text-file "
                         "and --token-ids.");
    const auto model = ModelOpener::open(request.modelDir);
    const CorpusFile count(request.intervene.corpusPath); // refuse a bad file before the loop
    const int64_t texts = count.texts();
    int64_t shown = -1;
    const CorpusSummary summary =
        runCorpus(*model, request.intervene.corpusPath, {}, [&](double fraction) {
            const int64_t done = std::min<int64_t>(texts, int64_t(fraction * double(texts + 1)));
            if (done != shown) {
                m_err << "\rcorpus: " << done << " / " << texts << " texts" << std::flush;
                shown = done;
            }
            return true;
        });
    m_err << "\rcorpus: " << texts << " / " << texts << " texts\n";
    printTable(summary);
    if (!request.exportDir.empty()) {
        CorpusExport::write(summary, request.exportDir);
        m_out << "Wrote corpus_heads.csv, corpus_distances.npy, corpus_map.npy to "
              << request.exportDir << "\n";
    }
    return 0;
}

void CorpusCommand::printTable(const CorpusSummary &summary) const
{
    m_out << summary.model << " over " << summary.corpus << ": " << summary.texts << " texts, "
          << summary.tokens << " tokens";
    if (summary.cutTexts > 0)
        m_out << " (" << summary.cutTexts << " cut to " << summary.tokenLimit << " tokens)";
    // An encoder's first token is its [CLS] (<s>): the first-token column is its share.
    const bool encoder = std::any_of(summary.stats.begin(), summary.stats.end(),
                                     [](const HeadStats &s) { return !std::isnan(s.clsShare); });
    m_out << "\nMeans over every token; induction on " << summary.inductionLength()
          << " random tokens of the corpus repeated once; map: classical scaling of the heads' "
             "Jensen-Shannon distances\n"
          << "layer head  entropy  distance  prev  " << (encoder ? " [CLS]" : " first")
          << "  [SEP]  punct  induction   map x   map y\n";
    for (int layer = 0; layer < summary.layers; ++layer)
        for (int head = 0; head < summary.heads; ++head) {
            const int index = summary.index(layer, head);
            const HeadStats &stats = summary.stats[size_t(index)];
            m_out << std::fixed << std::setprecision(3) << std::setw(5) << layer << std::setw(5)
                  << head + 1 << std::setw(9) << stats.entropy << std::setw(10)
                  << stats.meanDistance << std::setw(7) << stats.previousToken << std::setw(7)
                  << stats.firstToken << std::setw(7) << shareText(stats.sepShare) << std::setw(7)
                  << shareText(stats.punctuationShare) << std::setw(11)
                  << shareText(summary.induction[size_t(index)]) << std::setw(8)
                  << summary.map(index, 0) << std::setw(8) << summary.map(index, 1) << "\n";
        }
    m_out << std::defaultfloat;
}

} // namespace headlens
