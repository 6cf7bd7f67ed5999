// PostProcessorJson: tokenizer.json's "post_processor" read into a PostProcessor.
#pragma once

#include "text/json/jsonnode.h"
#include "text/pipeline/postprocessor.h"

#include <memory>

namespace headlens {

/// Reads a post-processor as huggingface/tokenizers processors/mod.rs deserializes it:
/// TemplateProcessing, BertProcessing and RobertaProcessing (both made TemplateProcessing),
/// ByteLevel (which changes no id: only offsets) and Sequence (of those, with at most one that
/// adds tokens). Any other type is refused with an InputError naming it.
class PostProcessorJson
{
public:
    /// The post-processor `node` describes; null for JSON null and for steps that change no id.
    static std::shared_ptr<const PostProcessor> read(const JsonNode &node);
};

} // namespace headlens
