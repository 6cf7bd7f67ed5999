// OptionValues: strtoll/strtof with the whole value checked, so "8x" is refused, not read as 8.
#include "optionvalues.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace headlens {

long long OptionValues::integer(const std::string &option, const std::string &value)
{
    char *end = nullptr;
    errno = 0;
    const long long number = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || errno == ERANGE)
        throw InputError(option + " expects a whole number, got '" + quotedText(value) + "'.");
    return number;
}

int OptionValues::size(const std::string &option, const std::string &value)
{
    const long long number = integer(option, value);
    if (number < 1 || number > 65536)
        throw InputError(option + " must be between 1 and 65536, got " + value + ".");
    return static_cast<int>(number);
}

int OptionValues::index(const std::string &option, const std::string &value)
{
    const long long number = integer(option, value);
    if (number < 0 || number > 1'000'000'000)
        throw InputError(option + " expects whole numbers from 0, got " + value + ".");
    return static_cast<int>(number);
}

float OptionValues::number(const std::string &option, const std::string &value)
{
    char *end = nullptr;
    const float number = std::strtof(value.c_str(), &end);
    if (value.empty() || *end != '\0')
        throw InputError(option + " expects a number, got '" + quotedText(value) + "'.");
    return number;
}

std::pair<int, int> OptionValues::layerHead(const std::string &option, const std::string &value)
{
    const size_t dot = value.find('.');
    const auto bad = [&](const std::string &why) {
        return InputError(option +
                          (option == "--ablate" ? " expects LAYER.HEAD pairs separated by commas"
                                                : " expects one LAYER.HEAD") +
                          ", layers from 0 (as --layer) and heads from 1 (as --stats prints "
                          "them), e.g. " +
                          (option == "--ablate" ? "0.3,1.1" : "1.2") + "; got '" +
                          quotedText(value) + "'" + why + ".");
    };
    if (dot == std::string::npos || value.find('.', dot + 1) != std::string::npos)
        throw bad("");
    const std::string layer = value.substr(0, dot), head = value.substr(dot + 1);
    char *end = nullptr;
    const long l = std::strtol(layer.c_str(), &end, 10);
    if (layer.empty() || *end != '\0' || l < 0 || l > 100000)
        throw bad("");
    const long h = std::strtol(head.c_str(), &end, 10);
    if (head.empty() || *end != '\0' || h > 100000)
        throw bad("");
    if (h < 1)
        throw bad(": heads are numbered from 1");
    return {int(l), int(h)};
}

std::vector<std::string> OptionValues::commaList(const std::string &value)
{
    std::vector<std::string> parts;
    std::stringstream stream(value);
    std::string part;
    while (std::getline(stream, part, ','))
        if (!part.empty())
            parts.push_back(part);
    return parts;
}

std::string OptionValues::textFile(const std::string &path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw InputError("Cannot read the text file " + path +
                         ": check that it exists and is readable.");
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

} // namespace headlens
