// Fuzz target: a GGUF file's bytes through GgufFile, the block decoders, GgufConfig and
// GgufVocabulary: each returns or throws InputError, and never reads outside the file.
#include "io/gguffile.h"
#include "model/ggufconfig.h"
#include "model/ggufvocabulary.h"
#include "util/inputerror.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// One file per process, rewritten by every input (libFuzzer runs inputs one at a time).
const fs::path &file()
{
    static const fs::path path = [] {
        std::string pattern = (fs::temp_directory_path() / "headlens-fuzz-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            std::abort();
        return fs::path(pattern) / "model.gguf";
    }();
    return path;
}

} // namespace

/// The input is the whole file. Seeds: tests/fuzz/regressions/gguf (the script's files, cut
/// short, and hand-broken ones). What parse returns keeps its promise: every tensor inside the
/// file, aligned, apart from the others; then each decodable tensor is decoded whole.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    try {
        const headlens::GgufContents contents = headlens::GgufFile::parse(data, size, "fuzz");
        for (const headlens::GgufTensorInfo &t : contents.tensors) {
            if (t.begin > size || t.bytes > size - t.begin)
                __builtin_trap();
            if (!t.format || t.numel() > (int64_t(1) << 22))
                continue;
            std::vector<float> values(size_t(t.numel()));
            headlens::widenFloats(data + t.begin, *t.format, t.numel(), values.data());
        }
    } catch (const headlens::InputError &) {
        return 0;
    }
    std::ofstream(file(), std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char *>(data), std::streamsize(size));
    try {
        const headlens::GgufFile gguf = headlens::GgufFile::open(file().string());
        (void)headlens::GgufConfig::spec(gguf);
    } catch (const headlens::InputError &) {
    }
    try {
        const headlens::GgufFile gguf = headlens::GgufFile::open(file().string());
        const headlens::TokenizerPipeline tokenizer = headlens::GgufVocabulary::tokenizer(gguf);
        (void)tokenizer.encode("Hello world, héllo 123!");
    } catch (const headlens::InputError &) {
    }
    return 0;
}
