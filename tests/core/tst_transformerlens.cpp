// Tests the logit lens and direct logit attribution against float64 NumPy from the papers.
#include "approx.h"
#include "errorof.h"
#include "npzgolden.h"

#include "attention/attentionforward.h"
#include "linalg/logsumexp.h"
#include "model/modelopener.h"
#include "model/openedmodel.h"
#include "model/transformerlens.h"
#include "testmain.h"

#include <QTest>

#include <map>

using namespace headlens;

namespace {

/// lens.npz of scripts/make_lens_goldens.py.
std::map<std::string, Tensor> goldenOf(const QString &folder)
{
    return test::npzGolden(folder.toStdString() + "/lens.npz");
}

using test::idsOf;

/// A (rows, cols) golden table, or a vector as one row.
RowMatrix tableOf(const Tensor &t)
{
    return t.shape().rank() == 1 ? RowMatrix(ConstRowMatrixMap(t.data(), 1, t.numel()))
                                 : RowMatrix(t.matrix({}));
}

} // namespace

class TestTransformerLens : public QObject
{
    Q_OBJECT

private slots:
    void lensMatchesNumPy_data();
    void lensMatchesNumPy();
    void lastStageIsTheModelsOutput_data() { lensMatchesNumPy_data(); }
    void valueNormsMatchNumPy_data() { lensMatchesNumPy_data(); }
    void valueNormsMatchNumPy();
    void circuitsMatchNumPy_data();
    void circuitsMatchNumPy();
    void lastStageIsTheModelsOutput();
    void attributionMatchesNumPy_data();
    void attributionMatchesNumPy();
    void attributionOfOneTokenSumsToItsLogit();
    void headsPromoteWhatTheirSharesSay();
    void refusals();
};

void TestTransformerLens::lensMatchesNumPy_data()
{
    QTest::addColumn<QString>("folder");
    QTest::newRow("gpt2 tiny") << QStringLiteral(HEADLENS_TEST_DATA "/gpt2/tiny");
    QTest::newRow("llama gqa") << QStringLiteral(HEADLENS_TEST_DATA "/llama/llama_gqa");
    QTest::newRow("qwen3 qk-norm") << QStringLiteral(HEADLENS_TEST_DATA "/llama/qwen3_qknorm");
    QTest::newRow("bert mlm (mask positions)")
        << QStringLiteral(HEADLENS_TEST_DATA "/bert/bert_mlm");
}

void TestTransformerLens::lensMatchesNumPy()
{
    QFETCH(QString, folder);
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    auto golden = goldenOf(folder);
    int calls = 0;
    const LogitLens lens = TransformerLens(model).logitLens(idsOf(golden["ids"]), 3, [&](double) {
        ++calls;
        return true;
    });
    QVERIFY(calls > 0); // the pass reports its progress
    QCOMPARE(lens.positions, idsOf(golden["positions"]));
    const RowMatrix expected = tableOf(golden["lens_probability"]);
    QCOMPARE(lens.stages(), int(expected.rows()));
    QCOMPARE(lens.stages(), model.spec().layers + 1);
    QCOMPARE(lens.finalProbability.cols(), expected.cols());
    HL_COMPARE_NEAR((lens.finalProbability - expected).cwiseAbs().maxCoeff(), 0.0, 0.0, 1e-5);
    // Each stage's top token where NumPy's is ahead of its second by more than float rounding.
    const RowMatrix top = tableOf(golden["lens_top"]);
    for (int stage = 0; stage < lens.stages(); ++stage)
        for (int p = 0; p < int(lens.positions.size()); ++p) {
            const auto &list = lens.topAt(stage, p);
            QCOMPARE(int(list.size()), 3);
            QVERIFY(list[0].probability >= list[1].probability);
            QVERIFY(list[1].probability >= list[2].probability);
            if (list[0].probability - list[1].probability > 1e-4)
                QCOMPARE(list[0].tokenId, int(top(stage, p)));
        }
    // The last stage's top token is the final token, and its probability is that row's entry.
    for (int p = 0; p < int(lens.positions.size()); ++p) {
        QCOMPARE(lens.topAt(lens.stages() - 1, p)[0].tokenId, lens.finalTokens[size_t(p)]);
        HL_COMPARE_NEAR(lens.topAt(lens.stages() - 1, p)[0].probability,
                        lens.finalProbability(lens.stages() - 1, p), 0.0, 1e-6);
    }
}

