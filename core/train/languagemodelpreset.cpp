// LanguageModelPreset: the two presets and their training settings.
#include "train/languagemodelpreset.h"

#include <algorithm>
#include <cctype>

namespace headlens {

const std::vector<LanguageModelPreset> &LanguageModelPreset::all()
{
    // layers, heads, d_model, vocabulary (set by the tokenizer), context, LayerNorm, MLP, tied
    static const std::vector<LanguageModelPreset> presets = {
        {"micro",
         "Micro",
         "2 layers, 4 heads, d_model 64, context 32",
         {2, 4, 64, 256, 32, true, true, true},
         16},
        {"tiny",
         "Tiny",
         "2 layers, 4 heads, d_model 128, context 64",
         {2, 4, 128, 256, 64, true, true, true},
         16},
        {"small",
         "Small",
         "4 layers, 4 heads, d_model 192, context 128",
         {4, 4, 192, 256, 128, true, true, true},
         16},
    };
    return presets;
}

std::optional<LanguageModelPreset> LanguageModelPreset::named(const std::string &name)
{
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    for (const LanguageModelPreset &preset : all())
        if (preset.name == lower)
            return preset;
    return std::nullopt;
}

std::string LanguageModelPreset::names()
{
    std::string out;
    for (size_t i = 0; i < all().size(); ++i)
        out += (i == 0 ? "" : i + 1 == all().size() ? " or " : ", ") + all()[i].name;
    return out;
}

TrainingSettings LanguageModelPreset::settings(int vocabulary, int steps, uint64_t seed) const
{
    TrainingSettings s;
    s.model = model;
    s.model.vocabulary = vocabulary;
    s.learningRate = 1e-3f;
    s.batchSize = batchSize;
    s.seed = seed;
    s.heldOutSize = 64;
    s.gradientClip = 1.0f;
    s.weightDecay = 0.1f;
    s.warmupSteps = std::min(100, steps / 10);
    s.decaySteps = std::max(0, steps - s.warmupSteps);
    return s;
}

} // namespace headlens
