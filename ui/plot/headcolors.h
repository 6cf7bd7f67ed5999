// HeadColors: one color per head, the same in every view (titles, bars, split segments).
#pragma once

#include <QColor>

namespace headlens {

/// Head i always gets the same hue, whatever the head count, so "head 3 is green" holds in the
/// heads grid, the pipeline and the handout. Ten distinct hues (Okabe-Ito plus Tableau), then
/// hues spaced by the golden angle. In each theme a head's colors keep their hue but stand out
/// from the background by at least kMinimumContrast (WCAG 2.1's 3:1 for graphical objects and
/// bold titles): a yellow or sky blue that would vanish on white is darkened, a dark blue that
/// would vanish on the dark theme is lightened.
class HeadColors
{
public:
    static constexpr double kMinimumContrast = 3.0;

    /// For titles, labels, lines and strong fills on the theme's background.
    static QColor color(int head, bool dark);
    /// The same on any other background, e.g. a panel's palette (text beside the split bar).
    static QColor colorOn(int head, const QColor &background);
    /// The same hue as near the background as kMinimumContrast allows, for fills that dark
    /// text sits on (at 3:1 from white, #111 text still has 5.5:1 on it).
    static QColor tint(int head, bool dark);
    /// K/V head `kvHead`'s colour (grouped-query attention): quiet slate hues of their own,
    /// with the same contrast rule, so a K/V head is never mistaken for query head 1 or 2.
    static QColor kvColor(int kvHead, bool dark);
    /// The theme's background, as PlotStyle draws it.
    static QColor background(bool dark);
    /// WCAG 2.1 contrast ratio (L1 + 0.05) / (L2 + 0.05) of the relative luminances, 1 to 21.
    static double contrast(const QColor &a, const QColor &b);
    /// WCAG 2.1 relative luminance of an sRGB color, 0 (black) to 1 (white).
    static double luminance(const QColor &color);
};

} // namespace headlens
