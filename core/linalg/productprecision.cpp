// ProductPrecision: HEADLENS_PRODUCTS, else bfloat16 where the CPU has the instructions.
#include "linalg/productprecision.h"

#include "linalg/bf16product.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace headlens {

namespace {

/// -1: no Override lives; 0 or 1: its precision.
std::atomic<int> g_override{-1};

} // namespace

const ProductPrecision &ProductPrecision::shared()
{
    static const ProductPrecision precision = [] {
        const ProductPrecision made(
            {std::getenv("HEADLENS_PRODUCTS"), cpuMultipliesBf16(), oneDnnDescription()});
        if (made.reason().rfind("HEADLENS_PRODUCTS", 0) == 0)
            std::fprintf(stderr, "HeadLens: %s\n", made.reason().c_str());
        return made;
    }();
    return precision;
}

ProductPrecision::ProductPrecision(const Inputs &inputs)
{
    const std::string asked = inputs.forced ? inputs.forced : "";
    const std::string bf16Reason = "bfloat16 (" + inputs.library + "; float32 sums)";
    if (asked == "float32") {
        m_reason = "float32 (HEADLENS_PRODUCTS=float32)";
    } else if (asked == "bfloat16" && !inputs.cpuMultipliesBf16) {
        m_reason = "HEADLENS_PRODUCTS=bfloat16, but this CPU has no bfloat16 instructions (" +
                   inputs.library + "). Using float32.";
    } else if (!asked.empty() && asked != "bfloat16") {
        m_reason = "HEADLENS_PRODUCTS=" + asked + " is not a precision; use float32 or bfloat16. " +
                   (inputs.cpuMultipliesBf16 ? "Using bfloat16." : "Using float32.");
        m_bf16 = inputs.cpuMultipliesBf16;
    } else if (inputs.cpuMultipliesBf16) {
        m_bf16 = true;
        m_reason = asked.empty() ? bf16Reason : bf16Reason + " (HEADLENS_PRODUCTS=bfloat16)";
    } else {
        m_reason = "float32 (" + inputs.library + ": no bfloat16 instructions)";
    }
}

bool ProductPrecision::bf16Now()
{
    const int overridden = g_override.load(std::memory_order_relaxed);
    return overridden >= 0 ? overridden == 1 : shared().bf16Products();
}

ProductPrecision::Override::Override(bool bf16)
    : m_previous(g_override.exchange(bf16 && cpuMultipliesBf16() ? 1 : 0))
{}

ProductPrecision::Override::~Override()
{
    g_override.store(m_previous);
}

} // namespace headlens
