// ModelThumbnails: a promise per request, a watcher that follows only the newest one.
#include "models/modelthumbnails.h"

#include "plot/colorrange.h"
#include "plot/maxpool.h"

#include <QPromise>
#include <QThreadPool>

#include <algorithm>

namespace headlens {

namespace {

/// The weights that are not numbers among those a query sees (on and below the diagonal when
/// `causal`: above it the run holds 0 for the masked keys).
int64_t notANumberIn(const ConstRowMatrixMap &weights, bool causal)
{
    int64_t count = 0;
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
        const Eigen::Index seen = causal ? std::min(i + 1, weights.cols()) : weights.cols();
        count += (!weights.row(i).head(seen).array().isFinite()).count();
    }
    return count;
}

} // namespace

ModelThumbnails ModelThumbnails::make(std::shared_ptr<const ModelRun> run, int maxCells)
{
    ModelThumbnails t;
    t.maxCells = maxCells;
    for (int l = 0; l < run->layers; ++l)
        for (int h = 0; h < run->heads; ++h) {
            const ConstRowMatrixMap weights = run->probabilities(l, h);
            t.pooled.push_back(MaxPool::pool(weights, maxCells, run->causal));
            t.largest = std::max(t.largest, ColorRange::largestInformative(weights, run->causal));
            t.notANumber.push_back(notANumberIn(weights, run->causal));
        }
    t.run = std::move(run);
    return t;
}

ModelThumbnailMaker::ModelThumbnailMaker(QObject *parent) : QObject(parent)
{
    m_watcher = new QFutureWatcher<ModelThumbnails>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        if (m_watcher->future().resultCount() > 0)
            emit ready(m_watcher->result());
    });
}

void ModelThumbnailMaker::request(std::shared_ptr<const ModelRun> run, int maxCells)
{
    if (run->attention.numel() <= kInlineCells) {
        m_watcher->setFuture(QFuture<ModelThumbnails>()); // an older request running is dropped
        emit ready(ModelThumbnails::make(std::move(run), maxCells));
        return;
    }
    auto promise = std::make_shared<QPromise<ModelThumbnails>>();
    m_watcher->setFuture(promise->future());
    QThreadPool::globalInstance()->start([promise, run = std::move(run), maxCells] {
        promise->start();
        promise->addResult(ModelThumbnails::make(run, maxCells));
        promise->finish();
    });
}

} // namespace headlens
