// RandomCheckpoint: a GPT-2 folder of random weights in real shapes, for the model benchmarks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// The sizes of a checkpoint to write: GPT-2 small by default, or a Qwen2 layout (grouped K/V
/// heads, q/k/v biases, SwiGLU, tied embeddings) with qwen25Small()'s Qwen2.5-0.5B shapes.
struct CheckpointShape
{
    bool qwen2 = false;
    int layers = 12, heads = 12, kvHeads = 12, dModel = 768, mlp = 3072, context = 1024,
        vocab = 50257;
    bool bf16 = false; ///< weights stored as BF16 instead of F32

    /// Qwen2.5-0.5B: 24 layers, hidden 896, 14 heads, 2 K/V heads, intermediate 4864,
    /// vocabulary 151936, tied, BF16.
    static CheckpointShape qwen25Small();
};

/// Writes config.json, model.safetensors (Hugging Face's GPT-2 or Qwen2 layout, random
/// N(0, 0.02) weights from CounterRandom) and a byte-level tokenizer (the 256 byte tokens, no
/// merges) into a folder, so `make bench` needs no Python and no download. GPT-2 small: 124M
/// parameters; Qwen2.5-0.5B: 494M.
class RandomCheckpoint
{
public:
    /// Writes into `dir` (created). Returns the bytes of model.safetensors. Throws
    /// std::runtime_error when a file cannot be written.
    static int64_t write(const std::string &dir, const CheckpointShape &shape);
    /// n characters of words: n tokens for the checkpoint's byte-level tokenizer.
    static std::string text(int n);
    /// n ids cycling through the 256 byte tokens: a run's cost does not depend on which.
    static std::vector<int> tokenIds(int n);
};

} // namespace headlens
