// tst_trainedmodel: a trained layer shown through computeTrace, the .npz file, the head scores.
#include "approx.h"

#include "attention/attentionforward.h"
#include "io/npzarchive.h"
#include "testmain.h"
#include "train/headscores.h"
#include "train/toymodelfile.h"
#include "train/trainer.h"
#include "util/inputerror.h"

#include <QTemporaryDir>
#include <QTest>

using namespace headlens;

namespace {

TrainingSettings smallInduction(bool layerNorm)
{
    TrainingSettings s = TrainingSettings::defaultsFor(TaskKind::Induction);
    s.model = {2, 2, 16, 12, 12, layerNorm};
    s.heldOutSize = 16;
    return s;
}

} // namespace

class TestTrainedModel : public QObject
{
    Q_OBJECT

private slots:
    void computeTraceShowsTheTrainedLayer_data();
    void computeTraceShowsTheTrainedLayer();
    void fileRoundTrip_data();
    void fileRoundTrip();
    void fileThatIsNotAToyModelIsRefused();
    void headScores_data();
    void headScores();
};

void TestTrainedModel::computeTraceShowsTheTrainedLayer_data()
{
    QTest::addColumn<bool>("layerNorm");
    QTest::addColumn<int>("layer");
    QTest::addColumn<bool>("rope");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<float>("dropout");
    QTest::newRow("layer 0") << false << 0 << false << 0 << 0.0f;
    QTest::newRow("layer 1") << false << 1 << false << 0 << 0.0f;
    QTest::newRow("layer 1 after LayerNorm") << true << 1 << false << 0 << 0.0f;
    // The trained options reach the traced layer: RoPE turns q and k there too, the two query
    // heads read one K/V head, and a model trained with dropout is shown without it.
    QTest::newRow("layer 1, RoPE") << true << 1 << true << 0 << 0.0f;
    QTest::newRow("layer 1, one K/V head") << true << 1 << false << 1 << 0.0f;
    QTest::newRow("layer 1, RoPE, one K/V head, dropout") << true << 1 << true << 1 << 0.2f;
}

/// The heads view draws computeTrace's softmax: it must be the model's own attention.
void TestTrainedModel::computeTraceShowsTheTrainedLayer()
{
    QFETCH(bool, layerNorm);
    QFETCH(int, layer);
    QFETCH(bool, rope);
    QFETCH(int, kvHeads);
    QFETCH(float, dropout);
    TrainingSettings settings = smallInduction(layerNorm);
    settings.model.rope = rope;
    settings.model.kvHeads = kvHeads;
    settings.model.dropout = dropout;
    Trainer trainer(settings);
    trainer.step(20);
    const TrainedModel model = trainer.trainedModel();
    const std::vector<int> tokens = model.task().encode("abcdeabcde");
    // Without GQA the layer's config is the one it was before the option (0: as many as heads).
    QCOMPARE(model.layerConfig(layer).kvHeads, kvHeads);
    const Trace trace = computeTrace(model.layerConfig(layer), model.layerInput(layer, tokens),
                                     model.layerWeights(layer));
    QCOMPARE(trace.input.queryLabel(0, 2), std::string("c"));
    const Tensor &weights = trace.tensor(keys::softmax);
    const std::vector<RowMatrix> expected = model.attention(tokens);
    for (int h = 0; h < 2; ++h) {
        const RowMatrix &want = expected[size_t(layer * 2 + h)];
        const Tensor wantTensor(Shape{{"n", 10}, {"n_kv", 10}},
                                std::vector<float>(want.data(), want.data() + want.size()));
        const float *head = weights.data() + h * 100; // (b=1, h, n, n_kv)
        const Tensor got(Shape{{"n", 10}, {"n_kv", 10}}, std::vector<float>(head, head + 100));
        HL_COMPARE_TENSORS_NEAR(got, wantTensor, 1e-4, 1e-6);
    }
}

void TestTrainedModel::fileRoundTrip_data()
{
    QTest::addColumn<bool>("options");
    QTest::newRow("format 1") << false;
    QTest::newRow("RoPE, GQA and dropout: format 2") << true;
}

