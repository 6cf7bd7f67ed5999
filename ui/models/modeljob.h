// ModelJob: one text through an opened model, in the runner's thread: the trace and ModelRun.
#pragma once

#include "attention/attentionweights.h"
#include "attention/trace.h"
#include "models/modelrun.h"
#include "models/modelsource.h"

#include <functional>
#include <memory>
#include <string>

namespace headlens {

/// What the views get from a model: the viewed layer's trace (heads and pipeline views), the
/// weights it used (the four-ways comparison) and every layer for the Model tab.
struct ModelJobResult
{
    std::shared_ptr<const Trace> trace;
    AttentionWeights weights;
    std::shared_ptr<const ModelRun> run;
};

/// Stateless; safe in any thread.
class ModelJob
{
public:
    /// Precondition: `source` is resolved (its model pointer is set). Throws InputError (a layer
    /// that does not exist, text the model cannot read) or Cancelled.
    static ModelJobResult run(const ModelSource &source, const std::string &text,
                              const std::function<bool(double)> &progress);

private:
    static ModelJobResult runGpt2(const ModelSource &source, const std::string &text,
                                  const std::function<bool(double)> &progress);
    static ModelJobResult runToy(const ModelSource &source, const std::string &text,
                                 const std::function<bool(double)> &progress);
    static void checkLayer(int layer, int layers);
    static std::string summary(const AttentionConfig &config, int layers, int vocabulary,
                               int context);
};

} // namespace headlens
