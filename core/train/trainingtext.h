// TrainingText: the text a language model learns from, read and checked for what it must be.
#pragma once

#include <cstdint>
#include <string>

namespace headlens {

/// A plain-text file read whole, refused with a sentence when it cannot train anything: a
/// file that is missing or unreadable, empty, binary (a NUL byte, or bytes that are not
/// UTF-8), or larger than kMaxBytes.
class TrainingText
{
public:
    /// 64 MiB: far more than two CPU cores train on in an hour.
    static constexpr uint64_t kMaxBytes = uint64_t(64) << 20;

    /// The text of the file at `path`. Throws InputError naming the file, what is wrong with
    /// it and what to choose instead.
    static std::string read(const std::string &path);
    /// The same checks of text already in memory; `name` names it in messages.
    static void check(const std::string &text, const std::string &name);
};

} // namespace headlens
