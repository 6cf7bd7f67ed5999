// printfLine: vsnprintf into a buffer of one table row.
#include "printfline.h"

#include <cstdarg>
#include <cstdio>

namespace headlens {

std::string printfLine(const char *format, ...)
{
    char text[256];
    va_list args;
    va_start(args, format);
    std::vsnprintf(text, sizeof text, format, args);
    va_end(args);
    return text;
}

} // namespace headlens
