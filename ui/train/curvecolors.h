// CurveColors: the colours every training chart gives the same series.
#pragma once

#include <QColor>

namespace headlens {

/// One colour per kind of curve, the same in the toy task's charts and the language model's.
struct CurveColors
{
    /// Training curves: the noisier, quieter line.
    static QColor training() { return QColor(0x8c, 0x96, 0xa3); }
    /// Held-out: what the scoreboard reports.
    static QColor heldOut() { return QColor(0xc0, 0x39, 0x2b); }
    /// A run of text read once (the copying test's control).
    static QColor unrepeated() { return QColor(0x6c, 0x5c, 0xe7); }
    /// The same run seen before, and the induction score.
    static QColor repeated() { return QColor(0x2e, 0x7d, 0x32); }
};

} // namespace headlens
