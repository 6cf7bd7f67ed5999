// TrainingMemory: parameters counted from the shapes, activations per token of the batch.
#include "train/trainingmemory.h"

#include "util/bytesize.h"
#include "util/inputerror.h"

namespace headlens {

TrainingMemory TrainingMemory::of(const TrainingSettings &settings)
{
    const ToyModelConfig &c = settings.model;
    const int64_t d = c.dModel, v = c.vocabulary, n = c.maxLength, h = c.heads;
    const int64_t norm = c.layerNorm ? 2 * d : 0;
    int64_t perLayer = norm + 4 * d * d + 4 * d; // W_Q, W_K, W_V, W_O and their biases
    if (c.mlp)
        perLayer += norm + 8 * d * d + 5 * d; // fc (d x 4d + 4d) and proj (4d x d + d)
    TrainingMemory m;
    m.parameters = v * d + n * d + c.layers * perLayer + norm + (c.tiedEmbedding ? 0 : v * d + v);
    m.parameterBytes = uint64_t(m.parameters) * 4 * sizeof(float);
    // Per token and layer: the norms' outputs, Q, K and V, the scores and weights of every
    // head, the heads' output, its projection and the residual sum; with an MLP its norm, fc,
    // GELU, projection and sum (18 d + 2 h n without, 28 d + 2 h n with). At the top: the
    // final norm and the logits with their softmax.
    const int64_t layer = (c.mlp ? 28 : 18) * d + 2 * h * n;
    const int64_t tokens = int64_t(settings.batchSize) * n;
    m.activationBytes = uint64_t(tokens * ((c.layers + 1) * layer + d + 2 * v)) * sizeof(float);
    return m;
}

void TrainingMemory::check(uint64_t available) const
{
    if (available == 0 || total() <= available)
        return;
    throw InputError("Training this model needs about " + formatBytes(double(total())) + " (" +
                     formatBytes(double(parameterBytes)) +
                     " for the parameters, their gradients and AdamW's moments, " +
                     formatBytes(double(activationBytes)) + " for one batch's activations), but " +
                     formatBytes(double(available)) +
                     " is available. Choose fewer layers, a smaller d_model, a shorter context "
                     "or a smaller batch.");
}

} // namespace headlens
