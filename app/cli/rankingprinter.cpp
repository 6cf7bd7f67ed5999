// RankingPrinter: layers x heads tables on stdout, .npy and .csv beside the other exports.
#include "rankingprinter.h"

#include "io/atomicfile.h"
#include "io/csvfield.h"
#include "model/modelrun.h"
#include "model/openedmodel.h"

#include <algorithm>
#include <iomanip>
#include <numeric>
#include <sstream>

namespace headlens {

namespace {

constexpr int kTopHeads = 5;

} // namespace

void RankingPrinter::print(const HeadImportance &importance) const
{
    m_out << "\nHead importance: loss increase (nats) when the head alone is zero-ablated\n"
          << "  loss: " << importance.loss << "; unablated " << std::fixed << std::setprecision(4)
          << importance.cleanLoss << std::defaultfloat << "\n";
    printTable(importance.lossIncrease);
}

void RankingPrinter::print(const PatchingMap &map, const OpenedModel &model,
                           const ModelRun &run) const
{
    const bool restoring = map.direction == PatchDirection::CleanIntoCorrupt;
    m_out << "\nPatching map: the share of logit(answer) - logit(wrong) "
          << (restoring ? "restored by patching the head's output from the clean text into the "
                          "corrupted run"
                        : "removed by patching the head's output from the corrupted text into the "
                          "clean run")
          << "\n"
          << "  answer [" << model.tokenLabel(map.answer) << "] (id " << map.answer << "), wrong ["
          << model.tokenLabel(map.wrong) << "] (id " << map.wrong << "), read at token "
          << map.position + 1 << " [" << run.tokens.at(size_t(map.position)) << "]" << std::fixed
          << std::setprecision(4) << "; clean " << map.cleanMetric << ", corrupted "
          << map.corruptMetric << std::defaultfloat << "\n";
    printTable(map.restored);
    m_out << "By position, head " << map.positionsLayer << "." << map.positionsHead + 1
          << " patched at one position at a time (tokens from 1):\n"
          << std::fixed << std::setprecision(4);
    for (size_t p = 0; p < map.byPosition.size(); ++p)
        m_out << "  " << std::setw(3) << p + 1 << " [" << map.positionTokens.at(p) << "] "
              << map.byPosition[p] << "\n";
    m_out << std::defaultfloat;
}

void RankingPrinter::writePositions(const PatchingMap &map, const std::string &dir)
{
    std::ostringstream csv;
    csv << "position,token,layer " << map.positionsLayer << " head " << map.positionsHead + 1
        << "\n"
        << std::setprecision(9);
    for (size_t p = 0; p < map.byPosition.size(); ++p)
        csv << p << "," << csvField(map.positionTokens.at(p)) << "," << map.byPosition[p] << "\n";
    AtomicFile::write(dir + "/patching_positions.csv", csv.str());
}

void RankingPrinter::printTable(const RowMatrix &table) const
{
    m_out << "layer";
    for (Eigen::Index head = 0; head < table.cols(); ++head)
        m_out << std::setw(9) << "head " + std::to_string(head + 1);
    m_out << "\n" << std::fixed << std::setprecision(4);
    for (Eigen::Index layer = 0; layer < table.rows(); ++layer) {
        m_out << std::setw(5) << layer;
        for (Eigen::Index head = 0; head < table.cols(); ++head)
            m_out << std::setw(9) << table(layer, head);
        m_out << "\n";
    }
    std::vector<Eigen::Index> order(size_t(table.size()));
    std::iota(order.begin(), order.end(), 0);
    const size_t top = std::min(order.size(), size_t(kTopHeads));
    std::partial_sort(
        order.begin(), order.begin() + long(top), order.end(),
        [&table](Eigen::Index a, Eigen::Index b) { return table.data()[a] > table.data()[b]; });
    m_out << "Top heads (layer.head):";
    for (size_t k = 0; k < top; ++k)
        m_out << " " << order[k] / table.cols() << "." << order[k] % table.cols() + 1 << " ("
              << table.data()[order[k]] << ")";
    m_out << "\n" << std::defaultfloat;
}

} // namespace headlens
