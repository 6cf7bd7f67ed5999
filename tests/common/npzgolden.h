// npzGolden: a golden .npz of a committed generator script, by array name; its ids as ints.
#pragma once

#include "io/npzarchive.h"

#include <map>
#include <string>
#include <vector>

namespace headlens::test {

/// Every array of the .npz at `path` by its name (NpzArchive::read: int64 arrays as floats).
inline std::map<std::string, Tensor> npzGolden(const std::string &path)
{
    std::map<std::string, Tensor> out;
    for (auto &[name, tensor] : NpzArchive::read(path))
        out[name] = tensor;
    return out;
}

/// A golden array of token ids (or positions) as ints.
inline std::vector<int> idsOf(const Tensor &t)
{
    std::vector<int> ids;
    for (int64_t i = 0; i < t.numel(); ++i)
        ids.push_back(int(t.data()[i]));
    return ids;
}

} // namespace headlens::test
