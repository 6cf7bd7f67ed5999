// ElidedTitle: a plot's title, elided to the width it gets, so that its width asks for no room.
#include "plot/elidedtitle.h"

namespace headlens {

ElidedTitle::ElidedTitle(QCustomPlot *plot, const QFont &font)
    : QCPTextElement(plot, QString(), font)
{}

QSize ElidedTitle::minimumOuterSizeHint() const
{
    return QSize(mMargins.left() + mMargins.right(),
                 QCPTextElement::minimumOuterSizeHint().height());
}

} // namespace headlens
