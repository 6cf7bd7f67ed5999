// ModelRun: one text through a whole model: every layer's attention probabilities, the traced
// layer.
#pragma once

#include "attention/attentionweights.h"
#include "attention/headinterventions.h"
#include "attention/trace.h"
#include "model/maskfill.h"
#include "model/modelsource.h"
#include "model/tiledattention.h"
#include "model/tokenpredictions.h"
#include "stats/headstats.h"
#include "stats/tokenroles.h"
#include "tensor/tensor.h"

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace headlens {

struct TransformerRun;

/// Made by OpenedModel::run in a worker thread; immutable afterwards and shared by every view.
/// L = layers, h = heads, n = tokens. Family-neutral: the views and the CLI read only this.
struct ModelRun
{
    ModelSource source;              ///< resolved: `model` is set; source.layer was traced
    std::string name;                ///< "GPT-2 tiny" or "toy model toy.npz"
    int layers = 0;                  ///< L
    int heads = 0;                   ///< h
    int kvHeads = 0;                 ///< h_kv: key/value heads, h when they are not shared
    std::vector<int> tokenIds;       ///< (n) ids in the model's vocabulary
    std::vector<std::string> tokens; ///< (n) labels the model saw (BPE pieces or toy labels)
    /// (n) the segment of every token: 0 for sentence A (with the special tokens before and
    /// after it), 1 for sentence B of an encoder's pair; all 0 for one text.
    std::vector<int> segments;
    /// (L, h, n, n) attention probabilities of every layer. A handle on the storage of the pass
    /// that computed them (TransformerRun::attention for GPT-2), never a second copy; keys after
    /// the query hold their probability 0 when `causal`: views draw them masked.
    Tensor attention;
    /// Set instead of `attention` (which is then empty) for a text whose matrices would take
    /// more than TiledAttention::matrixLimit(): every head's pooled grids, and any region of
    /// any head computed on demand. No layer is traced then (layerTrace is null).
    std::shared_ptr<const TiledAttention> tiles;
    /// (L, n, d_model) what each layer's attention read, when the family keeps it so that
    /// another layer can be traced without running the model again (OpenedModel::retrace);
    /// empty otherwise (and for a tiled run). A handle on the pass's storage.
    Tensor layerInputs;
    /// What the run changed in heads' outputs (empty: the ordinary model); the window dims
    /// the heads HeadInterventions::changes names.
    HeadInterventions interventions;
    bool causal = true;           ///< key j > query i is masked in every layer
    std::vector<HeadStats> stats; ///< L * h, index layer * h + head
    /// (n) the tokens whose shares `stats` sums ([CLS], [SEP], punctuation); empty when the
    /// family marks none (a toy model's).
    TokenRoles roles;
    std::vector<TokenPrediction> topNext; ///< next token after the last position, best first
    /// (vocab) the logits the first predictions are read from: after a decoder's last token, at
    /// an encoder's first mask; empty without one. A copy of one row (an ablation's effect
    /// compares a token's probability before and after, also when it leaves the top list).
    Vector firstLogits;
    /// Encoders (not causal) read a pair: the second text box is sentence B.
    bool readsPairs = false;
    /// Encoders: the token the text writes for a mask ("[MASK]", "<mask>"); empty otherwise.
    std::string maskToken;
    /// Encoders: each mask token's top fillers, in text order (empty without masks).
    std::vector<MaskFill> maskFills;
    /// Encoders without an MLM head in the checkpoint: the sentence saying so; empty otherwise.
    std::string noMaskHead;
    /// The traced layer (source.layer) step by step, b = 1. Shares the pass's memory when the
    /// family keeps the trace in its own run (TransformerRun).
    std::shared_ptr<const Trace> layerTrace;
    AttentionWeights layerParameters; ///< that layer's W_Q, W_K, W_V, W_O and biases
    /// (L, h, d_v) each head's output z_h (before W_O) summed over the text's positions, with
    /// the run's interventions: what a corpus's mean ablation averages (CorpusStatistics).
    Tensor headOutputSums;
    /// Toy models: the accuracy on the task's held-out examples with this run's interventions
    /// (Trainer::evaluate), so an ablation shows what it does to the task; NaN otherwise.
    double taskAccuracy = std::numeric_limits<double>::quiet_NaN();
    /// The typed text was mapped onto the toy vocabulary one character at a time.
    bool mappedOntoToyVocabulary = false;
    /// What reading the text changed ("toy vocabulary a–t, …; cut to the first 20
    /// characters"): OpenedModel::readingNote of the text; empty for token ids or a pair.
    std::string readingNote;
    /// Toy models: the task's name ("reverse"), its probe as text to type (ToyTask::probe),
    /// and why the run's tokens are not an example of it (ToyTask::formatProblem, empty when
    /// they are); all empty for other models.
    struct
    {
        std::string name;
        std::string example;
        std::string formatProblem;
    } task;
    std::string settingsSummary; ///< "d_model 16 · 2 heads · d_k 8 · causal\n2 layers · ..."
    /// The pass of a checkpoint's model this run reads (its tensors are handles on it), with
    /// every layer's keys and values for a causal one, so that a text starting with the same
    /// tokens computes only its new ones (OpenedModel::extend); null for a toy model.
    std::shared_ptr<const TransformerRun> pass;

    /// Whether the run keeps tiles instead of every head's matrix.
    bool tiled() const { return tiles != nullptr; }
    /// Head `head` of layer `layer`, (n, n). Precondition: layer < layers, head < heads, not
    /// tiled().
    ConstRowMatrixMap probabilities(int layer, int head) const
    {
        return attention.matrix({layer, head});
    }
    const HeadStats &stat(int layer, int head) const
    {
        return stats.at(size_t(layer * heads + head));
    }
};

} // namespace headlens
