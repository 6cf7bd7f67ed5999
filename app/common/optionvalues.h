// OptionValues: an option's value read as a number, a list or a file, or refused with why.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// Each reader names `option` in the InputError it throws, and says what it expects
/// ("--heads expects a whole number, got 'eight'").
class OptionValues
{
public:
    static long long integer(const std::string &option, const std::string &value);
    /// A count or size: 1 to 65536.
    static int size(const std::string &option, const std::string &value);
    /// A layer number or token id: a whole number from 0 (up to 10^9).
    static int index(const std::string &option, const std::string &value);
    static float number(const std::string &option, const std::string &value);
    /// "L.H" of --ablate or --patch-positions: layer from 0, head from 1.
    static std::pair<int, int> layerHead(const std::string &option, const std::string &value);
    /// The comma-separated parts of `value`, empty parts left out.
    static std::vector<std::string> commaList(const std::string &value);
    /// The whole file at `path` (--text-file).
    static std::string textFile(const std::string &path);
};

} // namespace headlens
