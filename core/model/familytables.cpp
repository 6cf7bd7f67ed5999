// familyTables: GPT-2, the Llama family (Llama, Mistral, Qwen2, Qwen3) and the encoders (BERT,
// RoBERTa, DistilBERT), one table each.
#include "model/familytable.h"

namespace headlens {

namespace {

/// GPT-2 (Radford et al. 2019): Hugging Face's GPT2Config names and defaults (GPT-2 small),
/// modeling_gpt2.py's tensor names. Conv1D weights, fused c_attn, pre-LayerNorm, tied head.
FamilyTable gpt2Table()
{
    FamilyTable t;
    t.modelType = "gpt2";
    t.displayName = "GPT-2";
    t.folderContents = "config.json, model.safetensors, vocab.json and merges.txt";
    t.layers = {"n_layer", 12};
    t.heads = {"n_head", 12};
    t.dModel = {"n_embd", 768};
    t.mlpWidth = {"n_inner", 0}; // null in the file: 4 * n_embd
    t.vocabSize = {"vocab_size", 50257};
    t.contextLength = {"n_positions", 1024};
    t.normEpsilon = {"layer_norm_epsilon", 1e-5};
    t.activationKey = "activation_function";
    t.activation = "gelu_new";
    t.activationMeaning = "GPT-2's \"gelu_new\" (the tanh approximation of GELU)";
    t.layout = WeightLayout::Conv1D;
    TensorNames &n = t.tensors;
    n.prefixes = {"", "transformer."};
    n.embedding = "wte.weight";
    n.positions = "wpe.weight";
    n.norm1Weight = "h.{i}.ln_1.weight";
    n.norm1Bias = "h.{i}.ln_1.bias";
    n.qkvWeight = "h.{i}.attn.c_attn.weight";
    n.qkvBias = "h.{i}.attn.c_attn.bias";
    n.outWeight = "h.{i}.attn.c_proj.weight";
    n.outBias = "h.{i}.attn.c_proj.bias";
    n.norm2Weight = "h.{i}.ln_2.weight";
    n.norm2Bias = "h.{i}.ln_2.bias";
    n.upWeight = "h.{i}.mlp.c_fc.weight";
    n.upBias = "h.{i}.mlp.c_fc.bias";
    n.downWeight = "h.{i}.mlp.c_proj.weight";
    n.downBias = "h.{i}.mlp.c_proj.bias";
    n.finalNormWeight = "ln_f.weight";
    n.finalNormBias = "ln_f.bias";
    t.gguf.architecture = "gpt2";
    TensorNames &g = t.gguf.tensors;
    g.prefixes = {""};
    g.embedding = "token_embd.weight";
    g.positions = "position_embd.weight";
    g.norm1Weight = "blk.{i}.attn_norm.weight";
    g.norm1Bias = "blk.{i}.attn_norm.bias";
    g.qkvWeight = "blk.{i}.attn_qkv.weight";
    g.qkvBias = "blk.{i}.attn_qkv.bias";
    g.outWeight = "blk.{i}.attn_output.weight";
    g.outBias = "blk.{i}.attn_output.bias";
    g.norm2Weight = "blk.{i}.ffn_norm.weight";
    g.norm2Bias = "blk.{i}.ffn_norm.bias";
    g.upWeight = "blk.{i}.ffn_up.weight";
    g.upBias = "blk.{i}.ffn_up.bias";
    g.downWeight = "blk.{i}.ffn_down.weight";
    g.downBias = "blk.{i}.ffn_down.bias";
    g.finalNormWeight = "output_norm.weight";
    g.finalNormBias = "output_norm.bias";
    g.outputHead = "output.weight";
    return t;
}

/// HeadLens's own decoder (core/train's ToyModel) when GPT-2 cannot hold it: GPT-2's block
/// (pre-LayerNorm, "gelu_new" MLP with biases, tied head) with separate q/k/v/o projections in
/// nn.Linear's layout, so that K and V may have fewer heads (n_kv_head, GQA), and positions
/// learned (wpe) or rotary ("rope": true, split-half pairs, rope_theta). Written by
/// Gpt2FolderWriter; no library besides HeadLens reads it.
FamilyTable headlensGptTable()
{
    FamilyTable t;
    t.modelType = "headlens_gpt";
    t.displayName = "HeadLens GPT";
    t.folderContents = "config.json, model.safetensors and tokenizer.json";
    t.layers = {"n_layer", 2};
    t.heads = {"n_head", 4};
    t.kvHeads = {"n_kv_head", 0}; // absent: as many as heads
    t.dModel = {"n_embd", 128};
    t.mlpWidth = {"n_inner", 0}; // null: 4 * n_embd
    t.vocabSize = {"vocab_size", 256};
    t.contextLength = {"n_positions", 64};
    t.normEpsilon = {"layer_norm_epsilon", 1e-5};
    t.ropeTheta = {"rope_theta", 10000};
    t.rotaryKey = "rope";
    t.activationKey = "activation_function";
    t.activation = "gelu_new";
    t.activationMeaning = "GPT-2's \"gelu_new\" (the tanh approximation of GELU)";
    t.layout = WeightLayout::Linear;
    TensorNames &n = t.tensors;
    n.prefixes = {""};
    n.embedding = "wte.weight";
    n.positions = "wpe.weight";
    n.norm1Weight = "h.{i}.ln_1.weight";
    n.norm1Bias = "h.{i}.ln_1.bias";
    n.qWeight = "h.{i}.attn.q_proj.weight";
    n.qBias = "h.{i}.attn.q_proj.bias";
    n.kWeight = "h.{i}.attn.k_proj.weight";
    n.kBias = "h.{i}.attn.k_proj.bias";
    n.vWeight = "h.{i}.attn.v_proj.weight";
    n.vBias = "h.{i}.attn.v_proj.bias";
    n.outWeight = "h.{i}.attn.o_proj.weight";
    n.outBias = "h.{i}.attn.o_proj.bias";
    n.norm2Weight = "h.{i}.ln_2.weight";
    n.norm2Bias = "h.{i}.ln_2.bias";
    n.upWeight = "h.{i}.mlp.fc.weight";
    n.upBias = "h.{i}.mlp.fc.bias";
    n.downWeight = "h.{i}.mlp.proj.weight";
    n.downBias = "h.{i}.mlp.proj.bias";
    n.finalNormWeight = "ln_f.weight";
    n.finalNormBias = "ln_f.bias";
    return t;
}

/// What Llama, Mistral and Qwen share (transformers' modeling_llama.py and its copies):
/// RMSNorm, separate q/k/v/o projections in nn.Linear's layout, RoPE (split-half), SwiGLU,
/// grouped K/V heads, an untied lm_head unless tie_word_embeddings.
FamilyTable llamaLike(const std::string &type, const std::string &name)
{
    FamilyTable t;
    t.modelType = type;
    t.displayName = name;
    t.folderContents = "config.json, model.safetensors (or its shards and "
                       "model.safetensors.index.json) and tokenizer.json";
    t.layers = {"num_hidden_layers", 32};
    t.heads = {"num_attention_heads", 32};
    t.kvHeads = {"num_key_value_heads", 0}; // absent: as many as heads
    t.dModel = {"hidden_size", 4096};
    t.headDim = {"head_dim", 0}; // absent: hidden_size / num_attention_heads
    t.mlpWidth = {"intermediate_size", 11008};
    t.vocabSize = {"vocab_size", 32000};
    t.contextLength = {"max_position_embeddings", 2048};
    t.normEpsilon = {"rms_norm_eps", 1e-6};
    t.ropeTheta = {"rope_theta", 10000};
    t.ropeScalingKey = "rope_scaling";
    t.tieKey = "tie_word_embeddings";
    t.activationKey = "hidden_act";
    t.activation = "silu";
    t.activationMeaning = "SwiGLU with \"silu\"";
    t.norm = NormKind::RmsNorm;
    t.mlp = MlpKind::SwiGlu;
    t.positions = PositionKind::Rotary;
    t.layout = WeightLayout::Linear;
    t.qkvBias = false;
    t.outBias = false;
    t.normBias = false;
    t.tiedHead = false;
    TensorNames &n = t.tensors;
    n.prefixes = {"model.", ""};
    n.embedding = "embed_tokens.weight";
    n.norm1Weight = "layers.{i}.input_layernorm.weight";
    n.qWeight = "layers.{i}.self_attn.q_proj.weight";
    n.qBias = "layers.{i}.self_attn.q_proj.bias";
    n.kWeight = "layers.{i}.self_attn.k_proj.weight";
    n.kBias = "layers.{i}.self_attn.k_proj.bias";
    n.vWeight = "layers.{i}.self_attn.v_proj.weight";
    n.vBias = "layers.{i}.self_attn.v_proj.bias";
    n.outWeight = "layers.{i}.self_attn.o_proj.weight";
    n.outBias = "layers.{i}.self_attn.o_proj.bias";
    n.norm2Weight = "layers.{i}.post_attention_layernorm.weight";
    n.gateWeight = "layers.{i}.mlp.gate_proj.weight";
    n.upWeight = "layers.{i}.mlp.up_proj.weight";
    n.downWeight = "layers.{i}.mlp.down_proj.weight";
    n.finalNormWeight = "norm.weight";
    n.outputHead = "lm_head.weight";
    t.gguf.architecture = type;
    TensorNames &g = t.gguf.tensors;
    g.prefixes = {""};
    g.embedding = "token_embd.weight";
    g.norm1Weight = "blk.{i}.attn_norm.weight";
    g.qWeight = "blk.{i}.attn_q.weight";
    g.qBias = "blk.{i}.attn_q.bias";
    g.kWeight = "blk.{i}.attn_k.weight";
    g.kBias = "blk.{i}.attn_k.bias";
    g.vWeight = "blk.{i}.attn_v.weight";
    g.vBias = "blk.{i}.attn_v.bias";
    g.outWeight = "blk.{i}.attn_output.weight";
    g.outBias = "blk.{i}.attn_output.bias";
    g.qNorm = "blk.{i}.attn_q_norm.weight";
    g.kNorm = "blk.{i}.attn_k_norm.weight";
    g.norm2Weight = "blk.{i}.ffn_norm.weight";
    g.gateWeight = "blk.{i}.ffn_gate.weight";
    g.upWeight = "blk.{i}.ffn_up.weight";
    g.downWeight = "blk.{i}.ffn_down.weight";
    g.finalNormWeight = "output_norm.weight";
    g.outputHead = "output.weight";
    return t;
}

/// Llama 1/2/3 (Touvron et al. 2023; LlamaConfig defaults), TinyLlama, SmolLM. In a GGUF
/// file also Mistral and the others llama.cpp converts as "llama".
FamilyTable llamaTable()
{
    FamilyTable t = llamaLike("llama", "Llama");
    t.attentionBiasKey = "attention_bias";
    t.gguf.permutedQK = true;
    return t;
}

/// Mistral (Jiang et al. 2023): Llama's layout with a sliding window (MistralConfig defaults).
FamilyTable mistralTable()
{
    FamilyTable t = llamaLike("mistral", "Mistral");
    t.gguf.architecture.clear(); // llama.cpp writes Mistral as "llama"
    t.kvHeads = {"num_key_value_heads", 8};
    t.mlpWidth = {"intermediate_size", 14336};
    t.contextLength = {"max_position_embeddings", 4096 * 32};
    t.slidingWindow = {"sliding_window", 4096};
    return t;
}

/// Qwen2 and Qwen2.5: biases on q, k and v (not on o); a window only with use_sliding_window.
FamilyTable qwen2Table()
{
    FamilyTable t = llamaLike("qwen2", "Qwen2");
    t.kvHeads = {"num_key_value_heads", 32};
    t.mlpWidth = {"intermediate_size", 22016};
    t.vocabSize = {"vocab_size", 151936};
    t.contextLength = {"max_position_embeddings", 32768};
    t.slidingWindow = {"sliding_window", 4096};
    t.windowSwitchKey = "use_sliding_window";
    t.qkvBias = true;
    return t;
}

/// Qwen3: Qwen2 without the biases, with q/k norms, and a head_dim of its own (128).
FamilyTable qwen3Table()
{
    FamilyTable t = llamaLike("qwen3", "Qwen3");
    t.kvHeads = {"num_key_value_heads", 32};
    t.headDim = {"head_dim", 128};
    t.mlpWidth = {"intermediate_size", 22016};
    t.vocabSize = {"vocab_size", 151936};
    t.contextLength = {"max_position_embeddings", 32768};
    t.slidingWindow = {"sliding_window", 4096};
    t.windowSwitchKey = "use_sliding_window";
    t.attentionBiasKey = "attention_bias";
    t.qkNorm = true;
    t.tensors.qNorm = "layers.{i}.self_attn.q_norm.weight";
    t.tensors.kNorm = "layers.{i}.self_attn.k_norm.weight";
    return t;
}

/// What BERT and RoBERTa share (modeling_bert.py; RoBERTa's is a copy): learned positions and
/// segment embeddings with a LayerNorm, post-norm blocks, separate q/k/v/o with biases in
/// nn.Linear's layout, the exact GELU, bidirectional attention, BertConfig's defaults.
FamilyTable bertLike(const std::string &type, const std::string &name, const std::string &prefix)
{
    FamilyTable t;
    t.modelType = type;
    t.displayName = name;
    t.layers = {"num_hidden_layers", 12};
    t.heads = {"num_attention_heads", 12};
    t.dModel = {"hidden_size", 768};
    t.mlpWidth = {"intermediate_size", 3072};
    t.vocabSize = {"vocab_size", 30522};
    t.contextLength = {"max_position_embeddings", 512};
    t.normEpsilon = {"layer_norm_eps", 1e-12};
    t.typeVocabSize = {"type_vocab_size", 2};
    t.activationKey = "hidden_act";
    t.activation = "gelu";
    t.activationMeaning = "\"gelu\" (the exact GELU, with erf)";
    t.positionTypeKey = "position_embedding_type";
    t.mlp = MlpKind::GeluErf;
    t.placement = NormPlacement::Post;
    t.causal = false;
    t.segmentTypes = true;
    t.special = {"[CLS]", "[SEP]", "[MASK]"};
    t.slowTokenizer = SlowTokenizer::BertWordPiece;
    TensorNames &n = t.tensors;
    // The encoder's tensors sit under "bert." in BertForMaskedLM, at the top in BertModel; the
    // MLM head ("cls.predictions.") is found with the empty prefix.
    n.prefixes = {prefix, ""};
    n.embedding = "embeddings.word_embeddings.weight";
    n.positions = "embeddings.position_embeddings.weight";
    n.tokenTypes = "embeddings.token_type_embeddings.weight";
    n.embeddingNormWeight = "embeddings.LayerNorm.weight";
    n.embeddingNormBias = "embeddings.LayerNorm.bias";
    const std::string layer = "encoder.layer.{i}.";
    n.qWeight = layer + "attention.self.query.weight";
    n.qBias = layer + "attention.self.query.bias";
    n.kWeight = layer + "attention.self.key.weight";
    n.kBias = layer + "attention.self.key.bias";
    n.vWeight = layer + "attention.self.value.weight";
    n.vBias = layer + "attention.self.value.bias";
    n.outWeight = layer + "attention.output.dense.weight";
    n.outBias = layer + "attention.output.dense.bias";
    n.norm1Weight = layer + "attention.output.LayerNorm.weight";
    n.norm1Bias = layer + "attention.output.LayerNorm.bias";
    n.upWeight = layer + "intermediate.dense.weight";
    n.upBias = layer + "intermediate.dense.bias";
    n.downWeight = layer + "output.dense.weight";
    n.downBias = layer + "output.dense.bias";
    n.norm2Weight = layer + "output.LayerNorm.weight";
    n.norm2Bias = layer + "output.LayerNorm.bias";
    n.mlmDenseWeight = "cls.predictions.transform.dense.weight";
    n.mlmDenseBias = "cls.predictions.transform.dense.bias";
    n.mlmNormWeight = "cls.predictions.transform.LayerNorm.weight";
    n.mlmNormBias = "cls.predictions.transform.LayerNorm.bias";
    n.mlmBias = "cls.predictions.bias";
    n.mlmDecoder = "cls.predictions.decoder.weight";
    return t;
}

/// BERT (Devlin et al. 2019): BertForMaskedLM / BertModel checkpoints.
FamilyTable bertTable()
{
    FamilyTable t = bertLike("bert", "BERT", "bert.");
    t.folderContents = "config.json, model.safetensors and tokenizer.json or vocab.txt";
    return t;
}

/// RoBERTa (Liu et al. 2019): BERT's blocks; fairseq's positions after padding_idx, one token
/// type, a byte-level BPE tokenizer with <s> A </s></s> B </s>, the MLM head lm_head.*.
FamilyTable robertaTable()
{
    FamilyTable t = bertLike("roberta", "RoBERTa", "roberta.");
    t.folderContents = "config.json, model.safetensors and tokenizer.json or vocab.json and "
                       "merges.txt";
    t.vocabSize = {"vocab_size", 50265};
    t.positionsAfterPadding = {"pad_token_id", 1};
    t.segmentTypes = false;
    t.special = {"<s>", "</s>", "<mask>"};
    t.slowTokenizer = SlowTokenizer::RobertaBpe;
    TensorNames &n = t.tensors;
    n.mlmDenseWeight = "lm_head.dense.weight";
    n.mlmDenseBias = "lm_head.dense.bias";
    n.mlmNormWeight = "lm_head.layer_norm.weight";
    n.mlmNormBias = "lm_head.layer_norm.bias";
    n.mlmBias = "lm_head.bias";
    n.mlmDecoder = "lm_head.decoder.weight";
    return t;
}

/// DistilBERT (Sanh et al. 2019): BERT distilled to half the layers, its own names, no token
/// types, LayerNorm epsilon fixed at 1e-12 in modeling_distilbert.py (not in the config).
FamilyTable distilbertTable()
{
    FamilyTable t = bertLike("distilbert", "DistilBERT", "distilbert.");
    t.folderContents = "config.json, model.safetensors and tokenizer.json or vocab.txt";
    t.layers = {"n_layers", 6};
    t.heads = {"n_heads", 12};
    t.dModel = {"dim", 768};
    t.mlpWidth = {"hidden_dim", 3072};
    t.normEpsilon = {"", 1e-12};
    t.typeVocabSize = {};
    t.activationKey = "activation";
    t.positionTypeKey.clear();
    t.segmentTypes = false;
    TensorNames &n = t.tensors;
    n.tokenTypes.clear();
    const std::string layer = "transformer.layer.{i}.";
    n.qWeight = layer + "attention.q_lin.weight";
    n.qBias = layer + "attention.q_lin.bias";
    n.kWeight = layer + "attention.k_lin.weight";
    n.kBias = layer + "attention.k_lin.bias";
    n.vWeight = layer + "attention.v_lin.weight";
    n.vBias = layer + "attention.v_lin.bias";
    n.outWeight = layer + "attention.out_lin.weight";
    n.outBias = layer + "attention.out_lin.bias";
    n.norm1Weight = layer + "sa_layer_norm.weight";
    n.norm1Bias = layer + "sa_layer_norm.bias";
    n.upWeight = layer + "ffn.lin1.weight";
    n.upBias = layer + "ffn.lin1.bias";
    n.downWeight = layer + "ffn.lin2.weight";
    n.downBias = layer + "ffn.lin2.bias";
    n.norm2Weight = layer + "output_layer_norm.weight";
    n.norm2Bias = layer + "output_layer_norm.bias";
    n.mlmDenseWeight = "vocab_transform.weight";
    n.mlmDenseBias = "vocab_transform.bias";
    n.mlmNormWeight = "vocab_layer_norm.weight";
    n.mlmNormBias = "vocab_layer_norm.bias";
    n.mlmBias = "vocab_projector.bias";
    n.mlmDecoder = "vocab_projector.weight";
    return t;
}

} // namespace

const std::vector<FamilyTable> &familyTables()
{
    static const std::vector<FamilyTable> all = {
        gpt2Table(), llamaTable(),   mistralTable(),    qwen2Table(),      qwen3Table(),
        bertTable(), robertaTable(), distilbertTable(), headlensGptTable()};
    return all;
}

std::string layerTensorName(std::string pattern, int layer)
{
    if (const size_t at = pattern.find("{i}"); at != std::string::npos)
        pattern.replace(at, 3, std::to_string(layer));
    return pattern;
}

} // namespace headlens
