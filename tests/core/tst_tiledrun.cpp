// Tests of a tiled run (TiledAttention): a text kept as tiles gives what its full matrices give.
#include "approx.h"
#include "gpt2golden.h"
#include "modelfolder.h"
#include "repeatedtokens.h"
#include "tiledcomparison.h"

#include "attention/attentionpooling.h"
#include "model/modelopener.h"
#include "model/transformermodel.h"
#include "testmain.h"
#include "util/inputerror.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdlib>
#include <limits>

using namespace headlens;
using headlens::test::compareStats;
using headlens::test::gridMismatch;
using headlens::test::kGpt2Data;
using headlens::test::kLlamaData;

namespace {

const std::string kTiledText = "The quick brown fox, jumps over the lazy dog. By the river bank";

/// kTiledText's first `tokens` tokens, the text repeated as often as it takes (the tiny GPT-2
/// reads 32).
std::vector<int> tiledTextIds(const TransformerModel &model, size_t tokens = 29)
{
    return test::repeatedTokens(model.encode(kTiledText), tokens);
}

TransformerRunOptions wholeMatrices()
{
    TransformerRunOptions options;
    options.viewedLayer = -1;
    options.keepKeyValues = true;
    return options;
}

/// The max and mean of each bin of `weights`, over the cells a causal or windowed mask shows,
/// in float64, written out from the definition: NaN for a bin without one.
RowMatrix poolByHand(const ConstRowMatrixMap &weights, const TileMask &mask, int64_t size,
                     bool mean)
{
    const int64_t n = weights.rows(), bins = (n + size - 1) / size;
    RowMatrix pooled(bins, bins);
    for (int64_t r = 0; r < bins; ++r)
        for (int64_t c = 0; c < bins; ++c) {
            double top = -1.0, sum = 0.0;
            int64_t count = 0;
            for (int64_t i = r * size; i < std::min(n, (r + 1) * size); ++i)
                for (int64_t j = c * size; j < std::min(n, (c + 1) * size); ++j)
                    if (mask.visible(i, j)) {
                        top = std::max(top, double(weights(i, j)));
                        sum += weights(i, j);
                        ++count;
                    }
            pooled(r, c) = count == 0 ? std::numeric_limits<float>::quiet_NaN()
                                      : float(mean ? sum / double(count) : top);
        }
    return pooled;
}

/// Each row's shares on the sinks, near and far away, mean distance and entropy from the
/// matrix, in float64 from the definition, checked against the run's (1e-5).
void compareProfiles(const RowProfiles &actual, const ConstRowMatrixMap &weights,
                     const TileMask &mask, const ProfileRanges &ranges)
{
    for (int64_t i = 0; i < weights.rows(); ++i) {
        double sink = 0.0, nearShare = 0.0, farShare = 0.0, distance = 0.0, entropy = 0.0;
        for (int64_t j = 0; j < weights.cols(); ++j) {
            const double w = weights(i, j);
            if (!mask.visible(i, j) || w == 0.0)
                continue;
            sink += j < ranges.sinkTokens ? w : 0.0;
            nearShare += std::abs(i - j) < ranges.nearTokens ? w : 0.0;
            farShare += std::abs(i - j) >= ranges.farTokens ? w : 0.0;
            distance += w * double(std::abs(i - j));
            entropy -= w * std::log(w);
        }
        const double expected[] = {sink, farShare, distance, entropy, nearShare};
        const double got[] = {actual.sinkShare(i), actual.farShare(i), actual.meanDistance(i),
                              actual.entropy(i), actual.nearShare(i)};
        for (int k = 0; k < 5; ++k)
            QVERIFY2(std::abs(got[k] - expected[k]) <= 1e-5 * (1.0 + std::abs(expected[k])),
                     qPrintable(QString("row %1, profile %2: %3 against %4")
                                    .arg(i)
                                    .arg(k)
                                    .arg(got[k])
                                    .arg(expected[k])));
    }
}

} // namespace

