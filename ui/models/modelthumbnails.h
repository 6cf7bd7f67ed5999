// ModelThumbnails: every head of a model run max-pooled for the Model tab, off the UI thread.
#pragma once

#include "model/modelrun.h"

#include "runner/newestinpool.h"

#include <QObject>

#include <memory>
#include <vector>

namespace headlens {

/// What the Model tab draws of one run: each head's pooled weights, index layer * h + head.
struct ModelThumbnails
{
    /// The run they were made from, held weakly: thumbnails on screen must not keep a run
    /// (about 1 GiB for GPT-2 small at 1,024 tokens) alive beside the next one.
    std::weak_ptr<const ModelRun> run;
    int maxCells = 0;              ///< at most this many cells per side
    std::vector<RowMatrix> pooled; ///< MaxPool::pool of each head, masked cells NaN
    double largest = 0.0;          ///< the largest informative weight of every head
    /// Per head, its NaN or infinite weights among the visible ones (weights files that hold
    /// such values make them): the thumbnail is covered "not a number" as in the Heads view.
    std::vector<int64_t> notANumber;

    static ModelThumbnails make(std::shared_ptr<const ModelRun> run, int maxCells);
    /// Made from `shown`: what the tab shows now, or thumbnails that came too late.
    bool madeFrom(const std::shared_ptr<const ModelRun> &shown) const;
};

/// Pooling every head walks every weight of the run: 144 matrices of 1024 x 1024 for GPT-2
/// small at 1,024 tokens, 600 MB, which froze the window when it was done in the Model tab's
/// refill. Small runs are pooled at once (the tests and the lesson's sentences see them before
/// request() returns); large ones in ViewWorkPool, `ready` bringing them back on the
/// owner's thread. Only the newest request is delivered.
class ModelThumbnailMaker : public QObject
{
    Q_OBJECT
public:
    explicit ModelThumbnailMaker(QObject *parent = nullptr);

    void request(std::shared_ptr<const ModelRun> run, int maxCells);

    /// Weights pooled inline, in all heads: about a millisecond on the UI thread.
    static constexpr int64_t kInlineCells = int64_t(1) << 18;

signals:
    void ready(const headlens::ModelThumbnails &thumbnails);

private:
    NewestInPool<ModelThumbnails> m_pool;
};

} // namespace headlens
