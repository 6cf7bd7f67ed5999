// RankingRequest: which ranking of heads a job asks for besides its run (importance, patching).
#pragma once

#include "model/patchingmap.h"

#include <string>

namespace headlens {

/// Plain values a TraceJob carries; Session computes the ranking after the model's run, in the
/// same worker, with the same progress and Cancel. Patching needs a model; the built-in layer's
/// importance is its heads' |Δ output| (LayerImportance: it has no loss).
/// For Patching cleanText is the clean run and corruptText the corrupted one (the job's own text
/// when it is empty, as headlens-cli --text); the job's run stays the job's text either way.
struct RankingRequest
{
    enum class Kind
    {
        None,
        Importance, ///< HeadImportance of the job's text
        Patching,   ///< PatchingMap from cleanText into the job's text
    };
    Kind kind = Kind::None;
    std::string cleanText;   ///< Patching: same token length as the corrupted text
    std::string corruptText; ///< Patching: empty = the job's text
    std::string answer;      ///< Patching: one token each (GPT-2's words start with a space)
    std::string wrong;
    PatchDirection direction = PatchDirection::CleanIntoCorrupt; ///< Patching
    /// Patching: the head (0-based) also patched one position at a time; -1, -1 = the map's
    /// strongest.
    int positionsLayer = -1;
    int positionsHead = -1;
};

} // namespace headlens
