// RandomCheckpoint: a GPT-2 folder of random weights in real shapes, for the model benchmarks.
#pragma once

#include <cstdint>
#include <string>

namespace headlens {

/// The sizes of a GPT-2 checkpoint to write.
struct CheckpointShape
{
    int layers = 12, heads = 12, dModel = 768, context = 1024, vocab = 50257;
    bool bf16 = false; ///< weights stored as BF16 instead of F32
};

/// Writes config.json, model.safetensors (Hugging Face's GPT-2 layout, random N(0, 0.02)
/// weights from CounterRandom) and a byte-level tokenizer (the 256 byte tokens, no merges) into
/// a folder, so `make bench` needs no Python and no download. GPT-2 small: 124M parameters.
class RandomCheckpoint
{
public:
    /// Writes into `dir` (created). Returns the bytes of model.safetensors. Throws
    /// std::runtime_error when a file cannot be written.
    static int64_t write(const std::string &dir, const CheckpointShape &shape);
};

} // namespace headlens
