// SafetensorsWriter: the header through nlohmann::json, the data as the floats' bytes.
#include "io/safetensorswriter.h"

#include "io/atomicfile.h"

#include <nlohmann/json.hpp>

#include <cassert>

namespace headlens {

std::string SafetensorsWriter::serialize(const std::vector<SafetensorsTensor> &tensors,
                                         const std::map<std::string, std::string> &metadata)
{
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    uint64_t offset = 0;
    for (const SafetensorsTensor &t : tensors) {
        int64_t numel = 1;
        for (int64_t size : t.shape)
            numel *= size;
        assert(size_t(numel) == t.values.size());
        const uint64_t bytes = uint64_t(numel) * sizeof(float);
        header[t.name] = {
            {"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string json = header.dump();
    json.append((8 - json.size() % 8) % 8, ' '); // the data starts 8-byte aligned
    std::string out(8, '\0');
    uint64_t length = json.size();
    for (int i = 0; i < 8; ++i) // little-endian whatever the machine
        out[size_t(i)] = char((length >> (8 * i)) & 0xff);
    out += json;
    out.reserve(out.size() + offset);
    for (const SafetensorsTensor &t : tensors) {
        static_assert(sizeof(float) == 4, "F32 is four bytes");
        // x86 and ARM Linux are little-endian, as the format is.
        out.append(reinterpret_cast<const char *>(t.values.data()),
                   t.values.size() * sizeof(float));
    }
    return out;
}

void SafetensorsWriter::write(const std::string &path,
                              const std::vector<SafetensorsTensor> &tensors,
                              const std::map<std::string, std::string> &metadata)
{
    AtomicFile::write(path, serialize(tensors, metadata));
}

} // namespace headlens
