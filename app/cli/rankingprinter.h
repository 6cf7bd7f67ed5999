// RankingPrinter: headlens-cli's tables and files of head importance and patching maps.
#pragma once

#include "model/headimportance.h"
#include "model/patchingmap.h"

#include <ostream>
#include <string>

namespace headlens {

struct ModelRun;
class OpenedModel;

/// Prints a (layers x heads) ranking with heads numbered from 1 (as --stats and --ablate) and
/// the top heads as L.H (its tables are written by HeadTableFile).
class RankingPrinter
{
public:
    explicit RankingPrinter(std::ostream &out) : m_out(out) {}

    void print(const HeadImportance &importance) const;
    /// `model` names the answer tokens, `run` (the corrupted text's) the position.
    void print(const PatchingMap &map, const OpenedModel &model, const ModelRun &run) const;
    /// Writes dir/patching_positions.csv: each position's token and byPosition's share.
    static void writePositions(const PatchingMap &map, const std::string &dir);
    /// The table, then the five heads with the largest values.
    void printTable(const RowMatrix &table) const;

private:
    std::ostream &m_out;
};

} // namespace headlens
