// TokenNumber: a token's place as a person reads it, counted from 1 like the formulas' t_1 … t_n.
#pragma once

#include <QString>

#include <cstdint>

namespace headlens {

/// Every title, picker, hover text and message that names a token by its place goes through
/// here, so none counts from 0 (exported arrays keep their 0-based rows: t_1 is row 0).
class TokenNumber
{
public:
    /// `index` counted from 0 as the trace stores it; `label` as shown ("␣sat").
    /// "6 “␣sat”": an entry of a token picker.
    static QString entry(int64_t index, const QString &label);
    /// "token 6 “␣sat”": in titles, hover texts and messages.
    static QString named(int64_t index, const QString &label);
};

} // namespace headlens
