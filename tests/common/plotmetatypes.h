// The plot's types that several tests use as Qt Test data columns, declared to Qt once.
#pragma once

#include "plot/colormaps.h"
#include "plot/plotstyle.h"

#include <QMetaType>

Q_DECLARE_METATYPE(headlens::Colormap)
Q_DECLARE_METATYPE(headlens::ColorScaleMode)
