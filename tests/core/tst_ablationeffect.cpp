// Tests that an ablation's effect reads only the unchanged run's predictions, which let it go.
#include "approx.h"
#include "gpt2golden.h"

#include "model/transformerrun.h"
#include "session/ablationeffect.h"
#include "session/session.h"
#include "testmain.h"

#include <QTest>

#include <cmath>

using namespace headlens;
using headlens::test::kGpt2Data;

namespace {

constexpr const char *kText = "The cat sat on the mat because it";

TraceJob modelJob()
{
    TraceJob job;
    job.model.path = kGpt2Data + "tiny";
    job.texts = {kText};
    return job;
}

TraceJob layerJob()
{
    TraceJob job;
    job.config.dModel = 16;
    job.config.heads = 4;
    job.config.seed = 5;
    job.texts = {kText};
    return job;
}

/// softmax(logits)[id] summed in double, written out here apart from AblationEffect's.
double softmaxAt(const Vector &logits, int id)
{
    const double top = logits.maxCoeff();
    double sum = 0.0;
    for (Eigen::Index i = 0; i < logits.size(); ++i)
        sum += std::exp(double(logits[i]) - top);
    return std::exp(double(logits[id]) - top) / sum;
}

} // namespace

class TestAblationEffect : public QObject
{
    Q_OBJECT

private slots:
    void baselineGivesTheSameEffect();
    void baselineLetsTheUnchangedRunGo();
    void builtInLayerKeepsItsTrace();
};

/// The effect from the baseline equals the effect from the whole unchanged run, and its
/// probabilities are the softmax of each run's last logits.
void TestAblationEffect::baselineGivesTheSameEffect()
{
    Session session;
    TraceJob unchangedJob = modelJob();
    unchangedJob.keepForNext = false;
    const TraceRun unchanged = session.run(unchangedJob);
    TraceJob ablated = modelJob();
    ablated.interventions = HeadInterventions::ablating(0, 1);
    const TraceRun changed = session.run(ablated);

    const AblationEffect whole = AblationEffect::between(unchanged, changed);
    const AblationEffect slim =
        AblationEffect::between(AblationEffect::baselineOf(unchanged), changed);
    QCOMPARE(slim.kind, AblationEffect::Kind::Token);
    QCOMPARE(slim.tokenId, whole.tokenId);
    QCOMPARE(slim.token, whole.token);
    QCOMPARE(slim.before, whole.before);
    QCOMPARE(slim.after, whole.after);
    QCOMPARE(slim.topAfter, whole.topAfter);
    QCOMPARE(slim.topAfterProb, whole.topAfterProb);
    QCOMPARE(slim.tokenId, unchanged.model->topNext.at(0).tokenId);
    HL_COMPARE_NEAR(slim.before, softmaxAt(unchanged.model->firstLogits, slim.tokenId), 1e-9,
                    1e-12);
    HL_COMPARE_NEAR(slim.after, softmaxAt(changed.model->firstLogits, slim.tokenId), 1e-9, 1e-12);
    QVERIFY(slim.before != slim.after); // head 0.1 ablated moves the prediction
}

/// Nothing of the unchanged run's attention, trace or pass stays alive in its baseline.
void TestAblationEffect::baselineLetsTheUnchangedRunGo()
{
    Session session;
    TraceJob job = modelJob();
    job.keepForNext = false;
    TraceRun unchanged = session.run(job);
    const std::weak_ptr<const TransformerRun> pass = unchanged.model->pass;
    const std::weak_ptr<const Trace> trace = unchanged.trace;
    const int64_t n = int64_t(unchanged.model->tokenIds.size());
    QCOMPARE(unchanged.model->attention.numel(),
             int64_t(unchanged.model->layers) * unchanged.model->heads * n * n);

    const TraceRun baseline = AblationEffect::baselineOf(unchanged);
    unchanged = TraceRun();
    QVERIFY(pass.expired());
    QVERIFY(trace.expired());
    QVERIFY(!baseline.trace);
    QVERIFY(baseline.model->attention.isEmpty());
    QVERIFY(baseline.model->layerInputs.isEmpty());
    QVERIFY(!baseline.model->pass);
    QVERIFY(baseline.model->firstLogits.size() > 0);
}

/// The built-in layer's effect compares outputs: its baseline keeps the trace.
void TestAblationEffect::builtInLayerKeepsItsTrace()
{
    Session session;
    const TraceRun unchanged = session.run(layerJob());
    TraceJob ablated = layerJob();
    ablated.interventions = HeadInterventions::ablating(0, 2);
    const TraceRun changed = session.run(ablated);

    const TraceRun baseline = AblationEffect::baselineOf(unchanged);
    QCOMPARE(baseline.trace, unchanged.trace);
    const AblationEffect effect = AblationEffect::between(baseline, changed);
    QCOMPARE(effect.kind, AblationEffect::Kind::Output);
    const ConstRowMatrixMap before = unchanged.trace->tensor(keys::output).matrix({0});
    const ConstRowMatrixMap after = changed.trace->tensor(keys::output).matrix({0});
    QCOMPARE(effect.outputChange.at(0).size(), size_t(before.rows()));
    for (Eigen::Index i = 0; i < before.rows(); ++i)
        HL_COMPARE_NEAR(effect.outputChange[0][size_t(i)],
                        (after.row(i) - before.row(i)).cast<double>().norm(), 1e-12, 1e-12);
}

HEADLENS_TEST_APPLESS_MAIN(TestAblationEffect)
#include "tst_ablationeffect.moc"
