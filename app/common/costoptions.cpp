// CostOptions::take: layers 1 to 65536, tokens from 0, one of four cached-value types.
#include "costoptions.h"

#include "optionvalues.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

namespace headlens {

bool CostOptions::take(const std::string &option, const std::string &value)
{
    if (option == "--cost-layers")
        layers = OptionValues::size(option, value);
    else if (option == "--cost-tokens")
        tokens = OptionValues::index(option, value);
    else if (option == "--cost-dtype") {
        if (value != "f32" && value != "bf16" && value != "f16" && value != "int8")
            throw InputError("--cost-dtype expects f32, bf16, f16 or int8, got '" +
                             quotedText(value) + "'.");
        dtype = value;
    } else
        return false;
    return true;
}

} // namespace headlens
