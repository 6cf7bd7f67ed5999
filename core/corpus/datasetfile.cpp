// DatasetFile: CorpusFile's lines, each a text or a JSON object with a patching pair.
#include "corpus/datasetfile.h"

#include "corpus/corpusfile.h"
#include "util/inputerror.h"

#include <nlohmann/json.hpp>

namespace headlens {

namespace {

constexpr const char *kPairFields[] = {"clean", "corrupted", "answer", "wrong"};

std::string where(const std::string &path, int64_t number)
{
    return "Dataset " + path + ", line " + std::to_string(number);
}

} // namespace

bool DatasetFile::startsPairs(const std::string &line)
{
    const size_t first = line.find_first_not_of(" \t");
    return first != std::string::npos && line[first] == '{';
}

DatasetPrompt DatasetFile::prompt(const std::string &line, int64_t number, bool pairs,
                                  const std::string &path)
{
    DatasetPrompt prompt;
    prompt.line = number;
    if (!pairs) {
        prompt.text = line;
        return prompt;
    }
    const std::string fix = ": write each line as {\"clean\": \"...\", \"corrupted\": \"...\", "
                            "\"answer\": \"...\", \"wrong\": \"...\"}, or every line a plain "
                            "text.";
    const nlohmann::json json = nlohmann::json::parse(line, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        throw InputError(where(path, number) +
                         " is not a JSON object, and the file's first "
                         "prompt is one" +
                         fix);
    std::string values[4];
    for (int k = 0; k < 4; ++k) {
        const auto field = json.find(kPairFields[k]);
        if (field == json.end() || !field->is_string())
            throw InputError(where(path, number) + " has no \"" + kPairFields[k] + "\" string" +
                             fix);
        values[k] = field->get<std::string>();
        if (values[k].empty())
            throw InputError(where(path, number) + ": \"" + kPairFields[k] + "\" is empty" + fix);
    }
    prompt.clean = values[0];
    prompt.text = values[1];
    prompt.answer = values[2];
    prompt.wrong = values[3];
    return prompt;
}

Dataset DatasetFile::read(const std::string &path)
{
    CorpusFile file(path, "Dataset");
    Dataset dataset;
    dataset.path = path;
    while (const auto line = file.next()) {
        if (dataset.prompts.empty())
            dataset.pairs = startsPairs(line->text);
        dataset.prompts.push_back(prompt(line->text, line->number, dataset.pairs, path));
    }
    return dataset;
}

} // namespace headlens
