// TemplateProcessing: special tokens and type ids placed around one text or a pair by a template.
#pragma once

#include "text/pipeline/postprocessor.h"

#include <vector>

namespace headlens {

/// huggingface/tokenizers processors/template.rs: a template for one text ("<s>:0 $A:0",
/// Llama) and one for a pair ("[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1", BERT). Each piece is a
/// sequence (A or B, every token given the piece's type id) or a special token (its ids, added
/// only with addSpecialTokens). BertProcessing and RobertaProcessing are such templates
/// (see TokenizerJson).
/// Immutable: process() may be called from any thread.
class TemplateProcessing : public PostProcessor
{
public:
    struct Piece
    {
        bool isSequence = true;
        int sequence = 0;          ///< 0 for A, 1 for B (when isSequence)
        std::vector<int> tokenIds; ///< the special token's ids (when not isSequence)
        int typeId = 0;
    };
    using Template = std::vector<Piece>;

    /// Precondition: `single` names sequence A only, `pair` both A and B.
    TemplateProcessing(Template single, Template pair);

    std::vector<TokenEncoding> process(std::vector<TokenEncoding> encodings,
                                       bool addSpecialTokens) const override;

private:
    Template m_single;
    Template m_pair;
};

} // namespace headlens
