// CorpusFile: a text file read one text per line, without holding the whole file in memory.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>

namespace headlens {

/// The texts of a corpus file: one per line, empty (or blank) lines skipped, a final line
/// without a newline included, "\r\n" line ends accepted. Reads one line at a time, so a
/// corpus of any size costs the memory of its longest line.
class CorpusFile
{
public:
    /// Opens `path` and counts its texts. Throws InputError, naming the file (as `what`: a
    /// "Corpus", a "Dataset"), when it cannot be read, is a folder, holds a NUL byte (not text)
    /// or holds no text.
    explicit CorpusFile(std::string path, std::string what = "Corpus");

    const std::string &path() const { return m_path; }
    /// Non-blank lines in the file.
    int64_t texts() const { return m_texts; }
    /// The next text and its line number (from 1), or nothing at the end of the file.
    struct Line
    {
        int64_t number = 0;
        std::string text;
    };
    std::optional<Line> next();

private:
    std::string m_path;
    std::string m_what;
    std::ifstream m_stream;
    int64_t m_texts = 0;
    int64_t m_lineNumber = 0;
};

} // namespace headlens
