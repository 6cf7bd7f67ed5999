// HeadColors: a fixed list chosen to stay distinct on a projector and for common color blindness.
#include "plot/headcolors.h"

#include <array>
#include <cmath>

namespace headlens {

QColor HeadColors::color(int head)
{
    static constexpr std::array<QRgb, 10> kColors{0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9,
                                                  0xD55E00, 0x7F3C8D, 0xB8A000, 0x4E79A7, 0x9C755F};
    if (head < 0)
        return QColor(Qt::gray);
    if (head < int(kColors.size()))
        return QColor(kColors[size_t(head)]);
    const double hue = std::fmod(0.1 + head * 0.61803398875, 1.0);
    return QColor::fromHsvF(float(hue), 0.65f, 0.8f);
}

QColor HeadColors::light(int head)
{
    return color(head).lighter(170);
}

} // namespace headlens
