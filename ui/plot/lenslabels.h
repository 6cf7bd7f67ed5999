// LensLabels: the words of a logit lens's map: its stages, its positions and each cell's token.
#pragma once

#include "model/logitlens.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace headlens {

/// What the Lens tab and the printed lens write, read once from the lens and its run's tokens
/// (display labels already: "␣cat").
struct LensLabels
{
    Q_DECLARE_TR_FUNCTIONS(LensLabels)

public:
    QStringList stages;    ///< (S) stage(s)
    QStringList positions; ///< (P) the token at each position read
    QStringList tops;      ///< S * P, row by row: the stage's top token there ("" for none)

    static LensLabels of(const LogitLens &lens, const std::vector<std::string> &tokens);
    /// "embeddings" for stage 0, then "layer l" for the stream after layer l (the last stage:
    /// the model's output).
    static QString stage(int stage);
};

} // namespace headlens
