// StyleFont: only the point size changes; family, weight and hinting stay the base font's.
#include "plot/stylefont.h"

namespace headlens {

QFont StyleFont::scaled(QFont base, const PlotStyle &style, double points)
{
    base.setPointSizeF(points * style.fontScale);
    return base;
}

} // namespace headlens
