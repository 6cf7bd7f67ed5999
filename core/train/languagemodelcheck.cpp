// checkLanguageModelRun: the memory estimate against what is free, then the text's length.
#include "train/languagemodelcheck.h"

#include "train/textbatches.h"
#include "train/trainingmemory.h"
#include "util/inputerror.h"

namespace headlens {

void checkLanguageModelRun(const TrainingSettings &settings, size_t textTokens,
                           const std::string &textName, uint64_t availableBytes)
{
    TrainingMemory::of(settings).check(availableBytes);
    if (auto problem = TextBatches::validate(textTokens, settings.model.maxLength))
        throw InputError(textName + ": " + *problem);
}

} // namespace headlens
