// InputError: bad input from a person or a file, with a message that says what to do about it.
#pragma once

#include <stdexcept>
#include <string>

namespace headlens {

/// Thrown at the core's boundary for input a person can fix (a bad file, an impossible
/// setting). Programmer errors inside the core are asserts, not InputErrors.
class InputError : public std::runtime_error
{
public:
    explicit InputError(const std::string &message) : std::runtime_error(message) {}
};

} // namespace headlens
