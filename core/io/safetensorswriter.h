// SafetensorsWriter: float32 tensors written as a .safetensors file, as Hugging Face writes it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace headlens {

/// One tensor to write: its name, its C-order shape and its values (numel of them).
struct SafetensorsTensor
{
    std::string name;
    std::vector<int64_t> shape;
    std::vector<float> values;
};

/// The format SafetensorsFile reads: a little-endian 64-bit header length, the JSON header
/// ({"name": {"dtype": "F32", "shape", "data_offsets"}, "__metadata__"}) padded with spaces to
/// a multiple of 8 bytes as the reference implementation pads it, then the tensors' bytes in
/// the order given, without gaps.
class SafetensorsWriter
{
public:
    /// The bytes of the file. Precondition: names are unique and not "__metadata__"; each
    /// tensor's values match its shape.
    static std::string serialize(const std::vector<SafetensorsTensor> &tensors,
                                 const std::map<std::string, std::string> &metadata);
    /// serialize() written atomically (AtomicFile). Throws InputError when it cannot be.
    static void write(const std::string &path, const std::vector<SafetensorsTensor> &tensors,
                      const std::map<std::string, std::string> &metadata);
};

} // namespace headlens
