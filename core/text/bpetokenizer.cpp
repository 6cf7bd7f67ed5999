// BpeTokenizer: vocab/merges loading with checks, PCRE2 pre-tokenization and rank-ordered merges.
#include "text/bpetokenizer.h"

#include "text/tokenizer.h"
#include "util/inputerror.h"

#include <nlohmann/json.hpp>
#include <pcre2.h>

#include <array>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace headlens {

namespace {

/// GPT-2, openai/gpt-2 src/encoder.py: printable bytes stand for themselves, the other 68 bytes
/// for U+0100 onwards, so every byte is a visible, non-space character.
std::array<uint32_t, 256> byteToCodePoint()
{
    std::array<uint32_t, 256> table{};
    uint32_t next = 256;
    for (uint32_t b = 0; b < 256; ++b) {
        const bool printable =
            (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        table[b] = printable ? b : next++;
    }
    return table;
}

std::string utf8Of(uint32_t codePoint)
{
    std::string out;
    if (codePoint < 0x80) {
        out += char(codePoint);
    } else if (codePoint < 0x800) {
        out += char(0xC0 | (codePoint >> 6));
        out += char(0x80 | (codePoint & 0x3F));
    } else {
        out += char(0xE0 | (codePoint >> 12));
        out += char(0x80 | ((codePoint >> 6) & 0x3F));
        out += char(0x80 | (codePoint & 0x3F));
    }
    return out;
}

/// The raw bytes of a token written in bytes_to_unicode form, or false when a character of it
/// is not one of the 256 byte symbols. `symbol` is valid UTF-8 (nlohmann-json checks it).
using ByteOfCodePoint = std::array<int, 324>; // the table's code points are all < 324

bool symbolToBytes(const std::string &symbol, const ByteOfCodePoint &byteOf, std::string &bytes)
{
    bytes.clear();
    for (size_t i = 0; i < symbol.size();) {
        const auto lead = static_cast<unsigned char>(symbol[i]);
        uint32_t cp = lead;
        size_t length = 1;
        if (lead >= 0xC0 && lead < 0xE0 && i + 1 < symbol.size()) {
            cp = ((lead & 0x1Fu) << 6) | (static_cast<unsigned char>(symbol[i + 1]) & 0x3Fu);
            length = 2;
        } else if (lead >= 0x80) {
            return false;
        }
        if (cp >= byteOf.size() || byteOf[cp] < 0)
            return false;
        bytes += char(byteOf[cp]);
        i += length;
    }
    return true;
}

std::string readFile(const std::string &path, const char *what)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw InputError("Cannot read " + path + ": a GPT-2 folder needs " + what +
                         " beside config.json.");
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

} // namespace

/// The compiled pre-tokenization pattern and the byte symbols, shared by copies (read-only).
struct BpeTokenizer::Pattern
{
    pcre2_code *code = nullptr;
    std::array<std::string, 256> byteSymbols; ///< byte -> its bytes_to_unicode UTF-8

    Pattern()
    {
        const char *regex =
            R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
        int error = 0;
        PCRE2_SIZE offset = 0;
        code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(regex), PCRE2_ZERO_TERMINATED,
                             PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
        if (!code)
            throw std::logic_error("BpeTokenizer: the GPT-2 pattern does not compile");
        const std::array<uint32_t, 256> table = byteToCodePoint();
        for (int b = 0; b < 256; ++b)
            byteSymbols[b] = utf8Of(table[b]);
    }
    ~Pattern() { pcre2_code_free(code); }
    Pattern(const Pattern &) = delete;
    Pattern &operator=(const Pattern &) = delete;
};

BpeTokenizer BpeTokenizer::load(const std::string &vocabPath, const std::string &mergesPath)
{
    return fromText(readFile(vocabPath, "vocab.json"), readFile(mergesPath, "merges.txt"),
                    vocabPath, mergesPath);
}

BpeTokenizer BpeTokenizer::fromText(const std::string &vocabJson, const std::string &mergesText,
                                    const std::string &vocabName, const std::string &mergesName)
{
    BpeTokenizer t;
    t.m_pattern = std::make_shared<const Pattern>();
    t.readVocab(vocabJson, vocabName);
    t.readMerges(mergesText, mergesName);
    return t;
}

void BpeTokenizer::readVocab(const std::string &json, const std::string &vocabName)
{
    const std::array<uint32_t, 256> table = byteToCodePoint();
    ByteOfCodePoint byteOf;
    byteOf.fill(-1);
    for (int b = 0; b < 256; ++b)
        byteOf[table[b]] = b;
    const nlohmann::json vocab = nlohmann::json::parse(json, nullptr, false);
    if (vocab.is_discarded() || !vocab.is_object())
        throw InputError(vocabName + " is not a JSON object of tokens and ids, as GPT-2's "
                                     "vocab.json is. Download the tokenizer files again.");
    std::string bytes;
    for (const auto &[symbol, value] : vocab.items()) {
        const std::string what = vocabName + ": token \"" + symbol + "\"";
        if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > kMaxId)
            throw InputError(what + " has the id " + value.dump() +
                             "; ids are whole numbers from 0 to " + std::to_string(kMaxId) + ".");
        const auto id = static_cast<size_t>(value.get<int>());
        if (!symbolToBytes(symbol, byteOf, bytes)) {
            if (symbol.rfind("<|", 0) != 0)
                throw InputError(what + " has a character that is not one of GPT-2's 256 byte "
                                        "symbols (bytes_to_unicode); is this a GPT-2 vocab.json?");
            bytes = symbol; // a special token such as <|endoftext|> spelled literally
        }
        if (id >= m_tokens.size()) {
            m_tokens.resize(id + 1);
            m_present.resize(id + 1, false);
        }
        if (m_present[id])
            throw InputError(what + " has the id " + std::to_string(id) +
                             ", which another token already has. Ids must be unique.");
        m_tokens[id] = bytes;
        m_present[id] = true;
        m_ids.emplace(symbol, static_cast<int>(id));
        ++m_count;
    }
    for (int b = 0; b < 256; ++b)
        if (idOf(m_pattern->byteSymbols[b]) < 0)
            throw InputError(vocabName + " lacks the token \"" + m_pattern->byteSymbols[b] +
                             "\" for byte " + std::to_string(b) +
                             "; GPT-2's vocabulary holds all 256 bytes, so any text can be "
                             "encoded. Download the tokenizer files again.");
    m_endOfText = idOf(kEndOfText);
}

