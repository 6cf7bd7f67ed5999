// tst_traintask: the toy tasks' examples, the positions they score and their vocabulary.
#include "approx.h"

#include "coremetatypes.h"
#include "testmain.h"
#include "train/toytask.h"

#include <QTest>

#include <algorithm>
#include <set>

using namespace headlens;

Q_DECLARE_METATYPE(TaskKind)

class TestTrainTask : public QObject
{
    Q_OBJECT

private slots:
    void targets_data();
    void targets();
    void examplesFollowTheirRules_data();
    void examplesFollowTheirRules();
    void inductionRepeatsAtVaryingDistances();
    void batchesReproduceAndStreamsDiffer();
    void validateNamesTheFix_data();
    void validateNamesTheFix();
    void encodeMapsTextOntoTheVocabulary();
    void readingNoteSaysWhatWasMappedAndCut_data();
    void readingNoteSaysWhatWasMappedAndCut();
    void formatProblemNamesWhatBreaksTheTask_data();
    void formatProblemNamesWhatBreaksTheTask();
    void everyExampleIsInTheFormat();
};

void TestTrainTask::targets_data()
{
    QTest::addColumn<TaskKind>("kind");
    QTest::addColumn<int>("vocabulary");
    QTest::addColumn<std::vector<int>>("tokens");
    QTest::addColumn<std::vector<int>>("expected");
    QTest::newRow("previous: x_{i-1} from i = 1")
        << TaskKind::PreviousToken << 8 << std::vector<int>{5, 2, 7, 2}
        << std::vector<int>{-1, 5, 2, 7};
    // s = (4, 1, 3), separator 7; the model reads s | r_0 r_1 and predicts r from the '|' on.
    QTest::newRow("reverse: second half")
        << TaskKind::Reverse << 8 << std::vector<int>{4, 1, 3, 7, 3, 1}
        << std::vector<int>{-1, -1, -1, 3, 1, 4};
    QTest::newRow("sort: second half") << TaskKind::Sort << 8 << std::vector<int>{4, 1, 3, 7, 1, 3}
                                       << std::vector<int>{-1, -1, -1, 1, 3, 4};
    // filler (9, 8), s = (0, 5, 2): scored from the second copy's first token to n - 2.
    QTest::newRow("induction: second copy")
        << TaskKind::Induction << 12 << std::vector<int>{9, 8, 0, 5, 2, 0, 5, 2}
        << std::vector<int>{-1, -1, -1, -1, -1, 5, 2, -1};
}

void TestTrainTask::targets()
{
    QFETCH(TaskKind, kind);
    QFETCH(int, vocabulary);
    QFETCH(std::vector<int>, tokens);
    QFETCH(std::vector<int>, expected);
    const ToyTask task(kind, vocabulary, int(tokens.size()));
    QCOMPARE(task.targetsFor(tokens), expected);
}

void TestTrainTask::examplesFollowTheirRules_data()
{
    QTest::addColumn<TaskKind>("kind");
    QTest::newRow("previous") << TaskKind::PreviousToken;
    QTest::newRow("reverse") << TaskKind::Reverse;
    QTest::newRow("sort") << TaskKind::Sort;
    QTest::newRow("induction") << TaskKind::Induction;
}

/// Every scored target is the token the rule names, read back from the example itself.
void TestTrainTask::examplesFollowTheirRules()
{
    QFETCH(TaskKind, kind);
    const int n = 16, vocab = 16;
    const ToyTask task(kind, vocab, n);
    const ToyBatch batch = task.batch(3, ToyTask::kTrainStream, 0, 50);
    for (int e = 0; e < batch.count; ++e) {
        const std::vector<int> x(batch.tokens.begin() + e * n, batch.tokens.begin() + (e + 1) * n);
        const std::vector<int> t(batch.targets.begin() + e * n,
                                 batch.targets.begin() + (e + 1) * n);
        QVERIFY(std::all_of(x.begin(), x.end(), [&](int id) { return id >= 0 && id < vocab; }));
        int scored = 0;
        for (int i = 0; i < n; ++i) {
            if (t[size_t(i)] < 0)
                continue;
            ++scored;
            if (kind == TaskKind::PreviousToken || kind == TaskKind::Induction) {
                const int source = kind == TaskKind::PreviousToken ? i - 1 : i + 1;
                QCOMPARE(t[size_t(i)], x[size_t(source)]);
            } else if (kind == TaskKind::Reverse) {
                QCOMPARE(t[size_t(i)], x[size_t(n - 1 - i)]);
            }
        }
        if (kind == TaskKind::Sort) {
            QVERIFY(std::is_sorted(t.begin() + n / 2, t.end()));
            QVERIFY(std::is_permutation(t.begin() + n / 2, t.end(), x.begin()));
            QCOMPARE(x[size_t(n / 2)], task.separator());
        }
        QVERIFY2(scored > 0, "every example scores something");
        QCOMPARE(scored, int(std::count_if(t.begin(), t.end(), [](int v) { return v >= 0; })));
    }
}

