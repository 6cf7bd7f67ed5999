// Tests experiments over a dataset: the file's two forms and its refusals (naming the line),
// the mean and spread by hand, each prompt's values equal to the model's own analysis of that
// prompt alone, and a mean ablation that replaces a head by its mean over the whole dataset.
#include "corpus/datasetexperiment.h"
#include "corpus/datasetfile.h"
#include "model/headatlasprobe.h"
#include "model/modelopener.h"
#include "model/modelrun.h"
#include "util/inputerror.h"

#include "errorof.h"
#include "folderfiles.h"
#include "testdata.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace headlens;

namespace {

/// `contents` written into a fresh file of `dir`; its path.
std::string datasetFile(const QTemporaryDir &dir, const QByteArray &contents)
{
    static int files = 0;
    const QString path = dir.filePath(QString("dataset%1.txt").arg(++files));
    test::writeFile(path, contents);
    return path.toStdString();
}

/// The IOI-like pair the tiny GPT-2's patching tests use: logit(" the") - logit(" on") moves
/// by more than ln 2 between the two texts.
const char *const kPairLine =
    R"({"clean": "Hello world, the cat sat", "corrupted": "Hello world, the cat on", "answer": " the", "wrong": " on"})";

} // namespace

class TestDatasetExperiment : public QObject
{
    Q_OBJECT

private slots:
    void readsTextsOrPairs();
    void badLinesAreNamed_data();
    void badLinesAreNamed();
    void meanAndSpreadByHand();
    void atlasScoresAreEachPromptsOwn();
    void eachPromptIsTheModelsOwnImportance();
    void meanAblationUsesTheDatasetsMean();
    void pairsGiveEachPairsPatchingMap();
    void refusedPromptsAreLeftOutWithTheirLine();

private:
    QTemporaryDir m_dir;
};

void TestDatasetExperiment::readsTextsOrPairs()
{
    const Dataset texts =
        DatasetFile::read(datasetFile(m_dir, "The cat sat\n\n  \nA dog ran\r\nlast"));
    QVERIFY(!texts.pairs);
    QCOMPARE(texts.prompts.size(), size_t(3));
    QCOMPARE(texts.prompts[1].text, std::string("A dog ran"));
    QCOMPARE(texts.prompts[1].line, int64_t(4)); // blank lines are skipped, not renumbered
    QCOMPARE(texts.prompts[2].text, std::string("last"));

    const Dataset pairs = DatasetFile::read(datasetFile(m_dir, QByteArray(kPairLine) + "\n"));
    QVERIFY(pairs.pairs);
    QCOMPARE(pairs.prompts.size(), size_t(1));
    QCOMPARE(pairs.prompts[0].clean, std::string("Hello world, the cat sat"));
    QCOMPARE(pairs.prompts[0].text, std::string("Hello world, the cat on"));
    QCOMPARE(pairs.prompts[0].answer, std::string(" the"));
    QCOMPARE(pairs.prompts[0].wrong, std::string(" on"));
}

void TestDatasetExperiment::badLinesAreNamed_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("expected");
    QTest::newRow("a text among pairs") << QByteArray(kPairLine) + "\n\nThe cat sat\n"
                                        << "line 3 is not a JSON object";
    QTest::newRow("a field missing")
        << QByteArray(R"({"clean": "a", "corrupted": "b", "answer": " c"})")
        << "no \"wrong\" string";
    QTest::newRow("a number")
        << QByteArray(R"({"clean": "a", "corrupted": "b", "answer": 3, "wrong": "d"})")
        << "line 1 has no \"answer\" string";
    QTest::newRow("an empty field")
        << QByteArray(R"({"clean": "", "corrupted": "b", "answer": "c", "wrong": "d"})")
        << "\"clean\" is empty";
    QTest::newRow("broken JSON") << QByteArray("{\"clean\": \"a\"") << "not a JSON object";
    QTest::newRow("no prompt") << QByteArray("\n  \n") << "holds no text";
    QTest::newRow("binary") << QByteArray("a\0b", 3) << "is not text";
}

void TestDatasetExperiment::badLinesAreNamed()
{
    QFETCH(QByteArray, contents);
    QFETCH(QString, expected);
    const std::string path = datasetFile(m_dir, contents);
    const QString message = test::errorOf([&] { DatasetFile::read(path); });
    QVERIFY2(message.contains(expected), qPrintable(message));
    QVERIFY2(message.contains("Dataset " + QString::fromStdString(path)), qPrintable(message));
}

