// tst_modelthumbnails: the Model tab's thumbnails of a large run are pooled off the UI thread,
// and only the newest run's reach the grid.
#include "models/modelgridview.h"
#include "models/modelthumbnails.h"
#include "plot/heatmapplot.h"

#include "drawnheatmap.h"
#include "testmain.h"

#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <limits>

using namespace headlens;

namespace {

/// A causal run of `layers` x `heads` over n tokens whose head (l, h) gives key j the weight
/// proportional to 1 + ((j + 3 l + h) mod 5): every head different, each row summing to 1.
std::shared_ptr<ModelRun> causalRun(int layers, int heads, int n)
{
    auto run = std::make_shared<ModelRun>();
    run->layers = layers;
    run->heads = heads;
    run->kvHeads = heads;
    run->causal = true;
    run->tokens.assign(size_t(n), "x");
    run->tokenIds.assign(size_t(n), 1);
    run->segments.assign(size_t(n), 0);
    run->stats.resize(size_t(layers * heads));
    run->attention = Tensor(Shape{{"L", layers}, {"h", heads}, {"n", n}, {"n_kv", n}});
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            RowMatrixMap w = run->attention.matrix({l, h});
            for (int i = 0; i < n; ++i) {
                float sum = 0.0f;
                for (int j = 0; j <= i; ++j)
                    sum += w(i, j) = float(1 + (j + 3 * l + h) % 5);
                w.row(i).head(i + 1) /= sum;
            }
        }
    return run;
}

/// Head (l, h) of `run` with the keys after each query NaN, as the grid draws them masked.
RowMatrix maskedWeights(const ModelRun &run, int l, int h)
{
    RowMatrix w = run.probabilities(l, h);
    for (Eigen::Index i = 0; i < w.rows(); ++i)
        for (Eigen::Index j = i + 1; j < w.cols(); ++j)
            w(i, j) = std::numeric_limits<float>::quiet_NaN();
    return w;
}

/// Same size, and equal where both are numbers, NaN in the same cells.
bool sameCells(const RowMatrix &a, const RowMatrix &b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return false;
    for (Eigen::Index i = 0; i < a.rows(); ++i)
        for (Eigen::Index j = 0; j < a.cols(); ++j)
            if (std::isnan(a(i, j)) != std::isnan(b(i, j)) ||
                (!std::isnan(a(i, j)) && std::abs(a(i, j) - b(i, j)) > 1e-6f))
                return false;
    return true;
}

} // namespace

class TestModelThumbnails : public QObject
{
    Q_OBJECT

private slots:
    void aSmallRunIsPooledAtOnce()
    {
        ModelThumbnailMaker maker;
        QSignalSpy ready(&maker, &ModelThumbnailMaker::ready);
        maker.request(causalRun(2, 2, 16), 8);
        QCOMPARE(ready.count(), 1); // before request() returned
    }

    void aLargeRunIsPooledInTheThreadPool()
    {
        ModelThumbnailMaker maker;
        QSignalSpy ready(&maker, &ModelThumbnailMaker::ready);
        const auto run = causalRun(3, 4, 160); // 307,200 weights: over kInlineCells
        QVERIFY(run->attention.numel() > ModelThumbnailMaker::kInlineCells);
        maker.request(run, 48);
        QCOMPARE(ready.count(), 0); // the UI thread went on
        QVERIFY(ready.wait(10000));
        const auto thumbnails = ready.takeFirst().at(0).value<ModelThumbnails>();
        QVERIFY(thumbnails.madeFrom(run));
        QVERIFY(!thumbnails.madeFrom(causalRun(3, 4, 160)));
        QCOMPARE(thumbnails.pooled.size(), size_t(12));
        for (int l = 0; l < 3; ++l)
            for (int h = 0; h < 4; ++h)
                QVERIFY(sameCells(thumbnails.pooled[size_t(l * 4 + h)],
                                  test::referenceMaxPool(maskedWeights(*run, l, h), 48)));
    }

    void onlyTheNewestRunReachesTheGrid()
    {
        ModelGridView grid;
        const auto first = causalRun(2, 3, 300), second = causalRun(2, 3, 300);
        second->attention.matrix({1, 2}).setZero(); // tells the two apart
        second->attention.matrix({1, 2}).col(0).setOnes();
        grid.setRun(first);
        grid.setRun(second);
        // Head (1, 2) of the second run puts everything on the first token: its thumbnail's
        // first column is 1, the rest 0 or masked.
        QTRY_VERIFY_WITH_TIMEOUT(sameCells(test::drawnCells(*grid.plot(1, 2)),
                                           test::referenceMaxPool(maskedWeights(*second, 1, 2),
                                                                  ModelGridView::kThumbnailCells)),
                                 10000);
        QCOMPARE(test::drawnCells(*grid.plot(1, 2))(20, 0), 1.0f);
        QVERIFY(sameCells(
            test::drawnCells(*grid.plot(0, 0)),
            test::referenceMaxPool(maskedWeights(*second, 0, 0), ModelGridView::kThumbnailCells)));
    }

    // The thumbnails on screen name their run without owning it: a run of GPT-2 small at 1,024
    // tokens is about 1 GiB, which stayed alive beside the next run until its thumbnails came.
    void theGridLetsAnOlderRunGo()
    {
        ModelGridView grid;
        auto first = causalRun(2, 3, 300);
        const std::weak_ptr<const ModelRun> firstAlive = first;
        grid.setRun(first);
        QTRY_VERIFY_WITH_TIMEOUT(sameCells(test::drawnCells(*grid.plot(1, 2)),
                                           test::referenceMaxPool(maskedWeights(*first, 1, 2),
                                                                  ModelGridView::kThumbnailCells)),
                                 10000);
        const auto second = causalRun(2, 3, 300);
        second->attention.matrix({1, 2}).setZero();
        second->attention.matrix({1, 2}).col(0).setOnes();
        grid.setRun(second);
        first.reset();
        QVERIFY(firstAlive.expired());
        QTRY_VERIFY_WITH_TIMEOUT(sameCells(test::drawnCells(*grid.plot(1, 2)),
                                           test::referenceMaxPool(maskedWeights(*second, 1, 2),
                                                                  ModelGridView::kThumbnailCells)),
                                 10000);
    }
};

Q_DECLARE_METATYPE(headlens::ModelThumbnails)

HEADLENS_TEST_MAIN(TestModelThumbnails)
#include "tst_modelthumbnails.moc"
