// PostProcessor: the step of a tokenizer pipeline that adds special tokens around the ids.
#pragma once

#include "text/pipeline/tokenencoding.h"

#include <vector>

namespace headlens {

/// Changes the encodings of a text (or of a pair of texts) after the model, as
/// huggingface/tokenizers processors/ process_encodings does (TemplateProcessing adds Llama's
/// BOS, BERT's [CLS] ... [SEP]); the pipeline then concatenates what it returns. Before it,
/// encoding i has type id i throughout (PostProcessor::process in tokenizer/mod.rs).
/// Implementations are immutable and thread-safe.
class PostProcessor
{
public:
    virtual ~PostProcessor() = default;
    /// `encodings` (one or two) with the processor's tokens added when `addSpecialTokens`.
    virtual std::vector<TokenEncoding> process(std::vector<TokenEncoding> encodings,
                                               bool addSpecialTokens) const = 0;
};

} // namespace headlens
