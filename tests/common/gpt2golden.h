// gpt2golden.h: the tiny GPT-2's goldens from scripts/make_gpt2_tiny.py, shared by its tests.
#pragma once

#include "io/npzarchive.h"
#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace headlens::test {

/// Where the GPT-2 test folders are (tiny, tiny_f16, tiny_bf16, tiny_prefixed, ...).
inline const std::string kGpt2Data = HEADLENS_TEST_DATA "/gpt2/";
/// Where make_llama_tiny.py's folders are (llama_gqa, qwen2_bias, ...).
inline const std::string kLlamaData = HEADLENS_TEST_DATA "/llama/";

/// What a float64 NumPy GPT-2 (make_gpt2_tiny.py's reference_forward, written without looking
/// at the C++) computed for golden text `index`.
struct Gpt2Golden
{
    std::vector<int> ids;
    Tensor attention; ///< (L, h, n, n)
    Tensor logits;    ///< (n, vocab)
};

/// Golden text `index` of any model's golden.npz (ids_k, attention_k, logits_k), as
/// make_gpt2_tiny.py and make_llama_tiny.py write them; with `pass` "bf16_" the pass of
/// attention_bf16_k and logits_bf16_k (make_gguf_tiny.py's, every linear input rounded).
inline Gpt2Golden modelGolden(const std::string &npzPath, int index, const std::string &pass = "")
{
    Gpt2Golden g;
    const std::string k = std::to_string(index);
    for (auto &[name, tensor] : NpzArchive::read(npzPath)) {
        if (name == "ids_" + k)
            for (int64_t i = 0; i < tensor.numel(); ++i)
                g.ids.push_back(int(tensor.data()[i]));
        else if (name == "attention_" + pass + k)
            g.attention = tensor;
        else if (name == "logits_" + pass + k)
            g.logits = tensor;
    }
    return g;
}

inline Gpt2Golden gpt2Golden(int index)
{
    return modelGolden(kGpt2Data + "tiny/golden.npz", index);
}

} // namespace headlens::test
