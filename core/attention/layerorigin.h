// LayerOrigin: what a traced layer's x is when the layer is one of a model's, not the built-in one.
#pragma once

#include <string>

namespace headlens {

/// A model's layer reads the residual stream (its norm of it), not an embedding of the text:
/// the trace's input step and trace.json say which model, which layer and which norm. Empty
/// (family "") for the built-in layer, whose x is its own embedding of the text.
struct LayerOrigin
{
    std::string family; ///< FamilyTable::displayName: "GPT-2", "Llama", "BERT"
    int layer = 0;      ///< counted from 0, as --layer
    int layers = 0;     ///< L, the model's blocks
    /// The module that normalises the residual stream into x, named as the checkpoint names its
    /// weight ("h.1.ln_1"); empty for a post-norm block (BERT), which reads the stream as the
    /// block before left it, already normalised, and for a model without norms.
    std::string norm;
    std::string normKind; ///< "LayerNorm" or "RMSNorm"; empty: the model has no norms

    bool isModel() const { return !family.empty(); }
};

} // namespace headlens
