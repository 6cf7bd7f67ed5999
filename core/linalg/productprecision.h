// ProductPrecision: whether BF16 weights multiply in bfloat16 or widened to float32, per process.
#pragma once

#include <string>

namespace headlens {

/// The precision of the products with a checkpoint's BF16 weights (the linear layers and the
/// logits; the attention's own products and weights are always float32):
///  - bfloat16: the activation is rounded to bfloat16 and multiplied with the stored weight by
///    oneDNN, with float32 sums (assignBf16Product), as PyTorch multiplies a bfloat16 model;
///  - float32: the weight is widened to float32 a block at a time, so the numbers are a float32
///    pass's (as Hugging Face's model loaded in float32, its default).
/// HEADLENS_PRODUCTS=float32|bfloat16 forces one; otherwise bfloat16 where the CPU multiplies
/// bfloat16 in hardware (cpuMultipliesBf16), which is about three times as fast there, and
/// float32 elsewhere. Chosen once per process, so a text gives the same numbers each time it is
/// run. F16 weights are widened: oneDNN 2.6 multiplies float16 only with AVX512-FP16.
class ProductPrecision
{
public:
    /// The process's choice, from the environment and this CPU, decided on first call.
    static const ProductPrecision &shared();

    /// What the choice is made from: HEADLENS_PRODUCTS (nullptr: unset), whether the CPU
    /// multiplies bfloat16 in hardware, and how oneDNN names what it found here.
    struct Inputs
    {
        const char *forced = nullptr;
        bool cpuMultipliesBf16 = false;
        std::string library;
    };
    explicit ProductPrecision(const Inputs &inputs);

    bool bf16Products() const { return m_bf16; }
    /// Why, for --version and the bench's header: "bfloat16 (oneDNN 2.6.3, avx512_core_bf16;
    /// float32 sums)", "float32 (HEADLENS_PRODUCTS=float32)", or a warning that the asked
    /// precision is unknown or unavailable (then float32).
    const std::string &reason() const { return m_reason; }

    /// What the products use now: an Override's precision while one lives, else shared()'s.
    static bool bf16Now();

    /// For the bench and the tests that time or compare both precisions in one process: while
    /// it lives, bf16Now() is `bf16` (never true where the CPU does not multiply bfloat16). Not
    /// for the app: a process's numbers should not depend on when they were computed.
    class Override
    {
    public:
        explicit Override(bool bf16);
        ~Override();
        Override(const Override &) = delete;
        Override &operator=(const Override &) = delete;

    private:
        int m_previous;
    };

private:
    bool m_bf16 = false;
    std::string m_reason;
};

} // namespace headlens
