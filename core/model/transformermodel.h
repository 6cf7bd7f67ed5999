// TransformerModel: a checkpoint folder of any family HeadLens runs, opened once, run on any text.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/layerorigin.h"
#include "model/checkpoint.h"
#include "model/modelinput.h"
#include "model/modelspec.h"
#include "model/modelweights.h"
#include "model/transformerrun.h"
#include "text/pipeline/tokenizerpipeline.h"

#include <string>
#include <vector>

namespace headlens {

/// One forward pass for every family, configured by its FamilyTable (familytable.h): token
/// embedding + learned positions (+ BERT's segments and embedding norm); per block, pre-norm
/// x += attn(norm_1(x)), x += mlp(norm_2(x)) (GPT-2, Llama), or post-norm
/// x = norm_1(x + attn(x)), x = norm_2(x + mlp(x)) (BERT); decoders' logits = norm_f(x) E^T
/// through the output head (the token embedding when tied), encoders' through the MLM head at
/// the mask tokens. GPT-2 (Radford et al. 2019) is the first table. Every layer runs the built-in
/// layer's attention (attentionforward.h), the viewed one through computeTrace so the pipeline and
/// arithmetic views work on it, and every layer's attention probabilities are recorded. Open once
/// (cheap: the weights are mapped, only the attention is laid out), then call run() from a worker
/// thread: all const members are safe to call concurrently. Move-only.
class TransformerModel
{
public:
    /// Logits of this many rows at most at a time (the analyses' blocks: head importance,
    /// patching, the logit lens): the output head is read once per block, and a block of
    /// GPT-2's 50257 logits stays near 100 MB, whatever the text's length.
    static constexpr int64_t kLogitRows = 512;

    /// Opens `dir` holding config.json, the safetensors weights (one file or an index with its
    /// shards; F32/F16/BF16, mapped) and the tokenizer: tokenizer.json when there is one, else
    /// the family's own files (GPT-2's and RoBERTa's vocab.json + merges.txt, BERT's
    /// vocab.txt), adjusted by tokenizer_config.json (TokenizerFolder).
    /// Throws InputError naming the file (and tensor or line) when one is missing or bad, or
    /// when config.json disagrees with the tensor shapes or the vocabulary. A GGUF file in
    /// place of the folder is opened by openGguf.
    /// `heldBytes`: the weights of a model kept open beside this one (MemoryNeeds::check).
    static TransformerModel open(const std::string &dir, uint64_t heldBytes = 0);
    /// Opens a GGUF file (llama.cpp's; GgufFile): the family from general.architecture, the
    /// sizes from its metadata (GgufConfig), the tokenizer from tokenizer.ggml.*
    /// (GgufVocabulary), the weights mapped in their stored types, quantized ones decoded a
    /// block at a time where they are used. Throws InputError naming the file and the key or
    /// tensor that is missing or bad.
    static TransformerModel openGguf(const std::string &path, uint64_t heldBytes = 0);

    TransformerModel(TransformerModel &&) = default;
    TransformerModel &operator=(TransformerModel &&) = default;
    TransformerModel(const TransformerModel &) = delete;
    TransformerModel &operator=(const TransformerModel &) = delete;

    const std::string &directory() const { return m_directory; }
    const ModelSpec &spec() const { return m_spec; }
    const TokenizerPipeline &tokenizer() const { return m_tokenizer; }
    const ModelWeights &weights() const { return m_weights; }
    /// One sentence per tensor of the checkpoint holding NaN or infinite values
    /// (NonFiniteValues::warning); the model still opens, so the views show where they land.
    const std::vector<std::string> &warnings() const { return m_warnings; }
    /// Bytes of the weights files.
    uint64_t bytesOnDisk() const { return m_checkpoint.bytesOnDisk(); }
    /// The settings of every layer's attention (ModelSpec::attentionConfig).
    AttentionConfig attentionConfig() const { return m_spec.attentionConfig(); }

