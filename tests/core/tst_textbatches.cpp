// tst_textbatches: a language model's windows: next-token targets, held-out text kept apart,
// reproducible from the seed, and a text too short refused with the length it needs.
#include "testmain.h"
#include "train/textbatches.h"
#include "train/trainer.h"
#include "util/inputerror.h"

#include <QTest>

#include <numeric>
#include <set>

using namespace headlens;

class TestTextBatches : public QObject
{
    Q_OBJECT

private slots:
    void targetsAreTheNextTokens();
    void heldOutWindowsComeFromTheLastTenth();
    void theSameSeedGivesTheSameWindows();
    void aTextTooShortSaysHowLongItMustBe();
    void aLanguageModelLearnsARepeatingText();
};

namespace {

/// Tokens 0, 1, 2, ...: a token's value is its position, so a window shows where it came from.
std::vector<int> counting(int count)
{
    std::vector<int> tokens(size_t(count), 0);
    std::iota(tokens.begin(), tokens.end(), 0);
    return tokens;
}

} // namespace

void TestTextBatches::targetsAreTheNextTokens()
{
    const TextBatches text(counting(1000), 8);
    const ToyBatch batch = text.batch(3, BatchSource::kTrainStream, 0, 16);
    QCOMPARE(batch.count, 16);
    QCOMPARE(batch.length, 8);
    for (int s = 0; s < 16; ++s)
        for (int i = 0; i < 8; ++i) {
            const int token = batch.tokens[size_t(s * 8 + i)];
            QCOMPARE(batch.targets[size_t(s * 8 + i)], token + 1); // every position scored
            if (i > 0)
                QCOMPARE(token, batch.tokens[size_t(s * 8 + i - 1)] + 1); // one window
            QVERIFY2(token + 1 < 900, "a training target reached into the held-out tenth");
        }
}

void TestTextBatches::heldOutWindowsComeFromTheLastTenth()
{
    const TextBatches text(counting(1000), 8);
    QCOMPARE(text.trainingTokens(), size_t(900));
    QCOMPARE(text.heldOutTokens(), size_t(100));
    const ToyBatch batch = text.batch(3, BatchSource::kHeldOutStream, 0, 64);
    int lowest = 1000, highest = 0;
    std::set<int> starts;
    for (size_t r = 0; r < batch.tokens.size(); ++r) {
        lowest = std::min(lowest, batch.tokens[r]);
        highest = std::max(highest, batch.targets[r]);
        if (r % 8 == 0)
            starts.insert(batch.tokens[r]);
    }
    QVERIFY(lowest >= 900);
    QVERIFY(highest <= 999);
    QVERIFY2(starts.size() > 20, "64 windows from 92 starts should not repeat a few");
}

void TestTextBatches::theSameSeedGivesTheSameWindows()
{
    const TextBatches text(counting(1000), 8);
    QCOMPARE(text.batch(3, BatchSource::kTrainStream, 32, 4).tokens,
             text.batch(3, BatchSource::kTrainStream, 32, 4).tokens);
    QVERIFY(text.batch(3, BatchSource::kTrainStream, 32, 4).tokens !=
            text.batch(4, BatchSource::kTrainStream, 32, 4).tokens);
    QVERIFY(text.batch(3, BatchSource::kTrainStream, 32, 4).tokens !=
            text.batch(3, BatchSource::kTrainStream, 36, 4).tokens);
}

void TestTextBatches::aTextTooShortSaysHowLongItMustBe()
{
    QVERIFY(!TextBatches::validate(1300, 64));
    const auto problem = TextBatches::validate(1299, 64);
    QVERIFY(problem);
    QVERIFY2(problem->find("gives 1299 tokens") != std::string::npos, problem->c_str());
    QVERIFY2(problem->find("at least 1300") != std::string::npos, problem->c_str());
    QVERIFY2(problem->find("shorter context") != std::string::npos, problem->c_str());

    TrainingSettings settings;
    settings.model = {1, 2, 32, 300, 64, true, true, true};
    const auto tooShort = std::make_shared<TextBatches>(counting(2000), 8);
    QVERIFY_THROWS_EXCEPTION(InputError, Trainer(settings, tooShort)); // windows of 8, context 64
}

/// A text that repeats one 50-token cycle is learnt almost exactly by a GPT-2 block with a
/// tied unembedding: held-out loss from log(64) = 4.16 nats to below 0.5.
void TestTextBatches::aLanguageModelLearnsARepeatingText()
{
    std::vector<int> tokens(3000);
    for (size_t i = 0; i < tokens.size(); ++i)
        tokens[i] = int((i * 7) % 50);
    TrainingSettings settings;
    settings.model = {1, 2, 32, 64, 16, true, true, true};
    settings.learningRate = 1e-2f;
    settings.batchSize = 8;
    settings.heldOutSize = 16;
    settings.weightDecay = 0.1f;
    settings.warmupSteps = 10;
    settings.decaySteps = 100;
    Trainer trainer(settings, std::make_shared<TextBatches>(tokens, 16));
    const Evaluation before = trainer.evaluate();
    QVERIFY2(before.loss > 3.0, std::to_string(before.loss).c_str());
    trainer.step(120);
    const Evaluation after = trainer.evaluate();
    QVERIFY2(after.loss < 0.5, std::to_string(after.loss).c_str());
}

HEADLENS_TEST_APPLESS_MAIN(TestTextBatches)
#include "tst_textbatches.moc"
