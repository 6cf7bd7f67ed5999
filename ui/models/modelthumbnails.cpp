// ModelThumbnails: a promise per request, a watcher that follows only the newest one.
#include "models/modelthumbnails.h"

#include "plot/colorrange.h"
#include "plot/maxpool.h"
#include "util/sameowner.h"

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

bool ModelThumbnails::madeFrom(const std::shared_ptr<const ModelRun> &shown) const
{
    return sameOwner(run, shown);
}

ModelThumbnailMaker::ModelThumbnailMaker(QObject *parent)
    : QObject(parent),
      m_pool(this, [this](const ModelThumbnails &thumbnails) { emit ready(thumbnails); })
{}

void ModelThumbnailMaker::request(std::shared_ptr<const ModelRun> run, int maxCells)
{
    if (run->attention.numel() <= kInlineCells) {
        m_pool.drop(); // an older request running is dropped
        emit ready(ModelThumbnails::make(std::move(run), maxCells));
        return;
    }
    m_pool.start([run = std::move(run), maxCells] { return ModelThumbnails::make(run, maxCells); });
}

} // namespace headlens
