// CorpusStatistics: the per-head statistics of many runs, summed without keeping the runs.
#pragma once

#include "corpus/corpussummary.h"
#include "corpus/headdivergences.h"
#include "model/modelrun.h"

#include <vector>

namespace headlens {

/// Sums what every head of a model did over a stream of runs (ModelRun), one text at a time:
/// the memory is one run's plus a (L*h)^2 matrix, whatever the corpus's size.
class CorpusStatistics
{
public:
    /// Precondition: layers >= 1, heads >= 1.
    CorpusStatistics(int layers, int heads);

    /// Adds one text's run. Precondition: run.layers == layers, run.heads == heads.
    void add(const ModelRun &run);
    int layers() const { return m_layers; }
    int heads() const { return m_heads; }
    int64_t texts() const { return m_texts; }
    int64_t tokens() const { return m_tokens; }

    /// The averages so far, with `induction` and the map of the heads filled in; the caller
    /// fills in the summary's names and counts of the corpus.
    CorpusSummary summary(std::vector<double> induction, std::vector<int> inductionTokens) const;

private:
    /// Weighted sums of one share (NaN in a run when its text has no such token).
    struct ShareSum
    {
        double sum = 0.0;
        double weight = 0.0;
        void add(double share, double tokens);
        double mean() const;
    };
    struct HeadSums
    {
        /// The sum of each text's value times its tokens (maxWeight: the max); the shares are
        /// summed in ShareSums instead.
        HeadStats weighted;
        ShareSum cls, sep, punctuation;
    };

    int m_layers;
    int m_heads;
    int64_t m_texts = 0;
    int64_t m_tokens = 0;
    std::vector<HeadSums> m_sums;
    Eigen::MatrixXd m_outputSums; ///< (L*h, d_v) z_h summed over every token; empty until one
    HeadDivergences m_divergences;
};

} // namespace headlens
