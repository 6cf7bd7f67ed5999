// byteTokenizerJson: the tokenizer.json of a byte-level model: one token per byte, id = byte.
#pragma once

#include <string>

namespace headlens {

/// Hugging Face's tokenizer.json for a model that reads bytes: byte-level BPE (GPT-2's
/// ByteLevel pre-tokenizer and decoder) over the 256 byte symbols of ByteLevelAlphabet with no
/// merges, token id = the byte's value. Hugging Face's tokenizers and HeadLens's
/// TokenizerJson both encode any text with it to its UTF-8 bytes.
std::string byteTokenizerJson();

} // namespace headlens
