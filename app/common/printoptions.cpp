// PrintOptions: figure sizes with units, figure contents, resolutions and paper names.
#include "printoptions.h"

#include "util/inputerror.h"
#include "util/quotedtext.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace headlens {

namespace {

/// The number `text` holds entirely, or nothing.
bool readNumber(const std::string &text, double *number)
{
    char *end = nullptr;
    *number = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0';
}

} // namespace

std::pair<double, double> PrintOptions::figureSize(const std::string &value)
{
    const size_t unitAt = value.find_last_of("0123456789.") + 1; // 0 when there is no digit
    const std::string unit = value.substr(std::min(unitAt, value.size()));
    const double perInch = unit == "cm" ? 2.54 : unit == "mm" ? 25.4 : unit == "in" ? 1.0 : 0.0;
    const size_t x = value.find('x');
    double w = 0.0, h = 0.0;
    const bool read = perInch > 0.0 && x != std::string::npos && x < unitAt &&
                      readNumber(value.substr(0, x), &w) &&
                      readNumber(value.substr(x + 1, unitAt - x - 1), &h);
    if (!read)
        throw InputError("--figure-size expects WIDTHxHEIGHT and a unit, cm, mm or in (e.g. "
                         "8.5x6cm or 3.3x2.4in), got '" +
                         quotedText(value) + "'.");
    if (!(w > 0.0 && h > 0.0))
        throw InputError("--figure-size " + quotedText(value) +
                         ": the width and the height must be more than 0 (e.g. 8.5x6cm or "
                         "3.3x2.4in).");
    if (w / perInch > 40.0 || h / perInch > 40.0)
        throw InputError("--figure-size " + quotedText(value) +
                         ": a figure can be at most 100 cm (40 in) a side.");
    return {w / perInch, h / perInch};
}

std::vector<std::string> PrintOptions::figureContents(const std::string &value)
{
    std::vector<std::string> items;
    std::stringstream stream(value);
    std::string item;
    while (std::getline(stream, item, ',')) {
        if (item.empty())
            continue;
        const size_t colon = item.find(':');
        const std::string kind = item.substr(0, colon);
        const std::string what =
            colon == std::string::npos ? std::string() : item.substr(colon + 1);
        char *end = nullptr;
        const long number = std::strtol(what.c_str(), &end, 10);
        const bool counted = !what.empty() && *end == '\0' && number >= 1;
        const bool named = !what.empty() && !std::isdigit(static_cast<unsigned char>(what[0]));
        const bool whole = kind == "heads" || kind == "model" || kind == "atlas" ||
                           kind == "lens" || kind == "rollout" || kind == "dla" ||
                           kind == "circuits";
        const bool ok = (whole && colon == std::string::npos) || (kind == "head" && counted) ||
                        (kind == "step" && (counted || named));
        if (!ok)
            throw InputError("--figure expects heads, head:N, step:N (or a step's name, e.g. "
                             "step:softmax), model, atlas, lens, rollout, dla or circuits, "
                             "comma-separated, N from 1; got '" +
                             quotedText(item) + "'.");
        items.push_back(item);
    }
    return items;
}

int PrintOptions::dpi(long long value)
{
    if (value < 30 || value > 2400)
        throw InputError("--dpi expects a whole number of dots per inch from 30 to 2400 (e.g. "
                         "300), got " +
                         std::to_string(value) + ".");
    return int(value);
}

std::string PrintOptions::page(const std::string &value)
{
    std::string page = value;
    for (char &c : page)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (page != "a4" && page != "letter")
        throw InputError("--page expects a4 or letter (US Letter), got '" + quotedText(value) +
                         "'.");
    return page;
}

} // namespace headlens
