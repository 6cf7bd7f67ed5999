// LensPrinter: compact lines for a terminal; every number in full in the files.
#include "lensprinter.h"

#include "rankingprinter.h"

#include "io/atomicfile.h"
#include "io/csvfield.h"
#include "io/headtablefile.h"
#include "io/npyfile.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>

namespace headlens {

namespace {

constexpr size_t kPrintedHeads = 3;  ///< heads listed with the tokens they push
constexpr size_t kPrintedTokens = 5; ///< of each head's promoted and suppressed tokens

std::string tokenList(const std::vector<LogitAttribution::TokenEffect> &effects, size_t count)
{
    std::string out;
    for (size_t k = 0; k < std::min(count, effects.size()); ++k)
        out += " [" + effects[k].label + "]";
    return out;
}

} // namespace

std::string LensPrinter::stageName(int stage)
{
    return stage == 0 ? "emb" : "L" + std::to_string(stage - 1);
}

void LensPrinter::print(const LogitLens &lens, const std::vector<std::string> &tokens) const
{
    m_out << "\nLogit lens (nostalgebraist 2020): the stream after each layer through the final "
             "norm and the output head\n"
          << "  per position: each stage's top token and the probability of the model's final "
             "prediction there\n"
          << "  stages: emb = the embeddings, L0.." << stageName(lens.stages() - 1)
          << " = after each layer (the last is the model's output)\n"
          << std::fixed << std::setprecision(3);
    for (size_t p = 0; p < lens.positions.size(); ++p) {
        const int position = lens.positions[p];
        m_out << "  " << std::setw(3) << position + 1 << " [" << tokens.at(size_t(position))
              << "] -> [" << lens.topAt(lens.stages() - 1, int(p)).at(0).label << "]:";
        for (int stage = 0; stage < lens.stages(); ++stage)
            m_out << "  " << stageName(stage) << " " << lens.finalProbability(stage, int64_t(p))
                  << " [" << lens.topAt(stage, int(p)).at(0).label << "]";
        m_out << "\n";
    }
    m_out << std::defaultfloat;
}

void LensPrinter::print(const LogitAttribution &a, const std::vector<std::string> &tokens) const
{
    const std::string what = "logit([" + a.tokenLabel + "])" +
                             (a.wrong >= 0 ? " - logit([" + a.wrongLabel + "])" : std::string());
    m_out << "\nDirect logit attribution of " << what << " at token " << a.position + 1 << " ["
          << tokens.at(size_t(a.position)) << "]: " << std::fixed << std::setprecision(4) << a.logit
          << "\n"
          << "  each head's share, its output through the final norm (its scale frozen from this "
             "run) and the unembedding:\n";
    RankingPrinter(m_out).printTable(a.heads);
    double biases = 0.0;
    for (double b : a.biases)
        biases += b;
    m_out << std::fixed << std::setprecision(4) << "  embeddings " << a.embeddings
          << ", attention output biases " << biases << ", final norm's bias " << a.normBias
          << "\n  MLPs:";
    for (size_t layer = 0; layer < a.mlps.size(); ++layer)
        m_out << " L" << layer << " " << a.mlps[layer];
    m_out << "\n  sum of the shares " << a.sum() << " (the logit"
          << (a.wrong >= 0 ? " difference" : "") << " " << a.logit << ")\n";
    // The heads that push the logit most, either way, with the tokens they push.
    std::vector<Eigen::Index> order(size_t(a.heads.size()));
    std::iota(order.begin(), order.end(), 0);
    const size_t shown = std::min(order.size(), kPrintedHeads);
    std::partial_sort(order.begin(), order.begin() + long(shown), order.end(),
                      [&a](Eigen::Index x, Eigen::Index y) {
                          return std::abs(a.heads.data()[x]) > std::abs(a.heads.data()[y]);
                      });
    for (size_t k = 0; k < shown; ++k) {
        const Eigen::Index index = order[k];
        m_out << "  head " << index / a.heads.cols() << "." << index % a.heads.cols() + 1 << " ("
              << std::showpos << a.heads.data()[index] << std::noshowpos << ") promotes"
              << tokenList(a.promoted.at(size_t(index)), kPrintedTokens) << ", suppresses"
              << tokenList(a.suppressed.at(size_t(index)), kPrintedTokens) << "\n";
    }
    m_out << std::defaultfloat;
}

void LensPrinter::write(const LogitLens &lens, const std::vector<std::string> &tokens,
                        const std::string &dir)
{
    const int64_t stages = lens.stages(), positions = int64_t(lens.positions.size());
    Tensor probability(Shape{{"stage", stages}, {"position", positions}});
    probability.matrix({}) = lens.finalProbability;
    NpyFile::write(dir + "/logit_lens.npy", probability);
    const int64_t k = positions ? int64_t(lens.topAt(0, 0).size()) : 0;
    std::vector<int64_t> top;
    for (int stage = 0; stage < stages; ++stage)
        for (int p = 0; p < positions; ++p)
            for (const TokenPrediction &prediction : lens.topAt(stage, p))
                top.push_back(prediction.tokenId);
    NpyFile::writeInt64(dir + "/logit_lens_top.npy", top, {stages, positions, k});
    std::ostringstream csv;
    csv << "stage,after,position,token,final_token,final_probability";
    for (int64_t rank = 1; rank <= k; ++rank)
        csv << ",top_" << rank << ",probability_" << rank;
    csv << "\n" << std::setprecision(9);
    for (int stage = 0; stage < stages; ++stage)
        for (int p = 0; p < positions; ++p) {
            const int position = lens.positions[size_t(p)];
            csv << stage << ","
                << (stage == 0 ? "embeddings" : "layer " + std::to_string(stage - 1)) << ","
                << position << "," << csvField(tokens.at(size_t(position))) << ","
                << csvField(lens.topAt(stages - 1, p).at(0).label) << ","
                << lens.finalProbability(stage, p);
            for (const TokenPrediction &prediction : lens.topAt(stage, p))
                csv << "," << csvField(prediction.label) << "," << prediction.probability;
            csv << "\n";
        }
    AtomicFile::write(dir + "/logit_lens.csv", csv.str());
}

void LensPrinter::write(const LogitAttribution &a, const std::string &dir)
{
    HeadTableFile::write(a.heads, dir, "dla");
    std::ostringstream parts;
    parts << "part,layer,head,share\n" << std::setprecision(9);
    parts << "embeddings,,," << a.embeddings << "\n";
    for (Eigen::Index layer = 0; layer < a.heads.rows(); ++layer) {
        for (Eigen::Index head = 0; head < a.heads.cols(); ++head)
            parts << "head," << layer << "," << head + 1 << "," << a.heads(layer, head) << "\n";
        parts << "attention bias," << layer << ",," << a.biases.at(size_t(layer)) << "\n";
        parts << "mlp," << layer << ",," << a.mlps.at(size_t(layer)) << "\n";
    }
    parts << "final norm bias,,," << a.normBias << "\n"
          << "sum,,," << a.sum() << "\n"
          << "logit,,," << a.logit << "\n";
    AtomicFile::write(dir + "/dla_parts.csv", parts.str());
    std::ostringstream effects;
    effects << "layer,head,direction,rank,token_id,token,logit_change\n" << std::setprecision(9);
    const Eigen::Index heads = a.heads.cols();
    for (size_t index = 0; index < a.promoted.size(); ++index)
        for (const auto *list : {&a.promoted[index], &a.suppressed[index]})
            for (size_t rank = 0; rank < list->size(); ++rank)
                effects << Eigen::Index(index) / heads << "," << Eigen::Index(index) % heads + 1
                        << "," << (list == &a.promoted[index] ? "promotes" : "suppresses") << ","
                        << rank + 1 << "," << (*list)[rank].tokenId << ","
                        << csvField((*list)[rank].label) << "," << (*list)[rank].value << "\n";
    AtomicFile::write(dir + "/dla_tokens.csv", effects.str());
}

} // namespace headlens
