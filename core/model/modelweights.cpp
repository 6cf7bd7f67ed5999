// ModelWeights: name lookup through the family table, shape checks, the attention laid out.
#include "model/modelweights.h"

#include "util/inputerror.h"
#include "util/workteam.h"

namespace headlens {

namespace {

std::string shapeText(const std::vector<int64_t> &shape)
{
    std::string text = "(";
    for (size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + ")";
}

/// Finds tensors by the family's names, under any of its prefixes, checked against the spec.
class Resolver
{
public:
    Resolver(const Checkpoint &checkpoint, const ModelSpec &spec)
        : m_checkpoint(checkpoint), m_spec(spec)
    {}

    CheckpointTensor find(const std::string &name, const std::vector<int64_t> &shape) const
    {
        if (const CheckpointTensor found = lookup(name); found.present)
            return checked(found, shape);
        const std::vector<std::string> &prefixes = names().prefixes;
        std::string tried = "'" + prefixes.front() + name + "'";
        for (size_t i = 1; i < prefixes.size(); ++i)
            tried += " (nor '" + prefixes[i] + name + "')";
        throw InputError(m_checkpoint.path() + " has no tensor " + tried + ", which a " +
                         m_spec.family->displayName + " with " + m_spec.sizesText() +
                         " needs. Is config.json from the same model?");
    }

    WeightView view(const std::string &name, std::vector<int64_t> shape) const
    {
        return find(name, shape).view();
    }

    /// The (rows, cols) matrix widened to float32, as stored.
    RowMatrix matrix(const std::string &name, int64_t rows, int64_t cols) const
    {
        return view(name, {rows, cols}).widen();
    }

    Vector vector(const std::string &name, int64_t size) const
    {
        return view(name, {size}).widen().row(0).transpose();
    }

    /// True when the file holds `name` under one of the family's prefixes (or older names).
    bool has(const std::string &name) const { return lookup(name).present; }

    /// How the file stores `name`, nothing when it holds no such tensor or a dtype HeadLens
    /// does not read.
    std::optional<StoredFormat> formatOf(const std::string &name) const
    {
        return lookup(name).format;
    }

    /// The tensor's pages leave the resident memory: it was copied and is not read again.
    void evict(const std::string &name) const
    {
        if (const CheckpointTensor found = lookup(name); found.present)
            found.evict();
    }

    /// The family's tensor names in this checkpoint's format: Hugging Face's, or llama.cpp's
    /// in a GGUF file.
    const TensorNames &names() const
    {
        return m_checkpoint.gguf() ? m_spec.family->gguf.tensors : m_spec.family->tensors;
    }
    /// llama.cpp's converter writes every matrix as nn.Linear's (out, in), GPT-2's too.
    WeightLayout layout() const
    {
        return m_checkpoint.gguf() ? WeightLayout::Linear : m_spec.family->layout;
    }
    /// Whether W_Q's and W_K's rows are in the order llama.cpp's converter gives them for
    /// ggml's RoPE on adjacent pairs (its Llama family), rather than Hugging Face's halves.
    bool interleavedRope() const { return m_checkpoint.gguf() && m_spec.family->gguf.permutedQK; }

private:
    /// `name` under the first prefix that has it; a norm's ".weight"/".bias" also under the
    /// names older checkpoints use, ".gamma"/".beta" (transformers renames them on load).
    CheckpointTensor lookup(const std::string &name) const
    {
        const std::string legacy = legacyName(name);
        for (const std::string &prefix : names().prefixes) {
            if (const CheckpointTensor found = m_checkpoint.find(prefix + name); found.present)
                return found;
            if (!legacy.empty())
                if (const CheckpointTensor found = m_checkpoint.find(prefix + legacy);
                    found.present)
                    return found;
        }
        return {};
    }

    static std::string legacyName(const std::string &name)
    {
        auto endsWith = [&](const std::string &tail) {
            return name.size() > tail.size() &&
                   name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
        };
        const bool norm = name.find("LayerNorm") != std::string::npos ||
                          name.find("layer_norm") != std::string::npos;
        if (norm && endsWith(".weight"))
            return name.substr(0, name.size() - 7) + ".gamma";
        if (norm && endsWith(".bias"))
            return name.substr(0, name.size() - 5) + ".beta";
        return {};
    }

    CheckpointTensor checked(const CheckpointTensor &found, const std::vector<int64_t> &shape) const
    {
        if (found.shape != shape)
            throw InputError(found.path + ": tensor '" + found.name + "' has shape " +
                             shapeText(found.shape) + " but " + configName() + " (" +
                             m_spec.sizesText() + ") needs " + shapeText(shape) +
                             ". The config and the weights do not belong together.");
        return found;
    }

    std::string configName() const { return m_checkpoint.gguf() ? "its metadata" : "config.json"; }

    const Checkpoint &m_checkpoint;
    const ModelSpec &m_spec;
};

/// W_Q, W_K, W_V, W_O in nn.Linear's convention from a fused projection: GPT-2's Conv1D c_attn
/// and c_proj (y = x W + b with W (d_in, d_out) is x (W^T)^T + b, so Q | K | V's column blocks
/// transposed), or a GGUF file's attn_qkv, already (3 d, d) as nn.Linear's.
AttentionWeights fusedAttention(const Resolver &read, int layer, int64_t d)
{
    const TensorNames &names = read.names();
    AttentionWeights a;
    const Vector qkvBias = read.vector(layerTensorName(names.qkvBias, layer), 3 * d);
    if (read.layout() == WeightLayout::Conv1D) {
        const RowMatrix qkv = read.matrix(layerTensorName(names.qkvWeight, layer), d, 3 * d);
        a.wQ = qkv.leftCols(d).transpose();
        a.wK = qkv.middleCols(d, d).transpose();
        a.wV = qkv.rightCols(d).transpose();
        a.wO = read.matrix(layerTensorName(names.outWeight, layer), d, d).transpose();
    } else {
        const RowMatrix qkv = read.matrix(layerTensorName(names.qkvWeight, layer), 3 * d, d);
        a.wQ = qkv.topRows(d);
        a.wK = qkv.middleRows(d, d);
        a.wV = qkv.bottomRows(d);
        a.wO = read.matrix(layerTensorName(names.outWeight, layer), d, d);
    }
    a.bQ = qkvBias.head(d);
    a.bK = qkvBias.segment(d, d);
    a.bV = qkvBias.tail(d);
    a.bO = read.vector(layerTensorName(names.outBias, layer), d);
    read.evict(layerTensorName(names.qkvWeight, layer));
    read.evict(layerTensorName(names.outWeight, layer));
    return a;
}

/// W_Q or W_K with each head's rows back in Hugging Face's order. llama.cpp's converter
/// (convert_hf_to_gguf.py, LlamaModel.permute) reorders a head's rows from the two halves that
/// rotate_half pairs (j, j + d/2) to adjacent pairs (2j, 2j + 1), which ggml's RoPE rotates:
/// its row h d + 2 j + k is Hugging Face's row h d + k d/2 + j.
RowMatrix halvesFromPairs(const RowMatrix &w, int heads)
{
    const int64_t d = w.rows() / heads, half = d / 2;
    RowMatrix hf(w.rows(), w.cols());
    for (int64_t h = 0; h < heads; ++h)
        for (int64_t j = 0; j < half; ++j)
            for (int64_t k = 0; k < 2; ++k)
                hf.row(h * d + k * half + j) = w.row(h * d + 2 * j + k);
    return hf;
}

/// W_Q, W_K, W_V, W_O from separate nn.Linear projections (Llama): already in the attention
/// path's layout, widened to float32. Absent biases are zeros.
AttentionWeights separateAttention(const Resolver &read, const ModelSpec &spec, int layer)
{
    const TensorNames &n = read.names();
    const int64_t d = spec.dModel, q = int64_t(spec.heads) * spec.headDim(),
                  kv = int64_t(spec.kvHeads) * spec.headDim();
    auto name = [layer](const std::string &pattern) { return layerTensorName(pattern, layer); };
    auto bias = [&](const std::string &pattern, bool present, int64_t size) {
        return present ? read.vector(name(pattern), size) : Vector(Vector::Zero(size));
    };
    AttentionWeights a;
    a.wQ = read.matrix(name(n.qWeight), q, d);
    a.wK = read.matrix(name(n.kWeight), kv, d);
    if (read.interleavedRope()) {
        a.wQ = halvesFromPairs(a.wQ, spec.heads);
        a.wK = halvesFromPairs(a.wK, spec.kvHeads);
    }
    a.wV = read.matrix(name(n.vWeight), kv, d);
    a.wO = read.matrix(name(n.outWeight), d, q);
    a.bQ = bias(n.qBias, spec.qkvBias, q);
    a.bK = bias(n.kBias, spec.qkvBias, kv);
    a.bV = bias(n.vBias, spec.qkvBias, kv);
    a.bO = bias(n.outBias, spec.outBias, d);
    if (spec.family->qkNorm) {
        a.qNorm = read.vector(name(n.qNorm), spec.headDim());
        a.kNorm = read.vector(name(n.kNorm), spec.headDim());
    }
    for (const std::string *pattern : {&n.qWeight, &n.kWeight, &n.vWeight, &n.outWeight})
        read.evict(name(*pattern));
    return a;
}

LayerWeights resolveLayer(const Resolver &read, const ModelSpec &spec, int layer)
{
    const FamilyTable &t = *spec.family;
    const TensorNames &n = read.names();
    const int64_t d = spec.dModel, mlp = spec.mlpWidth;
    const bool conv1d = read.layout() == WeightLayout::Conv1D;
    auto name = [layer](const std::string &pattern) { return layerTensorName(pattern, layer); };
    // A matrix mapping d_in to d_out, as the family stores it.
    auto linear = [&](const std::string &pattern, int64_t in, int64_t out) {
        return read.view(name(pattern),
                         conv1d ? std::vector<int64_t>{in, out} : std::vector<int64_t>{out, in});
    };
    LayerWeights w;
    w.norm1Weight = read.vector(name(n.norm1Weight), d);
    w.norm2Weight = read.vector(name(n.norm2Weight), d);
    if (t.normBias) {
        w.norm1Bias = read.vector(name(n.norm1Bias), d);
        w.norm2Bias = read.vector(name(n.norm2Bias), d);
    }
    w.attention =
        n.qkvWeight.empty() ? separateAttention(read, spec, layer) : fusedAttention(read, layer, d);
    // A BF16 layer's projections also multiply in bfloat16, as its MLP does (weightproducts).
    const std::string &query = n.qkvWeight.empty() ? n.qWeight : n.qkvWeight;
    if (read.formatOf(name(query)) == StoredFormat::BF16)
        w.attention.keepBf16();
    if (t.mlp == MlpKind::SwiGlu)
        w.gateWeight = linear(n.gateWeight, d, mlp);
    w.upWeight = linear(n.upWeight, d, mlp);
    w.downWeight = linear(n.downWeight, mlp, d);
    if (t.mlp != MlpKind::SwiGlu) {
        w.upBias = read.vector(name(n.upBias), mlp);
        w.downBias = read.vector(name(n.downBias), d);
    }
    return w;
}

/// The MLM head; its decoder is tied to the token embedding unless the file stores one
/// (save_pretrained drops tied tensors, so most files do not).
MaskHead resolveMaskHead(const Resolver &read, const ModelSpec &spec, const WeightView &embedding)
{
    const TensorNames &n = read.names();
    const int64_t d = spec.dModel;
    MaskHead head;
    head.dense = read.view(n.mlmDenseWeight, {d, d});
    head.denseBias = read.vector(n.mlmDenseBias, d);
    head.normWeight = read.vector(n.mlmNormWeight, d);
    head.normBias = read.vector(n.mlmNormBias, d);
    head.bias = read.vector(n.mlmBias, spec.vocabSize);
    head.decoder =
        read.has(n.mlmDecoder) ? read.view(n.mlmDecoder, {spec.vocabSize, d}) : embedding;
    return head;
}

} // namespace

ModelWeights ModelWeights::resolve(const Checkpoint &checkpoint, const ModelSpec &spec)
{
    const Resolver read(checkpoint, spec);
    const TensorNames &n = read.names();
    ModelWeights w;
    w.layout = read.layout();
    w.embedding = read.view(n.embedding, {spec.vocabSize, spec.dModel});
    if (spec.positions == PositionKind::Learned)
        w.positions = read.view(n.positions, {spec.contextLength, spec.dModel});
    w.layers.resize(size_t(spec.layers));
    std::vector<std::string> errors(w.layers.size());
    // Laying out the attention of every block on both cores halves the time to open GPT-2.
    // Errors are kept per layer so the message names the first bad layer, whatever the timing.
    parallelFor(spec.layers, [&](int64_t layer) {
        try {
            w.layers[size_t(layer)] = resolveLayer(read, spec, int(layer));
        } catch (const InputError &e) {
            errors[size_t(layer)] = e.what();
        }
    });
    for (const std::string &error : errors)
        if (!error.empty())
            throw InputError(error);
    if (!n.tokenTypes.empty())
        w.tokenTypes = read.view(n.tokenTypes, {spec.typeVocabSize, spec.dModel});
    if (!n.embeddingNormWeight.empty()) {
        w.embeddingNormWeight = read.vector(n.embeddingNormWeight, spec.dModel);
        w.embeddingNormBias = read.vector(n.embeddingNormBias, spec.dModel);
    }
    if (spec.family->placement == NormPlacement::Pre) {
        w.finalNormWeight = read.vector(n.finalNormWeight, spec.dModel);
        if (spec.family->normBias)
            w.finalNormBias = read.vector(n.finalNormBias, spec.dModel);
        w.outputHead =
            spec.tiedHead ? w.embedding : read.view(n.outputHead, {spec.vocabSize, spec.dModel});
    }
    if (!n.mlmDenseWeight.empty() && read.has(n.mlmDenseWeight))
        w.maskHead = resolveMaskHead(read, spec, w.embedding);
    return w;
}

} // namespace headlens
