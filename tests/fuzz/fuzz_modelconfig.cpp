// Fuzz target: a model folder's config.json (ModelSpec) and shard index (Checkpoint::parseIndex).
#include "model/checkpoint.h"
#include "model/modelspec.h"
#include "util/inputerror.h"

#include <cstdint>
#include <filesystem>
#include <string>

/// Both parsers read the same bytes: each must return or throw InputError, and what it returns
/// must keep its promises (sizes in range and divisible; positive epsilons as float32; shards
/// plain file names).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        const headlens::ModelSpec spec = headlens::ModelSpec::fromJson(text, "fuzz");
        // d_model need not divide by h when head_dim is given (Qwen3), but every K/V head
        // must serve the same number of query heads.
        if (!spec.family || spec.layers < 1 || spec.heads < 1 || spec.kvHeads < 1 ||
            spec.heads % spec.kvHeads != 0 || spec.headDim() < 1 ||
            (spec.family->headDim.key.empty() && spec.dModel % spec.heads != 0) ||
            spec.mlpWidth < 1 || spec.vocabSize < 1 || spec.contextLength < 1 ||
            !(spec.normEpsilon > 0.0f))
            __builtin_trap();
    } catch (const headlens::InputError &) {
    }
    try {
        for (const auto &[name, shard] : headlens::Checkpoint::parseIndex(text, "fuzz"))
            if (shard.empty() || std::filesystem::path(shard).filename() != shard)
                __builtin_trap();
    } catch (const headlens::InputError &) {
    }
    return 0;
}
