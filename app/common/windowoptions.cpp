// WindowOptions: sizes as WIDTHxHEIGHT, steps from 1, a light or dark theme, a4 or letter.
#include "windowoptions.h"

#include "commandlinerequest.h"
#include "optionvalues.h"
#include "printoptions.h"
#include "train/headpatternscores.h"
#include "util/inputerror.h"
#include "util/quotedtext.h"

namespace headlens {

bool WindowOptions::isHandoutOption(const std::string &option)
{
    return option == "--handout" || option == "--page" || option == "--landscape";
}

bool WindowOptions::takesValue(const std::string &option)
{
    return option == "--screenshot" || option == "--handout" || option == "--size" ||
           option == "--view" || option == "--step" || option == "--theme" || option == "--page" ||
           option == "--score";
}

void WindowOptions::take(CommandLineRequest &request, const std::string &option,
                         const std::string &value)
{
    if (option == "--screenshot")
        request.screenshotPath = value;
    else if (option == "--handout")
        request.handoutPath = value;
    else if (option == "--size")
        takeSize(request, value);
    else if (option == "--step")
        request.step = OptionValues::size("--step", value);
    else if (option == "--theme" && value != "light" && value != "dark")
        throw InputError("--theme expects light or dark, got '" + quotedText(value) + "'.");
    else if (option == "--theme")
        request.theme = value;
    else if (option == "--page")
        request.page = PrintOptions::page(value);
    else if (option == "--score" && !headPatternFromString(value))
        throw InputError("--score expects previous-token, induction, antecedent, subject or "
                         "bracket, got '" +
                         quotedText(value) + "'.");
    else if (option == "--score")
        request.score = value;
    else
        request.view = value;
}

bool WindowOptions::takeFlag(CommandLineRequest &request, const std::string &option)
{
    if (option == "--landscape")
        request.landscape = true;
    else if (option == "--presentation")
        request.presentation = true;
    else if (option == "--story")
        request.story = true;
    else
        return false;
    return true;
}

void WindowOptions::takeSize(CommandLineRequest &request, const std::string &value)
{
    const size_t x = value.find('x');
    if (x == std::string::npos)
        throw InputError("--size expects WIDTHxHEIGHT, e.g. 1400x900, got '" + quotedText(value) +
                         "'.");
    request.screenshotWidth = OptionValues::size("--size", value.substr(0, x));
    request.screenshotHeight = OptionValues::size("--size", value.substr(x + 1));
}

} // namespace headlens
