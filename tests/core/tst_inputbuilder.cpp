// tst_inputbuilder: sentences and raw vectors become a padded, named, positioned AttentionInput.
#include "attention/inputbuilder.h"
#include "text/tokenembedding.h"
#include "util/inputerror.h"

#include "approx.h"
#include "testmain.h"

#include <QTest>

#include <cmath>

using namespace headlens;

Q_DECLARE_METATYPE(headlens::Tensor)

namespace {

AttentionConfig smallConfig(int dModel = 4, int dIn = 0)
{
    AttentionConfig config;
    config.dModel = dModel;
    config.heads = 2;
    config.dIn = dIn;
    config.seed = 5;
    return config;
}

std::vector<std::string> strings(const QStringList &list)
{
    std::vector<std::string> result;
    for (const QString &text : list)
        result.push_back(text.toStdString());
    return result;
}

/// The vector at (b, i) of a (b, n, d) tensor.
Vector rowOf(const Tensor &tensor, int64_t b, int64_t i)
{
    return tensor.matrix({b}).row(i).transpose();
}

/// A tensor of `sizes` filled with `value`, with `special` at flat offset `at` (if >= 0).
Tensor filled(std::vector<int64_t> sizes, float value = 0.5f, int64_t at = -1, float special = 0)
{
    std::vector<Axis> axes;
    for (int64_t size : sizes)
        axes.push_back({"", size});
    Tensor tensor{Shape(axes)};
    std::fill(tensor.data(), tensor.data() + tensor.numel(), value);
    if (at >= 0)
        tensor.data()[at] = special;
    return tensor;
}

void compareVectors(const Vector &actual, const Vector &expected)
{
    QCOMPARE(actual.size(), expected.size());
    for (int i = 0; i < actual.size(); ++i)
        HL_COMPARE_NEAR(actual[i], expected[i], 1e-6, 1e-6);
}

} // namespace

class tst_InputBuilder : public QObject
{
    Q_OBJECT

private slots:
    void shapesAndNames_data();
    void shapesAndNames();
    void vocabularyAndIds();
    void xIsEmbeddingPlusPosition();
    void sameWordSameEmbedding();
    void paddingRowsAndMask();
    void noPaddingNoMask();
    void characters();
    void noPositions();
    void crossAttentionBroadcast();
    void crossAttentionPadding();
    void tokenLimitIsInclusive();
    void textErrors_data();
    void textErrors();
    void tensorRank2();
    void tensorBatchAndKeys();
    void tensorErrors_data();
    void tensorErrors();
};

void tst_InputBuilder::shapesAndNames_data()
{
    QTest::addColumn<int>("dIn");
    QTest::addColumn<int>("width");
    QTest::addColumn<QString>("widthName");

    QTest::newRow("input as wide as the model") << 0 << 4 << "d_model";
    QTest::newRow("own input width") << 6 << 6 << "d_in";
}

void tst_InputBuilder::shapesAndNames()
{
    QFETCH(int, dIn);
    QFETCH(int, width);
    QFETCH(QString, widthName);
    const std::string d = widthName.toStdString();
    const AttentionInput input =
        InputBuilder::fromTexts(smallConfig(4, dIn), {"The movie was not bad", "it broke."});
    QVERIFY(input.x.shape() == (Shape{{"b", 2}, {"n", 5}, {d, width}}));
    QVERIFY(input.tokenEmbeddings.shape() == input.x.shape());
    QVERIFY(input.positions.shape() == (Shape{{"n", 5}, {d, width}}));
    QVERIFY(input.tokenIds.shape() == (Shape{{"b", 2}, {"n", 5}}));
    QCOMPARE(input.tokens[1], (std::vector<std::string>{"it", "broke", "."}));
    QVERIFY(!input.isCrossAttention());
}

