// LensRunner: the logit lens and the attribution of a run computed off the UI thread, newest only.
#pragma once

#include "model/headatlas.h"
#include "model/headcircuits.h"
#include "model/logitattribution.h"
#include "model/logitlens.h"
#include "model/modelinput.h"
#include "model/modelrun.h"
#include "stats/attentionflow.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace headlens {

class OpenedModel;

/// Each analysis runs the model once more (keeping its residual stream) and reads every stage
/// or head through the output head: a second or more for GPT-2 small, so it runs in
/// ViewWorkPool and reports on the owner's thread. A new request of the same kind makes the one
/// before it stale: that one stops at its next layer and its result never arrives.
class LensRunner : public QObject
{
    Q_OBJECT
public:
    explicit LensRunner(QObject *parent = nullptr);

    /// OpenedModel::logitLens of `input` with the top 10 tokens per cell.
    void startLens(std::shared_ptr<const OpenedModel> model, ModelInput input);
    /// OpenedModel::attribution at `position` of logit(token) [- logit(wrong), wrong >= 0].
    void startAttribution(std::shared_ptr<const OpenedModel> model, ModelInput input, int position,
                          int token, int wrong);
    /// computeHeadAtlas of `run`'s model on `run`'s text.
    void startAtlas(std::shared_ptr<const ModelRun> run);
    /// attentionFlowOf `run`.
    void startFlow(std::shared_ptr<const ModelRun> run);
    /// The circuits of head (`layer`, `head`) of `run`'s model, on Session::circuitTokens.
    void startCircuits(std::shared_ptr<const ModelRun> run, int layer, int head);
    /// Forgets the requests in flight (they stop; nothing arrives).
    void cancel();
    bool isRunning() const
    {
        return m_lensRunning || m_attributionRunning || m_atlasRunning || m_flowRunning ||
               m_circuitsRunning;
    }

    /// The tokens each lens cell lists on hover.
    static constexpr int kLensTop = 10;
    /// The tokens listed as each head's most promoted and suppressed.
    static constexpr int kHeadTokens = 10;

signals:
    void lensReady(std::shared_ptr<const headlens::LogitLens> lens);
    void attributionReady(std::shared_ptr<const headlens::LogitAttribution> attribution);
    void atlasReady(std::shared_ptr<const headlens::HeadAtlas> atlas);
    void flowReady(std::shared_ptr<const headlens::AttentionFlow> flow);
    void circuitsReady(std::shared_ptr<const headlens::HeadCircuits> circuits);
    /// What the model refused (an encoder's attribution, a text without a mask) as a sentence.
    void lensFailed(const QString &message);
    void attributionFailed(const QString &message);
    void atlasFailed(const QString &message);
    void flowFailed(const QString &message);
    void circuitsFailed(const QString &message);

private:
    /// The newest request of one kind: a job goes on while its number is still the newest.
    using Newest = std::shared_ptr<std::atomic<uint64_t>>;
    template <typename Result, typename Compute, typename Deliver, typename Fail>
    void start(const Newest &newest, bool &running, Compute compute, Deliver deliver, Fail fail);

    Newest m_lens = std::make_shared<std::atomic<uint64_t>>(0);
    Newest m_attribution = std::make_shared<std::atomic<uint64_t>>(0);
    Newest m_atlas = std::make_shared<std::atomic<uint64_t>>(0);
    Newest m_flow = std::make_shared<std::atomic<uint64_t>>(0);
    Newest m_circuits = std::make_shared<std::atomic<uint64_t>>(0);
    bool m_lensRunning = false;
    bool m_attributionRunning = false;
    bool m_atlasRunning = false;
    bool m_flowRunning = false;
    bool m_circuitsRunning = false;
};

} // namespace headlens
