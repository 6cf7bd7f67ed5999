// Tests of the encoders (BERT, RoBERTa, DistilBERT) against an independent float64 NumPy forward.
#include "approx.h"
#include "errorof.h"
#include "logitranking.h"
#include "modelfolder.h"

#include "io/npzarchive.h"
#include "model/modelopener.h"
#include "model/transformermodel.h"
#include "session/session.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

using namespace headlens;
using headlens::test::copyWithConfig;
using headlens::test::errorOf;

namespace {

const std::string kBertData = HEADLENS_TEST_DATA "/bert/";
const QStringList kFolders{"bert_mlm", "bert_bare", "roberta_mlm", "distilbert_mlm"};
constexpr int kCases = 3; // two single texts and a pair (golden_texts.json)

/// What scripts/make_bert_tiny.py's float64 reference computed for one folder.
class EncoderGolden
{
public:
    explicit EncoderGolden(const std::string &folder)
    {
        for (auto &[name, tensor] : NpzArchive::read(folder + "/golden.npz"))
            m_arrays.emplace(name, tensor);
    }

    std::vector<int> ints(const std::string &name) const
    {
        const Tensor &t = m_arrays.at(name);
        std::vector<int> out;
        for (int64_t i = 0; i < t.numel(); ++i)
            out.push_back(int(t.data()[i]));
        return out;
    }
    ModelInput input(int k) const
    {
        return {ints("ids_" + std::to_string(k)), ints("types_" + std::to_string(k))};
    }
    const Tensor &tensor(const std::string &name) const { return m_arrays.at(name); }
    bool has(const std::string &name) const { return m_arrays.count(name) > 0; }

private:
    std::map<std::string, Tensor> m_arrays;
};

} // namespace

class TestEncoderModel : public QObject
{
    Q_OBJECT

private slots:
    void matchesReference_data();
    void matchesReference();
    void encodesAsTransformersDoes_data();
    void encodesAsTransformersDoes();
    void fillsTheMask_data();
    void fillsTheMask();
    void saysWhenThereIsNoMaskHead();
    void aPaddedBatchGivesEachTextsOwnRun_data();
    void aPaddedBatchGivesEachTextsOwnRun();
    void sharesOnClsSepAndPunctuation();
    void sessionReadsTheSecondTextAsSentenceB();
    void robertaPositionsStartAfterPadding();
    void refusesWhatItCannotRun_data();
    void refusesWhatItCannotRun();
};

void TestEncoderModel::matchesReference_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<int>("k");
    for (const QString &folder : kFolders)
        for (int k = 0; k < kCases; ++k)
            QTest::addRow("%s/case%d", qPrintable(folder), k) << folder << k;
}

/// Every layer's attention (both directions) and the MLM logits of every position, viewing
/// each layer in turn, to the float64 reference.
void TestEncoderModel::matchesReference()
{
    QFETCH(QString, folder);
    QFETCH(int, k);
    const std::string dir = kBertData + folder.toStdString();
    const TransformerModel model = TransformerModel::open(dir);
    const EncoderGolden golden(dir);
    const Tensor &attention = golden.tensor("attention_" + std::to_string(k));
    QVERIFY(!model.attentionConfig().causal);
    for (int layer = -1; layer < model.spec().layers; ++layer) {
        TransformerRunOptions options;
        options.logitsForEveryPosition = true;
        options.viewedLayer = layer;
        const TransformerRun run = model.run(golden.input(k), options);
        HL_COMPARE_TENSORS_NEAR(run.attention, attention.view(run.attention.shape()), 1e-4, 1e-5);
        const std::string mlm = "mlm_" + std::to_string(k);
        QCOMPARE(run.logits.isEmpty(), !golden.has(mlm));
        if (golden.has(mlm))
            HL_COMPARE_TENSORS_NEAR(run.logits, golden.tensor(mlm).view(run.logits.shape()), 1e-4,
                                    1e-4);
    }
}

void TestEncoderModel::encodesAsTransformersDoes_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("mask");
    QTest::newRow("bert, tokenizer.json") << "bert_mlm"
                                          << "[MASK]";
    QTest::newRow("bert, vocab.txt") << "bert_bare"
                                     << "[MASK]";
    QTest::newRow("roberta, vocab.json") << "roberta_mlm"
                                         << "<mask>";
    QTest::newRow("distilbert, vocab.txt") << "distilbert_mlm"
                                           << "[MASK]";
}

