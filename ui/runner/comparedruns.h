// ComparedRuns: A's trace and B's, run by the same job in the worker, for the Compare tab.
#pragma once

#include "attention/trace.h"
#include "model/modelrun.h"
#include "session/comparisonrequest.h"
#include "stats/attentiondifference.h"

#include <QString>

#include <memory>
#include <vector>

namespace headlens {

/// B is A's job with B's text or one changed setting (comparisonJob): the two traces differ only
/// by that. For a model both are the traced layer's.
struct ComparedRuns
{
    std::shared_ptr<const Trace> a; ///< what every other view shows
    std::shared_ptr<const Trace> b; ///< b = 1 with a text B; A's batch with a changed setting
    ComparisonRequest request;      ///< what B changed
    QString description;            ///< describeComparison: `text B "…"`, "RoPE on", ...
    /// A comparison of two models (ComparedChange::Model): every layer of each, of the same
    /// shape and tokens (modelComparisonProblem); null otherwise.
    std::shared_ptr<const ModelRun> modelA, modelB;
    /// With two models: every head's difference (AttentionDifference::perHead of their
    /// attention, index layer * h + head), worked out in the worker: a layers x heads map of a
    /// 1,000-token text is seconds of logarithms.
    std::vector<HeadDifference> modelHeads;
};

} // namespace headlens
