// computeTrace and computeLayerOutput against references outside HeadLens: GQA, MQA, RoPE, ALiBi.
#include "approx.h"
#include "attentiongolden.h"

#include "attention/attentionforward.h"
#include "attention/weightsfile.h"
#include "session/weightspolicy.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;
using namespace headlens::test;

namespace {

// float32 against float32 PyTorch or float64 NumPy: sums in other orders, as tst_pytorchgolden.
constexpr double kRelative = 1e-4;
constexpr double kAbsolute = 1e-6;

/// The golden's layer as the window and headlens-cli build it: its settings, then what the
/// Hugging Face weights fix (d_model, bias, h_kv from the rows of q_proj and k_proj).
struct GoldenLayer
{
    GoldenEntries entries;
    LoadedWeights loaded;
    AttentionConfig config;
    AttentionInput input;

    explicit GoldenLayer(const QString &path)
        : entries(readAttentionGolden(path)),
          loaded(
              WeightsFile::fromEntries(NpzArchive::read(path.toStdString()), path.toStdString())),
          config(WeightsPolicy::adopt(loaded, goldenSettings(entries), ChosenSettings::none())),
          input(goldenInput(entries))
    {
        WeightsPolicy::check(loaded, config, path.toStdString());
    }
};

} // namespace

class TestAttentionGolden : public QObject
{
    Q_OBJECT

private slots:
    void traceMatchesTheReference_data();
    void traceMatchesTheReference();
    void leanPathMatchesTheReference_data();
    void leanPathMatchesTheReference();
};

void TestAttentionGolden::traceMatchesTheReference_data()
{
    QTest::addColumn<QString>("file");
    for (const char *name : kAttentionGoldens)
        QTest::newRow(name) << attentionGoldenPath(name);
}

// Every tensor the reference saved, under the trace's name: projections, K/V heads, rotated q and
// k, repeated K/V heads, ALiBi's bias, scaled scores, weights, context and output.
void TestAttentionGolden::traceMatchesTheReference()
{
    QFETCH(QString, file);
    const GoldenLayer layer(file);
    QCOMPARE(layer.config.kvHeadCount(), goldenInt(layer.entries, "num_kv_heads"));
    const Trace trace = computeTrace(layer.config, layer.input, layer.loaded.weights);
    int compared = 0;
    for (const char *name : kAttentionGoldenTensors) {
        if (!layer.entries.count(name))
            continue;
        const TraceTensor *recorded = nullptr;
        for (const TraceTensor &t : trace.tensors())
            if (t.name() == name)
                recorded = &t;
        QVERIFY2(recorded, name);
        HL_COMPARE_TENSORS_NEAR(recorded->tensor, layer.entries.at(name), kRelative, kAbsolute);
        ++compared;
    }
    QVERIFY(compared >= 9); // q, k, v, k_heads, v_heads, scores, weights, context, output
    // And no tensor the settings do not call for.
    QCOMPARE(trace.hasTensor(keys::kRepeated), layer.entries.count("k_repeated") == 1);
    QCOMPARE(trace.hasTensor(keys::qRot), layer.entries.count("q_rot") == 1);
    QCOMPARE(trace.hasTensor(keys::alibiBias), layer.entries.count("alibi_bias") == 1);
}

void TestAttentionGolden::leanPathMatchesTheReference_data()
{
    traceMatchesTheReference_data();
}

// The path a model's other layers take: output and attention probabilities, no trace.
void TestAttentionGolden::leanPathMatchesTheReference()
{
    QFETCH(QString, file);
    const GoldenLayer layer(file);
    const Tensor &weights = layer.entries.at("weights");
    Tensor probabilities(weights.shape());
    const Tensor output =
        computeLayerOutput(layer.config, layer.input, layer.loaded.weights,
                           AttentionRecord{Record::AttentionOnly, probabilities.data()});
    HL_COMPARE_TENSORS_NEAR(output, layer.entries.at("output"), kRelative, kAbsolute);
    HL_COMPARE_TENSORS_NEAR(probabilities, weights, kRelative, kAbsolute);
}

HEADLENS_TEST_APPLESS_MAIN(TestAttentionGolden)
#include "tst_attentiongolden.moc"
