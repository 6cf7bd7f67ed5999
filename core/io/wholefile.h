// WholeFile: a file read into memory in one piece, refused before reading when it is too large.
#pragma once

#include <cstdint>
#include <string>

namespace headlens {

/// Reads small files whole (.npy, .npz, indexes, toy models). The size is checked against a cap
/// the caller documents before a byte is read, so a file cannot make HeadLens allocate more
/// than the cap.
class WholeFile
{
public:
    /// The bytes of the file at `path`. `kind` names what the file should be (".npz") for the
    /// message. Throws InputError "Cannot open <path> as <kind>: <why>" when it is missing, a
    /// folder, not a regular file or unreadable, and "<path> is N bytes, more than the <cap>
    /// HeadLens accepts for <kind>" when larger than `maxBytes`.
    static std::string read(const std::string &path, uint64_t maxBytes, const std::string &kind);

    /// The largest text file readText() reads (a tokenizer.json of a 256k vocabulary is ~35 MB).
    static constexpr uint64_t kMaxTextBytes = uint64_t(256) << 20;
    /// A JSON or text file of a model folder (config.json, tokenizer files), read whole. Throws
    /// InputError "Cannot read <path> (<why>): <advice>" when it is missing, a folder, not a
    /// regular file (a FIFO would block the reader for ever) or unreadable, and the read()
    /// message when it is larger than kMaxTextBytes.
    static std::string readText(const std::string &path, const std::string &advice);
};

} // namespace headlens