/// The copies' distance varies, and nothing before the second copy repeats: position alone
/// cannot predict the second copy.
void TestTrainTask::inductionRepeatsAtVaryingDistances()
{
    const int n = 20;
    const ToyTask task(TaskKind::Induction, 24, n);
    const ToyBatch batch = task.batch(0, ToyTask::kHeldOutStream, 0, 200);
    std::set<int> repeats;
    for (int e = 0; e < batch.count; ++e) {
        const auto first = batch.targets.begin() + e * n;
        const int start = int(std::find_if(first, first + n, [](int v) { return v >= 0; }) - first);
        const int repeat = n - start;
        repeats.insert(repeat);
        QVERIFY(repeat >= ToyTask::minimumRepeat(n) && repeat <= n / 2);
        const auto x = batch.tokens.begin() + e * n;
        QCOMPARE(std::set<int>(x, x + start).size(), size_t(start));
        QVERIFY(std::equal(x + start, x + n, x + start - repeat));
    }
    QCOMPARE(int(repeats.size()), n / 2 - ToyTask::minimumRepeat(n) + 1);
}

void TestTrainTask::batchesReproduceAndStreamsDiffer()
{
    const ToyTask task(TaskKind::PreviousToken, 16, 12);
    const ToyBatch a = task.batch(5, ToyTask::kTrainStream, 40, 8);
    QCOMPARE(a.tokens, task.batch(5, ToyTask::kTrainStream, 40, 8).tokens);
    // Example 41 is the same whichever batch it falls in.
    const ToyBatch shifted = task.batch(5, ToyTask::kTrainStream, 41, 1);
    QVERIFY(std::equal(shifted.tokens.begin(), shifted.tokens.end(), a.tokens.begin() + 12));
    QVERIFY(a.tokens != task.batch(5, ToyTask::kHeldOutStream, 40, 8).tokens);
    QVERIFY(a.tokens != task.batch(6, ToyTask::kTrainStream, 40, 8).tokens);
}

void TestTrainTask::validateNamesTheFix_data()
{
    QTest::addColumn<TaskKind>("kind");
    QTest::addColumn<int>("vocabulary");
    QTest::addColumn<int>("length");
    QTest::addColumn<QString>("expected");
    QTest::newRow("fits") << TaskKind::Induction << 24 << 20 << QString();
    QTest::newRow("odd length") << TaskKind::Reverse << 16 << 15 << "use 16";
    QTest::newRow("vocabulary too small for induction")
        << TaskKind::Induction << 16 << 32 << "at least 24";
    QTest::newRow("too long") << TaskKind::PreviousToken << 16 << 33 << "between 2 and 32";
}

void TestTrainTask::validateNamesTheFix()
{
    QFETCH(TaskKind, kind);
    QFETCH(int, vocabulary);
    QFETCH(int, length);
    QFETCH(QString, expected);
    const auto problem = ToyTask::validate(kind, vocabulary, length);
    QCOMPARE(problem.has_value(), !expected.isEmpty());
    if (problem)
        QVERIFY2(QString::fromStdString(*problem).contains(expected), problem->c_str());
}

void TestTrainTask::encodeMapsTextOntoTheVocabulary()
{
    const ToyTask task(TaskKind::Reverse, 16, 8);
    QCOMPARE(task.encode("ab c|"), (std::vector<int>{0, 1, 2, 15}));
    QCOMPARE(task.label(15), std::string("|"));
    QCOMPARE(task.label(2), std::string("c"));
    const std::vector<int> far = task.encode("zzzzzzzzzzzz"); // beyond the vocabulary, too long
    QCOMPARE(int(far.size()), 8);
    QVERIFY(std::all_of(far.begin(), far.end(), [](int id) { return id >= 0 && id < 15; }));
}

void TestTrainTask::readingNoteSaysWhatWasMappedAndCut_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("note");
    // Reverse, vocabulary 16, length 8: content letters a..o (15), the separator '|'.
    const QString vocabulary =
        QString::fromUtf8("toy vocabulary a–o and |, one character per token");
    QTest::newRow("all in the vocabulary") << "abc|" << vocabulary;
    QTest::newRow("a space") << "ab c" << vocabulary + "; spaces skipped";
    // 'T', 'z' and 'r' are not among a..o; the 8 letters of "Thezebra" fit exactly, no cut.
    QTest::newRow("outside") << "Thezebra"
                             << vocabulary + "; 3 characters outside it mapped onto it";
    // "The tired robot": 8 letters kept (T h e t i r e d), of which T, t and r are outside
    // a..o; the space after "The" is skipped, " robot" is cut.
    QTest::newRow("the lesson, cut")
        << "The tired robot"
        << vocabulary + "; 3 characters outside it mapped onto it; spaces "
                        "skipped; cut to the first 8 characters";
    QTest::newRow("spaces after the cut do not cut") << "abcdefgh   " << vocabulary;
}

