// StyleFont: a font at a size of the design, times the View menu's zoom and presentation mode.
#pragma once

#include "plot/plotstyle.h"

#include <QFont>

namespace headlens {

/// Every view states its text sizes at zoom 1 (9 pt token labels, 10 pt chips); this is the
/// one place they are multiplied by the style's fontScale.
class StyleFont
{
public:
    /// `base` (the widget's family and weight) at `points` times `style.fontScale`.
    static QFont scaled(QFont base, const PlotStyle &style, double points);
};

} // namespace headlens
