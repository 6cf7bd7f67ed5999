// WeightsFile: mapping between state_dict entries and AttentionWeights, with shape checks.
#include "attention/weightsfile.h"

#include "io/nonfinitevalues.h"
#include "io/npzarchive.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <algorithm>
#include <map>

namespace headlens {

namespace {

std::string shapeText(Eigen::Index rows, Eigen::Index cols)
{
    return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

// The state-dict entries by name, read with messages that name the file and the entry.
class Entries
{
public:
    Entries(const std::vector<std::pair<std::string, Tensor>> &entries, std::string source)
        : m_source(std::move(source))
    {
        for (const auto &[name, tensor] : entries)
            m_tensors.emplace(name, &tensor);
    }

    bool has(const std::string &name) const { return m_tensors.count(name) > 0; }

    [[noreturn]] void fail(const std::string &name, const std::string &what) const
    {
        throw InputError(m_source + ": entry '" + quotedText(name) + "' " + what);
    }

    /// A (rows, cols) entry. Precondition: has(name).
    RowMatrix matrix(const std::string &name) const
    {
        const Tensor &t = *m_tensors.at(name);
        if (t.shape().rank() != 2)
            fail(name, "has shape " + t.shape().toPlainString() + " but must be a matrix.");
        return ConstRowMatrixMap(t.data(), t.shape().size(0), t.shape().size(1));
    }

    /// A vector of `length` values, or zeros when the entry is absent.
    Vector vectorOr0(const std::string &name, Eigen::Index length, const char *why) const
    {
        if (!has(name))
            return Vector::Zero(length);
        const Tensor &t = *m_tensors.at(name);
        if (t.shape().rank() != 1 || t.shape().size(0) != length)
            fail(name, "has shape " + t.shape().toPlainString() + " but must be (" +
                           std::to_string(length) + ",): " + why + ".");
        return Eigen::Map<const Vector>(t.data(), length);
    }

    std::string names() const
    {
        std::string text;
        for (const auto &entry : m_tensors)
            text += (text.empty() ? "" : ", ") + quotedText(entry.first);
        return text.empty() ? "nothing" : text;
    }

    const std::string &source() const { return m_source; }

private:
    std::string m_source;
    std::map<std::string, const Tensor *> m_tensors;
};

void loadProjections(const Entries &e, LoadedWeights &loaded)
{
    AttentionWeights &w = loaded.weights;
    const bool separate =
        e.has("q_proj_weight") || e.has("k_proj_weight") || e.has("v_proj_weight");
    if (e.has("in_proj_weight") && separate)
        e.fail("in_proj_weight", "appears together with q/k/v_proj_weight; keep only one of them.");
    if (e.has("in_proj_weight")) {
        const RowMatrix inProj = e.matrix("in_proj_weight");
        if (inProj.rows() % 3 != 0)
            e.fail("in_proj_weight",
                   "has " + std::to_string(inProj.rows()) +
                       " rows, which is not 3 * d_model (W_Q, W_K, W_V stacked).");
        const Eigen::Index rows = inProj.rows() / 3;
        w.wQ = inProj.topRows(rows);
        w.wK = inProj.middleRows(rows, rows);
        w.wV = inProj.bottomRows(rows);
        loaded.fused = true;
        return;
    }
    for (const char *name : {"q_proj_weight", "k_proj_weight", "v_proj_weight"}) {
        if (!e.has(name))
            throw InputError(e.source() +
                             ": no attention weights: expected 'in_proj_weight' or "
                             "'q_proj_weight', 'k_proj_weight' and 'v_proj_weight', "
                             "the names of nn.MultiheadAttention.state_dict(); the "
                             "file holds " +
                             e.names() + ".");
    }
    w.wQ = e.matrix("q_proj_weight");
    w.wK = e.matrix("k_proj_weight");
    w.wV = e.matrix("v_proj_weight");
}

// The shapes must fit together before any config is known.
void checkConsistent(const Entries &e, const AttentionWeights &w, bool fused)
{
    if (!fused && w.wK.rows() != w.wQ.rows())
        e.fail("k_proj_weight", "has shape " + shapeText(w.wK.rows(), w.wK.cols()) +
                                    " but queries and keys need the same width h*d_k: "
                                    "q_proj_weight has " +
                                    std::to_string(w.wQ.rows()) + " rows.");
    if (!fused && w.wV.cols() != w.wK.cols())
        e.fail("v_proj_weight", "has " + std::to_string(w.wV.cols()) + " columns but " +
                                    "k_proj_weight has " + std::to_string(w.wK.cols()) +
                                    ": HeadLens takes keys and values from the same tokens, so "
                                    "kdim must equal vdim.");
    if (w.wO.cols() != w.wV.rows())
        e.fail("out_proj.weight", "has shape " + shapeText(w.wO.rows(), w.wO.cols()) +
                                      " but W_V has " + std::to_string(w.wV.rows()) +
                                      " rows (h*d_v): they must match.");
}

constexpr const char *kHuggingFaceNames[] = {"q_proj.weight", "k_proj.weight", "v_proj.weight",
                                             "o_proj.weight"};

bool usesHuggingFaceNames(const Entries &e)
{
    for (const char *name : kHuggingFaceNames)
        if (e.has(name))
            return true;
    return false;
}

/// q_proj, k_proj, v_proj and o_proj: every weight required, each bias optional.
void loadHuggingFace(const Entries &e, LoadedWeights &loaded)
{
    for (const char *name : {"in_proj_weight", "q_proj_weight", "out_proj.weight"})
        if (e.has(name))
            e.fail(name, "appears together with Hugging Face's q_proj.weight ... o_proj.weight; "
                         "keep only one set of names.");
    for (const char *name : kHuggingFaceNames)
        if (!e.has(name))
            throw InputError(e.source() + ": entry '" + name +
                             "' is missing: Hugging Face attention weights need q_proj.weight, "
                             "k_proj.weight, v_proj.weight and o_proj.weight; the file holds " +
                             e.names() + ".");
    AttentionWeights &w = loaded.weights;
    w.wQ = e.matrix("q_proj.weight");
    w.wK = e.matrix("k_proj.weight");
    w.wV = e.matrix("v_proj.weight");
    w.wO = e.matrix("o_proj.weight");
    const char *why = "one value per output feature";
    w.bQ = e.vectorOr0("q_proj.bias", w.wQ.rows(), why);
    w.bK = e.vectorOr0("k_proj.bias", w.wK.rows(), why);
    w.bV = e.vectorOr0("v_proj.bias", w.wV.rows(), why);
    w.bO = e.vectorOr0("o_proj.bias", w.wO.rows(), why);
    loaded.hasBias = e.has("q_proj.bias") || e.has("k_proj.bias") || e.has("v_proj.bias") ||
                     e.has("o_proj.bias");
    loaded.huggingFaceNames = true;
}

/// Grouped-query shapes: K and V have h_kv heads, a divisor of Q's h, the same for both.
void checkGroupedConsistent(const Entries &e, const AttentionWeights &w)
{
    if (w.wK.rows() == 0 || w.wQ.rows() % w.wK.rows() != 0)
        e.fail("k_proj.weight",
               "has " + std::to_string(w.wK.rows()) + " rows (h_kv*d_k), which do not divide " +
                   "q_proj.weight's " + std::to_string(w.wQ.rows()) +
                   " (h*d_k): the K/V heads must share the query heads out evenly.");
    const Eigen::Index group = w.wQ.rows() / w.wK.rows();
    if (w.wV.rows() * group != w.wO.cols())
        e.fail("v_proj.weight",
               "has " + std::to_string(w.wV.rows()) + " rows (h_kv*d_v) but o_proj.weight has " +
                   std::to_string(w.wO.cols()) + " columns (h*d_v): with " + std::to_string(group) +
                   " query heads per K/V head it needs " +
                   std::to_string(w.wO.cols() / std::max<Eigen::Index>(group, 1)) + " rows.");
    if (w.wV.cols() != w.wK.cols())
        e.fail("v_proj.weight", "has " + std::to_string(w.wV.cols()) + " columns but " +
                                    "k_proj.weight has " + std::to_string(w.wK.cols()) +
                                    ": keys and values come from the same tokens.");
}

/// nn.MultiheadAttention's names: in_proj_weight or q/k/v_proj_weight, in_proj_bias, out_proj.
void loadMultiheadAttention(const Entries &e, LoadedWeights &loaded)
{
    if (!e.has("out_proj.weight"))
        throw InputError(e.source() + ": entry 'out_proj.weight' is missing; the file holds " +
                         e.names() + ". Save mha.state_dict() with numpy.savez.");
    AttentionWeights &w = loaded.weights;
    w.wO = e.matrix("out_proj.weight");
    loadProjections(e, loaded);
    checkConsistent(e, w, loaded.fused);
    const Eigen::Index qk = w.wQ.rows(), v = w.wV.rows();
    const Vector inBias = e.vectorOr0("in_proj_bias", 2 * qk + v, "b_Q, b_K and b_V stacked");
    w.bQ = inBias.head(qk);
    w.bK = inBias.segment(qk, qk);
    w.bV = inBias.tail(v);
    w.bO = e.vectorOr0("out_proj.bias", w.wO.rows(), "one value per output feature");
    loaded.hasBias = e.has("in_proj_bias") || e.has("out_proj.bias");
}

} // namespace

std::optional<std::string> LoadedWeights::mismatch(const AttentionConfig &config) const
{
    return weights.mismatch(config, kvInputWidth);
}

LoadedWeights WeightsFile::fromEntries(const std::vector<std::pair<std::string, Tensor>> &entries,
                                       const std::string &sourceName)
{
    const Entries e(entries, sourceName);
    for (const char *name : {"bias_k", "bias_v"}) {
        if (e.has(name))
            e.fail(name, "means the layer was built with add_bias_kv=True, which HeadLens does "
                         "not support. Use a layer without add_bias_kv.");
    }
    LoadedWeights loaded;
    if (usesHuggingFaceNames(e)) {
        loadHuggingFace(e, loaded);
        checkGroupedConsistent(e, loaded.weights);
    } else {
        loadMultiheadAttention(e, loaded);
    }
    const AttentionWeights &w = loaded.weights;
    loaded.dModel = static_cast<int>(w.wO.rows());
    loaded.inputWidth = static_cast<int>(w.wQ.cols());
    loaded.kvInputWidth = static_cast<int>(w.wK.cols());
    loaded.queryKeyWidth = static_cast<int>(w.wQ.rows());
    loaded.keyWidth = static_cast<int>(w.wK.rows());
    loaded.valueWidth = static_cast<int>(w.wO.cols());
    loaded.kvValueWidth = static_cast<int>(w.wV.rows());
    for (const auto &[name, tensor] : entries) {
        if (auto warning =
                NonFiniteValues::of(tensor.data(), tensor.numel()).warning(sourceName, name))
            loaded.warnings.push_back(*warning);
    }
    return loaded;
}

LoadedWeights WeightsFile::load(const std::string &path)
{
    return fromEntries(NpzArchive::read(path), path);
}

namespace {

Tensor matrixTensor(const Eigen::Ref<const RowMatrix> &m)
{
    Tensor t(Shape{{"d0", m.rows()}, {"d1", m.cols()}});
    RowMatrixMap(t.data(), m.rows(), m.cols()) = m;
    return t;
}

Tensor vectorTensor(const Eigen::Ref<const Vector> &v)
{
    Tensor t(Shape{{"d0", v.size()}});
    Eigen::Map<Vector>(t.data(), v.size()) = v;
    return t;
}

} // namespace

std::vector<std::pair<std::string, Tensor>> WeightsFile::toEntries(const AttentionWeights &w,
                                                                   bool withBias)
{
    std::vector<std::pair<std::string, Tensor>> entries;
    if (w.wK.rows() != w.wQ.rows() || w.wV.rows() != w.wO.cols()) {
        struct Linear
        {
            const char *name;
            const RowMatrix &weight;
            const Vector &bias;
        };
        for (const Linear &l : {Linear{"q_proj", w.wQ, w.bQ}, Linear{"k_proj", w.wK, w.bK},
                                Linear{"v_proj", w.wV, w.bV}, Linear{"o_proj", w.wO, w.bO}}) {
            entries.emplace_back(std::string(l.name) + ".weight", matrixTensor(l.weight));
            if (withBias)
                entries.emplace_back(std::string(l.name) + ".bias", vectorTensor(l.bias));
        }
        return entries;
    }
    const bool fused =
        w.wQ.cols() == w.wK.cols() && w.wK.cols() == w.wV.cols() && w.wQ.rows() == w.wV.rows();
    if (fused) {
        RowMatrix inProj(w.wQ.rows() + w.wK.rows() + w.wV.rows(), w.wQ.cols());
        inProj << w.wQ, w.wK, w.wV;
        entries.emplace_back("in_proj_weight", matrixTensor(inProj));
    } else {
        entries.emplace_back("q_proj_weight", matrixTensor(w.wQ));
        entries.emplace_back("k_proj_weight", matrixTensor(w.wK));
        entries.emplace_back("v_proj_weight", matrixTensor(w.wV));
    }
    if (withBias) {
        Vector inBias(w.bQ.size() + w.bK.size() + w.bV.size());
        inBias << w.bQ, w.bK, w.bV;
        entries.emplace_back("in_proj_bias", vectorTensor(inBias));
    }
    entries.emplace_back("out_proj.weight", matrixTensor(w.wO));
    if (withBias)
        entries.emplace_back("out_proj.bias", vectorTensor(w.bO));
    return entries;
}

void WeightsFile::save(const std::string &path, const AttentionWeights &weights, bool withBias)
{
    NpzArchive::write(path, toEntries(weights, withBias), false);
}

} // namespace headlens