void tst_InputBuilder::vocabularyAndIds()
{
    const AttentionInput input = InputBuilder::fromTexts(smallConfig(), {"the cat", "the dog the"});
    QCOMPARE(input.vocabulary, (std::vector<std::string>{"the", "cat", "dog"}));
    const float expected[2][3] = {{0, 1, -1}, {0, 2, 0}};
    for (int64_t b = 0; b < 2; ++b)
        for (int64_t i = 0; i < 3; ++i)
            QCOMPARE(input.tokenIds.at({b, i}), expected[b][i]);
}

void tst_InputBuilder::xIsEmbeddingPlusPosition()
{
    const AttentionInput input = InputBuilder::fromTexts(smallConfig(), {"not bad"});
    // Sinusoidal row 1 at width 4: [sin 1, cos 1, sin(1/100), cos(1/100)].
    Vector position(4);
    position << std::sin(1.0f), std::cos(1.0f), std::sin(0.01f), std::cos(0.01f);
    const Vector embedding = TokenEmbedding::vectorFor("bad", 4, 5);
    compareVectors(rowOf(input.tokenEmbeddings, 0, 1), embedding);
    compareVectors(input.positions.matrix({}).row(1).transpose(), position);
    compareVectors(rowOf(input.x, 0, 1), embedding + position);
    // Row 0 of the sinusoidal table is [0, 1, 0, 1].
    compareVectors(rowOf(input.x, 0, 0), TokenEmbedding::vectorFor("not", 4, 5) +
                                             Vector::Map(std::vector<float>{0, 1, 0, 1}.data(), 4));
}

void tst_InputBuilder::sameWordSameEmbedding()
{
    const AttentionInput input = InputBuilder::fromTexts(smallConfig(), {"the cat", "the dog the"});
    compareVectors(rowOf(input.tokenEmbeddings, 1, 2), rowOf(input.tokenEmbeddings, 0, 0));
    compareVectors(rowOf(input.tokenEmbeddings, 1, 0), rowOf(input.tokenEmbeddings, 0, 0));
    // Same word, other position: x differs by the positions' difference.
    compareVectors(
        rowOf(input.x, 1, 2) - rowOf(input.x, 1, 0),
        (input.positions.matrix({}).row(2) - input.positions.matrix({}).row(0)).transpose());
}

void tst_InputBuilder::paddingRowsAndMask()
{
    const AttentionInput input = InputBuilder::fromTexts(smallConfig(), {"the cat", "the dog the"});
    QVERIFY(rowOf(input.x, 0, 2).isZero(0.0f));
    QVERIFY(rowOf(input.tokenEmbeddings, 0, 2).isZero(0.0f));
    QVERIFY(!rowOf(input.x, 0, 1).isZero(0.0f));
    QVERIFY(input.keyPaddingMask.shape() == (Shape{{"b", 2}, {"n_kv", 3}}));
    const float expected[2][3] = {{0, 0, 1}, {0, 0, 0}};
    for (int64_t b = 0; b < 2; ++b)
        for (int64_t j = 0; j < 3; ++j)
            QCOMPARE(input.keyPaddingMask.at({b, j}), expected[b][j]);
    QCOMPARE(input.queryLengthOf(0), 2);
}

void tst_InputBuilder::noPaddingNoMask()
{
    const AttentionInput input = InputBuilder::fromTexts(smallConfig(), {"a b", "c d"});
    QVERIFY(input.keyPaddingMask.isEmpty());
}

void tst_InputBuilder::characters()
{
    AttentionConfig config = smallConfig();
    config.tokenizer = TokenizerKind::Characters;
    const AttentionInput input =
        InputBuilder::fromTexts(config, {"h\u00e9llo \U0001F44D\U0001F3FD"});
    QCOMPARE(input.tokens[0],
             (std::vector<std::string>{"h", "\u00e9", "l", "l", "o", " ", "\U0001F44D\U0001F3FD"}));
    QCOMPARE(input.queryLength(), 7);
    // "l" appears twice but is one vocabulary entry.
    QCOMPARE(input.vocabulary.size(), size_t(6));
    QCOMPARE(input.tokenIds.at({0, 3}), 2.0f);
}

