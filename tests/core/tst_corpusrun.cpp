// tst_corpusrun: a corpus file through the tiny GPT-2, checked against each line run on its
// own: token-weighted means of the heads' statistics, Jensen-Shannon distances computed here in
// float64 from the definition, induction scores on the repeated tokens the summary names.
#include "attention/attentionforward.h"
#include "corpus/corpusfile.h"
#include "corpus/corpusrun.h"
#include "model/modelopener.h"
#include "model/transformermodel.h"
#include "util/inputerror.h"

#include "rowdivergence.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <set>

using namespace headlens;

class TestCorpusRun : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void meansWeighEachTextByItsTokens();
    void distancesAreTheMeanDivergencePerQuery();
    void inductionOnRepeatedCorpusTokens();
    void longTextsAreCutToTheLimit();
    void twoHundredLinesStreamThrough();
    void headOutputMeansAreEachHeadsMeanZ();
    void corpusMeanOfOneTextIsThatTextsMean();
    void cancelStops();
    void refusesWhatIsNotACorpus_data();
    void refusesWhatIsNotACorpus();

private:
    std::string write(const std::string &name, const std::string &contents) const;

    QTemporaryDir m_dir;
    std::shared_ptr<const OpenedModel> m_model;
    std::vector<std::string> m_texts{"The cat sat on the mat.", "A dog", "Hello, world! Hello."};
};

using headlens::test::rowJensenShannon;

std::string TestCorpusRun::write(const std::string &name, const std::string &contents) const
{
    const std::string path = m_dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary) << contents;
    return path;
}

void TestCorpusRun::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_model = ModelOpener::open(HEADLENS_TEST_DATA "/gpt2/tiny");
}

void TestCorpusRun::meansWeighEachTextByItsTokens()
{
    // Blank lines and Windows line ends are not texts.
    const std::string path =
        write("three.txt", m_texts[0] + "\r\n\n   \n" + m_texts[1] + "\n" + m_texts[2]);
    const CorpusSummary summary = runCorpus(*m_model, path, {}, nullptr);
    QCOMPARE(summary.texts, int64_t(3));
    QCOMPARE(summary.layers, 2);
    QCOMPARE(summary.heads, 2);
    QCOMPARE(summary.cutTexts, int64_t(0));

    double tokens = 0, previousRows = 0;
    std::vector<double> entropy(4), distance(4), previous(4), first(4), largest(4);
    for (const std::string &text : m_texts) {
        const auto run = m_model->run(m_model->encode(text), 0, nullptr);
        const double n = double(run->tokenIds.size());
        tokens += n;
        previousRows += n - 1;
        for (int i = 0; i < 4; ++i) {
            entropy[size_t(i)] += n * run->stats[size_t(i)].entropy;
            distance[size_t(i)] += n * run->stats[size_t(i)].meanDistance;
            previous[size_t(i)] += (n - 1) * run->stats[size_t(i)].previousToken;
            first[size_t(i)] += n * run->stats[size_t(i)].firstToken;
            largest[size_t(i)] = std::max(largest[size_t(i)], run->stats[size_t(i)].maxWeight);
        }
    }
    QCOMPARE(summary.tokens, int64_t(tokens));
    for (int i = 0; i < 4; ++i) {
        const HeadStats &mean = summary.stats[size_t(i)];
        QCOMPARE_LE(std::abs(mean.entropy - entropy[size_t(i)] / tokens), 1e-9);
        QCOMPARE_LE(std::abs(mean.meanDistance - distance[size_t(i)] / tokens), 1e-9);
        QCOMPARE_LE(std::abs(mean.previousToken - previous[size_t(i)] / previousRows), 1e-9);
        QCOMPARE_LE(std::abs(mean.firstToken - first[size_t(i)] / tokens), 1e-9);
        QCOMPARE(mean.maxWeight, largest[size_t(i)]);
        QVERIFY(std::isnan(mean.clsShare)); // GPT-2 has no [CLS]
    }
}

void TestCorpusRun::distancesAreTheMeanDivergencePerQuery()
{
    const std::string path = write("js.txt", m_texts[0] + "\n" + m_texts[2] + "\n");
    const CorpusSummary summary = runCorpus(*m_model, path, {}, nullptr);
    Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(4, 4);
    double rows = 0;
    for (const std::string &text : {m_texts[0], m_texts[2]}) {
        const auto run = m_model->run(m_model->encode(text), 0, nullptr);
        rows += double(run->tokenIds.size());
        for (int a = 0; a < 4; ++a)
            for (int b = 0; b < 4; ++b)
                for (Eigen::Index i = 0; i < Eigen::Index(run->tokenIds.size()); ++i)
                    sums(a, b) += rowJensenShannon(run->probabilities(a / 2, a % 2),
                                                   run->probabilities(b / 2, b % 2), i);
    }
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            QCOMPARE_LE(std::abs(summary.distances(a, b) - std::sqrt(sums(a, b) / rows)), 1e-4);
    QCOMPARE(summary.map.rows(), Eigen::Index(4));
    // The map keeps the two farthest heads apart: their distance on it is the largest.
    Eigen::Index far1 = 0, far2 = 0;
    summary.distances.maxCoeff(&far1, &far2);
    Eigen::MatrixXd onMap(4, 4);
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            onMap(a, b) = (summary.map.row(a) - summary.map.row(b)).norm();
    QCOMPARE_GT(onMap(far1, far2), 0.5 * summary.distances(far1, far2));
}

