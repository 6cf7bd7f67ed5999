// TileColors: pooled grids to images through the style's gradient.
#include "longtext/tilecolors.h"

#include <cmath>

namespace headlens {

TileColors::TileColors(const PlotStyle &style, ColorRange range)
    : m_gradient(Colormaps::gradient(style.colormap)), m_range(range),
      m_mask(Colormaps::maskColor(style.colormap).rgb())
{}

QRgb TileColors::of(float weight) const
{
    if (std::isnan(weight))
        return m_mask;
    return m_gradient.color(double(weight), QCPRange(m_range.lower, m_range.upper));
}

QImage TileColors::imageOf(const Eigen::Ref<const RowMatrix> &values) const
{
    QImage image(int(values.cols()), int(values.rows()), QImage::Format_RGB32);
    for (int r = 0; r < image.height(); ++r) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(r));
        for (int c = 0; c < image.width(); ++c)
            line[c] = of(values(r, c));
    }
    return image;
}

} // namespace headlens