void TestTransformerLens::lastStageIsTheModelsOutput()
{
    QFETCH(QString, folder);
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    auto golden = goldenOf(folder);
    const std::vector<int> ids = idsOf(golden["ids"]);
    const LogitLens lens = TransformerLens(model).logitLens(ids, 1);
    TransformerRunOptions options;
    options.logitsForEveryPosition = true;
    const TransformerRun run = model.run(ids, options);
    const RowMatrix logits = run.logits.matrix({});
    for (int p = 0; p < int(lens.positions.size()); ++p) {
        // Decoders' logits have a row per position, an encoder's all-positions rows too.
        const Vector row = logits.row(lens.positions[size_t(p)]).transpose();
        Eigen::Index best = 0;
        row.maxCoeff(&best);
        QCOMPARE(lens.finalTokens[size_t(p)], int(best));
        HL_COMPARE_NEAR(lens.finalProbability(lens.stages() - 1, p), softmaxProbability(row, best),
                        0.0, 1e-6);
    }
}

// ||v_j W_O,h|| of every layer, head and token (Kobayashi et al. 2020) against the float64
// reference's, from what each layer's attention reads; GQA heads read their group's v.
void TestTransformerLens::valueNormsMatchNumPy()
{
    QFETCH(QString, folder);
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    auto golden = goldenOf(folder);
    const TransformerRun run = model.run(idsOf(golden["ids"]));
    const Tensor norms = TransformerLens(model).valueNorms(run.layerInputs);
    const Tensor &expected = golden["value_norms"];
    QCOMPARE(norms.shape().toPlainString(), expected.shape().toPlainString());
    double worst = 0.0;
    for (int64_t i = 0; i < expected.numel(); ++i)
        worst = std::max(worst, std::abs(double(norms.data()[i]) - double(expected.data()[i])) /
                                    std::max(1.0, double(expected.data()[i])));
    QVERIFY2(worst < 1e-5, qPrintable(QString::number(worst)));
}

void TestTransformerLens::circuitsMatchNumPy_data()
{
    QTest::addColumn<QString>("folder");
    QTest::newRow("gpt2 tiny (Conv1D)") << QStringLiteral(HEADLENS_TEST_DATA "/gpt2/tiny");
    QTest::newRow("llama gqa (a group's K and V)")
        << QStringLiteral(HEADLENS_TEST_DATA "/llama/llama_gqa");
    QTest::newRow("qwen3 (head_dim 16)")
        << QStringLiteral(HEADLENS_TEST_DATA "/llama/qwen3_qknorm");
}

// The last layer's second head's QK and OV circuits on the text's distinct tokens against the
// float64 reference's, which forms the d_model x d_model products and their full SVD and
// eigenvalues (HeadLens goes through thin QR factors).
void TestTransformerLens::circuitsMatchNumPy()
{
    QFETCH(QString, folder);
    const std::shared_ptr<const OpenedModel> model = ModelOpener::open(folder.toStdString());
    auto golden = goldenOf(folder);
    const HeadCircuits c = model->circuits(model->layers() - 1, 1, idsOf(golden["circuit_ids"]));
    const auto near = [](double a, double b) {
        return std::abs(a - b) <= 1e-4 * std::max(1.0, std::abs(b));
    };
    for (const auto &[name, values] : {std::pair{"circuit_qk_sv", &c.circuit.qkSingularValues},
                                       std::pair{"circuit_ov_sv", &c.circuit.ovSingularValues}}) {
        const Tensor &expected = golden[name];
        QCOMPARE(int64_t(values->size()), expected.numel());
        for (int64_t k = 0; k < expected.numel(); ++k)
            QVERIFY2(near((*values)[size_t(k)], expected.data()[k]),
                     qPrintable(QString("%1[%2]: %3, NumPy %4")
                                    .arg(name)
                                    .arg(k)
                                    .arg((*values)[size_t(k)])
                                    .arg(expected.data()[k])));
    }
    for (const auto &[name, values] : {std::pair{"circuit_qk", &c.circuit.qkTokens},
                                       std::pair{"circuit_ov", &c.circuit.ovTokens}}) {
        const RowMatrix expected = tableOf(golden[name]);
        QCOMPARE(values->rows(), expected.rows());
        for (Eigen::Index i = 0; i < expected.size(); ++i)
            QVERIFY2(near(values->data()[i], expected.data()[i]), name);
    }
    QVERIFY2(near(c.circuit.copyingScore, golden["circuit_copying"].data()[0]),
             qPrintable(QString::number(c.circuit.copyingScore)));
}

