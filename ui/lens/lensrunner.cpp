// LensRunner: OpenedModel's analyses in the view pool, answered through the application.
#include "lens/lensrunner.h"

#include "attention/attentionforward.h"
#include "model/headatlasprobe.h"
#include "model/openedmodel.h"
#include "model/runflow.h"
#include "runner/viewworkpool.h"
#include "runner/workerthread.h"
#include "session/session.h"
#include "util/inputerror.h"

#include <QCoreApplication>
#include <QPointer>

namespace headlens {

LensRunner::LensRunner(QObject *parent) : QObject(parent) {}

template <typename Result, typename Compute, typename Deliver, typename Fail>
void LensRunner::start(const Newest &newest, bool &running, Compute compute, Deliver deliver,
                       Fail fail)
{
    const uint64_t request = ++*newest;
    running = true;
    QPointer<LensRunner> self(this);
    // Runs `call` on the UI thread if this is still the newest request and the runner lives;
    // queued on the application, which outlives the job, so `self` is read there.
    auto report = [self, newest, request, &running](auto call) {
        queueOn(qApp, [self, newest, request, &running, call] {
            if (self && *newest == request) {
                running = false;
                call(*self);
            }
        });
    };
    // A newer request (or cancel) stops this one at the model's next layer.
    auto current = [newest, request](double) { return *newest == request; };
    ViewWorkPool::start([compute, deliver, fail, report, current] {
        try {
            auto result = std::make_shared<const Result>(compute(current));
            report([deliver, result](LensRunner &r) { deliver(r, result); });
        } catch (const Cancelled &) {
            // A newer request took over; it reports.
        } catch (const InputError &error) {
            report([fail, message = QString::fromStdString(error.what())](LensRunner &r) {
                fail(r, message);
            });
        } catch (const std::bad_alloc &) {
            report([fail](LensRunner &r) {
                fail(r, LensRunner::tr("Out of memory reading the stream: use a shorter text."));
            });
        }
    });
}

void LensRunner::startLens(std::shared_ptr<const OpenedModel> model, ModelInput input)
{
    start<LogitLens>(
        m_lens, m_lensRunning,
        [model, input](const std::function<bool(double)> &progress) {
            return model->logitLens(input, kLensTop, progress);
        },
        [](LensRunner &r, std::shared_ptr<const LogitLens> lens) { emit r.lensReady(lens); },
        [](LensRunner &r, const QString &message) { emit r.lensFailed(message); });
}

void LensRunner::startAttribution(std::shared_ptr<const OpenedModel> model, ModelInput input,
                                  int position, int token, int wrong)
{
    start<LogitAttribution>(
        m_attribution, m_attributionRunning,
        [model, input, position, token, wrong](const std::function<bool(double)> &progress) {
            return model->attribution(input, position, token, wrong, kHeadTokens, progress);
        },
        [](LensRunner &r, std::shared_ptr<const LogitAttribution> attribution) {
            emit r.attributionReady(attribution);
        },
        [](LensRunner &r, const QString &message) { emit r.attributionFailed(message); });
}

void LensRunner::startAtlas(std::shared_ptr<const ModelRun> run)
{
    start<HeadAtlas>(
        m_atlas, m_atlasRunning,
        [run](const std::function<bool(double)> &progress) {
            return computeHeadAtlas(*run->source.model, *run, AtlasProbe(), progress);
        },
        [](LensRunner &r, std::shared_ptr<const HeadAtlas> atlas) { emit r.atlasReady(atlas); },
        [](LensRunner &r, const QString &message) { emit r.atlasFailed(message); });
}

void LensRunner::startFlow(std::shared_ptr<const ModelRun> run)
{
    start<AttentionFlow>(
        m_flow, m_flowRunning,
        [run](const std::function<bool(double)> &progress) {
            return attentionFlowOf(*run->source.model, *run, progress);
        },
        [](LensRunner &r, std::shared_ptr<const AttentionFlow> flow) { emit r.flowReady(flow); },
        [](LensRunner &r, const QString &message) { emit r.flowFailed(message); });
}

void LensRunner::startCircuits(std::shared_ptr<const ModelRun> run, int layer, int head)
{
    start<HeadCircuits>(
        m_circuits, m_circuitsRunning,
        [run, layer, head](const std::function<bool(double)> &) {
            const OpenedModel &model = *run->source.model;
            return model.circuits(layer, head, Session::circuitTokens(model, *run));
        },
        [](LensRunner &r, std::shared_ptr<const HeadCircuits> circuits) {
            emit r.circuitsReady(circuits);
        },
        [](LensRunner &r, const QString &message) { emit r.circuitsFailed(message); });
}

void LensRunner::cancel()
{
    ++*m_lens;
    ++*m_attribution;
    ++*m_atlas;
    ++*m_flow;
    ++*m_circuits;
    m_lensRunning = m_attributionRunning = m_atlasRunning = m_flowRunning = m_circuitsRunning =
        false;
}

} // namespace headlens
