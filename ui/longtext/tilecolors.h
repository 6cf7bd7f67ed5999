// TileColors: the colours of a long text's pooled weights, one scale for every zoom.
#pragma once

#include "plot/colorrange.h"
#include "plot/plotstyle.h"
#include "tensor/tensor.h"

#include <qcustomplot.h>

#include <QImage>

namespace headlens {

/// A weight's colour under the style's colormap over `range`; NaN (no visible key in the bin)
/// in the colormap's mask colour. The pinned head's whole picture and every region zoomed into
/// share one, so that a colour means one weight at every zoom.
class TileColors
{
public:
    TileColors(const PlotStyle &style = {}, ColorRange range = {});

    const ColorRange &range() const { return m_range; }
    const QCPColorGradient &gradient() const { return m_gradient; }
    QRgb of(float weight) const;
    /// One pixel per cell of `values`.
    QImage imageOf(const Eigen::Ref<const RowMatrix> &values) const;

private:
    mutable QCPColorGradient m_gradient; /// color() fills its lookup table on first use
    ColorRange m_range;
    QRgb m_mask;
};

} // namespace headlens
