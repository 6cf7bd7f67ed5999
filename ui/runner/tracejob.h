// TraceJob: text -> input -> weights -> computeTrace, the work done in the runner's thread.
#pragma once

#include "attention/attentionweights.h"
#include "attention/trace.h"
#include "runner/tracerequest.h"
#include "workspace/workspacestate.h"

#include <functional>
#include <memory>
#include <optional>

namespace headlens {

/// Builds requests from the window's state and runs them. Stateless: safe in any thread.
class TraceJob
{
public:
    /// The request for `state`, or nothing when there is no text to look at.
    static std::optional<TraceRequest> requestFor(const WorkspaceState &state);

    /// Runs the whole pipeline. Throws InputError (a message for people) or Cancelled (when
    /// `progress` returned false). `weightsOut`, if given, receives the weights used.
    static std::shared_ptr<const Trace> run(const TraceRequest &request,
                                            const std::function<bool(double)> &progress,
                                            AttentionWeights *weightsOut = nullptr);
};

} // namespace headlens