void TestDatasetExperiment::meanAndSpreadByHand()
{
    // Three prompts, one layer, two heads: head 1 takes 1, 2, 6 (mean 3, sample variance
    // (4 + 1 + 9) / 2 = 7); head 2 is -1 everywhere (spread 0).
    Tensor values(Shape{{"prompt", 3}, {"layer", 1}, {"h", 2}});
    const float each[] = {1, -1, 2, -1, 6, -1};
    std::copy(std::begin(each), std::end(each), values.data());
    RowMatrix mean, spread;
    meanAndSpread(values, mean, spread);
    QCOMPARE(mean(0, 0), 3.0f);
    QCOMPARE(mean(0, 1), -1.0f);
    QCOMPARE(spread(0, 0), float(std::sqrt(7.0)));
    QCOMPARE(spread(0, 1), 0.0f);
    // One prompt: no spread to speak of.
    Tensor one(Shape{{"prompt", 1}, {"layer", 1}, {"h", 2}});
    meanAndSpread(one, mean, spread);
    QCOMPARE(spread, RowMatrix(RowMatrix::Zero(1, 2)));
    // A value a prompt cannot measure (NaN) is left out: head 1 takes 1 and 6 (mean 3.5,
    // sample variance (6.25 + 6.25) / 1), head 2 only -1 (no spread); a head no prompt
    // measures is NaN.
    const float nan = std::nanf("");
    Tensor gaps(Shape{{"prompt", 3}, {"layer", 1}, {"h", 3}});
    const float withGaps[] = {1, -1, nan, nan, nan, nan, 6, nan, nan};
    std::copy(std::begin(withGaps), std::end(withGaps), gaps.data());
    meanAndSpread(gaps, mean, spread);
    QCOMPARE(mean(0, 0), 3.5f);
    QCOMPARE(spread(0, 0), float(std::sqrt(12.5)));
    QCOMPARE(mean(0, 1), -1.0f);
    QCOMPARE(spread(0, 1), 0.0f);
    QVERIFY(std::isnan(mean(0, 2)) && std::isnan(spread(0, 2)));
}

void TestDatasetExperiment::atlasScoresAreEachPromptsOwn()
{
    const auto model = ModelOpener::open(test::tinyGpt2().toStdString());
    const Dataset dataset =
        DatasetFile::read(datasetFile(m_dir, "The cat sat on the mat.\nA dog ran far away\n"));
    DatasetRequest request;
    request.atlas = true;
    const DatasetResult result = runDatasetExperiment(*model, dataset, request, {});
    // Importance, then the text's scores a decoder measures: no [CLS] or [SEP].
    std::vector<std::string> names;
    for (const DatasetMeasure &measure : result.measures)
        names.push_back(measure.name);
    QCOMPARE(names,
             (std::vector<std::string>{"importance", "atlas_first_token", "atlas_self",
                                       "atlas_fixed_offset", "atlas_local", "atlas_punctuation"}));
    // Each prompt's values are the atlas of the model's run on it; the second prompt has no
    // punctuation, so the mean of that score is the first prompt's alone.
    for (int p = 0; p < 2; ++p) {
        const auto run =
            model->run(ModelInput(model->encode(dataset.prompts[size_t(p)].text)), 0, {});
        const HeadAtlas atlas = textAtlas(*run);
        const AtlasScore kinds[] = {AtlasScore::FirstToken, AtlasScore::Self, AtlasScore::Offset,
                                    AtlasScore::Local, AtlasScore::Punctuation};
        for (size_t m = 1; m < names.size(); ++m) {
            const AtlasScore kind = kinds[m - 1];
            for (int layer = 0; layer < 2; ++layer)
                for (int head = 0; head < 2; ++head) {
                    const float got = result.measures[m].perPrompt.matrix({p})(layer, head);
                    const double want = atlas.score(kind, layer, head);
                    QVERIFY2(std::isnan(want) ? std::isnan(got) : got == float(want),
                             names[m].c_str());
                }
        }
    }
    const DatasetMeasure &punctuation = result.measures.back();
    QVERIFY(std::isnan(punctuation.perPrompt.matrix({1})(0, 0)));
    QCOMPARE(punctuation.mean(0, 0), punctuation.perPrompt.matrix({0})(0, 0));
    QCOMPARE(punctuation.spread(0, 0), 0.0f);
}

void TestDatasetExperiment::eachPromptIsTheModelsOwnImportance()
{
    const auto model = ModelOpener::open(test::tinyGpt2().toStdString());
    const Dataset dataset =
        DatasetFile::read(datasetFile(m_dir, "The cat sat on the mat\nA dog ran far away\n"));
    DatasetRequest request;
    request.dlaToken = " the";
    int calls = 0;
    const DatasetResult result = runDatasetExperiment(*model, dataset, request, [&](double) {
        ++calls;
        return true;
    });
    QVERIFY(calls > 2);
    QCOMPARE(result.lines, (std::vector<int64_t>{1, 2}));
    QCOMPARE(result.measures.size(), size_t(2));
    const DatasetMeasure &importance = result.measures[0];
    const DatasetMeasure &dla = result.measures[1];
    QCOMPARE(importance.name, std::string("importance"));
    QCOMPARE(dla.name, std::string("dla"));
    QCOMPARE(importance.perPrompt.shape().sizes(), (std::vector<int64_t>{2, 2, 2}));
    const int token = model->answerToken(" the");
    for (int p = 0; p < 2; ++p) {
        const ModelInput input(model->encode(dataset.prompts[size_t(p)].text));
        QVERIFY(importance.perPrompt.matrix({p}) == model->importance(input, {}).lossIncrease);
        QVERIFY(dla.perPrompt.matrix({p}) == model->attribution(input, -1, token, -1, 0, {}).heads);
    }
    const RowMatrix average =
        (importance.perPrompt.matrix({0}) + importance.perPrompt.matrix({1})) / 2.0f;
    QVERIFY((importance.mean - average).cwiseAbs().maxCoeff() < 1e-6f);
    QVERIFY(result.headOutputMeans.isEmpty()); // zero ablation: no means needed
}

