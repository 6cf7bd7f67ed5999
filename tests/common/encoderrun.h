// encoderrun.h: ModelRuns made by hand with round numbers, for the window's encoder tests: what
// each table cell, plot point and bar must show can be worked out on paper.
#pragma once

#include "model/modelrun.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace headlens::test {

/// n = 8 tokens "[CLS] the cat sat [SEP] it slept [SEP]": sentence A "the cat sat", sentence B
/// "it slept". Uniform attention (1/n), enough for the grid; the statistics are set by hand.
inline std::shared_ptr<ModelRun> pairRun(int layers, int heads)
{
    auto run = std::make_shared<ModelRun>();
    run->name = "hand-made BERT";
    run->layers = layers;
    run->heads = heads;
    run->kvHeads = heads;
    run->causal = false;
    run->readsPairs = true;
    run->maskToken = "[MASK]";
    run->tokens = {"[CLS]", "the", "cat", "sat", "[SEP]", "it", "slept", "[SEP]"};
    run->segments = {0, 0, 0, 0, 0, 1, 1, 1};
    for (int i = 0; i < 8; ++i)
        run->tokenIds.push_back(100 + i);
    const int n = int(run->tokens.size());
    run->attention = Tensor(Shape{{"L", layers}, {"h", heads}, {"n", n}, {"n_kv", n}});
    for (int k = 0; k < layers * heads; ++k)
        run->attention.matrix({k / heads, k % heads}).setConstant(1.0f / float(n));
    run->stats.resize(size_t(layers * heads));
    return run;
}

/// 3 layers x 2 heads whose [SEP] share peaks in the middle layer, as in BERT (Clark et al.
/// 2019). Per layer (head 1, head 2):
///   [SEP]  0.10 0.20 | 0.70 0.90 | 0.30 0.40   -> layer means 0.15, 0.80, 0.35
///   [CLS]  0.50 0.30 | 0.05 0.01 | 0.20 0.10   -> layer means 0.40, 0.03, 0.15
///   punct  0.05  —   | 0.12  —   |  —   0.08
///   self   0.25 0.15 | 0.05 0.35 | 0.45 0.55
inline std::shared_ptr<ModelRun> middleSepRun()
{
    auto run = pairRun(3, 2);
    const double sep[] = {0.10, 0.20, 0.70, 0.90, 0.30, 0.40};
    const double cls[] = {0.50, 0.30, 0.05, 0.01, 0.20, 0.10};
    const double punct[] = {0.05, NAN, 0.12, NAN, NAN, 0.08};
    const double self[] = {0.25, 0.15, 0.05, 0.35, 0.45, 0.55};
    for (size_t k = 0; k < 6; ++k) {
        HeadStats &s = run->stats[k];
        s.sepShare = sep[k];
        s.clsShare = cls[k];
        s.punctuationShare = punct[k];
        s.diagonal = self[k];
        s.entropy = 1.0 + 0.1 * double(k);
    }
    return run;
}

/// A decoder's run as GPT-2 makes it: causal, no pair, the shares NaN (the defaults).
inline std::shared_ptr<ModelRun> decoderRun(int layers, int heads, int kvHeads)
{
    auto run = pairRun(layers, heads);
    run->name = "hand-made decoder";
    run->kvHeads = kvHeads;
    run->causal = true;
    run->readsPairs = false;
    run->maskToken.clear();
    run->tokens = {"The", " cat", " sat", " on", " the", " mat", " and", " slept"};
    run->segments.assign(8, 0);
    for (int k = 0; k < layers * heads; ++k)
        run->stats[size_t(k)].entropy = 0.5 + 0.25 * double(k);
    run->topNext = {{11, " soundly", 0.5, 2.0f}, {12, ".", 0.25, 1.0f}, {13, " well", 0.125, 0.0f}};
    return run;
}

} // namespace headlens::test
