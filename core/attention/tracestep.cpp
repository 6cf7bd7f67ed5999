// TraceStep: names of the step kinds.
#include "attention/tracestep.h"

namespace headlens {

std::string toString(StepKind kind)
{
    switch (kind) {
    case StepKind::Tokens:
        return "tokens";
    case StepKind::Embed:
        return "embed";
    case StepKind::Project:
        return "project";
    case StepKind::Split:
        return "split";
    case StepKind::Transpose:
        return "transpose";
    case StepKind::QkNorm:
        return "qk_norm";
    case StepKind::Rotate:
        return "rotate";
    case StepKind::RepeatKv:
        return "repeat_kv";
    case StepKind::Scores:
        return "scores";
    case StepKind::Scale:
        return "scale";
    case StepKind::Mask:
        return "mask";
    case StepKind::Softmax:
        return "softmax";
    case StepKind::Dropout:
        return "dropout";
    case StepKind::WeightedSum:
        return "weighted_sum";
    case StepKind::TransposeBack:
        return "transpose_back";
    case StepKind::Concat:
        return "concat";
    case StepKind::OutputProjection:
        return "output_projection";
    }
    return "tokens";
}

} // namespace headlens
