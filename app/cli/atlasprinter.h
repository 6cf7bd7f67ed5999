// AtlasPrinter: headlens-cli's head atlas, printed and written.
#pragma once

#include "model/headatlas.h"

#include <ostream>
#include <string>

namespace headlens {

/// Prints the atlas with layers from 0 and heads from 1 ("2.5" is layer 2's fifth head, as the
/// rankings name heads), and writes its .npy and .csv files.
class AtlasPrinter
{
public:
    explicit AtlasPrinter(std::ostream &out) : m_out(out) {}

    /// What the probes were, a layers x heads table of each head's type, and per score the
    /// heads that score highest beside the score's chance.
    void print(const HeadAtlas &atlas) const;

    /// dir/atlas.npy (scores, layers, heads) float32 in the order of the CSV's score columns
    /// (NaN for a score the probes cannot measure); dir/atlas.csv: a row per head with its
    /// type, every score, the fixed offset's k and the mean attention distance, and a last row
    /// "chance". Throws InputError when a file cannot be written.
    static void write(const HeadAtlas &atlas, const std::string &dir);

private:
    std::ostream &m_out;
};

} // namespace headlens