void tst_InputBuilder::noPositions()
{
    AttentionConfig config = smallConfig();
    config.positional = PositionalEncoding::None;
    const AttentionInput input = InputBuilder::fromTexts(config, {"not bad at all"});
    QVERIFY(input.positions.matrix({}).isZero(0.0f));
    for (int64_t i = 0; i < 4; ++i)
        QVERIFY(rowOf(input.x, 0, i) == rowOf(input.tokenEmbeddings, 0, i));
}

void tst_InputBuilder::crossAttentionBroadcast()
{
    const AttentionInput input = InputBuilder::fromTexts(smallConfig(), {"a b c", "d"}, {"x y"});
    QVERIFY(input.isCrossAttention());
    QVERIFY(input.xKv.shape() == (Shape{{"b", 2}, {"n_kv", 2}, {"d_model", 4}}));
    QVERIFY(input.kvTokenIds.shape() == (Shape{{"b", 2}, {"n_kv", 2}}));
    QCOMPARE(input.kvTokens, (std::vector<std::vector<std::string>>{{"x", "y"}, {"x", "y"}}));
    QCOMPARE(input.vocabulary, (std::vector<std::string>{"a", "b", "c", "d", "x", "y"}));
    QCOMPARE(input.kvTokenIds.at({1, 1}), 5.0f);
    // Keys get positions too: row 1 = [sin 1, cos 1, sin(1/100), cos(1/100)].
    Vector position(4);
    position << std::sin(1.0f), std::cos(1.0f), std::sin(0.01f), std::cos(0.01f);
    compareVectors(rowOf(input.xKv, 1, 1), TokenEmbedding::vectorFor("y", 4, 5) + position);
    // Queries are padded, keys are not: no key padding mask.
    QVERIFY(input.keyPaddingMask.isEmpty());
    QCOMPARE(input.keyLabel(1, 0), std::string("x"));
}

void tst_InputBuilder::crossAttentionPadding()
{
    const AttentionInput input = InputBuilder::fromTexts(smallConfig(), {"a", "b"}, {"x y z", "w"});
    QVERIFY(input.keyPaddingMask.shape() == (Shape{{"b", 2}, {"n_kv", 3}}));
    const float expected[2][3] = {{0, 0, 0}, {0, 1, 1}};
    for (int64_t b = 0; b < 2; ++b)
        for (int64_t j = 0; j < 3; ++j)
            QCOMPARE(input.keyPaddingMask.at({b, j}), expected[b][j]);
    QVERIFY(rowOf(input.xKv, 1, 2).isZero(0.0f));
    QCOMPARE(input.kvTokenIds.at({1, 1}), -1.0f);
}

void tst_InputBuilder::tokenLimitIsInclusive()
{
    const std::string text = QString("a ").repeated(InputBuilder::kMaxTokens).toStdString();
    QCOMPARE(InputBuilder::fromTexts(smallConfig(), {text}).queryLength(), 8192);
}

void tst_InputBuilder::textErrors_data()
{
    QTest::addColumn<QStringList>("texts");
    QTest::addColumn<QStringList>("kvTexts");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<qint64>("budget");
    QTest::addColumn<bool>("characters");
    QTest::addColumn<QStringList>("fragments");

    const qint64 plenty = qint64(1) << 30;
    const QString tooLong = QString("a ").repeated(8193);
    QTest::newRow("no text") << QStringList() << QStringList() << 4 << plenty << false
                             << QStringList{"There is no text to attend over", "one per line",
                                            "'The movie was not bad'"};
    QTest::newRow("only blanks") << QStringList{"", " \t "} << QStringList() << 4 << plenty << false
                                 << QStringList{"There is no text to attend over"};
    QTest::newRow("only spaces, characters")
        << QStringList{"   "} << QStringList() << 4 << plenty << true
        << QStringList{"There is no text to attend over"};
    QTest::newRow("one blank") << QStringList{"hi", " "} << QStringList() << 4 << plenty << false
                               << QStringList{"Sentence 2 of 2 is empty", "remove it"};
    QTest::newRow("key count") << QStringList{"a", "b"} << QStringList{"x", "y", "z"} << 4 << plenty
                               << false
                               << QStringList{"2 query sentences but 3 key/value sentences",
                                              "one key/value sentence for all"};
    QTest::newRow("empty key text") << QStringList{"a"} << QStringList{"  "} << 4 << plenty << false
                                    << QStringList{"Key/value sentence 1 of 1 is empty"};
    QTest::newRow("too many tokens")
        << QStringList{"ok", tooLong} << QStringList() << 4 << plenty << false
        << QStringList{"Sentence 2 of 2 has 8193 tokens", "limit of 8192"};
    QTest::newRow("too many keys")
        << QStringList{"a"} << QStringList{tooLong} << 4 << plenty << false
        << QStringList{"Key/value sentence 1 of 1 has 8193 tokens"};
    QTest::newRow("no width") << QStringList{"a"} << QStringList() << 0 << plenty << false
                              << QStringList{"input width is 0", "--d-model"};
    // 2 x 3 x (2*4+1) + 3*4 = 66 floats = 264 bytes.
    QTest::newRow("memory budget") << QStringList{"a b c", "d"} << QStringList() << 4 << qint64(200)
                                   << false << QStringList{"memory budget", "smaller d_model"};
}

