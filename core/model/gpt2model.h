// Gpt2Model: a GPT-2 checkpoint folder opened once, then run on any number of texts.
#pragma once

#include "attention/attentionconfig.h"
#include "model/gpt2config.h"
#include "model/gpt2run.h"
#include "model/gpt2weights.h"
#include "text/bpetokenizer.h"

#include <string>
#include <vector>

namespace headlens {

/// GPT-2 (Radford et al. 2019) in Eigen: token + position embeddings; per block
/// x += attn(ln_1(x)), x += mlp(ln_2(x)); logits = ln_f(x) wte^T. Every layer's attention is
/// recorded; every layer runs the built-in layer's attention (attentionforward.h), the chosen
/// one through computeTrace so the pipeline and arithmetic views work on it. Open once (slow:
/// converts every weight), then call run() from a worker thread: all const members are safe to call
/// concurrently. Move-only (it holds every weight).
class Gpt2Model
{
public:
    /// Opens `dir` holding config.json, model.safetensors (mapped, F32/F16/BF16), vocab.json and
    /// merges.txt. Throws InputError naming the file (and tensor or line) when one is missing or
    /// bad, or when config.json disagrees with the tensor shapes or the vocabulary.
    static Gpt2Model open(const std::string &dir);

    Gpt2Model(Gpt2Model &&) = default;
    Gpt2Model &operator=(Gpt2Model &&) = default;
    Gpt2Model(const Gpt2Model &) = delete;
    Gpt2Model &operator=(const Gpt2Model &) = delete;

    const std::string &directory() const { return m_directory; }
    const Gpt2Config &config() const { return m_config; }
    const BpeTokenizer &tokenizer() const { return m_tokenizer; }
    const Gpt2Weights &weights() const { return m_weights; }
    /// The settings of every layer's attention, as computeTrace sees them: d_model = n_embd,
    /// h = n_head, causal, scale 1/sqrt(d_k), biases, no dropout, no positional encoding (GPT-2
    /// adds its learned positions before the first block).
    AttentionConfig attentionConfig() const;

    /// The text's token ids (BpeTokenizer::encode).
    std::vector<int> encode(const std::string &text) const;

    /// One pass over `tokenIds`. Throws InputError when there are no ids, more than
    /// n_positions, an id outside [0, vocab_size), or options.viewedLayer is not in
    /// [-1, n_layer); Cancelled when options.progress asks to stop.
    Gpt2Run run(const std::vector<int> &tokenIds, const Gpt2RunOptions &options = {}) const;
    /// run(encode(text), options).
    Gpt2Run runText(const std::string &text, const Gpt2RunOptions &options = {}) const;

private:
    Gpt2Model() = default;
    /// x += attention of `layer` on ln_1(x), its probabilities into run.attention: the full
    /// trace when it is run.viewedLayer, Record::AttentionOnly otherwise (the same per-head code).
    void addAttention(int layer, RowMatrix &x, Gpt2Run &run) const;
    /// ln_f, logits through wte, top-k predictions.
    void addLogits(const RowMatrix &x, const Gpt2RunOptions &options, Gpt2Run &run) const;
    void checkRequest(const std::vector<int> &tokenIds, const Gpt2RunOptions &options) const;

    std::string m_directory;
    Gpt2Config m_config;
    BpeTokenizer m_tokenizer;
    Gpt2Weights m_weights;
};

} // namespace headlens
