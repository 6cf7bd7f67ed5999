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

    /// "4 GiB", "64 MiB", "512 bytes": a cap as people read it.
    static std::string sizeText(uint64_t bytes);
};

} // namespace headlens
