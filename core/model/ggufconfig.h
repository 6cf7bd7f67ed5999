// GgufConfig: a GGUF file's metadata read as the config.json of its family.
#pragma once

#include "io/gguffile.h"
#include "model/modelspec.h"

#include <string>

namespace headlens {

/// llama.cpp keeps a model's hyperparameters as "<architecture>.<name>" metadata
/// (llama.block_count, qwen2.attention.head_count_kv, gpt2.context_length ...). They are
/// written here under the family table's own config.json keys, so that one reader
/// (ModelSpec::fromJson) checks them whatever the file's format.
class GgufConfig
{
public:
    /// The config.json text of `file`'s metadata. Throws InputError naming the file and the
    /// key when general.architecture is missing or names a family HeadLens does not run from
    /// GGUF, or a size it needs (block_count, embedding_length, attention.head_count,
    /// feed_forward_length) is missing or not a number.
    static std::string configJson(const GgufFile &file);
    /// ModelSpec::fromJson of configJson(file), named after the file.
    static ModelSpec spec(const GgufFile &file);
    /// The family general.architecture names; throws as configJson does.
    static const FamilyTable &family(const GgufFile &file);
};

} // namespace headlens
