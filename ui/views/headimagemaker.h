// HeadImageMaker: heads' weights cut out and max-pooled for drawing, off the UI thread when large.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"

#include "runner/newestinpool.h"
#include "util/sameowner.h"

#include <QObject>

#include <memory>
#include <utility>
#include <vector>

namespace headlens {

class HeatmapPlot;

/// One head's weights as a HeatmapPlot draws them.
struct HeadImage
{
    int head = 0;
    RowMatrix pooled;                ///< MaxPool::pool of the weights with HeadImages::maxCells
    std::pair<double, double> range; ///< the unmasked weights' range (TraceReader::range)
    double largest = 0.0;            ///< ColorRange::largestInformative of the weights
    int64_t notANumber = 0;          ///< TraceReader::notANumberCount of the head
};

/// Some heads of one trace and sequence, made with one pooling limit.
struct HeadImages
{
    /// The trace they were made from, held weakly: images on screen must not keep a model's
    /// trace, a handle on its whole run, alive beside the next one.
    std::weak_ptr<const Trace> trace;
    int batch = 0;
    int rows = 0, cols = 0; ///< the full matrices' size (real queries, real keys)
    int maxCells = 0;       ///< at most this many cells per side (0: every cell)
    std::vector<HeadImage> heads;

    static HeadImages make(std::shared_ptr<const Trace> trace, int batch,
                           const std::vector<int> &heads, int maxCells);
    /// Made from sequence `b` of `t`: what a view shows now, or an image that came too late.
    bool madeFrom(const std::shared_ptr<const Trace> &t, int b) const
    {
        return sameOwner(trace, t) && batch == b;
    }
    /// The largest informative weight of all `heads`: where a shared scale of what is shown ends.
    double largestWeight() const;
    /// Puts `image` (one of `heads`) into `plot` with the colour scale `mode` picks (shared by
    /// `heads` for ColorScaleMode::Shown) and queues a replot.
    void draw(const HeadImage &image, HeatmapPlot *plot, ColorScaleMode mode) const;
};

/// Cutting out and pooling an n x n_kv matrix walks 16 MiB per head at n=2048, so a view asks
/// for its images here: small requests are made at once, large ones in ViewWorkPool, and
/// `ready` brings them back on the owner's thread. Only the newest request is delivered.
class HeadImageMaker : public QObject
{
    Q_OBJECT
public:
    explicit HeadImageMaker(QObject *parent = nullptr);

    /// Emits `ready` before returning when the heads hold at most kInlineCells weights in all.
    void request(std::shared_ptr<const Trace> trace, int batch, std::vector<int> heads,
                 int maxCells);

    /// About 0.25 ms of work on the UI thread: the lesson's sentences, not long texts.
    static constexpr int64_t kInlineCells = int64_t(1) << 16;

signals:
    void ready(const headlens::HeadImages &images);

private:
    NewestInPool<HeadImages> m_pool;
};

} // namespace headlens
