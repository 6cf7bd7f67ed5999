// InterventionOptions: the options' values checked; the patching request built from them.
#include "interventionoptions.h"

#include "optionvalues.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

namespace headlens {

RankingRequest InterventionOptions::patching() const
{
    RankingRequest request;
    if (patchFrom.empty())
        return request;
    request.kind = RankingRequest::Kind::Patching;
    request.cleanText = patchFrom;
    request.answer = answer;
    request.wrong = wrong;
    request.direction = patchDirection;
    if (patchPositions.first >= 0) { // heads from 1 on the command line
        request.positionsLayer = patchPositions.first;
        request.positionsHead = patchPositions.second - 1;
    }
    return request;
}

bool InterventionOptions::take(const std::string &option, const std::string &value)
{
    if (option == "--ablate") {
        const std::vector<std::string> parts = OptionValues::commaList(value);
        if (parts.empty())
            throw InputError("--ablate expects LAYER.HEAD pairs such as 0.3, got nothing.");
        for (const std::string &part : parts)
            ablate.push_back(OptionValues::layerHead(option, part));
    } else if (option == "--ablate-mode") {
        if (value != "zero" && value != "mean")
            throw InputError("--ablate-mode expects zero or mean, got '" + quotedText(value) +
                             "'.");
        ablateMode = value;
    } else if (option == "--patch-direction") {
        if (value != "restore" && value != "break")
            throw InputError("--patch-direction expects restore (the clean text's head outputs "
                             "into the corrupted run) or break (the corrupted text's into the "
                             "clean run), got '" +
                             quotedText(value) + "'.");
        patchDirection =
            value == "break" ? PatchDirection::CorruptIntoClean : PatchDirection::CleanIntoCorrupt;
    } else if (option == "--patch-positions")
        patchPositions = OptionValues::layerHead(option, value);
    else if (option == "--patch-from")
        patchFrom = value;
    else if (option == "--answer")
        answer = value;
    else if (option == "--wrong")
        wrong = value;
    else if (option == "--corpus")
        corpusPath = value;
    else if (option == "--dataset")
        datasetPath = value;
    else if (option == "--compare-text")
        compare = {ComparedChange::Text, value};
    else if (option == "--compare-model")
        compare = {ComparedChange::Model, value};
    else if (option == "--compare-change") {
        const auto change = comparedChangeFromString(value);
        if (!change || *change == ComparedChange::Text || *change == ComparedChange::Model)
            throw InputError("--compare-change expects one of seed|kv-heads|rope|causal|"
                             "no-ablations, got '" +
                             quotedText(value) +
                             "' (another text is --compare-text TEXT, another model "
                             "--compare-model PATH).");
        compare = {*change, {}};
    } else
        return false;
    return true;
}

} // namespace headlens
