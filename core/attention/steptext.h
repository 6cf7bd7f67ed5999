// StepText: the number and shape formatting the step descriptions share.
#pragma once

#include <cstdio>
#include <string>

namespace headlens::steptext {

constexpr double kFloat = 4.0; // bytes per float32

inline std::string num(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

inline std::string shape3(double a, double b, double c)
{
    return "(" + num(a) + ", " + num(b) + ", " + num(c) + ")";
}

inline std::string shape4(double a, double b, double c, double d)
{
    return "(" + num(a) + ", " + num(b) + ", " + num(c) + ", " + num(d) + ")";
}

inline std::string fmt(const char *format, double value)
{
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

} // namespace headlens::steptext
