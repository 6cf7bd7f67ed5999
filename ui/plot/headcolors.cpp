// HeadColors: a fixed list of hues, each moved in lightness until it stands out from the theme.
#include "plot/headcolors.h"

#include "plot/plotstyle.h"

#include <array>
#include <cmath>

namespace headlens {

namespace {

// Chosen to stay distinct on a projector and for common color blindness.
QColor baseColor(int head)
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

/// `color`'s hue and saturation at the HSL lightness nearest `towards` (0 black .. 1 white)
/// whose contrast with `background` is still at least `target`. A color that already falls
/// short is moved away from the background until it reaches `target`.
QColor withContrast(const QColor &color, const QColor &background, double target, double towards)
{
    const QColor hsl = color.toHsl();
    const float hue = std::max(hsl.hslHueF(), 0.0f), saturation = hsl.hslSaturationF();
    auto at = [&](double lightness) { return QColor::fromHslF(hue, saturation, float(lightness)); };
    const double start = hsl.lightnessF();
    // The lightness from which contrast only grows: away from the background's luminance.
    const double away = HeadColors::luminance(background) > 0.5 ? 0.0 : 1.0;
    double good = HeadColors::contrast(color, background) >= target ? start : away;
    double bad = HeadColors::contrast(color, background) >= target ? towards : start;
    if (HeadColors::contrast(at(bad), background) >= target)
        return at(bad);                     // even `towards` is far enough from the background
    for (int step = 0; step < 24; ++step) { // bisection: contrast is monotonic along this line
        const double middle = 0.5 * (good + bad);
        (HeadColors::contrast(at(middle), background) >= target ? good : bad) = middle;
    }
    return at(good);
}

} // namespace

QColor HeadColors::background(bool dark)
{
    PlotStyle style;
    style.dark = dark;
    return style.background();
}

QColor HeadColors::color(int head, bool dark)
{
    return colorOn(head, background(dark));
}

QColor HeadColors::colorOn(int head, const QColor &background)
{
    const QColor base = baseColor(head);
    return withContrast(base, background, kMinimumContrast, base.toHsl().lightnessF());
}

QColor HeadColors::tint(int head, bool dark)
{
    return withContrast(baseColor(head), background(dark), kMinimumContrast, dark ? 0.0 : 1.0);
}

QColor HeadColors::kvColor(int kvHead, bool dark)
{
    // Greyed teal to indigo only: the query heads' vivid hues stay theirs.
    const QColor base = QColor::fromHsv(170 + (37 * std::max(kvHead, 0)) % 90, 90, 120);
    return withContrast(base, background(dark), kMinimumContrast, base.toHsl().lightnessF());
}

double HeadColors::luminance(const QColor &color)
{
    auto linear = [](double c) {
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) +
           0.0722 * linear(color.blueF());
}

double HeadColors::contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace headlens
