// Colormaps: the perceptual gradients the heatmaps use (QCustomPlot 2.1 has no viridis preset).
#pragma once

#include <qcustomplot.h>

#include <QColor>
#include <QString>
#include <QStringList>

namespace headlens {

enum class Colormap
{
    Viridis,
    Magma,
    Grayscale
};

class Colormaps
{
public:
    /// The gradient, with NaN (a masked cell) drawn in maskColor(map).
    static QCPColorGradient gradient(Colormap map);
    /// A color no weight can take in this map, so a masked cell never looks like weight 0.
    static QColor maskColor(Colormap map);
    static QString name(Colormap map);
    static QStringList names();
    static Colormap fromName(const QString &name);
};

} // namespace headlens
