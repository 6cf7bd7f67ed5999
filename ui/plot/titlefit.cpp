// TitleFit: one break at the space nearest the middle keeps both lines about as wide.
#include "plot/titlefit.h"

#include <QFontMetrics>

#include <cstdlib>

namespace headlens {

QString TitleFit::fitted(const QString &title, const QFont &font, int width)
{
    QString text = title;
    if (width <= 0 || QFontMetrics(font).horizontalAdvance(text) <= width - 8)
        return text;
    int best = -1;
    for (int i = 0; i < text.size(); ++i)
        if (text[i] == ' ' &&
            (best < 0 || std::abs(i - text.size() / 2) < std::abs(best - text.size() / 2)))
            best = i;
    if (best >= 0)
        text[best] = '\n';
    return text;
}

} // namespace headlens
