// tst_toyparameters: the read-only views of a toy model list its parameters in place, no copy.
#include "io/nonfinitevalues.h"
#include "testmain.h"
#include "train/toyparameters.h"

#include <QTest>

#include <limits>

using namespace headlens;

class TestToyParameters : public QObject
{
    Q_OBJECT

private slots:
    void readOnlyViewsAreTheWritableOnes_data();
    void readOnlyViewsAreTheWritableOnes();
    void aNaNIsFoundInPlace();
};

void TestToyParameters::readOnlyViewsAreTheWritableOnes_data()
{
    QTest::addColumn<bool>("layerNorm");
    QTest::addColumn<int>("count");
    // Two layers: embeddings and positions, 4 tensors a layer, the unembedding and its bias;
    // with LayerNorm also gamma and beta in each layer and at the end.
    QTest::newRow("without LayerNorm") << false << 2 + 2 * 4 + 2;
    QTest::newRow("with LayerNorm") << true << 2 + 2 * 6 + 2 + 2;
}

// The file writer and the NaN scan read through these: they must see the model's own storage
// (a copy of a large toy model doubled its memory) under the names the writable views give.
void TestToyParameters::readOnlyViewsAreTheWritableOnes()
{
    QFETCH(bool, layerNorm);
    QFETCH(int, count);
    ToyModelConfig config;
    config.layers = 2;
    config.layerNorm = layerNorm;
    ToyParameters parameters = ToyParameters::initialize(config, 7);
    const ToyParameters &model = parameters;
    const std::vector<ParameterViewT<const float>> read = model.views(layerNorm);
    const std::vector<ParameterViewT<float>> written = parameters.views(layerNorm);
    QCOMPARE(int(read.size()), count);
    QCOMPARE(int(written.size()), count);
    for (size_t i = 0; i < read.size(); ++i) {
        QCOMPARE(read[i].name, written[i].name);
        QCOMPARE(read[i].data, static_cast<const float *>(written[i].data));
        QCOMPARE(read[i].rows, written[i].rows);
        QCOMPARE(read[i].cols, written[i].cols);
    }
    QCOMPARE(read.front().data, model.tokenEmbedding.data());
    QCOMPARE(read.back().data, model.unembeddingBias.data());
    QCOMPARE(read.back().size(), Eigen::Index(config.vocabulary));
    QCOMPARE(read.front().matrix()(1, 2), model.tokenEmbedding(1, 2));
}

void TestToyParameters::aNaNIsFoundInPlace()
{
    ToyModelConfig config;
    config.layers = 2;
    ToyParameters parameters = ToyParameters::initialize(config, 7);
    parameters.layers[1].outProj(2, 3) = std::numeric_limits<float>::quiet_NaN();
    const ToyParameters &model = parameters;
    std::vector<std::string> blamed;
    for (const ParameterViewT<const float> &view : model.views(false))
        if (NonFiniteValues::of(view.data, view.size()).any())
            blamed.push_back(view.name);
    QCOMPARE(blamed, std::vector<std::string>{"layers.1.attn.out_proj.weight"});
}

HEADLENS_TEST_APPLESS_MAIN(TestToyParameters)
#include "tst_toyparameters.moc"
