// ModelInput: the tokens a model reads, with the segment of each when it reads a pair.
#pragma once

#include <cstddef>
#include <vector>

namespace headlens {

/// Token ids and, for an encoder's pair, the segment of each token: 0 for sentence A with the
/// special tokens before and after it, 1 for sentence B. Empty segments: one text, all 0.
/// Implicit from ids, so code that runs one text passes them as they are.
struct ModelInput
{
    std::vector<int> tokenIds;
    std::vector<int> segments;

    ModelInput() = default;
    ModelInput(std::vector<int> ids) : tokenIds(std::move(ids)) {} // NOLINT: implicit on purpose
    ModelInput(std::vector<int> ids, std::vector<int> segmentOfEach)
        : tokenIds(std::move(ids)), segments(std::move(segmentOfEach))
    {}

    /// Segment of token `i` (0 when there are none).
    int segment(std::size_t i) const { return i < segments.size() ? segments[i] : 0; }
    bool operator==(const ModelInput &other) const
    {
        return tokenIds == other.tokenIds && segments == other.segments;
    }
};

} // namespace headlens
