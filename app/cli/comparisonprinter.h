// ComparisonPrinter: headlens-cli --compare-text: text B's attention beside text A's.
#pragma once

#include "tensor/tensor.h"

#include <ostream>
#include <string>

namespace headlens {

/// Prints, for every head, how B's attention differs from A's (max and mean |A - B| and the
/// mean Jensen-Shannon divergence of the rows), and writes compare_weights.npy (B's attention,
/// shaped as A's) and, when the two have the same shape, compare_difference.npy (A - B) into a
/// folder. When the token counts differ only B's attention is written and a line says why.
class ComparisonPrinter
{
public:
    /// `outer`: what the first axis counts, "layer" (a model) or "seq" (the built-in layer).
    ComparisonPrinter(std::ostream &out, std::string outer) : m_out(out), m_outer(std::move(outer))
    {}

    /// `whatB`: describeComparison's `text B "…"`, "RoPE on", ...
    void print(const Tensor &a, const Tensor &b, const std::string &whatB) const;
    /// Returns the names of the files written ("compare_weights.npy, compare_difference.npy").
    /// Throws InputError when a file cannot be written.
    static std::string write(const Tensor &a, const Tensor &b, const std::string &dir);

private:
    std::ostream &m_out;
    std::string m_outer;
};

} // namespace headlens
