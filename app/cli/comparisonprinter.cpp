// ComparisonPrinter: AttentionDifference's numbers as a table, its tensors as .npy files.
#include "comparisonprinter.h"

#include "io/npyfile.h"
#include "stats/attentiondifference.h"

#include <algorithm>
#include <iomanip>

namespace headlens {

void ComparisonPrinter::print(const Tensor &a, const Tensor &b, const std::string &whatB) const
{
    m_out << "\nCompared with B, " << whatB << ":\n";
    if (const auto problem = AttentionDifference::problem(a, b)) {
        m_out << "  " << *problem << "\n";
        return;
    }
    const std::vector<HeadDifference> heads = AttentionDifference::perHead(a, b);
    const int64_t perOuter = a.shape().size(1);
    m_out << "  " << std::left << std::setw(7) << m_outer << std::setw(6) << "head" << std::setw(14)
          << "max |A - B|" << std::setw(15) << "mean |A - B|"
          << "JS(A, B) per query (nats)\n"
          << std::right;
    for (size_t index = 0; index < heads.size(); ++index) {
        const HeadDifference &d = heads[index];
        m_out << "  " << std::left << std::setw(7) << int64_t(index) / perOuter << std::setw(6)
              << int64_t(index) % perOuter + 1 << std::fixed << std::setprecision(4)
              << std::setw(14) << d.largest << std::setw(15) << d.meanAbsolute << d.divergence
              << std::right << std::defaultfloat << "\n";
    }
    // The heads whose rows moved most, as m_outer.head counted from 1 like --ablate's.
    std::vector<size_t> order(heads.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return heads[x].divergence > heads[y].divergence; });
    m_out << "  Most different (JS):";
    for (size_t i = 0; i < std::min<size_t>(5, order.size()); ++i)
        m_out << (i ? ", " : " ") << int64_t(order[i]) / perOuter << "."
              << int64_t(order[i]) % perOuter + 1 << " (" << std::fixed << std::setprecision(4)
              << heads[order[i]].divergence << std::defaultfloat << ")";
    m_out << "\n";
}

std::string ComparisonPrinter::write(const Tensor &a, const Tensor &b, const std::string &dir)
{
    NpyFile::write(dir + "/compare_weights.npy", b);
    if (AttentionDifference::problem(a, b))
        return "compare_weights.npy";
    NpyFile::write(dir + "/compare_difference.npy", AttentionDifference::difference(a, b));
    return "compare_weights.npy, compare_difference.npy";
}

} // namespace headlens