void TestCorpusRun::inductionOnRepeatedCorpusTokens()
{
    const std::vector<std::string> texts{m_texts[0], "Quick brown foxes jump over lazy dogs."};
    const std::string path = write("induction.txt", texts[0] + "\n" + texts[1] + "\n");
    const CorpusSummary summary = runCorpus(*m_model, path, {}, nullptr);
    std::set<int> corpusTokens;
    for (const std::string &text : texts)
        for (int id : m_model->encodePiece(text))
            corpusTokens.insert(id);
    // The tiny GPT-2 reads 32 tokens: T = 16 distinct tokens of the corpus, twice.
    QVERIFY(corpusTokens.size() > 16);
    const int length = summary.inductionLength();
    QCOMPARE(length, 16);
    const std::vector<int> &tokens = summary.inductionTokens;
    const std::set<int> distinct(tokens.begin(), tokens.begin() + length);
    QCOMPARE(int(distinct.size()), length);
    for (int i = 0; i < length; ++i) {
        QVERIFY(corpusTokens.count(tokens[size_t(i)]));
        QCOMPARE(tokens[size_t(i + length)], tokens[size_t(i)]);
    }
    // Score: the mean weight from query T + k onto key k + 1, the token after the first copy.
    const auto run = m_model->run(ModelInput(tokens), 0, nullptr);
    for (int head = 0; head < 4; ++head) {
        const auto weights = run->probabilities(head / 2, head % 2);
        double sum = 0;
        for (int k = 0; k < length; ++k)
            sum += weights(length + k, k + 1);
        QCOMPARE_LE(std::abs(summary.induction[size_t(head)] - sum / length), 1e-6);
    }
    // The same seed draws the same tokens; another seed others.
    QCOMPARE(runCorpus(*m_model, path, {}, nullptr).inductionTokens, tokens);
    CorpusOptions other;
    other.seed = 7;
    QVERIFY(runCorpus(*m_model, path, other, nullptr).inductionTokens != tokens);
}

void TestCorpusRun::longTextsAreCutToTheLimit()
{
    std::string longText;
    for (int i = 0; i < 20; ++i)
        longText += "the cat ";
    QVERIFY(m_model->encode(longText).size() > 32);
    const std::string path = write("long.txt", longText + "\n" + m_texts[1] + "\n");
    const CorpusSummary summary = runCorpus(*m_model, path, {}, nullptr);
    QCOMPARE(summary.tokenLimit, 32); // the model's context, below the default 128
    QCOMPARE(summary.cutTexts, int64_t(1));
    QCOMPARE(summary.tokens, int64_t(32 + m_model->encode(m_texts[1]).size()));

    CorpusOptions eight;
    eight.tokenLimit = 8;
    const CorpusSummary short8 = runCorpus(*m_model, path, eight, nullptr);
    QCOMPARE(short8.tokens, int64_t(8 + std::min<size_t>(8, m_model->encode(m_texts[1]).size())));
}

void TestCorpusRun::twoHundredLinesStreamThrough()
{
    std::string contents;
    for (int i = 0; i < 200; ++i)
        contents += m_texts[size_t(i % 3)] + " " + std::to_string(i) + "\n";
    const std::string path = write("two-hundred.txt", contents);
    std::vector<double> fractions;
    const CorpusSummary summary = runCorpus(*m_model, path, {}, [&](double fraction) {
        fractions.push_back(fraction);
        return true;
    });
    QCOMPARE(summary.texts, int64_t(200));
    QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
    QVERIFY(fractions.front() >= 0.0 && fractions.back() <= 1.0);
    QVERIFY(fractions.back() > 0.99);
}

void TestCorpusRun::cancelStops()
{
    std::string contents;
    for (int i = 0; i < 50; ++i)
        contents += m_texts[0] + "\n";
    const std::string path = write("cancel.txt", contents);
    int calls = 0;
    bool cancelled = false;
    try {
        runCorpus(*m_model, path, {}, [&](double fraction) {
            ++calls;
            return fraction < 0.5;
        });
    } catch (const Cancelled &) {
        cancelled = true;
    }
    QVERIFY(cancelled);
    QVERIFY(calls > 1);
}

