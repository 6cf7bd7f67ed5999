// Tests that a Session traces another layer of the same text from the run it has, not anew.
#include "approx.h"
#include "gpt2golden.h"

#include "model/transformerrun.h"
#include "session/comparisonjob.h"
#include "session/session.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;
using headlens::test::kGpt2Data;

namespace {

TraceJob modelJob(const std::string &text, int layer)
{
    TraceJob job;
    job.model.path = kGpt2Data + "tiny";
    job.model.layer = layer;
    job.texts = {text};
    return job;
}

/// The traced layer's tensors of `a` and `b` agree (the same layer of the same text), within
/// `abs` besides 1e-5 relative.
void compareTraces(const Trace &a, const Trace &b, double abs = 1e-6)
{
    for (const TraceKey &key :
         {keys::x, keys::q, keys::scores, keys::softmax, keys::context, keys::output})
        HL_COMPARE_TENSORS_NEAR(a.tensor(key), b.tensor(key), 1e-5, abs);
    QCOMPARE(a.input.tokens, b.input.tokens);
}

} // namespace

class TestModelSession : public QObject
{
    Q_OBJECT

private slots:
    void anotherLayerReusesTheRun_data();
    void anotherLayerReusesTheRun();
    void anotherTextRunsTheModelAgain();
    void typingOnReusesThePrefix();
    void otherModelsAndAblationsStartAfresh();
    void textBLeavesThePrefixInPlace();
    void modelBIsHeldBesideA();
};

void TestModelSession::anotherLayerReusesTheRun_data()
{
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("to");
    QTest::newRow("0 -> 1") << 0 << 1;
    QTest::newRow("1 -> 0") << 1 << 0;
}

/// The second job shares the first run's (L, h, n, n) storage (no new pass) and traces what a
/// fresh session tracing that layer traces: within float rounding, since in the first run the
/// layers after the traced one read a stream that may differ in its last bit.
void TestModelSession::anotherLayerReusesTheRun()
{
    QFETCH(int, from);
    QFETCH(int, to);
    Session session;
    const TraceRun first = session.run(modelJob("The cat's 12 mats.", from));
    const TraceRun second = session.run(modelJob("The cat's 12 mats.", to));
    QCOMPARE(second.model->attention.data(), first.model->attention.data());
    QCOMPARE(second.model->source.layer, to);
    QVERIFY(second.trace != first.trace);

    Session fresh;
    const TraceRun expected = fresh.run(modelJob("The cat's 12 mats.", to));
    compareTraces(*second.trace, *expected.trace);
    QVERIFY(second.parameters.wQ == expected.parameters.wQ);
    QVERIFY(second.parameters.bO == expected.parameters.bO);
    QCOMPARE(second.model->topNext.at(0).tokenId, expected.model->topNext.at(0).tokenId);
}

void TestModelSession::anotherTextRunsTheModelAgain()
{
    Session session;
    const TraceRun first = session.run(modelJob("Hello world", 0));
    const TraceRun second = session.run(modelJob("Hello world!", 0));
    QVERIFY(second.model->attention.data() != first.model->attention.data());
    QVERIFY(second.model->tokenIds != first.model->tokenIds);
    Session fresh;
    compareTraces(*second.trace, *fresh.run(modelJob("Hello world!", 0)).trace);
}

