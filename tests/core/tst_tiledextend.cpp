// Tests of typing on at the end of a tiled text: TransformerModel::extend goes on from the rows,
// grids and sums a tiled run kept, and gives what a whole tiled run of the new text gives.
#include "approx.h"
#include "gpt2golden.h"
#include "repeatedtokens.h"
#include "tiledcomparison.h"

#include "model/transformermodel.h"
#include "testmain.h"

#include <QTest>

#include <algorithm>

using namespace headlens;
using headlens::test::kGpt2Data;
using headlens::test::kLlamaData;

namespace {

const std::string kTypedText = "The quick brown fox, jumps over the lazy dog. By the river bank";

/// `ids` after one edit: "append one" token, "append three", "change the last" token (a letter
/// typed on that changed it), "delete three" (a word deleted), "change the fifth last" (a word
/// typed over), "change the twentieth last", "change the middle".
std::vector<int> typedOn(std::vector<int> ids, const QString &edit, int vocabulary)
{
    const auto other = [vocabulary](int id) { return (id + 101) % vocabulary; };
    if (edit == "append one")
        ids.push_back(other(ids.front()));
    else if (edit == "append three")
        for (int k = 0; k < 3; ++k)
            ids.push_back(other(ids[size_t(k)]));
    else if (edit == "change the last")
        ids.back() = other(ids.back());
    else if (edit == "delete three")
        ids.resize(ids.size() - 3);
    else if (edit == "change the fifth last")
        ids[ids.size() - 5] = other(ids[ids.size() - 5]);
    else if (edit == "change the twentieth last")
        ids[ids.size() - 20] = other(ids[ids.size() - 20]);
    else
        ids[ids.size() / 2] = other(ids[ids.size() / 2]);
    return ids;
}

/// Everything the Long text tab, the CLI and the next extend() read of a tiled run, against a
/// whole tiled run of the same text: the same within float rounding (1e-5; the appended rows'
/// products are made in other blocks), the visible cells' counts exactly.
void compareTiledRuns(const TransformerRun &actual, const TransformerRun &expected)
{
    QCOMPARE(actual.tokenIds, expected.tokenIds);
    const TiledAttention &a = actual.tiles, &e = expected.tiles;
    QCOMPARE(a.binSize, e.binSize);
    HL_COMPARE_TENSORS_NEAR(actual.logits, expected.logits, 1e-5, 1e-5);
    QCOMPARE(actual.topNext.front().tokenId, expected.topNext.front().tokenId);
    HL_COMPARE_TENSORS_NEAR(actual.keys, expected.keys, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(actual.values, expected.values, 1e-5, 1e-5);
    QVERIFY(actual.layerInputs.isEmpty()); // a tiled run traces no layer
    HL_COMPARE_TENSORS_NEAR(a.queries, e.queries, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(a.rowMax, e.rowMax, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(a.logNormalizer, e.logNormalizer, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(a.pooledCount, e.pooledCount, 0.0, 0.0);
    for (int layer = 0; layer < e.layers(); ++layer)
        for (int head = 0; head < e.heads(); ++head) {
            const QByteArray where =
                " in layer " + QByteArray::number(layer) + " head " + QByteArray::number(head);
            test::compareStats(actual.stats(layer, head), expected.stats(layer, head));
            for (const auto pooling : {HeadTiles::Pooling::Max, HeadTiles::Pooling::Mean}) {
                const QByteArray why = test::gridMismatch(a.pooled(layer, head, pooling),
                                                          e.pooled(layer, head, pooling), 1e-5);
                QVERIFY2(why.isEmpty(), (why + " of a pooled grid" + where).constData());
            }
            // The bin row of each of the last rows as it stood before that row, where the
            // extended run holds it (a fresh run holds every one).
            const int64_t n = e.tokens();
            for (int64_t row = std::max(n - TiledAttention::kEditableRows, a.editableFrom); row < n;
                 ++row) {
                const int64_t back = n - row - 1;
                const QByteArray before =
                    test::gridMismatch(a.pooledBefore.matrix({layer, head, back}),
                                       e.pooledBefore.matrix({layer, head, back}), 1e-5);
                QVERIFY2(before.isEmpty(),
                         (before + " of the bins before row " + QByteArray::number(row) + where)
                             .constData());
            }
            const QByteArray profiles = test::gridMismatch(
                a.rowProfiles.matrix({layer, head}), e.rowProfiles.matrix({layer, head}), 1e-5);
            QVERIFY2(profiles.isEmpty(), (profiles + " of the profiles" + where).constData());
        }
}

} // namespace

class TestTiledExtend : public QObject
{
    Q_OBJECT

private slots:
    void typingOnGoesOnFromTheTiles_data();
    void typingOnGoesOnFromTheTiles();
    void aTiledRunGoesOnOnlyFromTiles();
};

void TestTiledExtend::typingOnGoesOnFromTheTiles_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<int>("bins");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("second");
    QTest::addColumn<int>("reused"); // by the second edit; the first reuses every token
    const QString gpt2 = QString::fromStdString(kGpt2Data + "tiny");
    const QString llama = QString::fromStdString(kLlamaData + "llama_gqa");
    const QString mistral = QString::fromStdString(kLlamaData + "mistral_window");
    // 16 tokens in 4 bins of 4; a 17th makes them bins of 8 (AttentionPooling::binSizeFor).
    QTest::newRow("GPT-2: a token, then the last changed") << gpt2 << 4 << 16 << "append one"
                                                           << "change the last" << 16;
    QTest::newRow("GPT-2: three tokens, then one more") << gpt2 << 8 << 20 << "append three"
                                                        << "append one" << 23;
    QTest::newRow("Llama GQA: bins of 2 become 4, then the last changed")
        << llama << 8 << 16 << "append one"
        << "change the last" << 16;
    QTest::newRow("Mistral window: a token, then one more") << mistral << 16 << 24 << "append one"
                                                            << "append one" << 25;
    // 21 tokens: the middle is within the last 16 (TiledAttention::kEditableRows).
    QTest::newRow("Llama GQA: a token, then the middle changed") << llama << 4 << 20 << "append one"
                                                                 << "change the middle" << 10;
    QTest::newRow("GPT-2: a token, then the twentieth last changed runs whole")
        << gpt2 << 4 << 28 << "append one"
        << "change the twentieth last" << 0;
    // Going back: 20 tokens in bins of 8 (at most 4 bins); three deleted keep the bins, and the
    // text goes on from the state before row 18 of the run typed on (21 tokens).
    QTest::newRow("GPT-2: a token, then three deleted") << gpt2 << 4 << 20 << "append one"
                                                        << "delete three" << 17;
    QTest::newRow("Mistral window: three tokens, then the fifth last changed")
        << mistral << 16 << 20 << "append three"
        << "change the fifth last" << 18;
    // 17 tokens in bins of 8; three deleted would need bins of 4 again, which a grid of 8
    // cannot give: a whole run.
    QTest::newRow("GPT-2: a token, then three deleted halves the bins: runs whole")
        << gpt2 << 4 << 16 << "append one"
        << "delete three" << 0;
    // The token that doubled the bins to 8 was the only row that run computed itself: the
    // rows before it are not kept as they stood, so changing the fifth last runs whole.
    QTest::newRow("Llama GQA: the bins doubled, then the fifth last changed runs whole")
        << llama << 8 << 16 << "append one"
        << "change the fifth last" << 0;
}

/// A tiled text typed on twice, each time extended from the run before: the first edit reuses
/// every token the text had, the second goes on from the extended run (its sums and its bins
/// before the last row, recorded by that extension), and each equals a whole tiled run.
void TestTiledExtend::typingOnGoesOnFromTheTiles()
{
    QFETCH(QString, folder);
    QFETCH(int, bins);
    QFETCH(int, tokens);
    QFETCH(QString, first);
    QFETCH(QString, second);
    QFETCH(int, reused);
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    const int vocabulary = int(model.spec().vocabSize);
    const TransformerRunOptions options = test::tiledOptions(bins);
    const std::vector<int> start = test::repeatedTokens(model.encode(kTypedText), size_t(tokens));
    const TransformerRun before = model.run(start, options);

    const std::vector<int> once = typedOn(start, first, vocabulary);
    const TransformerRun extended = model.extend(before, once, options);
    QCOMPARE(extended.reusedTokens, int64_t(tokens));
    compareTiledRuns(extended, model.run(once, options));
    if (QTest::currentTestFailed())
        return;

    const std::vector<int> twice = typedOn(once, second, vocabulary);
    const TransformerRun again = model.extend(extended, twice, options);
    QCOMPARE(again.reusedTokens, int64_t(reused));
    compareTiledRuns(again, model.run(twice, options));
}

/// A whole run where the rows cannot go on: from matrices into tiles, from tiles of other bins.
void TestTiledExtend::aTiledRunGoesOnOnlyFromTiles()
{
    const TransformerModel model = TransformerModel::open(kGpt2Data + "tiny");
    const std::vector<int> ids = test::repeatedTokens(model.encode(kTypedText), 16);
    const std::vector<int> longer = typedOn(ids, "append one", int(model.spec().vocabSize));
    TransformerRunOptions matrices = test::tiledOptions(4);
    matrices.tiled = false;
    const TransformerRunOptions tiled = test::tiledOptions(4);
    const TransformerRun whole = model.run(ids, matrices);
    QCOMPARE(model.reusableTokens(whole, longer, tiled), int64_t(0));
    const TransformerRun fromMatrices = model.extend(whole, longer, tiled);
    QCOMPARE(fromMatrices.reusedTokens, int64_t(0));
    compareTiledRuns(fromMatrices, model.run(longer, tiled));

    const TransformerRun tiles = model.run(ids, tiled);
    QCOMPARE(model.reusableTokens(tiles, longer, matrices), int64_t(0));
    QCOMPARE(model.reusableTokens(tiles, longer, tiled), int64_t(16));
    QCOMPARE(model.reusableTokens(tiles, longer, test::tiledOptions(8)), int64_t(0));
    TransformerRunOptions withOutputs = tiled;
    withOutputs.keepHeadOutputs = true;
    QCOMPARE(model.reusableTokens(tiles, longer, withOutputs), int64_t(0));
}

HEADLENS_TEST_APPLESS_MAIN(TestTiledExtend)
#include "tst_tiledextend.moc"
