// PlotStyle: how every heatmap looks (colormap, light or dark, font size), set from the View menu.
#pragma once

#include "plot/colormaps.h"

namespace headlens {

/// Which range attention weights' colours span (View > Colour scale).
enum class ColorScaleMode
{
    Shown,   ///< shared by the heads shown, 0 to their largest weight rounded up (the default:
             ///< with 70 tokens weights are near 1/70, and a 0..1 scale drew them all dark)
    Full,    ///< shared, 0 to 1: the same colour means the same weight in every picture
    PerHead, ///< each head from its own smallest to its largest weight
};

struct PlotStyle
{
    Colormap colormap = Colormap::Viridis;
    bool dark = false;
    double fontScale = 1.0; ///< zoom and presentation mode multiply the label fonts
    ColorScaleMode colorScale = ColorScaleMode::Shown;

    QColor background() const { return dark ? QColor("#1f2227") : QColor(Qt::white); }
    QColor foreground() const { return dark ? QColor("#e6e6e6") : QColor("#202020"); }
    QColor highlight() const { return QColor("#ff4f7b"); }

    bool operator==(const PlotStyle &o) const
    {
        return colormap == o.colormap && dark == o.dark && fontScale == o.fontScale &&
               colorScale == o.colorScale;
    }
    bool operator!=(const PlotStyle &o) const { return !(*this == o); }
};

} // namespace headlens
