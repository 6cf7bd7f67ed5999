// errorOf: the message of the InputError an action throws, for tests of bad input.
#pragma once

#include "util/inputerror.h"

#include <QString>

namespace headlens::test {

/// What `action` reported to the person, or "(no error)" when it accepted the input.
template <typename Action> QString errorOf(Action action)
{
    try {
        action();
    } catch (const InputError &error) {
        return QString::fromStdString(error.what());
    }
    return QStringLiteral("(no error)");
}

} // namespace headlens::test
