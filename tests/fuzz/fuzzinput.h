// fuzzinput.h: one fuzz input cut into the several files a target reads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace headlens::fuzz {

/// `count` parts of the input, cut at the first count - 1 occurrences of `separator`; parts
/// past the end are empty, and the last part keeps any further separators.
inline std::vector<std::string> splitInput(const uint8_t *data, size_t size, size_t count,
                                           const std::string &separator)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> parts(count);
    size_t at = 0;
    for (size_t k = 0; k < count && at <= input.size(); ++k) {
        const size_t found = k + 1 == count ? std::string::npos : input.find(separator, at);
        const size_t end = std::min(found, input.size());
        parts[k] = input.substr(at, end - at);
        at = end + separator.size();
    }
    return parts;
}

} // namespace headlens::fuzz
