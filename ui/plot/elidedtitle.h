// ElidedTitle: a plot's title, elided to the width it gets, so that its width asks for no room.
#pragma once

#include <qcustomplot.h>

namespace headlens {

/// HeatmapPlot elides its title to the width of the cells' column (fitTitle). QCPTextElement
/// asks for the width of the text it shows now, so the plot's minimum followed the elision,
/// which follows the plot's size: a plot's minimum must not depend on its size, or the layouts
/// and scroll areas around it resize it back and forth (issue 39). This title asks for the
/// height of its lines only.
class ElidedTitle : public QCPTextElement
{
    Q_OBJECT
public:
    ElidedTitle(QCustomPlot *plot, const QFont &font);

    /// The room its lines take: their height (the room given may be less, in a plot laid out
    /// too small) and no width.
    QSize minimumOuterSizeHint() const override;
};

} // namespace headlens
