// OpenedModel: the settings summary every family shows in the Model box.
#include "model/openedmodel.h"

namespace headlens {

std::string OpenedModel::summary(const AttentionConfig &c, int layers, int vocabulary, int context)
{
    return "d_model " + std::to_string(c.dModel) + " · " + std::to_string(c.heads) +
           " heads · d_k " + std::to_string(c.headDimK()) + (c.causal ? " · causal" : "") + "\n" +
           std::to_string(layers) + " layers · vocabulary " + std::to_string(vocabulary) +
           " · context " + std::to_string(context);
}

} // namespace headlens
