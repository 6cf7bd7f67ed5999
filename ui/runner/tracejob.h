// TraceJob: text -> input -> weights -> computeTrace, the work done in the runner's thread.
#pragma once

#include "attention/attentionweights.h"
#include "attention/trace.h"
#include "models/modelrun.h"
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
    /// The request for `state`, or nothing when there is no text to look at. The model is
    /// `model` when it is one (a model in memory), else the one state.modelPath names.
    static std::optional<TraceRequest> requestFor(const WorkspaceState &state,
                                                  const ModelSource &model = {});

    /// Runs the whole pipeline. Throws InputError (a message for people) or Cancelled (when
    /// `progress` returned false). `weightsOut`, if given, receives the weights used;
    /// `modelOut` the whole model's run when the request names a model. Precondition: a model
    /// source is resolved (ModelCache::resolve).
    static std::shared_ptr<const Trace> run(const TraceRequest &request,
                                            const std::function<bool(double)> &progress,
                                            AttentionWeights *weightsOut = nullptr,
                                            std::shared_ptr<const ModelRun> *modelOut = nullptr);
};

} // namespace headlens
