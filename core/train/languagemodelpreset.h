// LanguageModelPreset: the named sizes a language model is trained at (Tiny, Small).
#pragma once

#include "train/trainingsettings.h"

#include <optional>
#include <string>
#include <vector>

namespace headlens {

/// A GPT-2-style model's sizes and the optimiser settings that train it on two CPU cores: Micro
/// (2 layers, 4 heads, d_model 64, context 32: a demonstration on a slow laptop, and the
/// tests' size), Tiny (2 layers, 4 heads, d_model 128, context 64) and Small (4 layers, 4 heads,
/// d_model 192, context 128). AdamW (weight decay 0.1, betas 0.9 / 0.999), a 100-step warm-up
/// and cosine decay over the run, gradients clipped at 1, as nanoGPT's character-level
/// Shakespeare run trains (its learning rate 1e-3 at our smaller batches).
struct LanguageModelPreset
{
    std::string name;    ///< "tiny", "small"
    std::string title;   ///< "Tiny", "Small"
    std::string summary; ///< "2 layers, 4 heads, d_model 128, context 64"
    ToyModelConfig model;
    int batchSize = 16;

    /// The presets, smallest first.
    static const std::vector<LanguageModelPreset> &all();
    /// The preset called `name` (case-insensitive), or nothing.
    static std::optional<LanguageModelPreset> named(const std::string &name);
    /// "micro, tiny or small", for messages.
    static std::string names();

    /// Settings for `steps` steps over a vocabulary of `vocabulary` tokens from `seed`.
    TrainingSettings settings(int vocabulary, int steps, uint64_t seed) const;
};

} // namespace headlens
