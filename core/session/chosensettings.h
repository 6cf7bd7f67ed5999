// ChosenSettings: which layer settings the person chose, so a weights file fills in only the rest.
#pragma once

namespace headlens {

/// The settings a weights file fixes (WeightsPolicy). headlens-cli marks what its options gave;
/// the window marks every one, because its controls show them all and opening a weights file
/// already set them from the file (FileCommands::openWeights).
struct ChosenSettings
{
    bool dModel = true;     ///< d_model: rows of out_proj.weight
    bool inputWidth = true; ///< d_in: columns of W_Q when it differs from d_model
    bool bias = true;       ///< whether the projections have biases
    bool kvHeads = true;    ///< h_kv: a file with fewer K/V heads than query heads fixes h / h_kv

    static ChosenSettings none() { return {false, false, false, false}; }
};

} // namespace headlens
