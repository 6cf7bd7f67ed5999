// HeadColors: one color per head, the same in every view (titles, bars, split segments).
#pragma once

#include <QColor>

namespace headlens {

/// Head i always gets the same color, whatever the head count, so "head 3 is orange" holds in
/// the heads grid, the pipeline and the handout. Ten distinct colors (Okabe-Ito plus Tableau),
/// then hues spaced by the golden angle.
class HeadColors
{
public:
    static QColor color(int head);
    /// The same hue, light enough to put dark text on.
    static QColor light(int head);
};

} // namespace headlens
