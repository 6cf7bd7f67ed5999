// Colormaps: viridis and magma from matplotlib's stops (CC0, van der Walt & Smith 2015).
#include "plot/colormaps.h"

#include <array>

namespace headlens {

namespace {

// Nine evenly spaced samples of each matplotlib map: enough for a smooth linear gradient.
constexpr std::array<const char *, 9> kViridis = {"#440154", "#472d7b", "#3b528b",
                                                  "#2c728e", "#21918c", "#28ae80",
                                                  "#5ec962", "#addc30", "#fde725"};
constexpr std::array<const char *, 9> kMagma = {"#000004", "#1c1044", "#4f127b",
                                                "#812581", "#b5367a", "#e55064",
                                                "#fb8761", "#fec287", "#fcfdbf"};

QCPColorGradient fromStops(const std::array<const char *, 9> &stops)
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    for (size_t i = 0; i < stops.size(); ++i)
        gradient.setColorStopAt(double(i) / double(stops.size() - 1), QColor(stops[i]));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    return gradient;
}

} // namespace

QCPColorGradient Colormaps::gradient(Colormap map)
{
    QCPColorGradient gradient;
    switch (map) {
    case Colormap::Viridis:
        gradient = fromStops(kViridis);
        break;
    case Colormap::Magma:
        gradient = fromStops(kMagma);
        break;
    case Colormap::Grayscale:
        gradient = QCPColorGradient(QCPColorGradient::gpGrayscale);
        break;
    }
    gradient.setLevelCount(256);
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(maskColor(map));
    return gradient;
}

QColor Colormaps::maskColor(Colormap map)
{
    // Viridis and magma hold no neutral gray; grayscale holds every gray, so it gets a red.
    return map == Colormap::Grayscale ? QColor("#c0504d") : QColor("#b8b8b8");
}

QString Colormaps::name(Colormap map)
{
    switch (map) {
    case Colormap::Viridis:
        return "viridis";
    case Colormap::Magma:
        return "magma";
    case Colormap::Grayscale:
        return "grayscale";
    }
    return "viridis";
}

QStringList Colormaps::names()
{
    return {"viridis", "magma", "grayscale"};
}

Colormap Colormaps::fromName(const QString &name)
{
    if (name == "magma")
        return Colormap::Magma;
    if (name == "grayscale")
        return Colormap::Grayscale;
    return Colormap::Viridis;
}

} // namespace headlens