void TestTrainTask::readingNoteSaysWhatWasMappedAndCut()
{
    QFETCH(QString, text);
    QFETCH(QString, note);
    const ToyTask task(TaskKind::Reverse, 16, 8);
    QCOMPARE(QString::fromStdString(task.readingNote(text.toStdString())), note);
}

// Ranked on typed text outside the task, a toy model's heads measured noise (8-11 nats
// unablated): formatProblem says what of the task's shape the tokens break. Vocabulary 8,
// length 8: reverse and sort read s (4 tokens), '|' (id 7), then the answer's first 3.
void TestTrainTask::formatProblemNamesWhatBreaksTheTask_data()
{
    QTest::addColumn<TaskKind>("kind");
    QTest::addColumn<std::vector<int>>("tokens");
    QTest::addColumn<QString>("problem"); // empty: an example of the task
    using V = std::vector<int>;
    QTest::newRow("previous: any two tokens") << TaskKind::PreviousToken << V{3, 1} << QString();
    QTest::newRow("previous: one token")
        << TaskKind::PreviousToken << V{3}
        << "The previous task predicts each token's previous one: it needs at least 2 tokens.";
    QTest::newRow("reverse: an example")
        << TaskKind::Reverse << V{0, 1, 2, 3, 7, 3, 2, 1} << QString();
    QTest::newRow("reverse: short")
        << TaskKind::Reverse << V{0, 1, 7, 1} << "The reverse task reads 8 tokens; the text has 4.";
    QTest::newRow("reverse: no separator")
        << TaskKind::Reverse << V{0, 1, 2, 3, 4, 3, 2, 1}
        << "The reverse task needs 4 tokens, then '|', then the answer.";
    QTest::newRow("reverse: the separator early")
        << TaskKind::Reverse << V{0, 1, 7, 3, 4, 3, 2, 1}
        << "The reverse task needs 4 tokens, then '|', then the answer.";
    QTest::newRow("reverse: a wrong answer")
        << TaskKind::Reverse << V{0, 1, 2, 3, 7, 3, 1, 2}
        << "The reverse task needs the answer after '|': the first half backwards, and token 7 "
           "is not.";
    QTest::newRow("sort: an example") << TaskKind::Sort << V{3, 0, 2, 1, 7, 0, 1, 2} << QString();
    QTest::newRow("sort: reversed, not sorted")
        << TaskKind::Sort << V{3, 0, 2, 1, 7, 1, 2, 0}
        << "The sort task needs the answer after '|': the first half sorted, and token 6 is "
           "not.";
    QTest::newRow("induction: filler, s, s (|s| = 3)")
        << TaskKind::Induction << V{5, 6, 0, 1, 2, 0, 1, 2} << QString();
    QTest::newRow("induction: s, s (|s| = 4)")
        << TaskKind::Induction << V{0, 1, 2, 3, 0, 1, 2, 3} << QString();
    QTest::newRow("induction: no repeat")
        << TaskKind::Induction << V{0, 1, 2, 3, 4, 5, 6, 7}
        << "The induction task needs distinct tokens ending in a run of at least 2 typed twice "
           "(filler, s, s).";
    QTest::newRow("induction: a repeated filler")
        << TaskKind::Induction << V{5, 5, 0, 1, 2, 0, 1, 2}
        << "The induction task needs distinct tokens ending in a run of at least 2 typed twice "
           "(filler, s, s).";
}

void TestTrainTask::formatProblemNamesWhatBreaksTheTask()
{
    QFETCH(TaskKind, kind);
    QFETCH(std::vector<int>, tokens);
    QFETCH(QString, problem);
    const ToyTask task(kind, 8, 8);
    QCOMPARE(QString::fromStdString(task.formatProblem(tokens).value_or("")), problem);
}

// The task's own examples, and its probe, are in its format, for every task and a few seeds.
void TestTrainTask::everyExampleIsInTheFormat()
{
    for (TaskKind kind :
         {TaskKind::PreviousToken, TaskKind::Reverse, TaskKind::Sort, TaskKind::Induction}) {
        const ToyTask task(kind, 16, 12);
        for (uint64_t seed : {0u, 1u, 7u}) {
            const ToyBatch batch = task.batch(seed, ToyTask::kHeldOutStream, 0, 20);
            for (int e = 0; e < batch.count; ++e) {
                const std::vector<int> x(batch.tokens.begin() + e * batch.length,
                                         batch.tokens.begin() + (e + 1) * batch.length);
                const auto problem = task.formatProblem(x);
                QVERIFY2(!problem, problem ? problem->c_str() : "");
            }
            const std::vector<int> probe = task.probe(seed);
            QVERIFY(std::equal(probe.begin(), probe.end(), batch.tokens.begin()));
        }
    }
}

HEADLENS_TEST_APPLESS_MAIN(TestTrainTask)
#include "tst_traintask.moc"