void TestTransformerLens::attributionMatchesNumPy_data()
{
    QTest::addColumn<QString>("folder");
    QTest::newRow("gpt2 tiny (LayerNorm)") << QStringLiteral(HEADLENS_TEST_DATA "/gpt2/tiny");
    QTest::newRow("llama gqa (RMSNorm)") << QStringLiteral(HEADLENS_TEST_DATA "/llama/llama_gqa");
    QTest::newRow("qwen3 (head_dim 16)")
        << QStringLiteral(HEADLENS_TEST_DATA "/llama/qwen3_qknorm");
}

void TestTransformerLens::attributionMatchesNumPy()
{
    QFETCH(QString, folder);
    const TransformerModel model = TransformerModel::open(folder.toStdString());
    auto golden = goldenOf(folder);
    const std::vector<int> tokens = idsOf(golden["dla_token"]);
    const LogitAttribution a =
        TransformerLens(model).attribution(idsOf(golden["ids"]), -1, tokens[0], tokens[1], 5);
    QCOMPARE(a.position, int(golden["ids"].numel()) - 1);
    QCOMPARE(a.token, tokens[0]);
    QCOMPARE(a.wrong, tokens[1]);
    HL_COMPARE_NEAR(a.logit, golden["dla_logit"].data()[0], 0.0, 1e-4);
    const RowMatrix heads = tableOf(golden["dla_heads"]);
    QCOMPARE(a.heads.rows(), heads.rows());
    QCOMPARE(a.heads.cols(), heads.cols());
    HL_COMPARE_NEAR((a.heads - heads).cwiseAbs().maxCoeff(), 0.0, 0.0, 1e-4);
    HL_COMPARE_NEAR(a.embeddings, golden["dla_embeddings"].data()[0], 0.0, 1e-4);
    HL_COMPARE_NEAR(a.normBias, golden["dla_norm_bias"].data()[0], 0.0, 1e-4);
    for (int layer = 0; layer < model.spec().layers; ++layer) {
        HL_COMPARE_NEAR(a.mlps[size_t(layer)], golden["dla_mlps"].data()[layer], 0.0, 1e-4);
        HL_COMPARE_NEAR(a.biases[size_t(layer)], golden["dla_biases"].data()[layer], 0.0, 1e-4);
    }
    HL_COMPARE_NEAR(a.sum(), a.logit, 0.0, 1e-4); // the parts add up to the logit difference
    QVERIFY(std::abs(a.logit) > 1e-3);            // a difference there is to split up
}

void TestTransformerLens::attributionOfOneTokenSumsToItsLogit()
{
    const TransformerModel model = TransformerModel::open(HEADLENS_TEST_DATA "/gpt2/tiny");
    const std::vector<int> ids{12, 40, 7, 99, 31, 64};
    TransformerRunOptions options;
    options.logitsForEveryPosition = true;
    const RowMatrix logits = model.run(ids, options).logits.matrix({});
    for (const int position : {0, 3, 5})
        for (const int token : {0, 33, 200}) {
            const LogitAttribution a =
                TransformerLens(model).attribution(ids, position, token, -1, 3);
            HL_COMPARE_NEAR(a.logit, logits(position, token), 0.0, 1e-5);
            HL_COMPARE_NEAR(a.sum(), a.logit, 0.0, 1e-4);
            QVERIFY(a.wrongLabel.empty());
            QCOMPARE(a.tokenLabel, model.tokenizer().displayLabel(token));
        }
}

