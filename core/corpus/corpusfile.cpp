// CorpusFile: a counting pass at open, then one line per next().
#include "corpus/corpusfile.h"

#include "util/inputerror.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace headlens {
namespace {

bool isBlank(const std::string &line)
{
    return std::all_of(line.begin(), line.end(), [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
    });
}

/// "Corpus" as the middle of a sentence says it.
std::string lowered(std::string word)
{
    if (!word.empty())
        word[0] = char(std::tolower(static_cast<unsigned char>(word[0])));
    return word;
}

void dropCarriageReturn(std::string &line)
{
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
}

} // namespace

CorpusFile::CorpusFile(std::string path, std::string what)
    : m_path(std::move(path)), m_what(std::move(what))
{
    std::error_code error;
    if (std::filesystem::is_directory(m_path, error))
        throw InputError(m_what + " " + m_path +
                         " is a folder. Choose a text file with one text per line.");
    m_stream.open(m_path, std::ios::binary);
    if (!m_stream)
        throw InputError("Cannot read " + lowered(m_what) + " " + m_path + ": " +
                         std::strerror(errno) + ". Choose a text file with one text per line.");
    std::string line;
    int64_t number = 0;
    while (std::getline(m_stream, line)) {
        ++number;
        if (line.find('\0') != std::string::npos)
            throw InputError(m_what + " " + m_path + " is not text: line " +
                             std::to_string(number) +
                             " holds a NUL byte. Choose a text file with one text per line.");
        if (!isBlank(line))
            ++m_texts;
    }
    if (m_stream.bad())
        throw InputError("Cannot read " + lowered(m_what) + " " + m_path + ": " +
                         std::strerror(errno) + ".");
    if (m_texts == 0)
        throw InputError(m_what + " " + m_path +
                         " holds no text: write one text per line (blank lines are skipped).");
    m_stream.clear();
    m_stream.seekg(0);
}

std::optional<CorpusFile::Line> CorpusFile::next()
{
    std::string line;
    while (std::getline(m_stream, line)) {
        ++m_lineNumber;
        if (isBlank(line))
            continue;
        dropCarriageReturn(line);
        return Line{m_lineNumber, std::move(line)};
    }
    return std::nullopt;
}

} // namespace headlens