class TestTiledRun : public QObject
{
    Q_OBJECT

private slots:
    void binsDoubleWithTheText();
    void poolsAMatrixByHand();
    void tilesGiveWhatTheMatricesGive_data();
    void tilesGiveWhatTheMatricesGive();
    void aTiledRunTracesNoLayer();
    void textsPastTheLimitRunTiled();
};

/// The bin side is the smallest power of two giving at most 256 bins: 128 tokens at 32,768,
/// so the grid changes only when the text doubles.
void TestTiledRun::binsDoubleWithTheText()
{
    QCOMPARE(AttentionPooling::binSizeFor(20, 256), int64_t(1));
    QCOMPARE(AttentionPooling::binSizeFor(256, 256), int64_t(1));
    QCOMPARE(AttentionPooling::binSizeFor(257, 256), int64_t(2));
    QCOMPARE(AttentionPooling::binSizeFor(32768, 256), int64_t(128));
    QCOMPARE(AttentionPooling::binSizeFor(32769, 256), int64_t(256));
    QCOMPARE(AttentionPooling::binCount(32769, 256), int64_t(129));
}

/// A causal 3 x 3 matrix in bins of 2, its rows added one block at a time.
void TestTiledRun::poolsAMatrixByHand()
{
    const float inf = std::numeric_limits<float>::infinity();
    RowMatrix weights(3, 3), logits(3, 3);
    weights << 1.0f, 0.0f, 0.0f, //
        0.25f, 0.75f, 0.0f,      //
        0.5f, 0.125f, 0.375f;
    logits << 0.0f, -inf, -inf, //
        1.0f, 2.0f, -inf,       //
        3.0f, 1.0f, 2.5f;
    AttentionPooling pooling(3, 3, 2);
    pooling.addRows(weights.topRows(2), logits.topRows(2), 0);
    pooling.addRows(weights.bottomRows(1), logits.bottomRows(1), 2);
    const RowMatrix max = pooling.max(), mean = pooling.mean();
    // Bin (0, 0) holds 1, 0.25, 0.75 (the masked cell not counted); (0, 1) nothing visible.
    QCOMPARE(max(0, 0), 1.0f);
    QCOMPARE(mean(0, 0), 2.0f / 3.0f);
    QVERIFY(std::isnan(max(0, 1)) && std::isnan(mean(0, 1)));
    QCOMPARE(max(1, 0), 0.5f);
    QCOMPARE(mean(1, 0), 0.3125f);
    QCOMPARE(max(1, 1), 0.375f);
    QCOMPARE(mean(1, 1), 0.375f);
}

void TestTiledRun::tilesGiveWhatTheMatricesGive_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<int>("bins");
    QTest::addColumn<int>("tokens");
    QTest::newRow("GPT-2, bins of 8") << QString::fromStdString(kGpt2Data + "tiny") << 4 << 29;
    QTest::newRow("GPT-2, bins of 1") << QString::fromStdString(kGpt2Data + "tiny") << 256 << 29;
    QTest::newRow("Llama GQA, bins of 4")
        << QString::fromStdString(kLlamaData + "llama_gqa") << 8 << 29;
    QTest::newRow("Mistral window, bins of 2")
        << QString::fromStdString(kLlamaData + "mistral_window") << 16 << 29;
    QTest::newRow("Qwen3 q/k norms, bins of 8")
        << QString::fromStdString(kLlamaData + "qwen3_qknorm") << 4 << 29;
    QTest::newRow("BERT both ways, bins of 4")
        << QString::fromStdString(HEADLENS_TEST_DATA "/bert/bert_mlm") << 8 << 29;
    // Past 256 tokens a head's rows go through the pass in tiles of 256 queries by 256 keys
    // (attendKeyTiled): each row in several blocks of keys, the observer shown only those a
    // tile can see. The second row of tiles here has one wholly visible tile and one cut by
    // the diagonal; under Mistral's window every tile is cut.
    QTest::newRow("Llama GQA, 400 tokens in tiles, bins of 16")
        << QString::fromStdString(kLlamaData + "llama_gqa") << 25 << 400;
    QTest::newRow("Mistral window, 400 tokens in tiles, bins of 16")
        << QString::fromStdString(kLlamaData + "mistral_window") << 25 << 400;
}