void TestDatasetExperiment::meanAblationUsesTheDatasetsMean()
{
    const auto model = ModelOpener::open(test::tinyGpt2().toStdString());
    const Dataset dataset =
        DatasetFile::read(datasetFile(m_dir, "The cat sat on the mat\nA dog ran\n"));
    DatasetRequest request;
    request.ablation = InterventionKind::Mean;
    const DatasetResult result = runDatasetExperiment(*model, dataset, request, {});
    // The dataset's mean z_h: every token of both texts, summed here one value at a time.
    std::vector<double> sums;
    int64_t tokens = 0;
    for (const DatasetPrompt &prompt : dataset.prompts) {
        const std::vector<int> ids = model->encode(prompt.text);
        const auto run = model->run(ModelInput(ids), 0, {});
        sums.resize(size_t(run->headOutputSums.numel()), 0.0);
        for (size_t i = 0; i < sums.size(); ++i)
            sums[i] += double(run->headOutputSums.data()[i]);
        tokens += int64_t(ids.size());
    }
    QCOMPARE(result.headOutputMeans.numel(), int64_t(sums.size()));
    for (size_t i = 0; i < sums.size(); ++i)
        QVERIFY(std::abs(result.headOutputMeans.data()[i] - sums[i] / double(tokens)) < 1e-6);
    // Each prompt's importance is the model's with those means written in, not the zero one's.
    const ModelInput input(model->encode(dataset.prompts[1].text));
    const RowMatrix withMeans =
        model->importance(input, {InterventionKind::Mean, result.headOutputMeans}, {}).lossIncrease;
    QVERIFY(result.measures[0].perPrompt.matrix({1}) == withMeans);
    QVERIFY(withMeans != model->importance(input, {}).lossIncrease);
    QVERIFY(withMeans != model->importance(input, {InterventionKind::Mean, {}}, {}).lossIncrease);
    QVERIFY2(
        QString::fromStdString(result.measures[0].meaning).contains("mean output over the dataset"),
        result.measures[0].meaning.c_str());
}

void TestDatasetExperiment::pairsGiveEachPairsPatchingMap()
{
    const auto model = ModelOpener::open(test::tinyGpt2().toStdString());
    const Dataset dataset =
        DatasetFile::read(datasetFile(m_dir, QByteArray(kPairLine) + "\n" + kPairLine + "\n"));
    const DatasetResult result = runDatasetExperiment(*model, dataset, {}, {});
    QCOMPARE(result.measures.size(), size_t(1));
    QCOMPARE(result.measures[0].name, std::string("patching"));
    PatchingQuestion question;
    question.answer = model->answerToken(" the");
    question.wrong = model->answerToken(" on");
    const RowMatrix expected =
        model
            ->patching(ModelInput(model->encode("Hello world, the cat sat")),
                       ModelInput(model->encode("Hello world, the cat on")), question, {})
            .restored;
    QVERIFY(result.measures[0].perPrompt.matrix({0}) == expected);
    QVERIFY(result.measures[0].mean == expected); // the same pair twice: its own mean
    QCOMPARE(result.measures[0].spread, RowMatrix(RowMatrix::Zero(2, 2)));
}

void TestDatasetExperiment::refusedPromptsAreLeftOutWithTheirLine()
{
    const auto model = ModelOpener::open(test::tinyGpt2().toStdString());
    // "a" is one token: nothing to predict, so no loss to raise.
    const Dataset dataset =
        DatasetFile::read(datasetFile(m_dir, "The cat sat on the mat\na\nA dog ran\n"));
    const DatasetResult result = runDatasetExperiment(*model, dataset, {}, {});
    QCOMPARE(result.lines, (std::vector<int64_t>{1, 3}));
    QCOMPARE(result.skipped.size(), size_t(1));
    QVERIFY2(QString::fromStdString(result.skipped[0]).startsWith("line 2: "),
             result.skipped[0].c_str());
    QCOMPARE(result.measures[0].perPrompt.shape().size(0), int64_t(2));
    // Every prompt refused: the first reason, said once.
    const Dataset refused = DatasetFile::read(datasetFile(m_dir, "a\nb\n"));
    const QString message = test::errorOf([&] { runDatasetExperiment(*model, refused, {}, {}); });
    QVERIFY2(message.contains("No prompt of dataset") && message.contains("line 1: "),
             qPrintable(message));
}

HEADLENS_TEST_MAIN(TestDatasetExperiment)
#include "tst_datasetexperiment.moc"