/// The ids of tokenizer(text) and tokenizer(a, b) with the special tokens, and each token's
/// segment: what the script's tokenizer (BERT's basic + WordPiece, RoBERTa's byte-level BPE)
/// gives for the golden texts.
void TestEncoderModel::encodesAsTransformersDoes()
{
    QFETCH(QString, folder);
    QFETCH(QString, mask);
    const std::string dir = kBertData + folder.toStdString();
    const TransformerModel model = TransformerModel::open(dir);
    const EncoderGolden golden(dir);
    QFile file(QString::fromStdString(kBertData) + "golden_texts.json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject texts = QJsonDocument::fromJson(file.readAll()).object();
    const QString placeholder = texts["mask"].toString();
    auto text = [&](const QJsonValue &v) {
        return v.toString().replace(placeholder, mask).toStdString();
    };
    const QJsonArray singles = texts["singles"].toArray();
    for (int k = 0; k < singles.size(); ++k)
        QCOMPARE(model.encode(text(singles[k])), golden.ints("ids_" + std::to_string(k)));
    const QJsonArray pair = texts["pair"].toArray();
    QVERIFY(model.readsPairs());
    const ModelInput input = model.encodePair(text(pair[0]), text(pair[1]));
    QCOMPARE(input.tokenIds, golden.ints("ids_2"));
    // Segments: what BERT reads as token types; RoBERTa reads none (its types are all 0) but
    // the views still show where sentence B starts: at the second "</s>" of "</s></s>", so
    // B holds "</s> B </s>", as many tokens as "<s> B </s>".
    std::vector<int> segments = golden.ints("types_2");
    if (folder.startsWith("roberta")) {
        const auto firstSep = std::find(input.tokenIds.begin(), input.tokenIds.end(), 2);
        std::fill(segments.begin() + (firstSep - input.tokenIds.begin()) + 1, segments.end(), 1);
        QCOMPARE(std::count(segments.begin(), segments.end(), 1),
                 qsizetype(model.encode(text(pair[1])).size()));
    }
    QCOMPARE(input.segments, segments);
}

void TestEncoderModel::fillsTheMask_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<int>("k");
    QTest::newRow("bert") << "bert_mlm" << 0;
    QTest::newRow("bert pair") << "bert_mlm" << 2;
    QTest::newRow("roberta") << "roberta_mlm" << 0;
    QTest::newRow("distilbert") << "distilbert_mlm" << 0;
}

/// Each mask's five most probable fillers, best first, with the probabilities of the
/// reference's logits at that position.
void TestEncoderModel::fillsTheMask()
{
    QFETCH(QString, folder);
    QFETCH(int, k);
    const std::string dir = kBertData + folder.toStdString();
    const TransformerModel model = TransformerModel::open(dir);
    const EncoderGolden golden(dir);
    const ModelInput input = golden.input(k);
    const TransformerRun run = model.run(input);
    const auto maskAt =
        std::find(input.tokenIds.begin(), input.tokenIds.end(), model.maskTokenId());
    QVERIFY(maskAt != input.tokenIds.end());
    const int position = int(maskAt - input.tokenIds.begin());
    QCOMPARE(run.maskFills.size(), size_t(1));
    QCOMPARE(run.maskFills[0].position, position);
    QVERIFY(run.topNext.empty()); // an encoder predicts no next token
    const Tensor &mlm = golden.tensor("mlm_" + std::to_string(k));
    const int64_t vocab = mlm.shape().size(1);
    const std::vector<double> p = test::softmaxOf(mlm.data() + position * vocab, vocab);
    const std::vector<int> order = test::rankedIds(p);
    QCOMPARE(run.maskFills[0].top.size(), size_t(5));
    for (size_t r = 0; r < 5; ++r) {
        QCOMPARE(run.maskFills[0].top[r].tokenId, order[r]);
        QVERIFY(
            test::isClose(run.maskFills[0].top[r].probability, p[size_t(order[r])], 1e-4, 1e-6));
        QCOMPARE(run.maskFills[0].top[r].label, model.tokenizer().displayLabel(order[r]));
    }
    QCOMPARE(run.logits.shape().size(0), int64_t(1)); // only the mask's row was computed
}