    /// The text's token ids, as transformers' tokenizer(text) gives them (special tokens added:
    /// Llama's BOS, BERT's [CLS] and [SEP]).
    std::vector<int> encode(const std::string &text) const;
    /// An encoder's pair as tokenizer(text, pair) gives it ([CLS] A [SEP] B [SEP]), with each
    /// token's segment. Precondition: readsPairs().
    ModelInput encodePair(const std::string &text, const std::string &pair) const;
    /// Encoders read a pair of texts (sentence A and B); decoders one.
    bool readsPairs() const { return !m_spec.family->causal; }
    /// The id of the mask token the MLM head fills, -1 for decoders or when the vocabulary
    /// lacks it.
    int maskTokenId() const;

    /// One pass over `input`. Throws InputError when there are no ids, more than the
    /// context length, an id outside [0, vocab size), a segment the model has no embedding
    /// for, or options.viewedLayer is not in [-1, layers); Cancelled when options.progress
    /// asks to stop.
    TransformerRun run(const ModelInput &input, const TransformerRunOptions &options = {}) const;
    /// run(input, options) for a text whose first tokens `previous` (a run of this model with
    /// options.keepKeyValues) has read already: the rows of the first reusableTokens() tokens
    /// (keys, values, every layer's input and stream, attention rows, z_h) are copied from
    /// `previous` and only the tokens after them are computed: their queries against every key
    /// (causal attention makes the earlier rows blind to what follows), and the traced layer
    /// traced whole. The same numbers as run() within float rounding; a whole run() when
    /// nothing can be reused (TransformerRun::reusedTokens says how many were). Throws what
    /// run() throws.
    TransformerRun extend(const TransformerRun &previous, const ModelInput &input,
                          const TransformerRunOptions &options) const;
    /// How many leading tokens extend() takes from `previous`: those both inputs share (ids
    /// and segments), all but the last of `input` at most (its logits are computed); 0 when
    /// nothing may be reused: an encoder (bidirectional: every row reads every token), logits
    /// for every position, a `previous` without the keys and values or a tensor `options` asks
    /// to keep (or `options` without keepKeyValues), other interventions than `previous` made,
    /// or interventions that read the whole text (mean ablation, patching, one position). A
    /// tiled run goes on only from a tiled run with the same settings, when the text changes
    /// nothing before its last TiledAttention::kEditableRows tokens (the grids and sums are
    /// kept as they stood before each of those) and is not so much shorter that its bins would
    /// halve, and never keeping z_h.
    int64_t reusableTokens(const TransformerRun &previous, const ModelInput &input,
                           const TransformerRunOptions &options) const;
    /// run() of one text's ids ({1, 2, 3} works too).
    TransformerRun run(const std::vector<int> &tokenIds,
                       const TransformerRunOptions &options = {}) const
    {
        return run(ModelInput(tokenIds), options);
    }
    /// run(encode(text), options).
    TransformerRun runText(const std::string &text,
                           const TransformerRunOptions &options = {}) const;
    /// Layer `layer` step by step from `layerInputs` (a run's, (L, n, d_model)) with `tokens`
    /// as labels: what run() with that viewedLayer traces, without running the other layers
    /// again. Precondition: the inputs came from a run of this model, 0 <= layer < layers.
    Trace traceLayer(const Tensor &layerInputs, const std::vector<std::string> &tokens, int layer,
                     const HeadInterventions *interventions = nullptr) const;
    /// What layer `layer`'s x is: this family's norm of the residual stream entering it (the
    /// stream itself for a post-norm block), for the trace's descriptions.
    LayerOrigin originOf(int layer) const;

