// TrainOptions::take: one branch per option; sizes 1 to 65536, rates and accuracies as numbers.
#include "trainoptions.h"

#include "optionvalues.h"

#include "util/inputerror.h"

namespace headlens {

bool TrainOptions::take(const std::string &option, const std::string &value)
{
    if (option == "--train")
        task = value;
    else if (option == "--layers")
        layers = OptionValues::size(option, value);
    else if (option == "--steps")
        steps = OptionValues::size(option, value);
    else if (option == "--seq-len")
        sequenceLength = OptionValues::size(option, value);
    else if (option == "--vocab")
        vocabulary = OptionValues::size(option, value);
    else if (option == "--batch-size")
        batchSize = OptionValues::size(option, value);
    else if (option == "--lr")
        learningRate = OptionValues::number(option, value);
    else if (option == "--report-every")
        reportEvery = OptionValues::size(option, value);
    else if (option == "--until-accuracy")
        untilAccuracy = OptionValues::number(option, value);
    else if (option == "--save")
        savePath = value;
    else if (option == "--preset")
        preset = value;
    else if (option == "--train-text")
        textPath = value;
    else if (option == "--bpe")
        bpeVocabulary = OptionValues::size(option, value);
    else if (option == "--print-stories") {
        const long long bytes = OptionValues::integer(option, value);
        if (bytes < 1 || bytes > (64ll << 20))
            throw InputError(option + " takes a size in bytes, 1 to 67108864 (64 MiB), got " +
                             value + ".");
        storyBytes = int(bytes);
    } else if (option == "--sample-tokens")
        sampleTokens = OptionValues::size(option, value);
    else
        return false;
    return true;
}

} // namespace headlens
