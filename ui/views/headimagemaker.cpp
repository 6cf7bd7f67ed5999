// HeadImageMaker: a promise per request, a watcher that follows only the newest one.
#include "views/headimagemaker.h"

#include "plot/colorrange.h"
#include "plot/heatmapplot.h"
#include "plot/maxpool.h"

#include <cmath>
#include <limits>

namespace headlens {

namespace {

/// Everything a heatmap needs of one head in one pass over its weights, a row at a time: the
/// row, with masked keys as NaN, stays in the cache while its pooled maxima, its range, its
/// largest informative weight and its non-numbers are read off it. The five passes over the
/// whole matrix this replaces (TraceReader::weights' copy, MaxPool::pool, TraceReader::range,
/// ColorRange::largestInformative, TraceReader::notANumberCount, which stay the references)
/// took 45 ms a head at 2,048 tokens (issue 41).
HeadImage readHead(const Trace &trace, int b, int head, int maxCells)
{
    const int n = int(trace.input.queryLengthOf(b));
    const int nKv = int(trace.input.keyLengthOf(b));
    const ConstRowMatrixMap all = trace.tensor(keys::attentionWeights).matrix({b, head});
    const TraceTensor *mask = trace.find(keys::mask);
    const bool masked = mask && !mask->tensor.isEmpty() && mask->tensor.shape().rank() == 3;
    const ConstRowMatrixMap hidden =
        masked ? mask->tensor.matrix({b}) : ConstRowMatrixMap(nullptr, 0, 0);
    const int fr = MaxPool::factor(n, maxCells);
    const int fc = MaxPool::factor(nKv, maxCells);
    HeadImage image;
    image.head = head;
    image.pooled.setConstant((n + fr - 1) / fr, (nKv + fc - 1) / fc,
                             std::numeric_limits<float>::quiet_NaN());
    double lower = std::numeric_limits<double>::infinity(), upper = -lower;
    Eigen::Matrix<float, 1, Eigen::Dynamic> row(nKv);
    for (int i = 0; i < n; ++i) {
        row = all.row(i).head(nKv);
        // A sum of numbers below 1 is a number: only a row with a NaN or an infinity (weights
        // opened from a bad file) is walked weight by weight.
        if (!std::isfinite(row.sum())) {
            for (int j = 0; j < nKv; ++j)
                if (!std::isfinite(row(j)) && !(masked && hidden(i, j) > 0.5f))
                    ++image.notANumber;
        }
        if (masked) {
            for (int j = 0; j < nKv; ++j)
                if (hidden(i, j) > 0.5f)
                    row(j) = std::numeric_limits<float>::quiet_NaN();
        }
        // NaN-skipping maxima and minima (PropagateNumbers): NaN only for a row of NaN, which
        // fmin and fmax then pass over.
        const float top = nKv > 0 ? row.maxCoeff<Eigen::PropagateNumbers>() : NAN;
        const float bottom = nKv > 0 ? row.minCoeff<Eigen::PropagateNumbers>() : NAN;
        lower = std::fmin(lower, double(bottom));
        upper = std::fmax(upper, double(top));
        if ((row.array() > 0.0f).count() > 1) // two keys shared the query's attention
            image.largest = std::max(image.largest, double(top));
        if (fr == 1 && fc == 1) { // every cell shown: the row as it is
            image.pooled.row(i) = row;
            continue;
        }
        for (int c = 0; c * fc < nKv; ++c) {
            const int width = std::min(fc, nKv - c * fc);
            float &target = image.pooled(i / fr, c);
            target =
                std::fmax(target, row.segment(c * fc, width).maxCoeff<Eigen::PropagateNumbers>());
        }
    }
    image.range = lower > upper ? std::pair(0.0, 1.0) : std::pair(lower, upper);
    return image;
}

} // namespace

HeadImages HeadImages::make(std::shared_ptr<const Trace> trace, int batch,
                            const std::vector<int> &heads, int maxCells)
{
    HeadImages images;
    images.batch = batch;
    images.maxCells = maxCells;
    images.rows = int(trace->input.queryLengthOf(batch));
    images.cols = int(trace->input.keyLengthOf(batch));
    for (int head : heads)
        images.heads.push_back(readHead(*trace, batch, head, maxCells));
    images.trace = std::move(trace);
    return images;
}

double HeadImages::largestWeight() const
{
    double largest = 0.0;
    for (const HeadImage &image : heads)
        largest = std::max(largest, image.largest);
    return largest;
}

void HeadImages::draw(const HeadImage &image, HeatmapPlot *plot, ColorScaleMode mode) const
{
    plot->setPooledMatrix(image.pooled, rows, cols, maxCells);
    const ColorRange range = ColorRange::of(mode, largestWeight(), image.range);
    plot->setColorRange(range.lower, range.upper);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

HeadImageMaker::HeadImageMaker(QObject *parent)
    : QObject(parent), m_pool(this, [this](const HeadImages &images) { emit ready(images); })
{}

void HeadImageMaker::request(std::shared_ptr<const Trace> trace, int batch, std::vector<int> heads,
                             int maxCells)
{
    const int64_t cells =
        int64_t(heads.size()) * trace->input.queryLengthOf(batch) * trace->input.keyLengthOf(batch);
    m_pool.start([trace = std::move(trace), batch, heads = std::move(heads),
                  maxCells] { return HeadImages::make(trace, batch, heads, maxCells); },
                 cells <= kInlineCells);
}

} // namespace headlens