void TestEncoderModel::saysWhenThereIsNoMaskHead()
{
    const TransformerModel model = TransformerModel::open(kBertData + "bert_bare");
    const TransformerRun run = model.run(EncoderGolden(kBertData + "bert_bare").input(0));
    QVERIFY(run.maskFills.empty());
    QVERIFY(run.logits.isEmpty());
    const QString note = QString::fromStdString(run.noMaskHead);
    QVERIFY2(note.contains("no masked-language-model head") &&
                 note.contains("cls.predictions.transform.dense.weight") &&
                 note.contains("ForMaskedLM"),
             qPrintable(note));
    // A checkpoint with the head says nothing.
    const TransformerModel withHead = TransformerModel::open(kBertData + "bert_mlm");
    QVERIFY(withHead.run(EncoderGolden(kBertData + "bert_mlm").input(0)).noMaskHead.empty());
}

void TestEncoderModel::aPaddedBatchGivesEachTextsOwnRun_data()
{
    QTest::addColumn<QString>("folder");
    for (const QString &folder : kFolders)
        QTest::newRow(qPrintable(folder)) << folder;
}

/// transformers pads a batch and masks the padded keys; each text's rows of that batch are
/// what HeadLens computes for the text alone (padded keys get weight 0 in the reference).
void TestEncoderModel::aPaddedBatchGivesEachTextsOwnRun()
{
    QFETCH(QString, folder);
    const std::string dir = kBertData + folder.toStdString();
    const TransformerModel model = TransformerModel::open(dir);
    const EncoderGolden golden(dir);
    const Tensor &ids = golden.tensor("batch_ids");             // (B, n_max)
    const Tensor &attention = golden.tensor("batch_attention"); // (B, L, h, n_max, n_max)
    const int64_t batch = ids.shape().size(0), width = ids.shape().size(1);
    const int64_t layers = attention.shape().size(1), heads = attention.shape().size(2);
    for (int64_t b = 0; b < batch; ++b) {
        const ModelInput input = golden.input(int(b));
        const int64_t n = int64_t(input.tokenIds.size());
        QVERIFY(n <= width);
        TransformerRunOptions options;
        options.logitsForEveryPosition = true;
        const TransformerRun run = model.run(input, options);
        for (int64_t l = 0; l < layers; ++l)
            for (int64_t h = 0; h < heads; ++h)
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t j = 0; j < width; ++j) {
                        const double expected =
                            attention
                                .data()[(((b * layers + l) * heads + h) * width + i) * width + j];
                        const double actual = j < n ? run.weights(int(l), int(h))(i, j) : 0.0;
                        QVERIFY2(test::isClose(actual, expected, 1e-4, 1e-5),
                                 test::describeMismatch(actual, expected, "batch attention"));
                    }
        if (!golden.has("batch_mlm"))
            continue;
        const Tensor &mlm = golden.tensor("batch_mlm"); // (B, n_max, vocab)
        const int64_t vocab = mlm.shape().size(2);
        for (int64_t i = 0; i < n; ++i)
            for (int64_t v = 0; v < vocab; ++v) {
                const double expected = mlm.data()[(b * width + i) * vocab + v];
                QVERIFY2(test::isClose(run.logits.data()[i * vocab + v], expected, 1e-4, 1e-4),
                         test::describeMismatch(run.logits.data()[i * vocab + v], expected,
                                                "batch MLM logits"));
            }
    }
}

/// Clark et al. 2019's shares, from the reference's weights: the mean over queries of the
/// weight on [CLS] (position 0), on the [SEP]s and on the punctuation tokens.
void TestEncoderModel::sharesOnClsSepAndPunctuation()
{
    const std::string dir = kBertData + "bert_mlm";
    const TransformerModel model = TransformerModel::open(dir);
    const EncoderGolden golden(dir);
    const ModelInput input = golden.input(2); // [CLS] the cat sat on the mat . [SEP] ... ! [SEP]
    const TransformerRun run = model.run(input);
    const int sep = model.tokenizer().idOf("[SEP]");
    const int64_t n = int64_t(input.tokenIds.size());
    std::vector<int64_t> seps, punctuation;
    for (int64_t j = 0; j < n; ++j) {
        const std::string label = model.tokenizer().displayLabel(input.tokenIds[size_t(j)]);
        if (input.tokenIds[size_t(j)] == sep)
            seps.push_back(j);
        else if (label == "." || label == "!")
            punctuation.push_back(j);
    }
    QCOMPARE(seps.size(), size_t(2));
    QCOMPARE(punctuation.size(), size_t(2));
    const Tensor &attention = golden.tensor("attention_2"); // (L, h, n, n)
    for (int l = 0; l < model.spec().layers; ++l)
        for (int h = 0; h < model.spec().heads; ++h) {
            const float *w = attention.data() + (int64_t(l) * model.spec().heads + h) * n * n;
            auto share = [&](const std::vector<int64_t> &keys) {
                double sum = 0.0;
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t j : keys)
                        sum += w[i * n + j];
                return sum / double(n);
            };
            const HeadStats &s = run.stats(l, h);
            QVERIFY(test::isClose(s.clsShare, share({0}), 1e-4, 1e-5));
            QVERIFY(test::isClose(s.sepShare, share(seps), 1e-4, 1e-5));
            QVERIFY(test::isClose(s.punctuationShare, share(punctuation), 1e-4, 1e-5));
        }
}

