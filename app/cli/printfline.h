// printfLine: one line of a printed table, formatted as printf formats it.
#pragma once

#include <string>

namespace headlens {

/// `format` filled in by vsnprintf; at most 255 characters (a table row), the rest cut.
std::string printfLine(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace headlens