void TestTransformerLens::headsPromoteWhatTheirSharesSay()
{
    // A head's share of logit(token) is its reading through the frozen norm dotted with
    // W_U[token]: the token it promotes most has the largest such share of all tokens, so its
    // attribution for that token is the top of the promoted list, and likewise suppressed.
    const TransformerModel model = TransformerModel::open(HEADLENS_TEST_DATA "/llama/llama_gqa");
    const std::vector<int> ids{12, 40, 7, 99, 31, 64, 5};
    const TransformerLens lens(model);
    const LogitAttribution any = lens.attribution(ids, -1, 1, -1, 4);
    const int heads = model.spec().heads;
    QCOMPARE(int(any.promoted.size()), model.spec().layers * heads);
    for (int layer = 0; layer < model.spec().layers; ++layer)
        for (int head = 0; head < heads; ++head) {
            const auto &up = any.promoted[size_t(layer * heads + head)];
            const auto &down = any.suppressed[size_t(layer * heads + head)];
            QCOMPARE(int(up.size()), 4);
            QVERIFY(up[0].value >= up[1].value && up[1].value >= up[3].value);
            QVERIFY(down[0].value <= down[1].value && down[1].value <= down[3].value);
            QVERIFY(up[0].value > down[0].value);
            const LogitAttribution top = lens.attribution(ids, -1, up[0].tokenId, -1, 1);
            HL_COMPARE_NEAR(top.heads(layer, head), up[0].value, 0.0, 1e-4);
            const LogitAttribution bottom = lens.attribution(ids, -1, down[0].tokenId, -1, 1);
            HL_COMPARE_NEAR(bottom.heads(layer, head), down[0].value, 0.0, 1e-4);
            QCOMPARE(up[0].label, model.tokenizer().displayLabel(up[0].tokenId));
        }
}

void TestTransformerLens::refusals()
{
    const TransformerModel gpt2 = TransformerModel::open(HEADLENS_TEST_DATA "/gpt2/tiny");
    const TransformerLens lens(gpt2);
    const QString position = test::errorOf([&] {
        lens.attribution(std::vector<int>{1, 2, 3}, 3, 5, -1, 1);
    });
    QVERIFY2(position.contains("There is no token 4 in the text: it has 3 tokens"),
             qPrintable(position));
    const int vocab = gpt2.spec().vocabSize;
    const QString token = test::errorOf([&] {
        lens.attribution(std::vector<int>{1, 2, 3}, -1, vocab, -1, 1);
    });
    QVERIFY2(token.contains("Token id " + QString::number(vocab) + " is not in the vocabulary") &&
                 token.contains("0 to " + QString::number(vocab - 1)),
             qPrintable(token));
    const QString wrong = test::errorOf([&] {
        lens.attribution(std::vector<int>{1, 2, 3}, -1, 5, -2, 1);
    });
    QVERIFY2(wrong.contains("Token id -2"), qPrintable(wrong));

    const TransformerModel bert = TransformerModel::open(HEADLENS_TEST_DATA "/bert/bert_mlm");
    const QString encoder = test::errorOf([&] {
        TransformerLens(bert).attribution(std::vector<int>{2, 10, 3}, -1, 5, -1, 1);
    });
    QVERIFY2(encoder.contains("normalises the stream after every block") &&
                 encoder.contains("--importance"),
             qPrintable(encoder));
    const QString noMask = test::errorOf([&] {
        TransformerLens(bert).logitLens(std::vector<int>{2, 10, 3}, 1);
    });
    QVERIFY2(noMask.contains("the text has none") && noMask.contains("[MASK]"), qPrintable(noMask));
    const TransformerModel bare = TransformerModel::open(HEADLENS_TEST_DATA "/bert/bert_bare");
    const QString head = test::errorOf([&] {
        TransformerLens(bare).logitLens(std::vector<int>{2, 4, 3}, 1);
    });
    QVERIFY2(head.contains("has none"), qPrintable(head));
    bool cancelled = false;
    try {
        lens.logitLens(std::vector<int>{1, 2, 3}, 1, [](double) { return false; });
    } catch (const Cancelled &) {
        cancelled = true;
    }
    QVERIFY(cancelled);
}

HEADLENS_TEST_GUILESS_MAIN(TestTransformerLens)
#include "tst_transformerlens.moc"
