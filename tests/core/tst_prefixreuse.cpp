// Tests of TransformerModel::extend: a text typed on from an earlier run equals a whole new run.
#include "approx.h"
#include "gpt2golden.h"

#include "model/transformermodel.h"
#include "testmain.h"

#include <QTest>

#include <algorithm>

using namespace headlens;
using headlens::test::kGpt2Data;
using headlens::test::kLlamaData;

namespace {

const std::string kBertData = HEADLENS_TEST_DATA "/bert/";
const std::string kText = "The quick brown fox, jumps over the lazy dog. By the river bank";

/// kText's first 20 tokens: within the tiny GPT-2's context of 32 with five more.
std::vector<int> textIds(const TransformerModel &model)
{
    std::vector<int> ids = model.encode(kText);
    ids.resize(std::min<size_t>(ids.size(), 20));
    return ids;
}

/// What the window's runs keep, and what the comparisons below read: every layer's stream,
/// z_h, keys and values.
TransformerRunOptions keepingAll(int viewedLayer, HeadInterventions interventions = {})
{
    TransformerRunOptions options;
    options.viewedLayer = viewedLayer;
    options.keepKeyValues = true;
    options.keepResidualStream = true;
    options.keepHeadOutputs = true;
    options.interventions = std::move(interventions);
    return options;
}

/// `ids` edited as a person typing does: a token appended, several, the last one changed, one
/// in the middle changed, the last two deleted. Returns the first position that differs.
std::vector<int> edited(const std::vector<int> &ids, const QString &edit, int vocabulary,
                        int64_t &firstChange)
{
    std::vector<int> next = ids;
    const auto other = [vocabulary](int id) { return (id + 101) % vocabulary; };
    const int64_t n = int64_t(ids.size());
    if (edit == "append one" || edit == "append five") {
        for (int k = 0; k < (edit == "append one" ? 1 : 5); ++k)
            next.push_back(other(ids[size_t(k)]));
        firstChange = n;
    } else if (edit == "change the last") {
        next.back() = other(next.back());
        firstChange = n - 1;
    } else if (edit == "change the middle") {
        next[size_t(n / 2)] = other(next[size_t(n / 2)]);
        firstChange = n / 2;
    } else { // "delete two"
        next.resize(size_t(n - 2));
        firstChange = n - 2;
    }
    return next;
}

/// Every tensor and number the views, the CLI and the next extend() read, within 1e-5.
void compareRuns(const TransformerRun &actual, const TransformerRun &expected)
{
    QCOMPARE(actual.tokenIds, expected.tokenIds);
    QCOMPARE(actual.tokens, expected.tokens);
    HL_COMPARE_TENSORS_NEAR(actual.attention, expected.attention, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(actual.layerInputs, expected.layerInputs, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(actual.residualStream, expected.residualStream, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(actual.headOutputs, expected.headOutputs, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(actual.keys, expected.keys, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(actual.values, expected.values, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(actual.logits, expected.logits, 1e-5, 1e-5);
    for (const TraceKey &key : {keys::x, keys::q, keys::softmax, keys::output})
        HL_COMPARE_TENSORS_NEAR(actual.layerTrace.tensor(key), expected.layerTrace.tensor(key),
                                1e-5, 1e-5);
    QCOMPARE(actual.headStats.size(), expected.headStats.size());
    for (size_t i = 0; i < expected.headStats.size(); ++i) {
        HL_COMPARE_NEAR(actual.headStats[i].entropy, expected.headStats[i].entropy, 1e-5, 1e-5);
        HL_COMPARE_NEAR(actual.headStats[i].previousToken, expected.headStats[i].previousToken,
                        1e-5, 1e-5);
        HL_COMPARE_NEAR(actual.headStats[i].meanDistance, expected.headStats[i].meanDistance, 1e-5,
                        1e-5);
        HL_COMPARE_NEAR(actual.headStats[i].punctuationShare,
                        expected.headStats[i].punctuationShare, 1e-5, 1e-5);
        HL_COMPARE_NEAR(actual.headStats[i].maxWeight, expected.headStats[i].maxWeight, 1e-5, 1e-5);
    }
    QCOMPARE(actual.topNext.at(0).tokenId, expected.topNext.at(0).tokenId);
}

} // namespace

class TestPrefixReuse : public QObject
{
    Q_OBJECT

private slots:
    void typedOnEqualsAWholeRun_data();
    void typedOnEqualsAWholeRun();
    void interventionsMustMatch_data();
    void interventionsMustMatch();
    void encodersReuseNothing();
    void runsWithoutKeysReuseNothing();
};

void TestPrefixReuse::typedOnEqualsAWholeRun_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("edit");
    QTest::addColumn<int>("viewedLayer");
    const QStringList folders{QString::fromStdString(kGpt2Data + "tiny"),
                              QString::fromStdString(kLlamaData + "llama_gqa"),
                              QString::fromStdString(kLlamaData + "mistral_window"),
                              QString::fromStdString(kLlamaData + "qwen3_qknorm")};
    for (const QString &folder : folders)
        for (const char *edit :
             {"append one", "append five", "change the last", "change the middle", "delete two"})
            QTest::addRow("%s, %s", qPrintable(folder.section('/', -1)), edit)
                << folder << QString(edit) << (QString(edit).startsWith("append") ? 1 : 0);
}

/// The edited text's run from the first text's reuses the rows before the first changed token
/// (all but the last token's when the text got shorter) and gives what a whole run gives.
void TestPrefixReuse::typedOnEqualsAWholeRun()
{
    QFETCH(QString, folder);
    QFETCH(QString, edit);
    QFETCH(int, viewedLayer);
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    const std::vector<int> ids = textIds(model);
    const TransformerRun first = model.run(ids, keepingAll(viewedLayer));
    int64_t firstChange = 0;
    const std::vector<int> next = edited(ids, edit, model.spec().vocabSize, firstChange);
    const int64_t expectedReuse = std::min<int64_t>(firstChange, int64_t(next.size()) - 1);

    QCOMPARE(model.reusableTokens(first, next, keepingAll(viewedLayer)), expectedReuse);
    const TransformerRun typed = model.extend(first, next, keepingAll(viewedLayer));
    QCOMPARE(typed.reusedTokens, expectedReuse);
    compareRuns(typed, model.run(next, keepingAll(viewedLayer)));
}

void TestPrefixReuse::interventionsMustMatch_data()
{
    QTest::addColumn<int>("before"); // -1: none, else the InterventionKind on head 1 of layer 1
    QTest::addColumn<int>("after");
    QTest::addColumn<bool>("reused");
    const int zero = int(InterventionKind::Zero), mean = int(InterventionKind::Mean),
              keepOnly = int(InterventionKind::KeepOnly);
    QTest::newRow("ablated now, not before") << -1 << zero << false;
    QTest::newRow("ablated before, not now") << zero << -1 << false;
    QTest::newRow("zero-ablated both times") << zero << zero << true;
    QTest::newRow("kept alone both times") << keepOnly << keepOnly << true;
    QTest::newRow("zero before, mean now") << zero << mean << false;
    // The mean of z_h over the text changes with every token appended.
    QTest::newRow("mean-ablated both times") << mean << mean << false;
}

/// A run with other interventions, or with ones that read the whole text, is not reused; the
/// result is the intervened model's either way.
void TestPrefixReuse::interventionsMustMatch()
{
    QFETCH(int, before);
    QFETCH(int, after);
    QFETCH(bool, reused);
    const auto ablation = [](int kind) {
        return kind < 0 ? HeadInterventions()
                        : HeadInterventions::ablating(1, 1, InterventionKind(kind));
    };
    const TransformerModel model = TransformerModel::open(kGpt2Data + "tiny");
    const std::vector<int> ids = textIds(model);
    const std::vector<int> shorter(ids.begin(), ids.end() - 3);
    const TransformerRun first = model.run(shorter, keepingAll(0, ablation(before)));
    const TransformerRun typed = model.extend(first, ids, keepingAll(0, ablation(after)));
    QCOMPARE(typed.reusedTokens, reused ? int64_t(shorter.size()) : int64_t(0));
    compareRuns(typed, model.run(ids, keepingAll(0, ablation(after))));
}

/// BERT reads in both directions: a token appended changes every row, so nothing is reused.
void TestPrefixReuse::encodersReuseNothing()
{
    const TransformerModel model = TransformerModel::open(kBertData + "bert_mlm");
    const std::vector<int> ids = model.encode("the cat sat on the mat");
    std::vector<int> longer = ids;
    longer.insert(longer.end() - 1, ids[1]); // one more word before [SEP]
    TransformerRunOptions options;
    options.keepKeyValues = true;
    const TransformerRun first = model.run(ids, options);
    QCOMPARE(model.reusableTokens(first, longer, options), int64_t(0));
    const TransformerRun typed = model.extend(first, longer, options);
    QCOMPARE(typed.reusedTokens, int64_t(0));
    HL_COMPARE_TENSORS_NEAR(typed.attention, model.run(longer, options).attention, 1e-6, 1e-6);
}

void TestPrefixReuse::runsWithoutKeysReuseNothing()
{
    const TransformerModel model = TransformerModel::open(kGpt2Data + "tiny");
    const std::vector<int> ids = textIds(model);
    const std::vector<int> shorter(ids.begin(), ids.end() - 1);
    TransformerRunOptions lean; // no keys and values kept
    const TransformerRun first = model.run(shorter, lean);
    QVERIFY(first.keys.isEmpty());
    QCOMPARE(model.reusableTokens(first, ids, keepingAll(0)), int64_t(0));
    // Kept now, but not asked for by the next run: it could not be extended in turn.
    const TransformerRun kept = model.run(shorter, keepingAll(0));
    QCOMPARE(model.reusableTokens(kept, ids, lean), int64_t(0));
    TransformerRunOptions everyLogit = keepingAll(0);
    everyLogit.logitsForEveryPosition = true;
    QCOMPARE(model.reusableTokens(kept, ids, everyLogit), int64_t(0));
}

HEADLENS_TEST_APPLESS_MAIN(TestPrefixReuse)
#include "tst_prefixreuse.moc"
