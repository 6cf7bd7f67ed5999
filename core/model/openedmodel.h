// OpenedModel: a model in memory behind one interface, whatever its family (GPT-2, toy model).
#pragma once

#include "attention/headinterventions.h"
#include "model/headcircuits.h"
#include "model/headimportance.h"
#include "model/logitattribution.h"
#include "model/logitlens.h"
#include "model/modelinput.h"
#include "model/modelrun.h"
#include "model/patchingmap.h"
#include "train/repeatedtokens.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace headlens {

/// What orchestration (core/session) and the front ends need from a model. Made only by
/// ModelOpener, the one place that tells families apart. Immutable: run() may be called from
/// any thread, concurrently.
class OpenedModel
{
public:
    virtual ~OpenedModel() = default;

    /// How many next tokens a run ranks (ModelRun::topNext): the Model tab lists ten,
    /// headlens-cli prints the first five.
    static constexpr int kTopPredictions = 10;

    /// The family as people call it, for messages: "GPT-2", "toy model".
    virtual std::string family() const = 0;
    /// The family and the file or folder: "GPT-2 tiny", "toy model toy.npz".
    virtual std::string name() const = 0;
    virtual int layers() const = 0;
    /// The longest input the model reads, in tokens (its context, or a toy model's length).
    virtual int maxTokens() const = 0;
    /// The token ids of `text`. Throws InputError when the model cannot read it.
    virtual std::vector<int> encode(const std::string &text) const = 0;
    /// What encode() changed or dropped of `text`, as a note for the window (a toy model's
    /// vocabulary and cut); empty when the model reads text as it is.
    virtual std::string readingNote(const std::string &text) const
    {
        (void)text;
        return {};
    }
    /// Encoders read a pair of texts: sentence A and sentence B (BERT's [CLS] A [SEP] B [SEP]).
    virtual bool readsPairs() const { return false; }
    /// The tokens of `text` and `pair` with each one's segment. Precondition: readsPairs().
    virtual ModelInput encodePair(const std::string &text, const std::string &pair) const
    {
        (void)pair;
        return encode(text);
    }
    /// One pass over `input`, tracing `layer`, with `interventions` on heads' outputs in every
    /// layer they name (kept in the run's `interventions`). Precondition: 0 <= layer <
    /// layers(). Throws InputError (ids the model cannot read, an intervention on a head it
    /// lacks) or Cancelled (when `progress` returned false). The run's `source` is left for the
    /// caller to fill in.
    virtual std::shared_ptr<ModelRun> run(const ModelInput &input, int layer,
                                          const HeadInterventions &interventions,
                                          const std::function<bool(double)> &progress) const = 0;
    /// run() without interventions.
    std::shared_ptr<ModelRun> run(const ModelInput &input, int layer,
                                  const std::function<bool(double)> &progress) const
    {
        return run(input, layer, HeadInterventions(), progress);
    }

    /// run() for `input` after `previous`, a run of this model with `interventions` too: a
    /// causal transformer takes the rows of the tokens both texts start with from `previous`
    /// and computes only the tokens after them (TransformerModel::extend: typing at the end of
    /// a long text); the base, and any model when nothing can be reused, runs anew. Throws
    /// what run() throws.
    virtual std::shared_ptr<ModelRun> extend(const ModelRun &previous, const ModelInput &input,
                                             int layer, const HeadInterventions &interventions,
                                             const std::function<bool(double)> &progress) const
    {
        (void)previous;
        return run(input, layer, interventions, progress);
    }