void TestCorpusRun::refusesWhatIsNotACorpus_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("says");
    QTest::newRow("blank") << "blank.txt" << QByteArray("\n  \n\t\n") << "holds no text";
    QTest::newRow("binary") << "binary.txt" << QByteArray("abc\0def\n", 8) << "is not text";
    QTest::newRow("missing") << "" << QByteArray() << "Cannot read corpus";
    QTest::newRow("folder") << "." << QByteArray() << "is a folder";
}

void TestCorpusRun::refusesWhatIsNotACorpus()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, contents);
    QFETCH(QString, says);
    std::string path;
    if (name.isEmpty())
        path = m_dir.filePath("no-such-file.txt").toStdString();
    else if (name == ".")
        path = m_dir.path().toStdString();
    else
        path = write(name.toStdString(), contents.toStdString());
    try {
        runCorpus(*m_model, path, {}, nullptr);
        QFAIL("the corpus was accepted");
    } catch (const InputError &error) {
        const QString message = QString::fromUtf8(error.what());
        QVERIFY2(message.contains(says), qPrintable(message));
        QVERIFY2(message.contains(QString::fromStdString(path)), qPrintable(message));
    }
}

// Each head's z_h (before W_O) averaged over every token of every line, as the model's own
// record of z (TransformerRunOptions::keepHeadOutputs) gives it line by line.
void TestCorpusRun::headOutputMeansAreEachHeadsMeanZ()
{
    std::string contents;
    for (const std::string &text : m_texts)
        contents += text + "\n";
    const CorpusSummary summary = runCorpus(*m_model, write("z.txt", contents), {}, {});
    const TransformerModel model = TransformerModel::open(HEADLENS_TEST_DATA "/gpt2/tiny");
    const int64_t layers = model.spec().layers, heads = model.spec().heads;
    const int64_t dV = model.spec().headDim();
    QCOMPARE(summary.headOutputMeans.shape().sizes(), (std::vector<int64_t>{layers, heads, dV}));
    Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(layers * heads, dV);
    int64_t tokens = 0;
    TransformerRunOptions options;
    options.keepHeadOutputs = true;
    for (const std::string &text : m_texts) {
        const TransformerRun run = model.run(ModelInput(model.encode(text)), options);
        const int64_t n = int64_t(run.tokenIds.size());
        tokens += n;
        for (int64_t l = 0; l < layers; ++l)
            for (int64_t h = 0; h < heads; ++h)
                for (int64_t i = 0; i < n; ++i)
                    for (int64_t k = 0; k < dV; ++k)
                        sums(l * heads + h, k) += run.headOutputs.at({l, h, i, k});
    }
    double largest = 0.0;
    for (int64_t l = 0; l < layers; ++l)
        for (int64_t h = 0; h < heads; ++h)
            for (int64_t k = 0; k < dV; ++k) {
                const double expected = sums(l * heads + h, k) / double(tokens);
                largest = std::max(largest, std::abs(expected));
                QCOMPARE_LE(std::abs(summary.headOutputMeans.at({l, h, k}) - expected), 1e-5);
            }
    QVERIFY(largest > 1e-3); // the heads write something: the check can fail
}

// A mean ablation with the means of a one-line corpus is the mean ablation over that text;
// with a corpus of other texts it is not.
void TestCorpusRun::corpusMeanOfOneTextIsThatTextsMean()
{
    const std::string text = m_texts.front();
    const CorpusSummary one = runCorpus(*m_model, write("one.txt", text + "\n"), {}, {});
    const CorpusSummary other =
        runCorpus(*m_model, write("other.txt", m_texts[1] + "\n" + m_texts[2] + "\n"), {}, {});
    const ModelInput input(m_model->encode(text));
    const auto logitsWith = [&](const Tensor &means) {
        HeadInterventions mean = HeadInterventions::ablating(1, 0, InterventionKind::Mean);
        mean.meanSource = means;
        return m_model->run(input, 0, mean, {})->firstLogits;
    };
    const Vector overText = logitsWith(Tensor());
    QCOMPARE_LE((logitsWith(one.headOutputMeans) - overText).cwiseAbs().maxCoeff(), 1e-5f);
    QVERIFY((logitsWith(other.headOutputMeans) - overText).cwiseAbs().maxCoeff() > 1e-4f);
    // Means of another model's sizes are refused with a reason.
    HeadInterventions wrong = HeadInterventions::ablating(0, 0, InterventionKind::Mean);
    wrong.meanSource = Tensor(Shape{{"layer", 1}, {"h", 1}, {"d_v", 3}});
    QVERIFY(wrong.problem(2, 2, 4, 8).value_or("").find("other sizes") != std::string::npos);
}

HEADLENS_TEST_APPLESS_MAIN(TestCorpusRun)
#include "tst_corpusrun.moc"
