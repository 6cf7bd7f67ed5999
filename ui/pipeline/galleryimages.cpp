// GalleryImages: the slicing, ranges and pooling TensorGallery used to do in its refill.
#include "pipeline/galleryimages.h"

#include "plot/colorrange.h"
#include "plot/maxpool.h"
#include "text/tokenizer.h"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace headlens {

GalleryImages GalleryImages::make(std::shared_ptr<const Trace> trace, int batch, TraceKey key)
{
    GalleryImages images;
    images.batch = batch;
    images.key = key;
    images.shown =
        std::make_shared<const TensorPanels>(TensorSlicer::slice(trace->find(key)->tensor, batch));
    const std::vector<RowMatrix> &panels = images.shown->panels;
    double lo = INFINITY, hi = -INFINITY;
    for (const RowMatrix &m : panels) {
        images.ranges.push_back(ColorRange::finiteRangeOf(m));
        lo = std::min(lo, images.ranges.back().first);
        hi = std::max(hi, images.ranges.back().second);
    }
    images.shared = lo <= hi ? std::make_pair(lo, hi) : std::make_pair(0.0, 1.0);
    if (images.isProbabilities())
        for (const RowMatrix &m : panels)
            images.largest = std::max(images.largest, ColorRange::largestInformative(m));
    if (!panels.empty()) {
        const RowMatrix &first = panels.front();
        images.maxCells = std::max(first.rows(), first.cols()) > kPooledSide ? kPooledSide : 0;
        images.rowLabels = labelsFor(*trace, batch, images.shown->rowsAxis, int(first.rows()));
        images.colLabels = labelsFor(*trace, batch, images.shown->colsAxis, int(first.cols()));
    }
    for (const RowMatrix &m : panels)
        images.pooled.push_back(MaxPool::pool(m, images.maxCells));
    images.trace = trace;
    return images;
}

int64_t GalleryImages::cellsOf(const Trace &trace, TraceKey key)
{
    const TraceTensor *t = trace.find(key);
    return t ? t->tensor.numel() : 0;
}

bool GalleryImages::isProbabilities() const
{
    return key == keys::softmax || key == keys::attentionWeights;
}

QStringList GalleryImages::labelsFor(const Trace &trace, int batch, const std::string &axis,
                                     int count)
{
    QStringList labels;
    labels.reserve(count);
    for (int i = 0; i < count; ++i) {
        std::string token;
        if (axis == "n")
            token = trace.input.queryLabel(batch, i);
        else if (axis == "n_kv")
            token = trace.input.keyLabel(batch, i);
        else {
            labels << QString::number(i);
            continue;
        }
        labels << (token.empty() ? QObject::tr("(pad)")
                                 : QString::fromStdString(Tokenizer::displayLabel(token)));
    }
    return labels;
}

} // namespace headlens
