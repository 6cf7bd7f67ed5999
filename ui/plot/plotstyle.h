// PlotStyle: how every heatmap looks (colormap, light or dark, font size), set from the View menu.
#pragma once

#include "plot/colormaps.h"

namespace headlens {

struct PlotStyle
{
    Colormap colormap = Colormap::Viridis;
    bool dark = false;
    double fontScale = 1.0;    ///< zoom and presentation mode multiply the label fonts
    bool perHeadScale = false; ///< each head's colors span its own min..max instead of 0..1

    QColor background() const { return dark ? QColor("#1f2227") : QColor(Qt::white); }
    QColor foreground() const { return dark ? QColor("#e6e6e6") : QColor("#202020"); }
    QColor highlight() const { return QColor("#ff4f7b"); }

    bool operator==(const PlotStyle &o) const
    {
        return colormap == o.colormap && dark == o.dark && fontScale == o.fontScale &&
               perHeadScale == o.perHeadScale;
    }
    bool operator!=(const PlotStyle &o) const { return !(*this == o); }
};

} // namespace headlens
