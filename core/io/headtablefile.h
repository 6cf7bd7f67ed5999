// HeadTableFile: a layers x heads table of values as NAME.npy and NAME.csv.
#pragma once

#include "tensor/tensor.h"

#include <string>

namespace headlens {

/// The files of one value per head (importance, patching, attribution, a dataset's means):
/// NAME.npy (L, h) float32 and NAME.csv, a header row "layer,head 1,...", then one row per
/// layer, layers from 0 and heads from 1 as --stats prints them.
class HeadTableFile
{
public:
    /// Writes dir/name.npy and dir/name.csv, each atomically. Throws InputError when a file
    /// cannot be written.
    static void write(const RowMatrix &table, const std::string &dir, const std::string &name);
};

} // namespace headlens
