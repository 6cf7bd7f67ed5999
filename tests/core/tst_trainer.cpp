// tst_trainer: a tiny model learns, reproduces from its seed, resets, and Adam steps as torch's.
#include "approx.h"

#include "testmain.h"
#include "train/adamoptimizer.h"
#include "train/learningrateschedule.h"
#include "train/trainer.h"
#include "util/inputerror.h"

#include <QTest>

using namespace headlens;

namespace {

/// A 1-layer, 1-head model small enough to learn the previous-token task in about a second.
TrainingSettings tinyPreviousToken()
{
    TrainingSettings s = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
    s.model = {1, 1, 16, 8, 8, false};
    s.batchSize = 16;
    s.heldOutSize = 64;
    s.learningRate = 1e-2f;
    return s;
}

bool sameParameters(ToyParameters a, ToyParameters b)
{
    const auto va = a.views(true), vb = b.views(true);
    for (size_t i = 0; i < va.size(); ++i)
        if (va[i].matrix() != vb[i].matrix())
            return false;
    return true;
}

} // namespace

class TestTrainer : public QObject
{
    Q_OBJECT

private slots:
    void learnsPreviousTokenWithAPreviousTokenHead();
    void reproducesFromItsSeed();
    void resetStartsTheSameRunAgain();
    void snapshotIsCausalAttentionOnTheProbe();
    void adamFirstStepMovesEachWeightByTheLearningRate();
    void adamWDecaysMatricesAtEachStepsRate();
    void learningRateWarmsUpThenDecaysAlongACosine();
    void rejectsImpossibleSettings_data();
    void rejectsImpossibleSettings();
    void learnsAndReproducesWithEachOption_data();
    void learnsAndReproducesWithEachOption();
    void evaluationAndSnapshotsHaveNoDropout();
};

void TestTrainer::learnsPreviousTokenWithAPreviousTokenHead()
{
    Trainer trainer(tinyPreviousToken());
    const Evaluation before = trainer.evaluate();
    QVERIFY2(before.accuracy < 0.3, "an untrained model guesses");
    trainer.step(300);
    const Evaluation after = trainer.evaluate();
    HL_COMPARE_NEAR(after.accuracy, 1.0, 0.0, 0.01);
    QVERIFY(after.loss < 0.1 * before.loss);
    QCOMPARE(int(after.heads.size()), 1);
    QVERIFY2(after.heads[0].previousToken > 0.8,
             QByteArray::number(after.heads[0].previousToken).constData());
}

void TestTrainer::reproducesFromItsSeed()
{
    Trainer a(tinyPreviousToken()), b(tinyPreviousToken());
    const TrainingMetrics ma = a.step(5);
    const TrainingMetrics mb = b.step(5);
    QCOMPARE(ma.loss, mb.loss);
    QVERIFY(sameParameters(a.trainedModel().parameters, b.trainedModel().parameters));
    TrainingSettings other = tinyPreviousToken();
    other.seed = 1;
    Trainer c(other);
    c.step(5);
    QVERIFY(!sameParameters(a.trainedModel().parameters, c.trainedModel().parameters));
}

void TestTrainer::resetStartsTheSameRunAgain()
{
    Trainer trainer(tinyPreviousToken());
    const TrainingMetrics first = trainer.step(3);
    const ToyParameters afterThree = trainer.trainedModel().parameters;
    trainer.step(4);
    trainer.reset();
    QCOMPARE(trainer.stepsDone(), int64_t(0));
    const TrainingMetrics again = trainer.step(3);
    QCOMPARE(again.loss, first.loss);
    QVERIFY(sameParameters(trainer.trainedModel().parameters, afterThree));
}

