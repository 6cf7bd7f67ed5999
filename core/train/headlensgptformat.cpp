// HeadLensGptFormat: HeadLens's own decoder checkpoint, the names core/model's table reads.
#include "train/headlensgptformat.h"

#include <nlohmann/json.hpp>

namespace headlens {

namespace {

/// A matrix in nn.Linear's (d_out, d_in) layout, written as it is.
SafetensorsTensor ownLayoutTensor(const std::string &name, const MatrixT<float> &m)
{
    return {name, {m.rows(), m.cols()}, std::vector<float>(m.data(), m.data() + m.size())};
}

SafetensorsTensor ownVectorTensor(const std::string &name, const VectorT<float> &v)
{
    return {name, {v.size()}, std::vector<float>(v.data(), v.data() + v.size())};
}

} // namespace

bool HeadLensGptFormat::needed(const ToyModelConfig &config)
{
    return config.rope || config.kvHeadCount() != config.heads;
}

std::string HeadLensGptFormat::configJson(const ToyModelConfig &c)
{
    const nlohmann::ordered_json config = {
        {"model_type", "headlens_gpt"},
        {"activation_function", "gelu_new"},
        {"n_embd", c.dModel},
        {"n_head", c.heads},
        {"n_kv_head", c.kvHeadCount()},
        {"n_layer", c.layers},
        {"n_positions", c.maxLength},
        {"n_inner", nullptr},
        {"vocab_size", c.vocabulary},
        {"layer_norm_epsilon", 1e-5},
        {"rope", c.rope},
        {"rope_theta", double(ToyModelConfig::kRopeTheta)},
        {"tie_word_embeddings", true},
        {"bos_token_id", nullptr},
        {"eos_token_id", nullptr},
        {"torch_dtype", "float32"},
    };
    return config.dump(2) + "\n";
}

std::vector<SafetensorsTensor> HeadLensGptFormat::tensors(const ToyModelConfig &config,
                                                          const ToyParameters &p)
{
    const Eigen::Index d = config.dModel, kv = config.kvWidth(), w = config.mlpWidth();
    const MatrixT<float> zeroFc = MatrixT<float>::Zero(w, d);
    const MatrixT<float> zeroProj = MatrixT<float>::Zero(d, w);
    const VectorT<float> ones = VectorT<float>::Ones(d);
    const VectorT<float> zeros = VectorT<float>::Zero(d);
    const VectorT<float> zeroWide = VectorT<float>::Zero(w);
    std::vector<SafetensorsTensor> out;
    out.push_back(ownLayoutTensor("wte.weight", p.tokenEmbedding));
    if (!config.rope)
        out.push_back(ownLayoutTensor("wpe.weight", p.positionEmbedding));
    for (size_t l = 0; l < p.layers.size(); ++l) {
        const ToyLayerParametersT<float> &layer = p.layers[l];
        const std::string h = "h." + std::to_string(l) + ".";
        out.push_back(ownVectorTensor(h + "ln_1.weight", layer.lnGamma));
        out.push_back(ownVectorTensor(h + "ln_1.bias", layer.lnBeta));
        // ToyParameters' fused in-projection: Q rows [0, d), K [d, d + kv), V [d + kv, ...).
        out.push_back(ownLayoutTensor(h + "attn.q_proj.weight", layer.inProj.topRows(d)));
        out.push_back(ownVectorTensor(h + "attn.q_proj.bias", layer.inBias.head(d)));
        out.push_back(ownLayoutTensor(h + "attn.k_proj.weight", layer.inProj.middleRows(d, kv)));
        out.push_back(ownVectorTensor(h + "attn.k_proj.bias", layer.inBias.segment(d, kv)));
        out.push_back(ownLayoutTensor(h + "attn.v_proj.weight", layer.inProj.bottomRows(kv)));
        out.push_back(ownVectorTensor(h + "attn.v_proj.bias", layer.inBias.tail(kv)));
        out.push_back(ownLayoutTensor(h + "attn.o_proj.weight", layer.outProj));
        out.push_back(ownVectorTensor(h + "attn.o_proj.bias", layer.outBias));
        // An attention-only model's MLP is zeros: GELU(0 x + 0) = 0 adds nothing.
        const bool mlp = config.mlp;
        out.push_back(ownVectorTensor(h + "ln_2.weight", mlp ? layer.mlpLnGamma : ones));
        out.push_back(ownVectorTensor(h + "ln_2.bias", mlp ? layer.mlpLnBeta : zeros));
        out.push_back(ownLayoutTensor(h + "mlp.fc.weight", mlp ? layer.fcWeight : zeroFc));
        out.push_back(ownVectorTensor(h + "mlp.fc.bias", mlp ? layer.fcBias : zeroWide));
        out.push_back(ownLayoutTensor(h + "mlp.proj.weight", mlp ? layer.projWeight : zeroProj));
        out.push_back(ownVectorTensor(h + "mlp.proj.bias", mlp ? layer.projBias : zeros));
    }
    out.push_back(ownVectorTensor("ln_f.weight", p.finalGamma));
    out.push_back(ownVectorTensor("ln_f.bias", p.finalBeta));
    return out;
}

} // namespace headlens