void tst_InputBuilder::textErrors()
{
    QFETCH(QStringList, texts);
    QFETCH(QStringList, kvTexts);
    QFETCH(int, dModel);
    QFETCH(qint64, budget);
    QFETCH(bool, characters);
    QFETCH(QStringList, fragments);
    AttentionConfig config = smallConfig(dModel);
    config.memoryBudgetBytes = budget;
    config.tokenizer = characters ? TokenizerKind::Characters : TokenizerKind::Words;
    try {
        InputBuilder::fromTexts(config, strings(texts), strings(kvTexts));
        QFAIL("no InputError");
    } catch (const InputError &error) {
        const QString message = QString::fromUtf8(error.what());
        for (const QString &fragment : fragments)
            QVERIFY2(message.contains(fragment), qPrintable(message + " lacks: " + fragment));
    }
}

void tst_InputBuilder::tensorRank2()
{
    Tensor x = filled({3, 4});
    for (int i = 0; i < 12; ++i)
        x.data()[i] = float(i);
    const AttentionInput input = InputBuilder::fromTensors(smallConfig(), x);
    QVERIFY(input.x.shape() == (Shape{{"b", 1}, {"n", 3}, {"d_model", 4}}));
    QCOMPARE(input.x.at({0, 2, 1}), 9.0f);
    QCOMPARE(input.tokens, (std::vector<std::vector<std::string>>{{"0", "1", "2"}}));
    QVERIFY(!input.fromText());
    QVERIFY(input.positions.isEmpty() && input.tokenIds.isEmpty() && input.vocabulary.empty());
    QVERIFY(input.keyPaddingMask.isEmpty());
}

void tst_InputBuilder::tensorBatchAndKeys()
{
    Tensor kv = filled({5, 6});
    kv.data()[4 * 6 + 5] = 7.0f;
    Tensor mask = filled({2, 5}, 0.0f, 9, 1.0f);
    const AttentionInput input =
        InputBuilder::fromTensors(smallConfig(4, 6), filled({2, 3, 6}), kv, mask);
    QVERIFY(input.x.shape() == (Shape{{"b", 2}, {"n", 3}, {"d_in", 6}}));
    QVERIFY(input.xKv.shape() == (Shape{{"b", 2}, {"n_kv", 5}, {"d_in", 6}}));
    // One key/value sequence serves both query sequences.
    QCOMPARE(input.xKv.at({0, 4, 5}), 7.0f);
    QCOMPARE(input.xKv.at({1, 4, 5}), 7.0f);
    QCOMPARE(input.kvTokens.size(), size_t(2));
    QCOMPARE(input.keyLabel(1, 4), std::string("4"));
    QVERIFY(input.keyPaddingMask.shape() == (Shape{{"b", 2}, {"n_kv", 5}}));
    QCOMPARE(input.keyPaddingMask.at({1, 4}), 1.0f);
    QCOMPARE(input.keyPaddingMask.at({1, 3}), 0.0f);
}

