// RopeScaling: the frequency rules of transformers' _compute_linear/_compute_llama3_parameters.
#include "attention/ropescaling.h"

#include <algorithm>

#include <cmath>
#include <cstdio>

namespace headlens {

double RopeScaling::scaled(double frequency, int64_t pair) const
{
    switch (kind) {
    case Kind::None:
        return frequency;
    case Kind::Linear:
        return frequency / factor;
    case Kind::Llama3: {
        const double wavelength = 2.0 * M_PI / frequency;
        const double lowFreqWavelength = originalContext / lowFreqFactor;
        const double highFreqWavelength = originalContext / highFreqFactor;
        if (wavelength < highFreqWavelength)
            return frequency;
        if (wavelength > lowFreqWavelength)
            return frequency / factor;
        const double smooth =
            (originalContext / wavelength - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
        return (1.0 - smooth) * frequency / factor + smooth * frequency;
    }
    case Kind::Factors:
        return pair >= 0 && size_t(pair) < factors.size() ? frequency / factors[size_t(pair)]
                                                          : frequency;
    }
    return frequency;
}

std::string RopeScaling::describe() const
{
    char text[96];
    switch (kind) {
    case Kind::None:
        return "none";
    case Kind::Linear:
        std::snprintf(text, sizeof text, "linear x%g", factor);
        return text;
    case Kind::Llama3:
        std::snprintf(text, sizeof text, "llama3 x%g (low %g, high %g, original %d)", factor,
                      lowFreqFactor, highFreqFactor, originalContext);
        return text;
    case Kind::Factors: {
        const auto [least, most] = std::minmax_element(factors.begin(), factors.end());
        std::snprintf(text, sizeof text, "factors %g to %g (GGUF rope_freqs)",
                      factors.empty() ? 1.0 : *least, factors.empty() ? 1.0 : *most);
        return text;
    }
    }
    return "none";
}

} // namespace headlens
