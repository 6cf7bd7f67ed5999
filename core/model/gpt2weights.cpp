// Gpt2Weights: name lookup (with the `transformer.` prefix), shape checks and Conv1D transposes.
#include "model/gpt2weights.h"

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

/// Finds tensors by their GPT2Model name, with or without GPT2LMHeadModel's prefix.
class Reader
{
public:
    Reader(const SafetensorsFile &file, const Gpt2Config &config) : m_file(file), m_config(config)
    {}

    /// The entry `name`, checked to have `shape`.
    const SafetensorsEntry &entry(const std::string &name, const std::vector<int64_t> &shape) const
    {
        const SafetensorsEntry *found = m_file.find(name);
        if (!found)
            found = m_file.find("transformer." + name);
        if (!found)
            throw InputError(m_file.path() + " has no tensor '" + name + "' (nor 'transformer." +
                             name + "'), which a GPT-2 with " + sizes() +
                             " needs. Is config.json from the same model?");
        if (found->shape != shape)
            throw InputError(m_file.path() + ": tensor '" + found->name + "' has shape " +
                             shapeText(found->shape) + " but config.json (" + sizes() + ") needs " +
                             shapeText(shape) +
                             ". The config and the weights do not belong together.");
        return *found;
    }

    RowMatrix matrix(const std::string &name, int64_t rows, int64_t cols) const
    {
        RowMatrix m(rows, cols);
        m_file.copyTo(entry(name, {rows, cols}), m.data());
        return m;
    }

    Vector vector(const std::string &name, int64_t size) const
    {
        Vector v(size);
        m_file.copyTo(entry(name, {size}), v.data());
        return v;
    }

private:
    std::string sizes() const
    {
        return "n_layer " + std::to_string(m_config.nLayer) + ", n_embd " +
               std::to_string(m_config.nEmbd) + ", vocab_size " +
               std::to_string(m_config.vocabSize) + ", n_positions " +
               std::to_string(m_config.nPositions);
    }

    const SafetensorsFile &m_file;
    const Gpt2Config &m_config;
};

Gpt2Block readBlock(const Reader &read, const Gpt2Config &config, int layer)
{
    const std::string h = "h." + std::to_string(layer) + ".";
    const int64_t d = config.nEmbd, mlp = config.mlpWidth();
    Gpt2Block block;
    block.ln1Weight = read.vector(h + "ln_1.weight", d);
    block.ln1Bias = read.vector(h + "ln_1.bias", d);
    // Conv1D (x W + b) to nn.Linear (x W^T + b): columns Q | K | V become rows.
    const RowMatrix cAttn = read.matrix(h + "attn.c_attn.weight", d, 3 * d);
    const Vector cAttnBias = read.vector(h + "attn.c_attn.bias", 3 * d);
    AttentionWeights &a = block.attention;
    a.wQ = cAttn.leftCols(d).transpose();
    a.wK = cAttn.middleCols(d, d).transpose();
    a.wV = cAttn.rightCols(d).transpose();
    a.bQ = cAttnBias.head(d);
    a.bK = cAttnBias.segment(d, d);
    a.bV = cAttnBias.tail(d);
    a.wO = read.matrix(h + "attn.c_proj.weight", d, d).transpose();
    a.bO = read.vector(h + "attn.c_proj.bias", d);
    block.ln2Weight = read.vector(h + "ln_2.weight", d);
    block.ln2Bias = read.vector(h + "ln_2.bias", d);
    block.fcWeight = read.matrix(h + "mlp.c_fc.weight", d, mlp);
    block.fcBias = read.vector(h + "mlp.c_fc.bias", mlp);
    block.projWeight = read.matrix(h + "mlp.c_proj.weight", mlp, d);
    block.projBias = read.vector(h + "mlp.c_proj.bias", d);
    return block;
}

} // namespace

Gpt2Weights Gpt2Weights::fromSafetensors(const SafetensorsFile &file, const Gpt2Config &config)
{
    const Reader read(file, config);
    Gpt2Weights w;
    w.wte = read.matrix("wte.weight", config.vocabSize, config.nEmbd);
    w.wpe = read.matrix("wpe.weight", config.nPositions, config.nEmbd);
    w.blocks.resize(static_cast<size_t>(config.nLayer));
    std::vector<std::string> errors(w.blocks.size());
    // Blocks are independent; converting them on both cores halves the time to open GPT-2.
    // Errors are kept per layer so the message names the first bad layer, whatever the timing.
    parallelFor(config.nLayer, [&](int64_t layer) {
        try {
            w.blocks[static_cast<size_t>(layer)] = readBlock(read, config, int(layer));
        } catch (const InputError &e) {
            errors[static_cast<size_t>(layer)] = e.what();
        }
    });
    for (const std::string &error : errors)
        if (!error.empty())
            throw InputError(error);
    w.lnFWeight = read.vector("ln_f.weight", config.nEmbd);
    w.lnFBias = read.vector("ln_f.bias", config.nEmbd);
    return w;
}

} // namespace headlens
