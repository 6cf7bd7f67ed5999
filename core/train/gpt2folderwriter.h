// Gpt2FolderWriter: a trained language model saved as a Hugging Face GPT-2 folder.
#pragma once

#include "train/toyparameters.h"

#include <optional>
#include <string>

namespace headlens {

/// Writes what transformers' GPT2LMHeadModel.from_pretrained(dir) and HeadLens's checkpoint
/// reader open: config.json (model_type "gpt2", activation "gelu_new", n_embd, n_head,
/// n_layer, n_positions, vocab_size), model.safetensors (wte, wpe, h.{i}.ln_1, attn.c_attn,
/// attn.c_proj, ln_2, mlp.c_fc, mlp.c_proj, ln_f; Conv1D weights, so each nn.Linear-layout
/// matrix is written transposed), tokenizer.json and headlens_training.json (the run's
/// settings and its log, as the caller writes them). A model GPT-2 cannot hold (RoPE, fewer
/// K/V heads than heads) is written as HeadLens's own model_type "headlens_gpt"
/// (HeadLensGptFormat), which HeadLens's checkpoint reader opens and transformers does not.
///
/// The folder is replaced as a whole: everything is written into a new sibling folder, whose
/// files are each flushed to disk, then the two folders are swapped in one step
/// (renameat2 RENAME_EXCHANGE, or two renames where the file system cannot) and the old one
/// removed. A kill at any moment leaves the previous save (or a stray sibling folder), never
/// half of each. A folder that exists, is not empty and was not written by HeadLens (no
/// headlens_training.json) is refused: its files would be lost.
class Gpt2FolderWriter
{
public:
    /// Why `config` cannot be a GPT-2 checkpoint (GPT-2's block needs LayerNorm and a tied
    /// unembedding; an attention-only model is saved with an MLP of zeros, which adds
    /// nothing), as a sentence; nothing when it can.
    static std::optional<std::string> unsupported(const ToyModelConfig &config);

    /// Writes the folder `dir`. Throws InputError naming the folder and what went wrong (a
    /// folder of other files, a read-only place, a full disk); whatever was there stays.
    /// Precondition: unsupported(config) is empty; `parameters` has config's shapes.
    static void write(const std::string &dir, const ToyModelConfig &config,
                      const ToyParameters &parameters, const std::string &tokenizerJson,
                      const std::string &trainingJson);
};

} // namespace headlens
