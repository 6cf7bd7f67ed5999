// DatasetFile: the prompts of an experiment over a dataset, read from a text or JSON-lines file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace headlens {

/// One prompt: a text (importance, attribution), or a patching pair with its two answers.
struct DatasetPrompt
{
    int64_t line = 0; ///< its line in the file, from 1
    std::string text; ///< plain prompts; for a pair, the corrupted text
    std::string clean;
    std::string answer;
    std::string wrong;
};

/// A dataset file has one prompt per line, blank lines skipped. Either every line is a text,
/// or every line is a JSON object {"clean": ..., "corrupted": ..., "answer": ..., "wrong": ...}
/// (a patching pair, as headlens-cli --patch-from CLEAN --text CORRUPTED --answer A --wrong B):
/// the first prompt line says which (a JSON object starts with '{').
struct Dataset
{
    std::string path;
    bool pairs = false;
    std::vector<DatasetPrompt> prompts;
};

class DatasetFile
{
public:
    /// Reads `path`. Throws InputError naming the file and, for a bad line, its number and what
    /// is wrong with it (not JSON, a field missing or not a string, a text among pairs), when
    /// the file cannot be read, is not text or holds no prompt.
    static Dataset read(const std::string &path);
    /// Line `number` of a dataset of pairs (`pairs`) or texts. Throws InputError as read().
    static DatasetPrompt prompt(const std::string &line, int64_t number, bool pairs,
                                const std::string &path);
    /// Whether `line` (the first prompt line) starts a dataset of pairs: a JSON object.
    static bool startsPairs(const std::string &line);
};

} // namespace headlens
