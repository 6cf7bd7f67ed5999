// Session: runs TraceJobs the same way for headlens-cli and the window, keeping opened models.
#pragma once

#include "attention/attentionforward.h"
#include "model/openedmodel.h"
#include "session/modelcache.h"
#include "session/tracejob.h"
#include "session/tracerun.h"

#include <functional>

namespace headlens {

/// The one way from a job to a trace: the built-in layer (input from texts or vectors, weights
/// seeded or read under WeightsPolicy, computeTrace) or a model's layer (opened through
/// ModelCache, checked layer, OpenedModel::run). Holds the opened model between jobs, so use
/// one Session per thread (the window: one in its runner's worker; the CLI: one per process).
class Session
{
public:
    /// Runs `job`. `progress` (0..1) is called from this thread; returning false abandons the
    /// work. Throws InputError (a message for people) or Cancelled.
    TraceRun run(const TraceJob &job, const std::function<bool(double)> &progress = {});

    /// The layer check every family shares: "There is no layer 7: this GPT-2 has layers 0 to
    /// 1." Throws InputError.
    static void checkLayer(int layer, int layers, const std::string &family);

    /// The tokens a head's circuits are read on: the text's, then the default stories' the
    /// model reads (OpenedModel::probePool), kCircuitTokens at most, each once.
    static std::vector<int> circuitTokens(const OpenedModel &model, const ModelRun &run);
    static constexpr int kCircuitTokens = 512;

    /// Lets the second model of a comparison go (TraceJob::secondModel): no comparison of two
    /// models is asked for any more.
    void releaseSecondModel() { m_models.release(ModelCache::Slot::B); }

private:
    TraceRun runLayer(const TraceJob &job, const std::function<bool(double)> &progress);
    /// The built-in layer's trace and importance (LayerImportance) into `run`.
    static void rankLayer(const TraceJob &job, const AttentionConfig &config,
                          const AttentionInput &input, TraceOptions options,
                          const std::function<bool(double)> &progress, TraceRun &run);
    TraceRun runModel(const TraceJob &job, const std::function<bool(double)> &progress);
    /// The job's ranking (importance or patching map) into `run`, `progress` from 0 to 1.
    void addRanking(const TraceJob &job, const OpenedModel &model, const ModelInput &input,
                    const std::function<bool(double)> &progress, TraceRun &run);
    /// The job's analyses of what heads do and write (LensRequest) into `run`, `progress` from
    /// 0 to 1.
    static void addLens(const TraceJob &job, const OpenedModel &model, const ModelInput &input,
                        const std::function<bool(double)> &progress, TraceRun &run);
    /// `progress` mapped onto [from, to] of the whole; empty when it is.
    static std::function<bool(double)> part(const std::function<bool(double)> &progress,
                                            double from, double to);

    ModelCache m_models;
    /// The last model run of a job with keepForNext, so that another layer of the same text is
    /// traced from it (OpenedModel::retrace) instead of running the model again, and a text
    /// typed on from it runs only its new tokens (OpenedModel::extend). One run: one prefix.
    std::shared_ptr<const ModelRun> m_lastRun;
};

} // namespace headlens
