// MaskReason: the words for the masks that hide a cell.
#include "attention/maskreason.h"

#include <vector>

namespace headlens {

std::string describeMaskReason(int bits)
{
    std::vector<const char *> names;
    if (bits & MaskCausal)
        names.push_back("the causal mask");
    if (bits & MaskPadding)
        names.push_back("padding");
    if (bits & MaskWindow)
        names.push_back("the sliding window");
    std::string text;
    for (size_t i = 0; i < names.size(); ++i)
        text += std::string(i == 0 ? "" : (i + 1 == names.size() ? " and " : ", ")) + names[i];
    return text;
}

} // namespace headlens
