// FamilyTable: the families HeadLens runs, one table each (GPT-2 today).
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
    t.norm = NormKind::LayerNorm;
    t.mlp = MlpKind::GeluTanh;
    t.positions = PositionKind::Learned;
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
    return t;
}

const std::vector<FamilyTable> &tables()
{
    static const std::vector<FamilyTable> all = {gpt2Table()};
    return all;
}

} // namespace

const FamilyTable *FamilyTable::find(const std::string &modelType)
{
    for (const FamilyTable &table : tables())
        if (table.modelType == modelType)
            return &table;
    return nullptr;
}

const FamilyTable *FamilyTable::byConfigKeys(const std::function<bool(const std::string &)> &hasKey)
{
    for (const FamilyTable &table : tables())
        if (hasKey(table.layers.key) || hasKey(table.heads.key) || hasKey(table.dModel.key))
            return &table;
    return nullptr;
}

std::string FamilyTable::knownTypes()
{
    std::string text;
    for (const FamilyTable &table : tables())
        text += (text.empty() ? "\"" : ", \"") + table.modelType + "\"";
    return text;
}

} // namespace headlens
