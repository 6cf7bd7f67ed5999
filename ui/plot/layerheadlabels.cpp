// LayerHeadLabels: counted labels, built once for every map that needs them.
#include "plot/layerheadlabels.h"

namespace headlens {

QStringList LayerHeadLabels::layers(int count)
{
    QStringList labels;
    for (int layer = 0; layer < count; ++layer)
        labels << tr("layer %1").arg(layer);
    return labels;
}

QStringList LayerHeadLabels::heads(int count)
{
    QStringList labels;
    for (int head = 0; head < count; ++head)
        labels << QString::number(head + 1);
    return labels;
}

} // namespace headlens
