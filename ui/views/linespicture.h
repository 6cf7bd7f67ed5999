// LinesPicture: the Lines view's lines drawn into an image, which a pool thread can make.
#pragma once

#include "attention/trace.h"

#include <QImage>
#include <QPointF>
#include <QSize>
#include <QTransform>

#include <memory>
#include <vector>

class QPainter;

namespace headlens {

/// One weight drawn as a line, from query `query`'s row to key `key`'s, in head `head`'s colour.
struct AttentionLine
{
    int head = 0;
    int query = 0;
    int key = 0;
    double weight = 0.0;
};

/// Where lines start and end: a query's at x = queryX, a key's at keyX, row r's at the
/// height top + (r + 0.5) * rowHeight.
struct LinesLayout
{
    double queryX = 0.0;
    double keyX = 0.0;
    double top = 0.0;
    double rowHeight = 1.0;

    QPointF query(int row) const { return {queryX, top + (row + 0.5) * rowHeight}; }
    QPointF key(int row) const { return {keyX, top + (row + 0.5) * rowHeight}; }
    bool operator==(const LinesLayout &other) const;
    /// What moves this layout's line ends onto `other`'s (x stretched between the two columns
    /// of anchors, y between the rows): a picture made for this layout, painted through it,
    /// has its lines end at `other`'s labels. Meant for layouts of the same rows.
    QTransform mappedTo(const LinesLayout &other) const;
};

/// What one picture shows. Two requests that are sameAs() each other give the same image.
struct LinesPictureRequest
{
    /// With batch and heads: where the lines come from. Held weakly: a picture kept on screen
    /// (or a job still making one) must not keep its trace alive after the view moved on, and
    /// with it the model run it is part of (about 1 GiB for GPT-2 small at 1,024 tokens).
    std::weak_ptr<const Trace> trace;
    int batch = 0;
    std::vector<int> heads; ///< the heads drawn, all when empty
    LinesLayout layout;
    QSize size;              ///< in device-independent pixels
    double pixelRatio = 1.0; ///< the screen's device pixels per pixel
    bool dark = false;

    bool sameAs(const LinesPictureRequest &other) const;
    /// Whether the lines come from `shown` (the same handle, even once it has been freed).
    bool drawsFrom(const std::shared_ptr<const Trace> &shown) const;
};

/// Lines only, on a transparent image: the view paints its background below and its labels
/// above. Drawing every antialiased line of 26 tokens and 8 heads (up to 5,408) took the UI
/// thread 200 ms, the Lines tab's stall when it opened.
struct LinesPicture
{
    LinesPictureRequest request;
    QImage image;

    /// Every line of `lines` over what `painter` holds, the larger its weight the bolder and
    /// more opaque (weights are clamped to [0, 1]).
    static void draw(QPainter &painter, const std::vector<AttentionLine> &lines,
                     const LinesLayout &layout, bool dark);
    /// The picture of `lines` for `request`. Safe on any thread.
    static LinesPicture make(LinesPictureRequest request, const std::vector<AttentionLine> &lines);
};

} // namespace headlens
