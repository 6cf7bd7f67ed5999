// comparisonJob: run B of a comparison: A's job with another text or one changed setting.
#pragma once

#include "session/comparisonrequest.h"
#include "session/tracejob.h"

#include "model/modelrun.h"

#include <optional>
#include <string>

namespace headlens {

/// `job` changed as `b` says, with no ranking: B under A's settings, model, layer and
/// interventions but for the one change (headlens-cli --compare-text / --compare-change and the
/// window's Compare tab). Throws InputError, saying what to choose instead, when the change does
/// not apply: a setting of the built-in layer asked of a model or of a layer whose weights come
/// from a file, no ablation to remove, one K/V head already. Not kept for the next job
/// (keepForNext): the session keeps A's run, from which A's text is typed on.
TraceJob comparisonJob(const TraceJob &job, const ComparisonRequest &b);

/// Nothing when runs A and B of a model comparison (ComparedChange::Model) can be compared head
/// by head, else why not in a sentence: other layer or head counts, or other tokens for the
/// same text (different tokenizers).
std::optional<std::string> modelComparisonProblem(const ModelRun &a, const ModelRun &b);

/// What B is, for a caption: `text B "…"`, "seed 1 instead of 0", "RoPE on", ...
std::string describeComparison(const TraceJob &job, const ComparisonRequest &b);

} // namespace headlens