void TestTrainer::snapshotIsCausalAttentionOnTheProbe()
{
    TrainingSettings s = TrainingSettings::defaultsFor(TaskKind::Induction);
    s.model = {2, 2, 16, 12, 12, true};
    Trainer trainer(s);
    trainer.step(2);
    const AttentionSnapshot snap = trainer.snapshot();
    QCOMPARE(snap.step, int64_t(2));
    QCOMPARE(int(snap.weights.size()), 4);
    QCOMPARE(int(snap.labels.size()), 12);
    QCOMPARE(int(snap.predictions.size()), 12);
    QCOMPARE(snap.targets, trainer.task().targetsFor(snap.tokens));
    for (const RowMatrix &w : snap.weights) {
        QCOMPARE(int(w.rows()), 12);
        for (Eigen::Index i = 0; i < w.rows(); ++i) {
            HL_COMPARE_NEAR(w.row(i).sum(), 1.0, 0.0, 1e-5);
            HL_COMPARE_NEAR(w.row(i).tail(w.cols() - i - 1).sum(), 0.0, 0.0, 0.0);
        }
    }
}

/// Adam's first step is lr * g / (|g| + eps): lr * sign(g) for any gradient well above eps.
void TestTrainer::adamFirstStepMovesEachWeightByTheLearningRate()
{
    const ToyModelConfig config{1, 1, 16, 4, 4, false};
    ToyParameters parameters = ToyParameters::initialize(config, 0);
    const ToyParameters start = parameters;
    ToyParameters gradients = ToyParameters::zerosLike(parameters);
    gradients.unembedding(1, 2) = 3.0f;
    gradients.unembedding(2, 3) = -0.01f;
    AdamOptimizer adam({0.05f}, parameters);
    adam.step(parameters, gradients, false);
    HL_COMPARE_NEAR(parameters.unembedding(1, 2), start.unembedding(1, 2) - 0.05, 0.0, 1e-6);
    HL_COMPARE_NEAR(parameters.unembedding(2, 3), start.unembedding(2, 3) + 0.05, 0.0, 1e-6);
    HL_COMPARE_NEAR(parameters.unembedding(0, 0), start.unembedding(0, 0), 0.0, 0.0);
    // A second step with a zero gradient keeps going on the momentum: torch.optim.Adam(lr=0.05)
    // on grads 3 then 0 gives -0.05 then -0.0835029 (torch 1.13).
    gradients.unembedding.setZero();
    adam.step(parameters, gradients, false);
    HL_COMPARE_NEAR(parameters.unembedding(1, 2), start.unembedding(1, 2) - 0.0835029, 0.0, 2e-6);
}

/// AdamW decays matrices by lr * wd before Adam's step, at the rate of the step; vectors not.
/// torch.optim.AdamW(lr=0.05, weight_decay=0.1) from 0.5 on grads 3 then 0, the second step
/// at lr 0.02: 0.4475000001666667 then 0.4332038351467921 (torch 1.13, float64).
void TestTrainer::adamWDecaysMatricesAtEachStepsRate()
{
    const ToyModelConfig config{1, 1, 16, 4, 4, false};
    ToyParameters parameters = ToyParameters::initialize(config, 0);
    parameters.unembedding(1, 2) = 0.5f;
    parameters.unembeddingBias(1) = 0.5f;
    ToyParameters gradients = ToyParameters::zerosLike(parameters);
    gradients.unembedding(1, 2) = 3.0f;
    gradients.unembeddingBias(1) = 3.0f;
    AdamOptimizer::Settings settings;
    settings.weightDecay = 0.1f;
    AdamOptimizer adam(settings, parameters);
    adam.step(parameters, gradients, false, 0.05f);
    HL_COMPARE_NEAR(parameters.unembedding(1, 2), 0.4475000001666667, 0.0, 1e-6);
    HL_COMPARE_NEAR(parameters.unembeddingBias(1), 0.45, 0.0, 1e-6); // not decayed
    gradients.unembedding.setZero();
    adam.step(parameters, gradients, false, 0.02f);
    HL_COMPARE_NEAR(parameters.unembedding(1, 2), 0.4332038351467921, 0.0, 1e-6);
}

