// LensPrinter: headlens-cli's logit lens and direct logit attribution, printed and written.
#pragma once

#include "model/logitattribution.h"
#include "model/logitlens.h"

#include <ostream>
#include <string>
#include <vector>

namespace headlens {

/// Prints the analyses of what the model writes with tokens numbered from 1 (as the patching
/// map's positions) and layers from 0 (as --layer), and writes their .npy and .csv files.
class LensPrinter
{
public:
    explicit LensPrinter(std::ostream &out) : m_out(out) {}

    /// One line per position read: each stage's top token and the final token's probability.
    void print(const LogitLens &lens, const std::vector<std::string> &tokens) const;
    /// The logit split up: the heads' table, the other parts, their sum, and the heads that
    /// push it most with the tokens they promote and suppress.
    void print(const LogitAttribution &attribution, const std::vector<std::string> &tokens) const;

    /// dir/logit_lens.npy (stages, positions) float32: the final token's probability;
    /// dir/logit_lens_top.npy (stages, positions, k) int64: each stage's top token ids;
    /// dir/logit_lens.csv: a row per stage and position. Throws InputError when a file cannot
    /// be written.
    static void write(const LogitLens &lens, const std::vector<std::string> &tokens,
                      const std::string &dir);
    /// dir/dla.npy and dla.csv (layers, heads) as RankingPrinter writes tables;
    /// dir/dla_parts.csv: every part's share (embeddings, each head, bias and MLP, the norm's
    /// bias) with the sum and the logit; dir/dla_tokens.csv: each head's promoted and
    /// suppressed tokens.
    static void write(const LogitAttribution &attribution, const std::string &dir);

    /// "emb" for stage 0, "L<l>" for the stream after layer l (stage l + 1).
    static std::string stageName(int stage);

private:
    std::ostream &m_out;
};

} // namespace headlens
