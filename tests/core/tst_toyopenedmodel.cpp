// tst_toyopenedmodel: the Model box's summary of a toy model counts its heads and layers in words,
// and a parameter holding NaN or infinite values is named with its counts.
#include "model/toyopenedmodel.h"
#include "testmain.h"
#include "train/trainer.h"

#include <QTest>

#include <limits>
#include <memory>

using namespace headlens;

class TestToyOpenedModel : public QObject
{
    Q_OBJECT

private slots:
    void summaryCountsHeadsAndLayers_data();
    void summaryCountsHeadsAndLayers();
    void nonFiniteParametersAreNamedAndCounted();
};

void TestToyOpenedModel::summaryCountsHeadsAndLayers_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    QTest::addColumn<QString>("attention");
    QTest::addColumn<QString>("depth");
    // The previous-token model of the lesson: it said "1 heads" and "1 layers".
    QTest::newRow("1 layer of 1 head") << 1 << 1 << "d_model 16 · 1 head · d_k 16 · causal"
                                       << "1 layer · vocabulary 12 · context 12";
    QTest::newRow("2 layers of 2 heads") << 2 << 2 << "d_model 16 · 2 heads · d_k 8 · causal"
                                         << "2 layers · vocabulary 12 · context 12";
}

void TestToyOpenedModel::summaryCountsHeadsAndLayers()
{
    QFETCH(int, layers);
    QFETCH(int, heads);
    QFETCH(QString, attention);
    QFETCH(QString, depth);
    TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
    settings.model = {layers, heads, 16, 12, 12, false};
    settings.heldOutSize = 4;
    Trainer trainer(settings);
    const ToyOpenedModel model(std::make_shared<const TrainedModel>(trainer.trainedModel()), "");
    const auto run = model.run(model.encode("abcabc"), 0, nullptr);
    const QStringList lines = QString::fromStdString(run->settingsSummary).split('\n');
    QCOMPARE(lines, QStringList({attention, depth}));
}

// Two NaN and one infinity put into layer 0's W_O: one warning, for that tensor alone, with
// those counts out of its d_model^2 values and the toy model's own advice.
void TestToyOpenedModel::nonFiniteParametersAreNamedAndCounted()
{
    TrainingSettings settings = TrainingSettings::defaultsFor(TaskKind::PreviousToken);
    settings.model = {1, 2, 16, 12, 12, false};
    settings.heldOutSize = 4;
    Trainer trainer(settings);
    TrainedModel trained = trainer.trainedModel();
    QVERIFY(ToyOpenedModel(std::make_shared<const TrainedModel>(trained), "").warnings().empty());
    auto &outProj = trained.parameters.layers[0].outProj;
    outProj(0, 0) = std::numeric_limits<float>::quiet_NaN();
    outProj(3, 5) = std::numeric_limits<float>::quiet_NaN();
    outProj(7, 1) = std::numeric_limits<float>::infinity();
    const ToyOpenedModel model(std::make_shared<const TrainedModel>(trained), "toy.npz");
    const std::vector<std::string> warnings = model.warnings();
    QCOMPARE(warnings.size(), size_t(1));
    const QString warning = QString::fromStdString(warnings[0]);
    QVERIFY2(warning.startsWith("toy.npz: 'layers.0.attn.out_proj.weight' holds 2 NaN and 1 "
                                "infinite value"),
             qPrintable(warning));
    QVERIFY2(warning.contains("256"), qPrintable(warning));
    QVERIFY2(warning.contains("lower learning rate"), qPrintable(warning));
}

HEADLENS_TEST_APPLESS_MAIN(TestToyOpenedModel)
#include "tst_toyopenedmodel.moc"
