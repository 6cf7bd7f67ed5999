// GalleryImages: one tensor of a trace sliced, ranged and max-pooled for TensorGallery's panels.
#pragma once

#include "attention/trace.h"
#include "views/tensorslicer.h"

#include <QStringList>

#include <memory>
#include <utility>
#include <vector>

namespace headlens {

/// Everything TensorGallery draws that walks the tensor's cells: at 1,024 tokens the slices,
/// their ranges and their max-pooling took 346 ms of the UI thread when the Pipeline tab
/// opened, so it is made in ViewWorkPool (`make` only reads the shared, immutable trace).
struct GalleryImages
{
    /// The trace they were made from; not kept alive by them: a panel shown until the next
    /// trace's come must not hold a long text's trace (hundreds of MB) beside the new one.
    std::weak_ptr<const Trace> trace;
    int batch = 0;
    TraceKey key{""}; ///< the tensor drawn
    /// The full slices, for the hover readout; shared, so that keeping what is drawn copies
    /// none of them (12 x 1,024 x 1,024 floats here).
    std::shared_ptr<const TensorPanels> shown = std::make_shared<const TensorPanels>();
    std::vector<RowMatrix> pooled;    ///< MaxPool::pool of each panel with maxCells
    int maxCells = 0;                 ///< at most this many cells per side (0: every cell)
    std::pair<double, double> shared; ///< every panel's finite values together (0..1: none)
    std::vector<std::pair<double, double>> ranges; ///< each panel's finite values
    double largest = 0.0; ///< ColorRange::largestInformative of all panels, probabilities only
    QStringList rowLabels, colLabels; ///< one per row and column of a panel

    /// Panels longer than this a side are max-pooled (so n = 2048 stays fast to draw).
    static constexpr int kPooledSide = 256;
    /// At most this many cells (all panels of the tensor) are made on the UI thread: about a
    /// millisecond, so the lesson's sentences show at once and a long text goes to the pool.
    static constexpr int64_t kInlineCells = int64_t(1) << 18;

    /// Tensor `key` of sequence `batch` of `trace`. Precondition: the trace has the tensor.
    static GalleryImages make(std::shared_ptr<const Trace> trace, int batch, TraceKey key);
    /// How many cells `make` walks for tensor `key` (every panel's).
    static int64_t cellsOf(const Trace &trace, TraceKey key);
    /// Made for what the gallery shows now, or an image that came too late.
    bool madeFrom(const std::shared_ptr<const Trace> &t, int b, TraceKey k) const
    {
        return t && !trace.owner_before(t) && !t.owner_before(trace) && batch == b && key == k;
    }
    /// Attention probabilities, drawn with the View menu's colour scale like the heads grid.
    bool isProbabilities() const;
    /// Token labels for the axes n and n_kv ("(pad)" for padding), indices for the others.
    static QStringList labelsFor(const Trace &trace, int batch, const std::string &axis, int count);
};

} // namespace headlens
