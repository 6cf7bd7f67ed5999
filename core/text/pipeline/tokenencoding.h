// TokenEncoding: the ids of an encoded text or pair, with the segment (type id) of each.
#pragma once

#include <vector>

namespace headlens {

/// What huggingface/tokenizers' Encoding holds that HeadLens uses: the token ids and, for
/// each, its type id (token_type_ids: 0 for the first text, 1 for the second of a pair in
/// BERT; the post-processor's template decides).
/// Invariant: ids.size() == typeIds.size().
struct TokenEncoding
{
    std::vector<int> ids;
    std::vector<int> typeIds;
};

} // namespace headlens