void tst_InputBuilder::tensorErrors_data()
{
    QTest::addColumn<Tensor>("x");
    QTest::addColumn<Tensor>("xKv");
    QTest::addColumn<Tensor>("mask");
    QTest::addColumn<int>("dIn");
    QTest::addColumn<QStringList>("fragments");

    const float nan = std::nanf("");
    const float inf = std::numeric_limits<float>::infinity();
    const Tensor none;
    QTest::newRow("no input") << none << none << none << 0 << QStringList{"There is no input"};
    QTest::newRow("rank 1") << filled({4}) << none << none << 0
                            << QStringList{"(n, d) or (b, n, d)", "has shape (4)"};
    QTest::newRow("rank 4") << filled({1, 1, 2, 4}) << none << none << 0
                            << QStringList{"has shape (1, 1, 2, 4)"};
    QTest::newRow("no vectors") << filled({0, 4}) << none << none << 0
                                << QStringList{"(0, 4)", "holds no vectors"};
    QTest::newRow("width vs d_model")
        << filled({3, 6}) << none << none << 0
        << QStringList{"6 wide", "d_model = 4", "--d-model 6", "--d-in 6"};
    QTest::newRow("width vs d_in")
        << filled({3, 6}) << none << none << 5 << QStringList{"6 wide", "d_in = 5", "--d-in 6"};
    // Offset 23 of (2, 3, 4) is index (1, 2, 3).
    QTest::newRow("nan") << filled({2, 3, 4}, 0.5f, 23, nan) << none << none << 0
                         << QStringList{"nan", "(1, 2, 3)"};
    // Offset 9 of (3, 4) is index (2, 1).
    QTest::newRow("infinity") << filled({3, 4}, 0.5f, 9, -inf) << none << none << 0
                              << QStringList{"-inf", "(2, 1)"};
    QTest::newRow("too many tokens")
        << filled({8193, 4}) << none << none << 0 << QStringList{"8193 tokens", "8192"};
    QTest::newRow("key batch") << filled({2, 3, 4}) << filled({3, 2, 4}) << none << 0
                               << QStringList{"3 sequences but the queries have 2"};
    // A key/value side of another width (PyTorch's kdim) is allowed here: the weights decide.
    QTest::newRow("key nan") << filled({3, 4}) << filled({2, 4}, 0.5f, 5, nan) << none << 0
                             << QStringList{"key/value input holds nan at index (1, 1)"};
    QTest::newRow("mask shape") << filled({3, 4}) << none << filled({3}) << 0
                                << QStringList{"(b, n_kv) = (1, 3)", "has shape (3)"};
    QTest::newRow("mask shape with keys") << filled({3, 4}) << filled({2, 4}) << filled({1, 3}) << 0
                                          << QStringList{"(b, n_kv) = (1, 2)"};
    QTest::newRow("mask value") << filled({3, 4}) << none << filled({1, 3}, 0.0f, 1, 0.5f) << 0
                                << QStringList{"holds 0.5 at index (0, 1)",
                                               "1 for a key to ignore"};
    QTest::newRow("mask hides all") << filled({3, 4}) << none << filled({1, 3}, 1.0f) << 0
                                    << QStringList{"hides every key in row 0"};
}

void tst_InputBuilder::tensorErrors()
{
    QFETCH(Tensor, x);
    QFETCH(Tensor, xKv);
    QFETCH(Tensor, mask);
    QFETCH(int, dIn);
    QFETCH(QStringList, fragments);
    try {
        InputBuilder::fromTensors(smallConfig(4, dIn), x, xKv, mask);
        QFAIL("no InputError");
    } catch (const InputError &error) {
        const QString message = QString::fromUtf8(error.what());
        for (const QString &fragment : fragments)
            QVERIFY2(message.contains(fragment), qPrintable(message + " lacks: " + fragment));
    }
}

HEADLENS_TEST_APPLESS_MAIN(tst_InputBuilder)
#include "tst_inputbuilder.moc"