void BpeTokenizer::readMerges(const std::string &text, const std::string &mergesName)
{
    std::istringstream lines(text);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || (number == 1 && line.rfind("#version", 0) == 0))
            continue;
        const std::string where = mergesName + " line " + std::to_string(number);
        const size_t space = line.find(' ');
        if (space == 0 || space == std::string::npos || space + 1 == line.size() ||
            line.find(' ', space + 1) != std::string::npos)
            throw InputError(where + " is \"" + line +
                             "\", not two tokens separated by one space (\"Ġ t\").");
        const std::string a = line.substr(0, space), b = line.substr(space + 1);
        for (const std::string &symbol : {a, b, a + b})
            if (idOf(symbol) < 0)
                throw InputError(where + " uses the token \"" + symbol +
                                 "\", which vocab.json does not have: the two files do not "
                                 "belong together.");
        if (!m_ranks.emplace(line, static_cast<int>(m_ranks.size())).second)
            throw InputError(where + " repeats the merge \"" + line + "\".");
    }
}

std::vector<std::string> BpeTokenizer::preTokenize(const std::string &utf8) const
{
    const std::string text = Tokenizer::toValidUtf8(utf8);
    pcre2_match_data *data = pcre2_match_data_create_from_pattern(m_pattern->code, nullptr);
    const auto subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    std::vector<std::string> pieces;
    PCRE2_SIZE start = 0;
    while (start < text.size()) {
        const int rc = pcre2_match(m_pattern->code, subject, text.size(), start, PCRE2_NO_UTF_CHECK,
                                   data, nullptr);
        const PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(data);
        // Every character matches one alternative, so a failure is only a resource limit: the
        // rest then becomes one piece rather than an error.
        if (rc < 0 || ovector[0] != start || ovector[1] <= start) {
            pieces.push_back(text.substr(start));
            break;
        }
        pieces.push_back(text.substr(start, ovector[1] - start));
        start = ovector[1];
    }
    pcre2_match_data_free(data);
    return pieces;
}

void BpeTokenizer::appendPiece(const std::string &piece, std::vector<int> &ids) const
{
    std::vector<std::string> word;
    for (unsigned char byte : piece)
        word.push_back(m_pattern->byteSymbols[byte]);
    // encoder.py's bpe(): merge the adjacent pair of lowest rank, every occurrence left to
    // right, until no adjacent pair is a merge.
    while (word.size() > 1) {
        int best = std::numeric_limits<int>::max();
        size_t bestAt = 0;
        for (size_t i = 0; i + 1 < word.size(); ++i) {
            const auto rank = m_ranks.find(word[i] + " " + word[i + 1]);
            if (rank != m_ranks.end() && rank->second < best) {
                best = rank->second;
                bestAt = i;
            }
        }
        if (best == std::numeric_limits<int>::max())
            break;
        const std::string first = word[bestAt], second = word[bestAt + 1];
        std::vector<std::string> merged;
        for (size_t i = 0; i < word.size(); ++i) {
            if (word[i] == first && i + 1 < word.size() && word[i + 1] == second) {
                merged.push_back(first + second);
                ++i;
            } else {
                merged.push_back(word[i]);
            }
        }
        word.swap(merged);
    }
    for (const std::string &symbol : word)
        ids.push_back(idOf(symbol)); // loading checked every byte and every merge result
}

std::vector<int> BpeTokenizer::encode(const std::string &utf8) const
{
    const std::string text = Tokenizer::toValidUtf8(utf8);
    const std::string special = kEndOfText;
    std::vector<int> ids;
    size_t start = 0;
    while (start <= text.size()) {
        size_t stop = m_endOfText >= 0 ? text.find(special, start) : std::string::npos;
        if (stop == std::string::npos)
            stop = text.size();
        for (const std::string &piece : preTokenize(text.substr(start, stop - start)))
            appendPiece(piece, ids);
        if (stop == text.size())
            break;
        ids.push_back(m_endOfText);
        start = stop + special.size();
    }
    return ids;
}

std::string BpeTokenizer::tokenBytes(int id) const
{
    return contains(id) ? m_tokens[static_cast<size_t>(id)] : std::string();
}

std::string BpeTokenizer::decode(const std::vector<int> &ids) const
{
    std::string bytes;
    for (int id : ids)
        bytes += tokenBytes(id);
    return bytes;
}

std::string BpeTokenizer::displayLabel(int id) const
{
    if (!contains(id))
        return "[id " + std::to_string(id) + "]";
    if (id == m_endOfText)
        return kEndOfText;
    return Tokenizer::displayLabel(m_tokens[static_cast<size_t>(id)]);
}

bool BpeTokenizer::contains(int id) const
{
    return id >= 0 && static_cast<size_t>(id) < m_present.size() && m_present[id];
}

int BpeTokenizer::idOf(const std::string &symbol) const
{
    const auto found = m_ids.find(symbol);
    return found == m_ids.end() ? -1 : found->second;
}

} // namespace headlens
