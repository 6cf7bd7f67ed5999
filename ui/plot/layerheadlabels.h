// LayerHeadLabels: the words along a layers x heads map.
#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace headlens {

/// Layers counted from 0 and heads from 1, as --stats prints them, on screen and on paper alike
/// (the importance, patching, dataset, attribution and atlas maps and their printed sheets).
class LayerHeadLabels
{
    Q_DECLARE_TR_FUNCTIONS(LayerHeadLabels)

public:
    /// "layer 0" ... "layer count-1".
    static QStringList layers(int count);
    /// "1" ... "count".
    static QStringList heads(int count);
};

} // namespace headlens
