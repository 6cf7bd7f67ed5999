// CircuitsPrinter: headlens-cli's QK and OV circuits of one head, printed and written.
#pragma once

#include "model/headcircuits.h"

#include <ostream>
#include <string>
#include <vector>

namespace headlens {

/// Prints the circuits of one head (layers from 0, heads from 1, as --circuits names them) and
/// writes their token maps and singular values.
class CircuitsPrinter
{
public:
    explicit CircuitsPrinter(std::ostream &out) : m_out(out) {}

    /// The singular values, the copying score, the 10 token pairs the QK circuit prefers, and
    /// for each token of the text (`textIds`) the token its OV circuit raises most when
    /// attended.
    void print(const HeadCircuits &circuits, const std::vector<int> &textIds) const;

    /// dir/circuits_qk.npy and dir/circuits_ov.npy (T, T) float32 (row: the query or the
    /// token attended; column: the key or the logit raised), dir/circuits_tokens.csv (index,
    /// id, label) and dir/circuits_singular_values.csv. Throws InputError when a file cannot
    /// be written.
    static void write(const HeadCircuits &circuits, const std::string &dir);

private:
    std::ostream &m_out;
};

} // namespace headlens
