// HeadImageMaker: a promise per request, a watcher that follows only the newest one.
#include "views/headimagemaker.h"

#include "plot/colorrange.h"
#include "plot/heatmapplot.h"
#include "plot/maxpool.h"
#include "views/tracereader.h"

namespace headlens {

HeadImages HeadImages::make(std::shared_ptr<const Trace> trace, int batch,
                            const std::vector<int> &heads, int maxCells)
{
    HeadImages images;
    images.batch = batch;
    images.maxCells = maxCells;
    images.rows = int(trace->input.queryLengthOf(batch));
    images.cols = int(trace->input.keyLengthOf(batch));
    for (int head : heads) {
        const RowMatrix weights = TraceReader::weights(*trace, batch, head);
        images.heads.push_back({head, MaxPool::pool(weights, maxCells), TraceReader::range(weights),
                                ColorRange::largestInformative(weights),
                                TraceReader::notANumberCount(*trace, batch, head)});
    }
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
