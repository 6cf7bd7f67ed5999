// Tests headlens-cli's --logit-lens and --dla: what they print, their files, their refusals.
#include "clirun.h"
#include "npzgolden.h"

#include "io/npyfile.h"
#include "model/headatlasprobe.h"
#include "model/modelopener.h"
#include "model/transformermodel.h"
#include "stats/attentionflow.h"
#include "testdata.h"
#include "testmain.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace headlens;
using test::runCli;

namespace {

/// lens.npz of scripts/make_lens_goldens.py for `folder`.
std::map<std::string, Tensor> goldenOf(const QString &folder)
{
    return test::npzGolden(folder.toStdString() + "/lens.npz");
}

/// "12,40,7" of a golden's ids.
QString idList(const Tensor &ids)
{
    QStringList list;
    for (int64_t i = 0; i < ids.numel(); ++i)
        list << QString::number(int(ids.data()[i]));
    return list.join(',');
}

QStringList linesOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
}

} // namespace

class TestLensCli : public QObject
{
    Q_OBJECT

private slots:
    void logitLensPrintsAndWritesNumPysNumbers();
    void encoderLensReadsTheMask();
    void attributionPrintsAndWritesNumPysNumbers();
    void attributionOfTextTokens();
    void atlasPrintsAndWritesTheScores();
    void rolloutPrintsAndWritesTheFlow();
    void circuitsPrintAndWriteTheMaps();
    void refusals_data();
    void refusals();
};

void TestLensCli::logitLensPrintsAndWritesNumPysNumbers()
{
    auto golden = goldenOf(test::tinyGpt2());
    QTemporaryDir dir;
    const auto r = runCli({"--model", test::tinyGpt2(), "--token-ids", idList(golden["ids"]),
                           "--logit-lens", "--export-dir", dir.path()});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("Logit lens") && r.out.contains("emb = the embeddings, L0..L1"),
             qPrintable(r.out));
    const int positions = int(golden["ids"].numel());
    // One line per position, numbered from 1, with a probability for each of the 3 stages.
    for (int p = 1; p <= positions; ++p)
        QVERIFY2(r.out.contains(QStringLiteral("\n  %1 [").arg(p, 3)), qPrintable(r.out));
    const Tensor probability = NpyFile::read((dir.path() + "/logit_lens.npy").toStdString());
    QCOMPARE(probability.shape().toPlainString(), "(3, " + std::to_string(positions) + ")");
    const Tensor &expected = golden["lens_probability"];
    for (int64_t i = 0; i < expected.numel(); ++i)
        QVERIFY2(std::abs(probability.data()[i] - expected.data()[i]) < 1e-5,
                 qPrintable(QString::number(i)));
    const Tensor top = NpyFile::read((dir.path() + "/logit_lens_top.npy").toStdString());
    QCOMPARE(top.shape().toPlainString(), "(3, " + std::to_string(positions) + ", 5)");
    const QStringList csv = linesOf(dir.path() + "/logit_lens.csv");
    QCOMPARE(csv.size(), 1 + 3 * positions);
    QVERIFY2(csv[0].startsWith("stage,after,position,token,final_token,final_probability,top_1,"
                               "probability_1"),
             qPrintable(csv[0]));
    QVERIFY2(csv[1].startsWith("0,embeddings,0,"), qPrintable(csv[1]));
    QVERIFY2(csv.last().startsWith(QStringLiteral("2,layer 1,%1,").arg(positions - 1)),
             qPrintable(csv.last()));
    // The csv's final probability is the npy's, in full.
    QVERIFY(std::abs(csv[1].section(',', 5, 5).toDouble() - double(probability.data()[0])) < 1e-6);
}

void TestLensCli::encoderLensReadsTheMask()
{
    const QString bert = QStringLiteral(HEADLENS_TEST_DATA "/bert/bert_mlm");
    const auto r =
        runCli({"--model", bert, "--text", "The cat sat on the [MASK] .", "--logit-lens"});
    QCOMPARE(r.exitCode, 0);
    // Only the mask's position is read: one line, token 7 ([CLS] the cat sat on the [MASK]).
    QVERIFY2(r.out.contains("  7 [[MASK]] -> ["), qPrintable(r.out));
    QVERIFY2(!r.out.contains("  6 [the] ->"), qPrintable(r.out));
}

