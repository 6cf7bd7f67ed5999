// FlowPrinter: a line per layer for the terminal; the tensors whole in the files.
#include "flowprinter.h"

#include "io/npyfile.h"

#include <algorithm>
#include <iomanip>
#include <numeric>

namespace headlens {

namespace {

constexpr int kSources = 3; ///< the input tokens listed for each layer's rollout

/// Mean over the heads of layer `layer` of row `row`'s weight on key `key`.
double headMean(const Tensor &weights, int64_t layer, int64_t row, int64_t key)
{
    const int64_t heads = weights.shape().size(1);
    double sum = 0.0;
    for (int64_t head = 0; head < heads; ++head)
        sum += weights.matrix({layer, head})(row, key);
    return sum / double(heads);
}

} // namespace

void FlowPrinter::print(const AttentionFlow &flow, const Tensor &attention,
                        const std::vector<std::string> &tokens) const
{
    const int64_t layers = flow.rollout.shape().size(0), n = flow.rollout.shape().size(1);
    const int64_t last = n - 1;
    m_out << "\nAttention rollout (Abnar & Zuidema 2020): heads averaged, 0.5 A + 0.5 I through "
             "the layers\n"
          << "  what token " << n << " [" << tokens.at(size_t(last))
          << "] draws from after each layer (the " << kSources << " largest shares):\n"
          << std::fixed << std::setprecision(3);
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t layer = 0; layer < layers; ++layer) {
        const auto row = flow.rollout.matrix({layer}).row(last);
        std::iota(order.begin(), order.end(), 0);
        const size_t top = std::min(order.size(), size_t(kSources));
        std::partial_sort(order.begin(), order.begin() + long(top), order.end(),
                          [&row](int64_t a, int64_t b) { return row(a) > row(b); });
        m_out << "  layer " << std::setw(2) << layer << ":";
        for (size_t k = 0; k < top; ++k)
            m_out << "  " << order[k] + 1 << " [" << tokens.at(size_t(order[k])) << "] "
                  << row(order[k]);
        m_out << "\n";
    }
    if (flow.valueWeighted.isEmpty()) {
        m_out << "Value-weighted attention needs every layer's input, which this model's run "
                 "does not keep (a toy model's).\n"
              << std::defaultfloat;
        return;
    }
    m_out << "Value-weighted attention (Kobayashi et al. 2020): each weight times ||v_j W_O,h||, "
             "rows summing to 1\n"
          << "  token " << n << "'s attention on token 1 [" << tokens.front()
          << "], mean of the heads: as weights, and as what they move\n";
    for (int64_t layer = 0; layer < layers; ++layer)
        m_out << "  layer " << std::setw(2) << layer << ":  attention "
              << headMean(attention, layer, last, 0) << "  value-weighted "
              << headMean(flow.valueWeighted, layer, last, 0) << "\n";
    m_out << std::defaultfloat;
}

std::string FlowPrinter::write(const AttentionFlow &flow, const std::string &dir)
{
    NpyFile::write(dir + "/rollout.npy", flow.rollout);
    if (flow.valueWeighted.isEmpty())
        return ", rollout.npy";
    NpyFile::write(dir + "/value_norms.npy", flow.valueNorms);
    NpyFile::write(dir + "/value_weighted.npy", flow.valueWeighted);
    return ", rollout.npy, value_norms.npy, value_weighted.npy";
}

} // namespace headlens
