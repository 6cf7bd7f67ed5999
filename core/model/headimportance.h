// HeadImportance: how much each head matters for one text: the loss when it alone is ablated.
#pragma once

#include "tensor/tensor.h"

#include <string>

namespace headlens {

/// L = layers, h = heads. Made in a worker thread, immutable afterwards (TraceRun holds it).
struct HeadImportance
{
    /// (L, h): loss with that head zero-ablated minus the clean loss; positive = the head helps.
    RowMatrix lossIncrease;
    double cleanLoss = 0.0; ///< the unablated model's loss on the text (nats)
    /// What the loss is, for the table's title: "mean cross-entropy of the 11 next tokens".
    std::string loss;
    /// False for the built-in layer (LayerImportance): it predicts nothing, so lossIncrease
    /// holds its heads' mean |Δ output| and cleanLoss is 0.
    bool fromLoss = true;
};

} // namespace headlens