void TestLensCli::attributionPrintsAndWritesNumPysNumbers()
{
    auto golden = goldenOf(test::tinyGpt2());
    QTemporaryDir dir;
    // The golden's two tokens as text, as a person types them: their bytes.
    const TransformerModel model = TransformerModel::open(test::tinyGpt2().toStdString());
    const int token = int(golden["dla_token"].data()[0]),
              wrong = int(golden["dla_token"].data()[1]);
    const QString tokenText = QString::fromStdString(model.tokenizer().tokenBytes(token));
    const QString wrongText = QString::fromStdString(model.tokenizer().tokenBytes(wrong));
    QVERIFY(!tokenText.contains(',') && !wrongText.contains(','));
    const auto r = runCli({"--model", test::tinyGpt2(), "--token-ids", idList(golden["ids"]),
                           "--dla", tokenText + "," + wrongText, "--export-dir", dir.path()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString label = QString::fromStdString(model.tokenizer().displayLabel(token));
    const QString wrongLabel = QString::fromStdString(model.tokenizer().displayLabel(wrong));
    QVERIFY2(r.out.contains("Direct logit attribution of logit([" + label + "]) - logit([" +
                            wrongLabel + "]) at token " + QString::number(golden["ids"].numel())),
             qPrintable(r.out));
    const Tensor heads = NpyFile::read((dir.path() + "/dla.npy").toStdString());
    QCOMPARE(heads.shape().toPlainString(), std::string("(2, 2)"));
    for (int64_t i = 0; i < 4; ++i)
        QVERIFY(std::abs(heads.data()[i] - golden["dla_heads"].data()[i]) < 1e-4);
    const QStringList parts = linesOf(dir.path() + "/dla_parts.csv");
    // embeddings, per layer 2 heads + bias + mlp, the norm's bias, the sum and the logit
    QCOMPARE(parts.size(), 1 + 1 + 2 * 4 + 3);
    const double sum = parts[parts.size() - 2].section(',', 3, 3).toDouble();
    const double logit = parts.last().section(',', 3, 3).toDouble();
    QVERIFY(std::abs(logit - double(golden["dla_logit"].data()[0])) < 1e-4);
    QVERIFY(std::abs(sum - logit) < 1e-4);
    const QStringList effects = linesOf(dir.path() + "/dla_tokens.csv");
    QCOMPARE(effects.size(), 1 + 4 * 2 * 10); // 4 heads, promoted and suppressed, ten each
    QCOMPARE(effects[1].section(',', 0, 3), QStringLiteral("0,1,promotes,1"));
}

void TestLensCli::attributionOfTextTokens()
{
    const auto r = runCli({"--model", test::tinyGpt2(), "--text", "Hello world, the cat sat",
                           "--dla", " the", "--dla-position", "3"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("Direct logit attribution of logit([␣the]) at token 3 [,]"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("sum of the shares") && r.out.contains("(the logit "),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(" promotes [") && r.out.contains(", suppresses ["), qPrintable(r.out));
}

// The printed table names each head's type; atlas.npy holds the scores of the core's atlas of
// the same model and text (tst_headatlas checks the scores themselves); atlas.csv holds the
// same numbers a head a row, with the chances last.
void TestLensCli::atlasPrintsAndWritesTheScores()
{
    const std::string text = "The cat sat on the mat. The cat sat on the";
    QTemporaryDir dir;
    const auto r = runCli({"--model", test::tinyGpt2(), "--text", QString::fromStdString(text),
                           "--atlas", "--export-dir", dir.path()});
    QCOMPARE(r.exitCode, 0);
    const std::shared_ptr<const OpenedModel> model =
        ModelOpener::open(test::tinyGpt2().toStdString());
    const auto run = model->run(model->encode(text), 0, {});
    const HeadAtlas atlas = computeHeadAtlas(*model, *run, AtlasProbe(), nullptr);
    // The tiny model reads 32 tokens: runs of 16, twice; its small vocabulary reads the stories
    // in at most 256 distinct tokens, so the runs are stretches of them.
    QCOMPARE(atlas.repeatedLength, 16);
    QVERIFY(atlas.textRuns);
    QVERIFY2(r.out.contains("Head atlas") &&
                 r.out.contains("4 runs of 16 tokens of the default stories repeated"),
             qPrintable(r.out));
    for (int layer = 0; layer < atlas.layers; ++layer) {
        QString row = QString("%1").arg(layer, 5);
        for (int head = 0; head < atlas.heads; ++head)
            row += QString("%1").arg(QString::fromStdString(atlas.typeLabel(layer, head)), 8);
        QVERIFY2(r.out.contains("\n" + row + "\n"), qPrintable(row + "\n" + r.out));
    }
    const Tensor scores = NpyFile::read((dir.path() + "/atlas.npy").toStdString());
    QCOMPARE(scores.shape().toPlainString(),
             "(10, " + std::to_string(atlas.layers) + ", " + std::to_string(atlas.heads) + ")");
    for (int k = 0; k < kAtlasScores; ++k)
        for (int column = 0; column < atlas.layers * atlas.heads; ++column) {
            const float written = scores.data()[k * atlas.layers * atlas.heads + column];
            const float expected = atlas.scores(k, column);
            QVERIFY2(std::isnan(expected) ? std::isnan(written)
                                          : std::abs(written - expected) < 1e-6,
                     qPrintable(QString("score %1, head %2").arg(k).arg(column)));
        }
    const QStringList csv = linesOf(dir.path() + "/atlas.csv");
    QCOMPARE(csv.size(), 1 + atlas.layers * atlas.heads + 1);
    QCOMPARE(csv[0], QStringLiteral("layer,head,type,previous_token,duplicate_token,induction,"
                                    "first_token,self,fixed_offset,local,cls,sep,punctuation,"
                                    "offset,mean_distance"));
    const QStringList last = csv[atlas.layers * atlas.heads].split(',');
    QCOMPARE(last[0], QString::number(atlas.layers - 1));
    QCOMPARE(last[1], QString::number(atlas.heads));
    const auto type = atlas.type(atlas.layers - 1, atlas.heads - 1);
    QCOMPARE(last[2], type ? QString(columnName(*type)) : QString());
    QVERIFY(std::abs(last[5].toDouble() -
                     atlas.score(AtlasScore::Induction, atlas.layers - 1, atlas.heads - 1)) < 1e-6);
    QVERIFY2(csv.last().startsWith("chance,,,"), qPrintable(csv.last()));
    QVERIFY(std::abs(csv.last().split(',')[3].toDouble() -
                     atlas.chance[size_t(AtlasScore::PreviousToken)]) < 1e-9);
}

// --rollout: the files hold the rollout and the value-weighted attention of the run's own
// attention (tst_attentionflow checks both by hand, tst_transformerlens the value norms against
// NumPy); the terminal gets a line per layer of each.
void TestLensCli::rolloutPrintsAndWritesTheFlow()
{
    const std::string text = "The cat sat on the mat";
    QTemporaryDir dir;
    const auto r = runCli({"--model", test::tinyGpt2(), "--text", QString::fromStdString(text),
                           "--rollout", "--export-dir", dir.path()});
    QCOMPARE(r.exitCode, 0);
    const std::shared_ptr<const OpenedModel> model =
        ModelOpener::open(test::tinyGpt2().toStdString());
    const auto run = model->run(model->encode(text), 0, {});
    const auto n = int64_t(run->tokenIds.size());
    QVERIFY2(r.out.contains("Attention rollout") && r.out.contains("Value-weighted attention"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QString("what token %1 [").arg(n)), qPrintable(r.out));
    for (int layer = 0; layer < run->layers; ++layer)
        QCOMPARE(r.out.count(QString("  layer  %1:").arg(layer)), 2);
    const Tensor rollout = NpyFile::read((dir.path() + "/rollout.npy").toStdString());
    const Tensor expected = attentionRollout(run->attention);
    QCOMPARE(rollout.shape().toPlainString(), expected.shape().toPlainString());
    for (int64_t i = 0; i < expected.numel(); ++i)
        QVERIFY(std::abs(rollout.data()[i] - expected.data()[i]) < 1e-6);
    const Tensor norms = NpyFile::read((dir.path() + "/value_norms.npy").toStdString());
    QCOMPARE(norms.shape().toPlainString(), "(2, 2, " + std::to_string(n) + ")");
    const Tensor weighted = NpyFile::read((dir.path() + "/value_weighted.npy").toStdString());
    const Tensor byHand = valueWeightedAttention(run->attention, model->valueNorms(*run));
    for (int64_t i = 0; i < byHand.numel(); ++i)
        QVERIFY(std::abs(weighted.data()[i] - byHand.data()[i]) < 1e-6);
    // Each row is a share of what the head moves: it sums to 1.
    QVERIFY(std::abs(weighted.matrix({1, 0}).row(n - 1).sum() - 1.0f) < 1e-5);
}

// --circuits L.H: the token maps of the head named, on the text's tokens first, as the core
// computes them on the tokens the CSV lists (tst_transformerlens checks them against NumPy).
void TestLensCli::circuitsPrintAndWriteTheMaps()
{
    const std::string text = "The cat sat on the mat";
    QTemporaryDir dir;
    const auto r = runCli({"--model", test::tinyGpt2(), "--text", QString::fromStdString(text),
                           "--circuits", "1.2", "--export-dir", dir.path()});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("Circuits of head 1.2") && r.out.contains("copying score"),
             qPrintable(r.out));
    const QStringList csv = linesOf(dir.path() + "/circuits_tokens.csv");
    const int count = int(csv.size()) - 1;
    QVERIFY(count > 0 && count <= 512);
    std::vector<int> ids;
    for (int t = 1; t <= count; ++t)
        ids.push_back(csv[t].section(',', 1, 1).toInt());
    const std::shared_ptr<const OpenedModel> model =
        ModelOpener::open(test::tinyGpt2().toStdString());
    const std::vector<int> textIds = model->encode(text);
    QCOMPARE(ids.front(), textIds.front()); // the text's tokens first
    const HeadCircuits c = model->circuits(1, 1, ids);
    const Tensor ov = NpyFile::read((dir.path() + "/circuits_ov.npy").toStdString());
    QCOMPARE(ov.shape().toPlainString(),
             "(" + std::to_string(count) + ", " + std::to_string(count) + ")");
    for (int64_t i = 0; i < ov.numel(); ++i)
        QVERIFY(std::abs(ov.data()[i] - c.circuit.ovTokens.data()[i]) < 1e-5);
    const QStringList values = linesOf(dir.path() + "/circuits_singular_values.csv");
    QVERIFY2(values.last().startsWith("copying_score,"), qPrintable(values.last()));
}

void TestLensCli::refusals_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QString bert = QStringLiteral(HEADLENS_TEST_DATA "/bert/bert_mlm");
    QTest::newRow("no model")
        << QStringList{"--text", "a b", "--logit-lens"}
        << "--logit-lens reads a model's heads and predictions: add --model DIR";
    QTest::newRow("dla, no model") << QStringList{"--text", "a b", "--dla", " the"}
                                   << "--dla reads a model's heads and predictions";
    QTest::newRow("atlas, no model") << QStringList{"--text", "a b", "--atlas"}
                                     << "--atlas reads a model's heads and predictions";
    QTest::newRow("rollout, no model") << QStringList{"--text", "a b", "--rollout"}
                                       << "--rollout reads a model's heads and predictions";
    QTest::newRow("circuits of a head the model lacks")
        << QStringList{"--model", test::tinyGpt2(), "--text", "a b", "--circuits", "5.1"}
        << "There is no head 5.1";
    QTest::newRow("atlas of one token")
        << QStringList{"--model", test::tinyGpt2(), "--text", "a", "--atlas"}
        << "The head atlas needs a text of at least 2 tokens";
    QTest::newRow("no token") << QStringList{"--model", test::tinyGpt2(), "--text",
                                             "a b",     "--dla",          ","}
                              << "--dla expects the token whose logit to split up";
    QTest::newRow("two tokens") << QStringList{"--model", test::tinyGpt2(), "--text",
                                               "a b",     "--dla",          " catapult"}
                                << "direct logit attribution splits up one token's logit";
    QTest::newRow("position past the text")
        << QStringList{"--model", test::tinyGpt2(), "--text",         "a b",
                       "--dla",   " the",           "--dla-position", "9"}
        << "There is no token 9 in the text: it has 2 tokens";
    QTest::newRow("position alone")
        << QStringList{"--model", test::tinyGpt2(), "--text", "a b", "--dla-position", "1"}
        << "--dla-position says where --dla reads the logit";
    QTest::newRow("encoder") << QStringList{"--model", bert, "--text", "the cat", "--dla", "cat"}
                             << "normalises the stream after every block";
    QTest::newRow("encoder, no mask")
        << QStringList{"--model", bert, "--text", "the cat", "--logit-lens"}
        << "the text has none: write [MASK]";
}

void TestLensCli::refusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const auto r = runCli(arguments);
    QVERIFY2(r.exitCode != 0 && r.exitCode != -1, qPrintable(r.out)); // refused, not crashed
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
}

HEADLENS_TEST_GUILESS_MAIN(TestLensCli)
#include "tst_lenscli.moc"