/// The same text run with its matrices and as tiles: the same predictions and keys, every
/// head's statistics and every query's profile (its shares on the sinks and far away, its
/// distance and entropy), every pooled grid equal to the pooled matrix, and every head's whole
/// region recomputed from the tiles equal to its matrix within 3e-6 (1 + weight).
void TestTiledRun::tilesGiveWhatTheMatricesGive()
{
    QFETCH(QString, folder);
    QFETCH(int, bins);
    QFETCH(int, tokens);
    // A RoPE model's weights do not depend on its context length: a copy reads more tokens.
    const QTemporaryDir longer;
    if (tokens > 29) {
        test::copyWithConfig(folder, longer.path(), "max_position_embeddings", tokens);
        if (QTest::currentTestFailed())
            return;
        folder = longer.path();
    }
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    const std::vector<int> ids = tiledTextIds(model, size_t(tokens));
    const int64_t n = int64_t(ids.size());
    const TransformerRun whole = model.run(ids, wholeMatrices());
    const TransformerRun tiled = model.run(ids, test::tiledOptions(bins));

    QVERIFY(tiled.attention.isEmpty());
    QCOMPARE(tiled.layers(), whole.layers());
    QCOMPARE(tiled.heads(), whole.heads());
    QCOMPARE(tiled.tiles.tokens(), n);
    QCOMPARE(tiled.logits.isEmpty(), whole.logits.isEmpty()); // BERT: no mask to fill here
    if (!whole.logits.isEmpty())
        HL_COMPARE_TENSORS_NEAR(tiled.logits, whole.logits, 1e-5, 1e-5);
    // A tiled pass sums each head's P V over tiles of keys, in another order than the one
    // product of a whole row: a later layer's keys differ by float32 rounding (1.8e-6 seen).
    HL_COMPARE_TENSORS_NEAR(tiled.keys, whole.keys, 1e-5, 1e-5);
    HL_COMPARE_TENSORS_NEAR(tiled.values, whole.values, 1e-5, 1e-5);
    QCOMPARE(tiled.topNext.size(), whole.topNext.size());
    for (size_t i = 0; i < whole.topNext.size(); ++i)
        QCOMPARE(tiled.topNext[i].tokenId, whole.topNext[i].tokenId);

    const int64_t size = AttentionPooling::binSizeFor(n, bins);
    QCOMPARE(tiled.tiles.binSize, size);
    const AttentionConfig config = model.attentionConfig();
    for (int layer = 0; layer < whole.layers(); ++layer)
        for (int head = 0; head < whole.heads(); ++head) {
            const QByteArray where =
                " in layer " + QByteArray::number(layer) + " head " + QByteArray::number(head);
            compareStats(tiled.stats(layer, head), whole.stats(layer, head));
            compareProfiles(tiled.tiles.profiles(layer, head), whole.weights(layer, head),
                            TileMask::of(config), test::tiledOptions(bins).tiles.ranges);
            if (QTest::currentTestFailed())
                return;
            const ConstRowMatrixMap full = whole.weights(layer, head);
            const TileMask mask = TileMask::of(config);
            // The first layer reads the same input in both runs. A later one reads what the
            // layers before made, which differs by float32 rounding (a tiled pass sums P V over
            // tiles of keys, in another order): its scores, and so its weights, move by a few
            // parts in a million (5e-6 at 0.285 seen, 400 tokens).
            const double pooledTolerance = layer == 0 ? 1e-6 : 1e-5;
            const QByteArray maxWhy =
                gridMismatch(tiled.tiles.pooled(layer, head, HeadTiles::Pooling::Max),
                             poolByHand(full, mask, size, false), pooledTolerance);
            QVERIFY2(maxWhy.isEmpty(), (maxWhy + " of the max" + where).constData());
            const QByteArray meanWhy =
                gridMismatch(tiled.tiles.pooled(layer, head, HeadTiles::Pooling::Mean),
                             poolByHand(full, mask, size, true), pooledTolerance);
            QVERIFY2(meanWhy.isEmpty(), (meanWhy + " of the mean" + where).constData());
            // The full matrix holds 0 where masked; a tile NaN.
            RowMatrix expected = full;
            for (int64_t i = 0; i < n; ++i)
                for (int64_t j = 0; j < n; ++j)
                    if (!mask.visible(i, j))
                        expected(i, j) = std::numeric_limits<float>::quiet_NaN();
            // A recomputed weight is exp of a float32 difference of its score and the row's
            // maximum and log-normaliser, each rounded to parts in 10^7 of its size, so a weight
            // near 1 moves by a few parts in a million between two float32 passes that sum in
            // other orders (the sanitizer build's SSE products against AVX-512's: 2.1e-6 at a
            // weight of 0.84, 400 tokens).
            const double recomputed = layer == 0 ? 3e-6 : 1e-5;
            const QByteArray regionWhy = gridMismatch(
                tiled.tiles.head(layer, head).region(0, n, 0, n), expected, recomputed);
            QVERIFY2(regionWhy.isEmpty(), (regionWhy + " of the region" + where).constData());
            const QByteArray cornerWhy =
                gridMismatch(tiled.tiles.head(layer, head).region(n / 2, n, 1, n / 2 + 3),
                             expected.block(n / 2, 1, n - n / 2, n / 2 + 2), recomputed);
            QVERIFY2(cornerWhy.isEmpty(), (cornerWhy + " of a corner" + where).constData());
        }
}

