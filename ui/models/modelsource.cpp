// ModelSource: tells a GPT-2 folder from a toy model file without reading the weights.
#include "models/modelsource.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace headlens {

namespace {

// A .npz is a zip: its central directory at the end lists every member's name, so the last
// few kilobytes say whether the file holds "headlens_toy_settings" (ToyModelFile).
bool namesToySettings(const std::string &path)
{
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file)
        return false;
    const std::streamoff size = file.tellg();
    const std::streamoff tail = std::min<std::streamoff>(size, 1 << 20);
    file.seekg(size - tail);
    const std::string bytes((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
    return bytes.find("headlens_toy_settings") != std::string::npos;
}

} // namespace

ModelSource::Kind ModelSource::kindOfPath(const std::string &path)
{
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        return Kind::Gpt2;
    return namesToySettings(path) ? Kind::Toy : Kind::BuiltIn;
}

} // namespace headlens