/// Warm-up to the peak in `warmupSteps`, half a cosine down to a tenth over `decaySteps`.
void TestTrainer::learningRateWarmsUpThenDecaysAlongACosine()
{
    const LearningRateSchedule schedule{1e-3f, 10, 100, 0.1f};
    HL_COMPARE_NEAR(schedule.at(0), 1e-4, 0.0, 1e-9);
    HL_COMPARE_NEAR(schedule.at(4), 5e-4, 0.0, 1e-9);
    HL_COMPARE_NEAR(schedule.at(9), 1e-3, 0.0, 1e-9);
    HL_COMPARE_NEAR(schedule.at(10), 1e-3, 0.0, 1e-9);
    HL_COMPARE_NEAR(schedule.at(60), 5.5e-4, 0.0, 1e-9); // halfway: 0.1 + 0.9 * 0.5
    HL_COMPARE_NEAR(schedule.at(110), 1e-4, 0.0, 1e-9);
    HL_COMPARE_NEAR(schedule.at(5000), 1e-4, 0.0, 1e-9);
    const LearningRateSchedule constant{3e-3f, 0, 0, 0.1f};
    QCOMPARE(constant.at(0), 3e-3f);
    QCOMPARE(constant.at(999), 3e-3f);
}

void TestTrainer::rejectsImpossibleSettings_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<float>("learningRate");
    QTest::addColumn<QString>("expected");
    QTest::newRow("d_model not divisible") << 3 << 32 << 1e-3f << "use d_model 30 or 33";
    QTest::newRow("too many heads") << 16 << 64 << 1e-3f << "heads must be between 1 and 8";
    QTest::newRow("zero learning rate") << 2 << 32 << 0.0f << "learning rate";
}

void TestTrainer::rejectsImpossibleSettings()
{
    QFETCH(int, heads);
    QFETCH(int, dModel);
    QFETCH(float, learningRate);
    QFETCH(QString, expected);
    TrainingSettings s = tinyPreviousToken();
    s.model.heads = heads;
    s.model.dModel = dModel;
    s.learningRate = learningRate;
    try {
        Trainer trainer(s);
        QFAIL("accepted impossible settings");
    } catch (const InputError &error) {
        QVERIFY2(QString(error.what()).contains(expected), error.what());
    }
}

void TestTrainer::learnsAndReproducesWithEachOption_data()
{
    QTest::addColumn<bool>("rope");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<float>("dropout");
    QTest::newRow("RoPE") << true << 1 << 0 << 0.0f;
    QTest::newRow("2 heads, 1 K/V head") << false << 2 << 1 << 0.0f;
    QTest::newRow("dropout 0.1") << false << 1 << 0 << 0.1f;
    QTest::newRow("all three") << true << 2 << 1 << 0.1f;
}

/// The previous-token task with each option: it learns (RoPE's relative positions find the
/// previous token as learned ones do), and the same seed gives the same weights bit for bit,
/// dropout's masks included.
void TestTrainer::learnsAndReproducesWithEachOption()
{
    QFETCH(bool, rope);
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(float, dropout);
    TrainingSettings settings = tinyPreviousToken();
    settings.model.rope = rope;
    settings.model.heads = heads;
    settings.model.kvHeads = kvHeads;
    settings.model.dropout = dropout;
    Trainer a(settings), b(settings);
    QCOMPARE(a.step(5).loss, b.step(5).loss);
    QVERIFY(sameParameters(a.trainedModel().parameters, b.trainedModel().parameters));
    a.step(295);
    const Evaluation after = a.evaluate();
    QVERIFY2(after.accuracy > 0.95, QByteArray::number(after.accuracy).constData());
}

/// Dropout acts in step() only: the model's held-out loss and its snapshot are those of the
/// same weights in a run without dropout.
void TestTrainer::evaluationAndSnapshotsHaveNoDropout()
{
    TrainingSettings settings = tinyPreviousToken();
    settings.model.dropout = 0.5f;
    Trainer dropping(settings);
    dropping.step(10);
    TrainedModel copy = dropping.trainedModel();
    copy.settings.model.dropout = 0.0f;
    const Trainer plain(copy);
    QCOMPARE(dropping.evaluate().loss, plain.evaluate().loss);
    QVERIFY(dropping.snapshot().weights == plain.snapshot().weights);
    // And step() does drop: the same start without dropout takes another path.
    settings.model.dropout = 0.0f;
    Trainer without(settings);
    without.step(10);
    QVERIFY(!sameParameters(without.trainedModel().parameters, copy.parameters));
}

HEADLENS_TEST_APPLESS_MAIN(TestTrainer)
#include "tst_trainer.moc"
