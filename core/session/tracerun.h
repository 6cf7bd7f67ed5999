// TraceRun: what one TraceJob produced: the trace the views draw and what came with it.
#pragma once

#include "attention/attentionweights.h"
#include "attention/trace.h"
#include "model/headatlas.h"
#include "model/headcircuits.h"
#include "model/headimportance.h"
#include "model/logitattribution.h"
#include "model/logitlens.h"
#include "model/modelrun.h"
#include "model/patchingmap.h"
#include "stats/attentionflow.h"

#include <memory>

namespace headlens {

struct TraceRun
{
    std::shared_ptr<const Trace> trace;
    AttentionWeights parameters;           ///< the traced layer's W_Q, ..., b_O
    std::shared_ptr<const ModelRun> model; ///< every layer of the model; null for built-in
    std::shared_ptr<const HeadImportance> importance;    ///< when the job asked for it
    std::shared_ptr<const PatchingMap> patching;         ///< when the job asked for it
    std::shared_ptr<const LogitLens> logitLens;          ///< when the job asked for it
    std::shared_ptr<const LogitAttribution> attribution; ///< when the job asked for it
    std::shared_ptr<const HeadAtlas> atlas;              ///< when the job asked for it
    std::shared_ptr<const AttentionFlow> flow;           ///< when the job asked for it
    std::shared_ptr<const HeadCircuits> circuits;        ///< when the job asked for it
};

} // namespace headlens
