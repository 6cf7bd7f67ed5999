// RopeScaling: how a long-context checkpoint stretches RoPE's frequencies (linear, Llama 3).
#pragma once

#include <string>
#include <vector>

namespace headlens {

/// config.json's "rope_scaling", as transformers' modeling_rope_utils computes it.
struct RopeScaling
{
    enum class Kind
    {
        None,
        /// Every frequency divided by `factor` (positions / factor: Chen et al. 2023).
        Linear,
        /// Llama 3.1's: low frequencies (wavelength > originalContext / lowFreqFactor) divided
        /// by `factor`, high ones (wavelength < originalContext / highFreqFactor) kept, those
        /// between blended smoothly (_compute_llama3_parameters).
        Llama3,
        /// Pair j's frequency divided by factors[j]: how llama.cpp's GGUF files carry Llama 3.1's
        /// scaling (the tensor rope_freqs.weight, computed by its converter from the same
        /// parameters), and how ggml's RoPE applies it.
        Factors,
    };

    Kind kind = Kind::None;
    double factor = 1.0;
    double lowFreqFactor = 1.0;
    double highFreqFactor = 4.0;
    int originalContext = 8192;  ///< original_max_position_embeddings
    std::vector<double> factors; ///< with Factors: one divisor per pair, d_k / 2 of them

    /// `frequency` (theta^(-2j/d_k), radians per position) of pair `pair` as this scaling
    /// changes it.
    double scaled(double frequency, int64_t pair) const;
    /// "none", "linear x8", "llama3 x8 (1, 4, 8192)", "factors 1 to 8 (GGUF rope_freqs)": for
    /// settings summaries.
    std::string describe() const;

    bool operator==(const RopeScaling &o) const
    {
        return kind == o.kind && factor == o.factor && lowFreqFactor == o.lowFreqFactor &&
               highFreqFactor == o.highFreqFactor && originalContext == o.originalContext &&
               factors == o.factors;
    }
    bool operator!=(const RopeScaling &o) const { return !(*this == o); }
};

} // namespace headlens
