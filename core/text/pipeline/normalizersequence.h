// NormalizerSequence: normalizers applied one after another.
#pragma once

#include "text/pipeline/normalizer.h"

#include <memory>
#include <vector>

namespace headlens {

/// huggingface/tokenizers normalizers/utils.rs Sequence: each normalizer rewrites what the one
/// before it gave (Llama 2: Prepend "▁", then Replace " " by "▁").
/// Immutable: normalize() may be called from any thread.
class NormalizerSequence : public Normalizer
{
public:
    explicit NormalizerSequence(std::vector<std::shared_ptr<const Normalizer>> steps);
    std::string normalize(const std::string &utf8) const override;

private:
    std::vector<std::shared_ptr<const Normalizer>> m_steps;
};

} // namespace headlens
