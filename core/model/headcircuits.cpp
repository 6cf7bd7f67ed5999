// HeadCircuits: which of the tokens read are the text's.
#include "model/headcircuits.h"

#include <unordered_set>

namespace headlens {

int HeadCircuits::textTokenCount(const std::vector<int> &text, int most) const
{
    const std::unordered_set<int> inText(text.begin(), text.end());
    int count = 0;
    while (count < most && size_t(count) < tokens.size() && inText.count(tokens[size_t(count)]))
        ++count;
    return count;
}

} // namespace headlens
