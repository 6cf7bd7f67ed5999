// Tests that a Session traces another layer of the same text from the run it has, not anew.
#include "approx.h"
#include "gpt2golden.h"

#include "session/session.h"

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

/// The traced layer's tensors of `a` and `b` agree (the same layer of the same text).
void compareTraces(const Trace &a, const Trace &b)
{
    for (const TraceKey &key :
         {keys::x, keys::q, keys::scores, keys::softmax, keys::context, keys::output})
        HL_COMPARE_TENSORS_NEAR(a.tensor(key), b.tensor(key), 1e-5, 1e-6);
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

QTEST_APPLESS_MAIN(TestModelSession)
#include "tst_modelsession.moc"
