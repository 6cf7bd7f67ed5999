// AtlasPrinter: a table of types for the terminal; every score in full in the files.
#include "atlasprinter.h"

#include "io/atomicfile.h"
#include "io/npyfile.h"
#include "tensor/tensor.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>

namespace headlens {

namespace {

constexpr int kAtlasPrintedHeads = 3; ///< of each score, the heads listed

std::string signedOffset(int offset)
{
    return (offset > 0 ? "+" : "") + std::to_string(offset);
}

} // namespace

void AtlasPrinter::print(const HeadAtlas &atlas) const
{
    m_out << "\nHead atlas: previous-token, duplicate-token and induction scores on "
          << atlas.repeatedRuns << " runs of " << atlas.repeatedLength
          << (atlas.textRuns ? " tokens of the default stories" : " random tokens")
          << " repeated (seed " << atlas.seed << "); the others on the text's " << atlas.textTokens
          << " tokens\n"
          << "  a head's type: its score furthest above chance, when at least "
          << HeadAtlas::kTypeShare << " of the way to 1 and " << HeadAtlas::kTypeMargin
          << " times the next; - for none\n"
          << "layer";
    for (int head = 0; head < atlas.heads; ++head)
        m_out << std::setw(8) << "head " + std::to_string(head + 1);
    m_out << "\n";
    for (int layer = 0; layer < atlas.layers; ++layer) {
        m_out << std::setw(5) << layer;
        for (int head = 0; head < atlas.heads; ++head)
            m_out << std::setw(8) << atlas.typeLabel(layer, head);
        m_out << "\n";
    }
    m_out << "Highest heads (layer.head) of each score, chance in brackets:\n"
          << std::fixed << std::setprecision(3);
    std::vector<int> order(size_t(atlas.layers * atlas.heads));
    for (int k = 0; k < kAtlasScores; ++k) {
        const auto row = atlas.scores.row(k);
        if (std::isnan(atlas.chance.at(size_t(k))) || row.hasNaN())
            continue; // not measured on these probes
        std::iota(order.begin(), order.end(), 0);
        const size_t top = std::min(order.size(), size_t(kAtlasPrintedHeads));
        std::partial_sort(order.begin(), order.begin() + long(top), order.end(),
                          [&row](int a, int b) { return row(a) > row(b); });
        m_out << "  " << std::left << std::setw(16) << toString(AtlasScore(k)) << std::right << "("
              << atlas.chance[size_t(k)] << ")";
        for (size_t rank = 0; rank < top; ++rank) {
            const int column = order[rank];
            m_out << "  " << column / atlas.heads << "." << column % atlas.heads + 1 << " "
                  << row(column);
            if (AtlasScore(k) == AtlasScore::Offset)
                m_out << " (k " << signedOffset(atlas.offsets[size_t(column)]) << ")";
        }
        m_out << "\n";
    }
    m_out << std::defaultfloat;
}

void AtlasPrinter::write(const HeadAtlas &atlas, const std::string &dir)
{
    Tensor scores(Shape{{"score", kAtlasScores}, {"layer", atlas.layers}, {"h", atlas.heads}});
    for (int k = 0; k < kAtlasScores; ++k)
        for (int layer = 0; layer < atlas.layers; ++layer)
            for (int head = 0; head < atlas.heads; ++head)
                scores.matrix({k})(layer, head) = atlas.scores(k, layer * atlas.heads + head);
    NpyFile::write(dir + "/atlas.npy", scores);
    std::ostringstream csv;
    csv << "layer,head,type";
    for (int k = 0; k < kAtlasScores; ++k)
        csv << "," << columnName(AtlasScore(k));
    csv << ",offset,mean_distance\n" << std::setprecision(9);
    for (int layer = 0; layer < atlas.layers; ++layer)
        for (int head = 0; head < atlas.heads; ++head) {
            const std::optional<AtlasScore> type = atlas.type(layer, head);
            csv << layer << "," << head + 1 << "," << (type ? columnName(*type) : "");
            for (int k = 0; k < kAtlasScores; ++k)
                csv << "," << atlas.score(AtlasScore(k), layer, head);
            const size_t column = size_t(layer * atlas.heads + head);
            csv << "," << atlas.offsets[column] << "," << atlas.meanDistance[column] << "\n";
        }
    csv << "chance,,";
    for (double chance : atlas.chance)
        csv << "," << chance;
    csv << ",,\n";
    AtomicFile::write(dir + "/atlas.csv", csv.str());
}

} // namespace headlens
