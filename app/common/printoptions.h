// PrintOptions: the options that size figures and handouts, checked where they are read.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace headlens {

/// Each parser throws InputError with what is wrong and what is accepted.
class PrintOptions
{
public:
    /// --figure-size: "8.5x6cm", "3.3x2.4in" or "85x60mm" as (width, height) in inches; each
    /// side more than 0 and at most 40 in (100 cm).
    static std::pair<double, double> figureSize(const std::string &value);
    /// --figure: heads, head:N, step:N or step:NAME, model, comma-separated (N from 1).
    static std::vector<std::string> figureContents(const std::string &value);
    /// --dpi: 30 to 2400.
    static int dpi(long long value);
    /// --page: a4 or letter, in any case; returned in lower case.
    static std::string page(const std::string &value);
};

} // namespace headlens
