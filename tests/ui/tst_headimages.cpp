// tst_headimages: the heads grid's pictures, made in one pass over each head (issue 41), hold
// what the five separate readings they replaced give: the pooled maxima, the range, the largest
// informative weight and the count of weights that are not numbers.
#include "pipelinecases.h"

#include "attention/inputbuilder.h"
#include "plot/colorrange.h"
#include "plot/maxpool.h"
#include "testmain.h"
#include "views/headimagemaker.h"
#include "views/tracereader.h"

#include <QTest>

#include <cmath>
#include <numeric>

using namespace headlens;

namespace {

QString words(int n)
{
    QStringList list;
    for (int i = 0; i < n; ++i)
        list << QString("w%1").arg(i % 37);
    return list.join(' ');
}

/// Equal, NaN where the other is NaN.
bool sameCells(const RowMatrix &a, const RowMatrix &b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return false;
    for (Eigen::Index i = 0; i < a.size(); ++i) {
        const float x = a.data()[i], y = b.data()[i];
        if (std::isnan(x) != std::isnan(y) || (!std::isnan(x) && x != y))
            return false;
    }
    return true;
}

} // namespace

class TestHeadImages : public QObject
{
    Q_OBJECT

private slots:
    void onePassReadsWhatTheSeparateReadingsRead_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<int>("tokens"); // 0: the case's own sentence
        QTest::addColumn<int>("maxCells");
        QTest::addColumn<bool>("nanHead");
        // Unpooled and pooled (a factor that does not divide the length: a short last block),
        // with and without a mask, with a head whose weights are NaN.
        QTest::newRow("sentence, every cell") << "untied" << 0 << 0 << false;
        QTest::newRow("causal, every cell") << "causal" << 0 << 0 << false;
        QTest::newRow("window, pooled by 3") << "window" << 0 << 4 << false;
        QTest::newRow("causal 150 tokens, pooled by 4") << "causal" << 150 << 40 << false;
        QTest::newRow("GQA RoPE 150 tokens, pooled") << "gqa-rope" << 150 << 64 << false;
        QTest::newRow("batch with padding") << "batch-padding" << 0 << 0 << false;
        QTest::newRow("a NaN head, 150 tokens, pooled") << "untied" << 150 << 64 << true;
        QTest::newRow("a NaN head, causal") << "causal" << 0 << 0 << true;
    }
    void onePassReadsWhatTheSeparateReadingsRead()
    {
        QFETCH(QString, caseName);
        QFETCH(int, tokens);
        QFETCH(int, maxCells);
        QFETCH(bool, nanHead);
        test::PipelineCase c = test::makePipelineCase(caseName);
        const AttentionConfig config = c.trace->config;
        if (tokens > 0 || nanHead) { // one text: the case's sentence, or a long one
            const std::string text =
                tokens > 0 ? words(tokens).toStdString()
                           : "The tired robot dropped the heavy gear because it broke";
            AttentionInput input = InputBuilder::fromTexts(config, {text});
            if (nanHead) // head 1's queries: every score and weight of it NaN
                c.weights.wQ.topRows(config.headDimK())
                    .setConstant(std::numeric_limits<float>::quiet_NaN());
            c.trace =
                std::make_shared<const Trace>(computeTrace(config, std::move(input), c.weights));
        }
        for (int b = 0; b < int(c.trace->batch()); ++b) {
            std::vector<int> heads(size_t(c.trace->heads()));
            std::iota(heads.begin(), heads.end(), 0);
            const HeadImages images = HeadImages::make(c.trace, b, heads, maxCells);
            QCOMPARE(int(images.heads.size()), c.trace->heads());
            for (const HeadImage &image : images.heads) {
                const QByteArray where =
                    QString("sequence %1, head %2").arg(b).arg(image.head + 1).toUtf8();
                const RowMatrix weights = TraceReader::weights(*c.trace, b, image.head);
                QVERIFY2(sameCells(image.pooled, MaxPool::pool(weights, maxCells)), where);
                const auto range = TraceReader::range(weights);
                QVERIFY2(image.range == range, where);
                QVERIFY2(image.largest == ColorRange::largestInformative(weights), where);
                QVERIFY2(image.notANumber == TraceReader::notANumberCount(*c.trace, b, image.head),
                         where);
            }
            if (nanHead) { // the reading saw the NaN head, not only agreed on nothing
                QCOMPARE(images.heads[0].notANumber, TraceReader::notANumberCount(*c.trace, b, 0));
                QVERIFY(images.heads[0].notANumber > 0);
                QCOMPARE(images.heads[1].notANumber, int64_t(0));
            }
        }
    }
};

HEADLENS_TEST_MAIN(TestHeadImages)
#include "tst_headimages.moc"
