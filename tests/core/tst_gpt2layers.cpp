// Tests that every GPT-2 layer runs the one attention path: the same weights whichever is viewed.
#include "approx.h"
#include "gpt2golden.h"

#include "io/npzarchive.h"
#include "model/transformermodel.h"
#include "testmain.h"

#include <QTest>

#include <cstring>

using namespace headlens;
using headlens::test::Gpt2Golden;
using headlens::test::gpt2Golden;
using headlens::test::kGpt2Data;

class TestGpt2Layers : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sameAttentionWhicheverLayerIsViewed_data();
    void sameAttentionWhicheverLayerIsViewed();
    void noViewedLayerMatchesReference_data();
    void noViewedLayerMatchesReference();

private:
    std::unique_ptr<TransformerModel> m_model;
};

void TestGpt2Layers::initTestCase()
{
    m_model = std::make_unique<TransformerModel>(TransformerModel::open(kGpt2Data + "tiny"));
}

void TestGpt2Layers::sameAttentionWhicheverLayerIsViewed_data()
{
    QTest::addColumn<int>("text");
    for (int text = 0; text < 3; ++text)
        QTest::addRow("text%d", text) << text;
}

/// viewedLayer = -1 runs every layer at Record::AttentionOnly; viewing layer l runs that one
/// through computeTrace. Within 1e-6, not bit for bit: see tst_attentionrecord (the softmax of
/// a row rounds its last bit by where the row sits in memory), and a layer after the viewed one
/// reads a residual stream that may differ in that last bit.
void TestGpt2Layers::sameAttentionWhicheverLayerIsViewed()
{
    QFETCH(int, text);
    const std::vector<int> ids = gpt2Golden(text).ids;
    TransformerRunOptions none;
    none.viewedLayer = -1;
    const TransformerRun lean = m_model->run(ids, none);
    QVERIFY(lean.layerTrace.steps.empty());
    const int64_t n = int64_t(ids.size()), h = lean.heads();
    for (int layer = 0; layer < lean.layers(); ++layer) {
        TransformerRunOptions options;
        options.viewedLayer = layer;
        const TransformerRun viewed = m_model->run(ids, options);
        HL_COMPARE_TENSORS_NEAR(viewed.attention, lean.attention, 0.0, 1e-6);
        HL_COMPARE_TENSORS_NEAR(viewed.logits, lean.logits, 1e-5, 1e-5);
        QCOMPARE(viewed.topNext.at(0).tokenId, lean.topNext.at(0).tokenId);
        // The viewed layer's probabilities are the trace's own, copied.
        const Tensor &softmax = viewed.layerTrace.tensor(keys::softmax);
        QCOMPARE(softmax.numel(), h * n * n);
        QVERIFY(std::memcmp(softmax.data(), viewed.attention.data() + layer * h * n * n,
                            sizeof(float) * size_t(h * n * n)) == 0);
    }
}

void TestGpt2Layers::noViewedLayerMatchesReference_data()
{
    sameAttentionWhicheverLayerIsViewed_data();
}

void TestGpt2Layers::noViewedLayerMatchesReference()
{
    QFETCH(int, text);
    const Gpt2Golden g = gpt2Golden(text);
    TransformerRunOptions options;
    options.viewedLayer = -1;
    options.logitsForEveryPosition = true;
    const TransformerRun run = m_model->run(g.ids, options);
    // The tolerances of tst_gpt2model's matchesReference (which views layer 1).
    HL_COMPARE_TENSORS_NEAR(run.attention, g.attention.view(run.attention.shape()), 1e-4, 1e-5);
    HL_COMPARE_TENSORS_NEAR(run.logits, g.logits.view(run.logits.shape()), 1e-4, 1e-4);
}

HEADLENS_TEST_APPLESS_MAIN(TestGpt2Layers)
#include "tst_gpt2layers.moc"
