// InterventionOptions: --ablate, --importance, --patch-from, --corpus, --dataset, --compare-*.
#pragma once

#include "model/patchingmap.h"
#include "session/comparisonrequest.h"
#include "session/rankingrequest.h"

#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// Interventions and rankings of heads (issue 15); heads numbered from 1 as --stats prints them.
struct InterventionOptions
{
    /// --ablate L.H[,L.H...]: (layer from 0 as --layer, head from 1), in the order given
    std::vector<std::pair<int, int>> ablate;
    std::string ablateMode = "zero"; ///< --ablate-mode zero|mean
    bool importance = false;         ///< --importance: the layers x heads loss-increase table
    std::string patchFrom;           ///< --patch-from TEXT: the clean text patched from
    std::string answer;              ///< --answer A: the metric's answer token
    std::string wrong;               ///< --wrong B: the token it is compared with
    /// --patch-direction restore|break: clean into corrupted (default) or the reverse
    PatchDirection patchDirection = PatchDirection::CleanIntoCorrupt;
    /// --patch-positions L.H: the head patched one position at a time (layer from 0, head from
    /// 1); -1, -1 = the map's strongest
    std::pair<int, int> patchPositions{-1, -1};
    std::string corpusPath; ///< --corpus FILE: every head over a text file's lines
    /// --dataset FILE: importance (and --dla) over its texts, or patching over its pairs
    std::string datasetPath;
    /// --compare-text TEXT or --compare-change seed|kv-heads|rope|causal|no-ablations: B beside
    /// the text and settings (A)
    ComparisonRequest compare;

    /// The patching map these options ask for: Kind::Patching with --patch-from, its answers,
    /// direction and --patch-positions head (0-based); Kind::None without --patch-from.
    RankingRequest patching() const;
    /// Sets the field of `option` (one of the above that takes a value) from `value`; false
    /// when `option` is not one of them. Throws InputError when the value does not fit.
    bool take(const std::string &option, const std::string &value);
};

} // namespace headlens
