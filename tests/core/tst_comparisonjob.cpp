// Tests that run B of a comparison changes exactly the one thing asked for, and refuses the rest.
#include "errorof.h"
#include "gpt2golden.h"

#include "attention/tracekey.h"
#include "session/comparisonjob.h"
#include "session/session.h"
#include "testmain.h"

#include <QTest>

#include <cmath>

using namespace headlens;
using headlens::test::kGpt2Data;

namespace {

constexpr const char *kComparedText = "the tired robot dropped the heavy gear";

/// d_model 16, 4 heads, no mask, seed 5: the built-in layer A.
TraceJob comparedLayerJob()
{
    TraceJob job;
    job.config.dModel = 16;
    job.config.heads = 4;
    job.config.seed = 5;
    job.texts = {kComparedText};
    return job;
}

std::vector<float> valuesOf(const Tensor &t)
{
    return std::vector<float>(t.data(), t.data() + t.numel());
}

std::vector<float> weightsOf(Session &session, const TraceJob &job)
{
    return valuesOf(session.run(job).trace->tensor(keys::attentionWeights));
}

} // namespace

class TestComparisonJob : public QObject
{
    Q_OBJECT

private slots:
    void textReplacesTheTextOnly()
    {
        TraceJob a = comparedLayerJob();
        a.ranking.kind = RankingRequest::Kind::Importance;
        a.tokenIds = {1, 2};
        const TraceJob b = comparisonJob(a, {ComparedChange::Text, "a cat"});
        QCOMPARE(b.texts, std::vector<std::string>{"a cat"});
        QVERIFY(b.tokenIds.empty());
        QVERIFY(b.ranking.kind == RankingRequest::Kind::None); // B draws; it never ranks
        QCOMPARE(b.config.seed, a.config.seed);
    }

    void nextSeedIsTheLayerInitialisedWithSeedPlusOne()
    {
        Session session;
        const TraceJob a = comparedLayerJob();
        TraceJob six = a;
        six.config.seed = 6;
        const auto b = weightsOf(session, comparisonJob(a, {ComparedChange::NextSeed, {}}));
        QCOMPARE(b, weightsOf(session, six));
        QVERIFY(b != weightsOf(session, a));
        QCOMPARE(describeComparison(a, {ComparedChange::NextSeed, {}}),
                 std::string("seed 6 instead of 5"));
    }

    void oneKvHeadSharesOneKeyAmongAllHeads()
    {
        Session session;
        const TraceRun b =
            session.run(comparisonJob(comparedLayerJob(), {ComparedChange::OneKvHead, {}}));
        const Shape &keys = b.trace->tensor(keys::kHeads).shape();
        QCOMPARE(keys.size(1), int64_t(1)); // (b, h_kv, n, d_k)
        QCOMPARE(b.trace->tensor(keys::attentionWeights).shape().size(1), int64_t(4));
    }

    void causalFlipHidesEveryLaterKey()
    {
        Session session;
        const TraceJob a = comparedLayerJob();
        const TraceRun b = session.run(comparisonJob(a, {ComparedChange::CausalFlip, {}}));
        const Tensor &w = b.trace->tensor(keys::attentionWeights); // (b, h, n, n)
        const int64_t heads = w.shape().size(1), n = w.shape().size(2);
        for (int64_t h = 0; h < heads; ++h)
            for (int64_t i = 0; i < n; ++i)
                for (int64_t j = i + 1; j < n; ++j)
                    QCOMPARE(w.data()[(h * n + i) * n + j], 0.0f);
        // A (no mask) attends ahead: the flip changed something.
        const auto wa = session.run(a).trace->tensor(keys::attentionWeights);
        QVERIFY(wa.data()[1] > 0.0f);
    }

    void ropeToggledTurnsRopeOnAndOff()
    {
        Session session;
        TraceJob a = comparedLayerJob();
        TraceJob rope = a;
        rope.config.attentionPositions = AttentionPositions::Rope;
        const TraceJob on = comparisonJob(a, {ComparedChange::RopeToggled, {}});
        QCOMPARE(weightsOf(session, on), weightsOf(session, rope));
        QCOMPARE(describeComparison(a, {ComparedChange::RopeToggled, {}}), std::string("RoPE on"));
        const TraceJob off = comparisonJob(rope, {ComparedChange::RopeToggled, {}});
        QCOMPARE(weightsOf(session, off), weightsOf(session, a));
    }

    void noAblationsIsTheUnchangedLayer()
    {
        Session session;
        TraceJob a = comparedLayerJob();
        a.interventions = HeadInterventions::ablating(0, 2);
        const TraceJob b = comparisonJob(a, {ComparedChange::NoAblations, {}});
        QVERIFY(b.interventions.empty());
        TraceJob plain = comparedLayerJob();
        QCOMPARE(valuesOf(session.run(b).trace->tensor(keys::output)),
                 valuesOf(session.run(plain).trace->tensor(keys::output)));
        QVERIFY(valuesOf(session.run(a).trace->tensor(keys::output)) !=
                valuesOf(session.run(plain).trace->tensor(keys::output)));
    }

    void changesThatMeanNothingAreRefusedWithAReason()
    {
        TraceJob model = comparedLayerJob();
        model.model.path = kGpt2Data + "tiny";
        QVERIFY(test::errorOf([&] {
                    comparisonJob(model, {ComparedChange::NextSeed, {}});
                }).contains("checkpoint"));
        QVERIFY(test::errorOf([&] {
                    comparisonJob(model, {ComparedChange::RopeToggled, {}});
                }).contains("another text"));
        TraceJob fromFile = comparedLayerJob();
        fromFile.weightsPath = "/tmp/layer.npz";
        QVERIFY(test::errorOf([&] {
                    comparisonJob(fromFile, {ComparedChange::OneKvHead, {}});
                }).contains("/tmp/layer.npz"));
        TraceJob mqa = comparedLayerJob();
        mqa.config.kvHeads = 1;
        QVERIFY(test::errorOf([&] {
                    comparisonJob(mqa, {ComparedChange::OneKvHead, {}});
                }).contains("already has one K/V head"));
        QVERIFY(test::errorOf([&] {
                    comparisonJob(comparedLayerJob(), {ComparedChange::NoAblations, {}});
                }).contains("ablate a head first"));
    }

    void namesRoundTrip()
    {
        for (const char *name :
             {"text", "seed", "kv-heads", "rope", "causal", "no-ablations", "model"})
            QCOMPARE(toString(*comparedChangeFromString(name)), std::string(name));
        QVERIFY(!comparedChangeFromString("seeds"));
        QVERIFY(!ComparisonRequest{}.wanted());
        QVERIFY(!(ComparisonRequest{ComparedChange::Text, "  \t"}.wanted()));
        QVERIFY((ComparisonRequest{ComparedChange::CausalFlip, {}}.wanted()));
    }
};

HEADLENS_TEST_APPLESS_MAIN(TestComparisonJob)
#include "tst_comparisonjob.moc"
