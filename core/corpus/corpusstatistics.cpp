// CorpusStatistics: token-weighted means of each run's HeadStats, and the heads' divergences.
#include "corpus/corpusstatistics.h"

#include "corpus/classicalscaling.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace headlens {

void CorpusStatistics::ShareSum::add(double share, double tokens)
{
    if (std::isnan(share))
        return;
    sum += share * tokens;
    weight += tokens;
}

double CorpusStatistics::ShareSum::mean() const
{
    return weight > 0.0 ? sum / weight : std::numeric_limits<double>::quiet_NaN();
}

CorpusStatistics::CorpusStatistics(int layers, int heads)
    : m_layers(layers), m_heads(heads), m_sums(size_t(layers * heads)),
      m_divergences(int64_t(layers) * heads)
{
    assert(layers >= 1 && heads >= 1);
}

void CorpusStatistics::add(const ModelRun &run)
{
    assert(run.layers == m_layers && run.heads == m_heads);
    const double tokens = double(run.tokenIds.size());
    for (size_t index = 0; index < m_sums.size(); ++index) {
        const HeadStats &stats = run.stats.at(index);
        HeadSums &sums = m_sums[index];
        sums.weighted.entropy += stats.entropy * tokens;
        sums.weighted.meanDistance += stats.meanDistance * tokens;
        sums.weighted.diagonal += stats.diagonal * tokens;
        // previousToken is a mean over rows i >= 1: weigh it by those rows.
        if (tokens > 1.0)
            sums.weighted.previousToken += stats.previousToken * (tokens - 1.0);
        sums.weighted.firstToken += stats.firstToken * tokens;
        sums.weighted.maxWeight = std::max(sums.weighted.maxWeight, stats.maxWeight);
        sums.cls.add(stats.clsShare, tokens);
        sums.sep.add(stats.sepShare, tokens);
        sums.punctuation.add(stats.punctuationShare, tokens);
    }
    if (!run.headOutputSums.isEmpty()) {
        const Shape &s = run.headOutputSums.shape(); // (L, h, d_v)
        const Eigen::MatrixXd sums =
            ConstRowMatrixMap(run.headOutputSums.data(), s.size(0) * s.size(1), s.size(2))
                .cast<double>();
        if (m_outputSums.size() == 0)
            m_outputSums = Eigen::MatrixXd::Zero(sums.rows(), sums.cols());
        m_outputSums += sums;
    }
    m_divergences.add(run.attention);
    ++m_texts;
    m_tokens += int64_t(tokens);
}

CorpusSummary CorpusStatistics::summary(std::vector<double> induction,
                                        std::vector<int> inductionTokens) const
{
    assert(induction.size() == m_sums.size());
    CorpusSummary summary;
    summary.layers = m_layers;
    summary.heads = m_heads;
    summary.texts = m_texts;
    summary.tokens = m_tokens;
    const double tokens = double(std::max<int64_t>(m_tokens, 1));
    const double previousRows = double(std::max<int64_t>(m_tokens - m_texts, 1));
    for (const HeadSums &sums : m_sums) {
        HeadStats mean;
        mean.entropy = sums.weighted.entropy / tokens;
        mean.meanDistance = sums.weighted.meanDistance / tokens;
        mean.diagonal = sums.weighted.diagonal / tokens;
        mean.previousToken = sums.weighted.previousToken / previousRows;
        mean.firstToken = sums.weighted.firstToken / tokens;
        mean.maxWeight = sums.weighted.maxWeight;
        mean.clsShare = sums.cls.mean();
        mean.sepShare = sums.sep.mean();
        mean.punctuationShare = sums.punctuation.mean();
        summary.stats.push_back(mean);
    }
    summary.induction = std::move(induction);
    summary.inductionTokens = std::move(inductionTokens);
    summary.distances = m_divergences.meanDistance();
    summary.map = classicalScaling(summary.distances);
    if (m_outputSums.size() > 0) {
        summary.headOutputMeans =
            Tensor(Shape{{"layer", m_layers}, {"h", m_heads}, {"d_v", m_outputSums.cols()}});
        RowMatrixMap(summary.headOutputMeans.data(), m_outputSums.rows(), m_outputSums.cols()) =
            (m_outputSums / tokens).cast<float>();
    }
    return summary;
}

} // namespace headlens