/// The window's second text box is sentence B: the Session encodes the pair with its
/// segments, and says the model reads pairs and which token is its mask.
void TestEncoderModel::sessionReadsTheSecondTextAsSentenceB()
{
    const std::string dir = kBertData + "bert_mlm";
    const EncoderGolden golden(dir);
    TraceJob job;
    job.model.path = dir;
    job.texts = {"The cat sat on the mat."};
    job.kvTexts = {"The dog ran [MASK]!"};
    Session session;
    const TraceRun traced = session.run(job);
    const ModelRun &run = *traced.model;
    QCOMPARE(run.tokenIds, golden.ints("ids_2"));
    QCOMPARE(run.segments, golden.ints("types_2"));
    QVERIFY(run.readsPairs);
    QVERIFY(!run.causal);
    QCOMPARE(run.maskToken, std::string("[MASK]"));
    QCOMPARE(run.maskFills.size(), size_t(1));
    // An empty second box: one text, every token in segment 0.
    job.kvTexts = {""};
    const TraceRun single = session.run(job);
    QCOMPARE(single.model->segments, std::vector<int>(single.model->tokenIds.size(), 0));
    const TransformerModel model = TransformerModel::open(dir);
    QCOMPARE(single.model->tokenIds, model.encode(job.texts.front()));
    QCOMPARE(single.model->tokenIds.back(), model.tokenizer().idOf("[SEP]"));
}

/// RoBERTa's first token sits at position pad_token_id + 1 (2), so 42 position rows hold 40
/// tokens; a 41-token text is refused with that number.
void TestEncoderModel::robertaPositionsStartAfterPadding()
{
    const TransformerModel model = TransformerModel::open(kBertData + "roberta_mlm");
    QCOMPARE(model.spec().positionOffset, 2);
    QCOMPARE(model.spec().maxTokens(), 40);
    QVERIFY(model.run(std::vector<int>(40, 5)).attention.shape().size(2) == 40);
    const QString error = errorOf([&] { model.run(std::vector<int>(41, 5)); });
    QVERIFY2(error.contains("41 tokens") && error.contains("at most 40"), qPrintable(error));
}

void TestEncoderModel::refusesWhatItCannotRun_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QStringList>("fragments");
    QTest::newRow("relative positions")
        << "bert_mlm"
        << "position_embedding_type" << QJsonValue("relative_key")
        << QStringList{"position_embedding_type is \"relative_key\"", "absolute"};
    QTest::newRow("another activation") << "bert_mlm"
                                        << "hidden_act" << QJsonValue("relu")
                                        << QStringList{"hidden_act is \"relu\"", "exact GELU"};
    QTest::newRow("more token types than stored")
        << "bert_mlm"
        << "type_vocab_size" << QJsonValue(3)
        << QStringList{"token_type_embeddings.weight' has shape (2, 32)", "needs (3, 32)"};
    QTest::newRow("distilbert with more layers")
        << "distilbert_mlm"
        << "n_layers" << QJsonValue(3)
        << QStringList{"no tensor 'distilbert.transformer.layer.2.sa_layer_norm.weight'",
                       "DistilBERT with n_layers 3"};
}

void TestEncoderModel::refusesWhatItCannotRun()
{
    QFETCH(QString, folder);
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QStringList, fragments);
    QTemporaryDir dir;
    copyWithConfig(QString::fromStdString(kBertData) + folder, dir.path(), key, value);
    const QString error = errorOf([&] { TransformerModel::open(dir.path().toStdString()); });
    for (const QString &fragment : fragments)
        QVERIFY2(error.contains(fragment), qPrintable(error));
}

HEADLENS_TEST_APPLESS_MAIN(TestEncoderModel)
#include "tst_encodermodel.moc"