void TestTrainedModel::fileRoundTrip()
{
    QFETCH(bool, options);
    QTemporaryDir dir;
    const std::string path = dir.filePath("induction.npz").toStdString();
    TrainingSettings settings = smallInduction(true);
    settings.seed = 0x0123456789abcdefULL; // more bits than a float holds
    if (options) {
        settings.model.heads = 4;
        settings.model.kvHeads = 2;
        settings.model.rope = true;
        settings.model.dropout = 0.1f;
    }
    Trainer trainer(settings);
    trainer.step(3);
    ToyModelFile::save(path, trainer.trainedModel());
    for (const auto &[name, tensor] : NpzArchive::read(path))
        if (name == "headlens_toy_settings") // format 1 while no option needs format 2
            QCOMPARE(tensor.data()[0], options ? 2.0f : 1.0f);
    const TrainedModel loaded = ToyModelFile::load(path);
    QVERIFY(loaded.settings == settings);
    QCOMPARE(loaded.steps, int64_t(3));
    ToyParameters a = loaded.parameters, b = trainer.trainedModel().parameters;
    for (size_t i = 0; i < a.views(true).size(); ++i)
        QVERIFY2(a.views(true)[i].matrix() == b.views(true)[i].matrix(),
                 a.views(true)[i].name.c_str());
    // Training goes on from the file where it stopped.
    Trainer resumed(loaded);
    QCOMPARE(resumed.stepsDone(), int64_t(3));
    HL_COMPARE_NEAR(resumed.evaluate().loss, trainer.evaluate().loss, 0.0, 0.0);
}

void TestTrainedModel::fileThatIsNotAToyModelIsRefused()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("mha.npz").toStdString();
    NpzArchive::write(path, {{"in_proj_weight", Tensor(Shape{{"r", 6}, {"c", 2}})}}, false);
    try {
        ToyModelFile::load(path);
        QFAIL("loaded a file without toy settings");
    } catch (const InputError &error) {
        QVERIFY2(QString(error.what()).contains("--train TASK --save FILE"), error.what());
    }
}

void TestTrainedModel::headScores_data()
{
    QTest::addColumn<int>("pattern");
    QTest::addColumn<double>("previousToken");
    QTest::addColumn<double>("induction");
    // tokens 3 7 5 3 7 5: queries 3 (token 3), 4 (7) and 5 (5) have earlier copies.
    QTest::newRow("looks one back") << 0 << 1.0 << 0.0;
    // Query 1 can only look at token 0, which is also its previous token: 1 of 5 rows.
    QTest::newRow("looks at the earlier copy's successor") << 1 << 0.2 << 1.0;
    QTest::newRow("uniform") << 2 << (1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5 + 1.0 / 6) / 5
                             << (1.0 / 4 + 1.0 / 5 + 1.0 / 6) / 3;
}

void TestTrainedModel::headScores()
{
    QFETCH(int, pattern);
    QFETCH(double, previousToken);
    QFETCH(double, induction);
    const std::vector<int> tokens = {3, 7, 5, 3, 7, 5};
    RowMatrix w = RowMatrix::Zero(6, 6);
    w(0, 0) = 1.0f;
    for (int i = 1; i < 6; ++i) {
        if (pattern == 0)
            w(i, i - 1) = 1.0f;
        else if (pattern == 1)
            w(i, i >= 3 ? i - 2 : 0) = 1.0f;
        else
            w.row(i).head(i + 1).setConstant(1.0f / float(i + 1));
    }
    HL_COMPARE_NEAR(previousTokenScore(w), previousToken, 1e-6, 0.0);
    int queries = 0;
    HL_COMPARE_NEAR(inductionScore(w, tokens, &queries), induction, 1e-6, 0.0);
    QCOMPARE(queries, 3);
}

HEADLENS_TEST_APPLESS_MAIN(TestTrainedModel)
#include "tst_trainedmodel.moc"
