// comparisonJob: run B of a comparison: the same job with another text.
#pragma once

#include "session/tracejob.h"

#include <string>

namespace headlens {

/// `job` with `text` as its only text and no ranking: text B under the same settings, model,
/// layer and interventions as A (headlens-cli --compare-text and the window's Compare tab).
/// Not kept for the next job: the session keeps A's run, from which A's text is typed on.
inline TraceJob comparisonJob(const TraceJob &job, const std::string &text)
{
    TraceJob b = job;
    b.texts = {text};
    b.tokenIds.clear();
    b.ranking = RankingRequest();
    b.keepForNext = false;
    return b;
}

} // namespace headlens