    /// Each head's importance for `input`: the loss increase when it alone is ablated as
    /// `ablation` says (decoders: next-token loss; encoders: the mask tokens'; toy models: the
    /// task's). Throws InputError when the text gives no loss (saying why), when the means do
    /// not fit the model, or (toy models) for a mean ablation; Cancelled.
    virtual HeadImportance importance(const ModelInput &input, const ImportanceAblation &ablation,
                                      const std::function<bool(double)> &progress) const = 0;
    /// importance() with each head zero-ablated.
    HeadImportance importance(const ModelInput &input,
                              const std::function<bool(double)> &progress) const
    {
        return importance(input, ImportanceAblation(), progress);
    }
    /// The patching map of the clean and corrupted texts with the metric logit(answer) -
    /// logit(wrong), in the question's direction, with one head patched position by position.
    /// Throws InputError when the token lengths differ (saying both) or the metrics differ by
    /// less than kMinPatchingDifference (saying by how much), Cancelled.
    virtual PatchingMap patching(const ModelInput &clean, const ModelInput &corrupt,
                                 const PatchingQuestion &question,
                                 const std::function<bool(double)> &progress) const = 0;
    /// The logit lens of `input` (LogitLens) with `topK` tokens per stage and position. The
    /// base throws InputError: only a checkpoint's model reads its stream through an output
    /// head. Throws InputError, Cancelled.
    virtual LogitLens logitLens(const ModelInput &input, int topK,
                                const std::function<bool(double)> &progress) const;
    /// Direct logit attribution (LogitAttribution) at `position` (-1: the last token) of
    /// logit(token) [- logit(wrong) when wrong >= 0]. The base throws InputError as
    /// logitLens. Throws InputError, Cancelled.
    virtual LogitAttribution attribution(const ModelInput &input, int position, int token,
                                         int wrong, int headTokens,
                                         const std::function<bool(double)> &progress) const;
    /// What a probe of repeated tokens (the head atlas's r r) draws its runs from, and how.
    struct ProbePool
    {
        std::vector<int> tokens;
        RunKind kind = RunKind::RandomTokens;
    };
    /// The base: the ids of the first 4 kB of the default stories (StoryGenerator, seed 0), so
    /// that no run holds unused or glitch ids. A model of many tokens draws random ones among
    /// their distinct ids (TransformerLens's probe); a model that reads at most 256 distinct
    /// tokens there (one byte per token) draws stretches of the text instead: random bytes
    /// are no text to it, and its heads do not copy them (the trainer found the same,
    /// RepeatedTokens).
    virtual ProbePool probePool() const;
    /// (L, h, n) ||v_j W_O,h|| of `run` (a run of this model): what each head moves from each
    /// token (AttentionFlow::valueNorms). The base: empty (a toy model's run keeps only the
    /// traced layer's input).
    virtual Tensor valueNorms(const ModelRun &run) const
    {
        (void)run;
        return {};
    }
    /// The QK and OV circuits of head `head` of layer `layer` (from 0) read on `tokens` (ids of
    /// this model's vocabulary). The base throws InputError: the circuits read a checkpoint's
    /// embeddings and output head. Throws InputError for a head or token the model lacks.
    virtual HeadCircuits circuits(int layer, int head, const std::vector<int> &tokens) const;
    /// The one token id of `answer` for `purpose` (the patching metric's by default). Throws
    /// InputError saying how it tokenizes, and why one token is needed, when it is not one.
    int answerToken(
        const std::string &answer,
        const std::string &purpose = "the patching metric compares two single tokens") const;
    /// The ids of `text` without the special tokens encode() adds (BOS, [CLS]): an answer's.
    virtual std::vector<int> encodePiece(const std::string &text) const { return encode(text); }
    /// The label of one token id, as the runs show it.
    virtual std::string tokenLabel(int id) const = 0;
    /// The bytes of the text token `id` stands for (TokenizerPipeline::tokenBytes: " world" for
    /// "Ġworld"), so that a token's place in the text can be found; empty when the model does
    /// not read text byte for byte (a toy model's vocabulary).
    virtual std::string tokenBytes(int id) const
    {
        (void)id;
        return {};
    }
    /// What opening found wrong without refusing the model (weights holding NaN or infinite
    /// values, named by tensor); Session puts them first in every trace's warnings.
    virtual std::vector<std::string> warnings() const { return {}; }
    /// The bytes of weight files the model maps and reads on every pass (0: none, its weights
    /// are on the heap): what another model opened beside it must leave room for.
    virtual uint64_t mappedBytes() const { return 0; }

    /// `previous` (a run of this model) with layer `layer` traced instead: what
    /// run({previous.tokenIds, previous.segments}, layer, progress) gives. The base runs the model
    /// again; a family whose runs keep each layer's input (ModelRun::layerInputs) traces only that
    /// layer.
    virtual std::shared_ptr<ModelRun> retrace(const ModelRun &previous, int layer,
                                              const std::function<bool(double)> &progress) const
    {
        return run({previous.tokenIds, previous.segments}, layer, previous.interventions, progress);
    }

protected:
    /// The lines of ModelRun::settingsSummary: the attention's sizes, its positions and window
    /// when it has them (RoPE theta and scaling, q/k norms), then layers, vocabulary, context.
    static std::string summary(const AttentionConfig &config, int layers, int vocabulary,
                               int context);
};

} // namespace headlens
