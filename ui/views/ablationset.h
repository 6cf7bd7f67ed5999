// AblationSet: the edits the heads' menus make to the workspace's ablations, and their labels.
#pragma once

#include "attention/headintervention.h"

#include <QString>

#include <optional>
#include <vector>

namespace headlens {

/// Plain functions on WorkspaceState::ablations (heads 0-based). One item per head at most: a
/// new choice for a head replaces the old one. Keep-only items of a layer name the heads kept;
/// every other head of that layer is zeroed (HeadInterventions::apply).
class AblationSet
{
public:
    using Items = std::vector<HeadIntervention>;

    /// Head `head` of `layer` zero- or mean-ablated, whatever was chosen for it before.
    static Items ablated(Items items, int layer, int head, InterventionKind kind);
    /// Only `head` kept in `layer`: every other choice for that layer dropped.
    static Items keptOnly(Items items, int layer, int head);
    /// `head` as the model has it: its own item dropped and, when it was zeroed because other
    /// heads are kept alone, added to those kept.
    static Items restored(Items items, int layer, int head);
    /// Whether some head is mean-ablated (a corpus's means then change the picture).
    static bool hasMean(const Items &items);
    /// Whether restored() would change anything for this head.
    static bool changes(const Items &items, int layer, int head);

    /// A head's title suffix: "ablated (zero)", "ablated (mean)" ("ablated (corpus mean)" with
    /// `overCorpus`: the means are a corpus's), "ablated (keep only other)", "patched"; empty
    /// for an unchanged head.
    static QString label(std::optional<InterventionKind> change, bool overCorpus = false);
    /// What the set does, for the effect bar: "L0 H2 zero, L1 H1 mean" (heads from 1).
    static QString summary(const Items &items);
};

} // namespace headlens
