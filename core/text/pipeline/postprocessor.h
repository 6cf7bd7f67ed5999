// PostProcessor: the step of a tokenizer pipeline that adds special tokens around the ids.
#pragma once

#include <vector>

namespace headlens {

/// Changes the ids of a whole encoded text after the model, as huggingface/tokenizers
/// processors/ do (TemplateProcessing adds Llama's BOS, BertProcessing [CLS] ... [SEP]).
/// GPT-2 has none. Implementations are immutable and thread-safe.
class PostProcessor
{
public:
    virtual ~PostProcessor() = default;
    /// `ids` of one text, with the processor's tokens added.
    virtual std::vector<int> process(std::vector<int> ids) const = 0;
};

} // namespace headlens
