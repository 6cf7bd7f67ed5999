// PreTokenizerSequence: pre-tokenizers applied one after another to every piece.
#pragma once

#include "text/pipeline/pretokenizer.h"

#include <memory>
#include <vector>

namespace headlens {

/// huggingface/tokenizers pre_tokenizers/sequence.rs: each pre-tokenizer splits every piece
/// the one before it made (Llama 3: Split by its regex, then ByteLevel without its own).
/// Immutable: split() may be called from any thread.
class PreTokenizerSequence : public PreTokenizer
{
public:
    explicit PreTokenizerSequence(std::vector<std::shared_ptr<const PreTokenizer>> steps);

    void split(const Piece &piece, std::vector<Piece> &pieces) const override;

private:
    std::vector<std::shared_ptr<const PreTokenizer>> m_steps;
};

} // namespace headlens