    /// The layers from `first` on, lean (no probabilities kept): x (count*n, d_model) holds
    /// `count` sequences of n tokens, the residual stream entering layer `first` of each (a
    /// run's residualStream row block, copied per sequence), run with `interventions` (an
    /// item's `sequence` picks one of the count). Returns the stream after the last layer, what
    /// logitsOf reads. `afterLayer` is called after each layer; returning false throws
    /// Cancelled. Precondition: 0 <= first <= layers, interventions checked.
    RowMatrix continueFrom(int first, RowMatrix x, int64_t count,
                           const HeadInterventions &interventions,
                           const std::function<bool()> &afterLayer = {}) const;
    /// Logits (rows, vocab) of rows of a final residual stream: decoders through the final norm
    /// and the output head, encoders through the MLM head. Precondition: an encoder has one
    /// (TransformerRun::noMaskHead empty).
    RowMatrix logitsOf(const Eigen::Ref<const RowMatrix> &x) const;
    /// The same into `logits`, (rows, vocabularySize()) already (a buffer kept across calls).
    void logitsInto(const Eigen::Ref<const RowMatrix> &x, Eigen::Ref<RowMatrix> logits) const;
    /// The logits' width: the output head's (or the MLM head's) rows.
    int64_t vocabularySize() const;

private:
    TransformerModel() = default;
    /// (n - first, d_model): token embeddings, + positions, + segments, then the embedding
    /// norm, of the tokens from `first` on.
    RowMatrix embed(const ModelInput &input, int64_t first = 0) const;
    /// The run's labels and its tensors sized for `input`, uninitialised but for the attention.
    TransformerRun layOut(const ModelInput &input, const TransformerRunOptions &options) const;
    /// Every layer on the stream x of the tokens from run.reusedTokens on, recording into `run`.
    void runLayers(RowMatrix &x, const TransformerRunOptions &options, TransformerRun &run) const;
    /// After the last layer: statistics, logits or mask fills, the final progress.
    void finishRun(const RowMatrix &x, const TransformerRunOptions &options,
                   TransformerRun &run) const;
    /// What a block's attention adds to the stream, from what it reads (rows, d_model).
    using AttentionStep = std::function<RowMatrix(const RowMatrix &read)>;
    /// One block on the residual stream x (rows, d_model), with its norms where the family
    /// places them: the one block of run() and continueFrom().
    void addBlock(int layer, RowMatrix &x, const AttentionStep &attend) const;
    /// The attention of `layer` on its input (stored in run.layerInputs), its probabilities
    /// into run.attention: the full trace when it is run.viewedLayer, Record::AttentionOnly
    /// otherwise (the same per-head code); z_h into run.headOutputs, keys and values into
    /// run.keys and run.values when kept. Only the rows from run.reusedTokens on are computed
    /// (and returned) outside the traced layer; the earlier rows must be in `run` already.
    RowMatrix attentionOutput(int layer, TransformerRun &run) const;
    /// attentionOutput of the traced layer: every row of it traced, copied into `run`.
    RowMatrix tracedAttentionOutput(int layer, TransformerRun &run) const;
    /// The final norm, logits through the output head, top-k predictions.
    void addLogits(const RowMatrix &x, const TransformerRunOptions &options,
                   TransformerRun &run) const;
    /// Encoders: the MLM head's logits and each mask token's fillers.
    void addMaskFills(const RowMatrix &x, const TransformerRunOptions &options,
                      TransformerRun &run) const;
    /// Every head's statistics, with the [CLS], [SEP] and punctuation shares.
    void addHeadStats(TransformerRun &run) const;
    /// Which of the run's tokens are [CLS], [SEP] or punctuation.
    TokenRoles rolesOf(const TransformerRun &run) const;
    /// What a tiled run's layer adds to the stream, from what it reads (the rows from
    /// run.reusedTokens on), recording its tiles on the way: no matrix, and no layer input kept.
    RowMatrix tiledAttentionOutput(int layer, const RowMatrix &read, TransformerRun &run) const;
    void checkRequest(const ModelInput &input, const TransformerRunOptions &options) const;

    /// The tokenizer's ids fit the embedding; the names are the files to blame.
    void checkVocabulary(const std::string &vocabulary, const std::string &config) const;
    /// Takes the checkpoint: memory checked, tensors resolved, non-finite values counted.
    void loadWeights(Checkpoint checkpoint, uint64_t heldBytes);

    std::string m_directory;
    ModelSpec m_spec;
    TokenizerPipeline m_tokenizer;
    Checkpoint m_checkpoint; ///< before m_weights, whose views point into it
    ModelWeights m_weights;
    std::vector<std::string> m_warnings;
};

} // namespace headlens
