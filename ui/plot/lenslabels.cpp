// LensLabels: the stages named, the positions and the top tokens read off the lens.
#include "plot/lenslabels.h"

namespace headlens {

LensLabels LensLabels::of(const LogitLens &lens, const std::vector<std::string> &tokens)
{
    LensLabels labels;
    for (int stage = 0; stage < lens.stages(); ++stage) {
        labels.stages << LensLabels::stage(stage);
        for (size_t p = 0; p < lens.positions.size(); ++p) {
            const auto &top = lens.topAt(stage, int(p));
            labels.tops << (top.empty() ? QString() : QString::fromStdString(top.front().label));
        }
    }
    for (const int position : lens.positions)
        labels.positions << QString::fromStdString(tokens.at(size_t(position)));
    return labels;
}

QString LensLabels::stage(int stage)
{
    return stage == 0 ? tr("embeddings") : tr("layer %1").arg(stage - 1);
}

} // namespace headlens