void TestTiledRun::aTiledRunTracesNoLayer()
{
    const TransformerModel model = TransformerModel::open(kGpt2Data + "tiny");
    TransformerRunOptions options = test::tiledOptions(4);
    options.viewedLayer = 0;
    try {
        model.run(tiledTextIds(model), options);
        QFAIL("a tiled run traced layer 0");
    } catch (const InputError &error) {
        QCOMPARE(QString(error.what()),
                 QString("A text kept as tiles (29 tokens) traces no layer step by step: its "
                         "trace would hold 2 matrices of 29 x 29. Trace a shorter text."));
    }
}

/// Past HEADLENS_MATRIX_LIMIT bytes of matrices a model's run keeps tiles and traces nothing;
/// at or below it, matrices and the traced layer as always.
void TestTiledRun::textsPastTheLimitRunTiled()
{
    const auto model = ModelOpener::open(kGpt2Data + "tiny");
    const std::vector<int> ids = model->encode("The quick brown fox jumps");
    const uint64_t bytes = TiledAttention::matrixBytes(model->layers(), 2, int64_t(ids.size()));
    QCOMPARE(bytes, uint64_t(2 * 2 * ids.size() * ids.size() * 4)); // 2 layers of 2 heads
    qputenv("HEADLENS_MATRIX_LIMIT", QByteArray::number(qulonglong(bytes)));
    const auto fits = model->run(ids, 1, {});
    QVERIFY(!fits->tiled() && fits->layerTrace);
    QCOMPARE(fits->attention.numel(), int64_t(bytes / 4));
    qputenv("HEADLENS_MATRIX_LIMIT", QByteArray::number(qulonglong(bytes - 1)));
    const auto past = model->run(ids, 1, {});
    qunsetenv("HEADLENS_MATRIX_LIMIT");
    QVERIFY(past->tiled());
    QVERIFY(!past->layerTrace);
    QVERIFY(past->attention.isEmpty());
    QCOMPARE(past->tiles->tokens(), int64_t(ids.size()));
    QCOMPARE(past->layers, 2);
    QCOMPARE(past->heads, 2);
    QCOMPARE(past->stats.size(), size_t(4));
    for (int layer = 0; layer < 2; ++layer)
        for (int head = 0; head < 2; ++head)
            compareStats(past->stat(layer, head), fits->stat(layer, head));
    QCOMPARE(past->topNext.front().tokenId, fits->topNext.front().tokenId);
}

HEADLENS_TEST_APPLESS_MAIN(TestTiledRun)
#include "tst_tiledrun.moc"
