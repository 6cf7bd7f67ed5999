// tokenpredictions: the most probable next tokens from a vector of logits, for any model.
#pragma once

#include "tensor/tensor.h"

#include <functional>
#include <string>
#include <vector>

namespace headlens {

/// One candidate for the token after the text.
struct TokenPrediction
{
    int tokenId = 0;
    std::string label;        ///< what the model's tokenizer shows for tokenId
    double probability = 0.0; ///< softmax of the logits, this token's share
    float logit = 0.0f;
};

/// The `count` most probable tokens of softmax(logits), most probable first (equal logits: the
/// smaller id first), each with its probability exp(l_i - max) / sum_j exp(l_j - max), summed
/// in double (a vocabulary has tens of thousands of terms), and label(id) as its label.
/// Fewer when the vocabulary is smaller; none when count <= 0 or when a logit is NaN (weights
/// holding NaN: nothing can be ranked). Precondition: logits is not empty.
std::vector<TokenPrediction> topPredictions(const Eigen::Ref<const Vector> &logits, int count,
                                            const std::function<std::string(int)> &label);

} // namespace headlens