/// Typing at the end: the second run takes the first one's tokens from it (GPT-2's BPE keeps
/// them: " are" stays a token before " you") and computes what a fresh session computes.
void TestModelSession::typingOnReusesThePrefix()
{
    Session session;
    const TraceRun first = session.run(modelJob("Hello world, how are", 1));
    const TraceRun second = session.run(modelJob("Hello world, how are you", 1));
    QVERIFY(second.model->tokenIds.size() > first.model->tokenIds.size());
    QCOMPARE(second.model->pass->reusedTokens, int64_t(first.model->tokenIds.size()));
    Session fresh;
    const TraceRun expected = fresh.run(modelJob("Hello world, how are you", 1));
    QCOMPARE(expected.model->pass->reusedTokens, int64_t(0));
    // Within 1e-5: the new rows' products pack other operands than a pass over every row (2e-6
    // apart seen in the sanitizer build, which is not compiled for this processor).
    compareTraces(*second.trace, *expected.trace, 1e-5);
    HL_COMPARE_TENSORS_NEAR(second.model->attention, expected.model->attention, 1e-5, 1e-5);
    QCOMPARE(second.model->topNext.at(0).tokenId, expected.model->topNext.at(0).tokenId);
    HL_COMPARE_NEAR(second.model->topNext.at(0).probability,
                    expected.model->topNext.at(0).probability, 1e-5, 1e-6);
}

/// The session's one run is reused only for the same model with the same interventions.
void TestModelSession::otherModelsAndAblationsStartAfresh()
{
    Session session;
    session.run(modelJob("Hello world, how are", 0));
    TraceJob ablated = modelJob("Hello world, how are you", 0);
    ablated.interventions = HeadInterventions::ablating(0, 1);
    const TraceRun afterAblating = session.run(ablated);
    QCOMPARE(afterAblating.model->pass->reusedTokens, int64_t(0));
    QVERIFY(afterAblating.model->interventions.changes(0, 1));

    TraceJob otherModel = modelJob("Hello world, how are you doing", 0);
    otherModel.model.path = kGpt2Data + "tiny_f16";
    QCOMPARE(session.run(otherModel).model->pass->reusedTokens, int64_t(0));
}

/// The Compare tab's text B runs between two keystrokes of text A and leaves A's run kept.
void TestModelSession::textBLeavesThePrefixInPlace()
{
    Session session;
    const TraceJob a = modelJob("Hello world, how are", 0);
    const TraceRun first = session.run(a);
    const TraceRun b =
        session.run(comparisonJob(a, {ComparedChange::Text, "Something else entirely"}));
    QCOMPARE(b.model->pass->reusedTokens, int64_t(0));
    const TraceRun typed = session.run(modelJob("Hello world, how are you", 0));
    QCOMPARE(typed.model->pass->reusedTokens, int64_t(first.model->tokenIds.size()));
}

/// The Compare tab's model B opens into the session's second slot: A is not opened again after
/// it, B not again on the next edit, A's run stays for typing on, and B's attention is its own.
void TestModelSession::modelBIsHeldBesideA()
{
    Session session;
    const TraceJob a = modelJob("Hello world, how are", 0);
    const TraceRun first = session.run(a);
    const ComparisonRequest toF16{ComparedChange::Model, kGpt2Data + "tiny_f16"};
    const TraceRun b = session.run(comparisonJob(a, toF16));
    QCOMPARE(b.model->source.path, kGpt2Data + "tiny_f16");
    QVERIFY(b.model->source.model != first.model->source.model);
    QVERIFY(b.model->attention.data() != first.model->attention.data());
    QCOMPARE(b.model->tokenIds, first.model->tokenIds);

    const TraceJob typedOn = modelJob("Hello world, how are you", 0);
    const TraceRun typed = session.run(typedOn);
    QVERIFY(typed.model->source.model == first.model->source.model); // A was not reopened
    QCOMPARE(typed.model->pass->reusedTokens, int64_t(first.model->tokenIds.size()));
    const TraceRun bAgain = session.run(comparisonJob(typedOn, toF16));
    QVERIFY(bAgain.model->source.model == b.model->source.model); // nor was B

    // A compared with itself is opened once.
    const TraceRun itself = session.run(comparisonJob(a, {ComparedChange::Model, a.model.path}));
    QVERIFY(itself.model->source.model == first.model->source.model);
    session.releaseSecondModel();
    QVERIFY(session.run(comparisonJob(a, toF16)).model->source.model != b.model->source.model);
}

HEADLENS_TEST_APPLESS_MAIN(TestModelSession)
#include "tst_modelsession.moc"
