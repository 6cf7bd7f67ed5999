// HeadImportance: how much each head matters for one text: the loss when it alone is ablated.
#pragma once

#include "attention/headintervention.h"
#include "tensor/tensor.h"

#include <string>

namespace headlens {

/// How importance removes a head: its output z_h set to 0, or to a mean: the text's own over
/// its positions, or `means` (L, h, d_v) given, e.g. a dataset's (DatasetExperiment), so that
/// a head is replaced by what it usually writes rather than by nothing.
struct ImportanceAblation
{
    InterventionKind kind = InterventionKind::Zero; ///< Zero or Mean
    Tensor means;                                   ///< Mean: empty = the text's own mean
};

/// L = layers, h = heads. Made in a worker thread, immutable afterwards (TraceRun holds it).
struct HeadImportance
{
    /// (L, h): loss with that head ablated (zero by default) minus the clean loss; positive =
    /// the head helps.
    RowMatrix lossIncrease;
    double cleanLoss = 0.0; ///< the unablated model's loss on the text (nats)
    /// What the loss is, for the table's title: "mean cross-entropy of the 11 next tokens".
    std::string loss;
    /// False for the built-in layer (LayerImportance): it predicts nothing, so lossIncrease
    /// holds its heads' mean |Δ output| and cleanLoss is 0.
    bool fromLoss = true;
};

} // namespace headlens
