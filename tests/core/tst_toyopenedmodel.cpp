// tst_toyopenedmodel: the Model box's summary of a toy model counts its heads and layers in words.
#include "model/toyopenedmodel.h"
#include "train/trainer.h"

#include <QTest>

#include <memory>

using namespace headlens;

class TestToyOpenedModel : public QObject
{
    Q_OBJECT

private slots:
    void summaryCountsHeadsAndLayers_data();
    void summaryCountsHeadsAndLayers();
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

QTEST_APPLESS_MAIN(TestToyOpenedModel)
#include "tst_toyopenedmodel.moc"
