// JobBuilder: the window's settings and texts as a TraceJob for the core's Session.
#pragma once

#include "model/modelsource.h"
#include "session/tracejob.h"
#include "workspace/workspacestate.h"

#include <optional>

namespace headlens {

/// The only Qt-aware step between the workspace and the core's orchestration.
class JobBuilder
{
public:
    /// The job for `state`, or nothing when there is no text to look at. The model is `model`
    /// when it is one (a model in memory), else the one state.modelPath names, opened by the
    /// Session. Every layer setting counts as chosen: the controls show them all.
    static std::optional<TraceJob> jobFor(const WorkspaceState &state,
                                          const ModelSource &model = {});
};

} // namespace headlens
