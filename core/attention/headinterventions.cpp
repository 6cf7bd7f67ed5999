// HeadInterventions: z_h zeroed, averaged, kept alone or patched, for float and double passes.
#include "attention/headinterventions.h"

#include "util/inputerror.h"

#include <algorithm>

namespace headlens {

namespace {

bool actsOn(const HeadIntervention &item, int layer, int64_t b)
{
    return item.layer == layer && (item.sequence < 0 || item.sequence == b);
}

} // namespace

std::string toString(InterventionKind kind)
{
    switch (kind) {
    case InterventionKind::Zero:
        return "zero";
    case InterventionKind::Mean:
        return "mean";
    case InterventionKind::KeepOnly:
        return "keep-only";
    case InterventionKind::Patch:
        return "patch";
    }
    return "zero";
}

bool HeadInterventions::touches(int layer) const
{
    return std::any_of(items.begin(), items.end(),
                       [layer](const HeadIntervention &item) { return item.layer == layer; });
}

std::optional<InterventionKind> HeadInterventions::changeOf(int layer, int head, int64_t b) const
{
    bool keepOnly = false, kept = false;
    for (const HeadIntervention &item : items) {
        if (!actsOn(item, layer, b))
            continue;
        if (item.kind == InterventionKind::KeepOnly) {
            keepOnly = true;
            kept = kept || item.head == head;
        } else if (item.head == head) {
            return item.kind;
        }
    }
    if (keepOnly && !kept)
        return InterventionKind::KeepOnly;
    return std::nullopt;
}

template <typename S>
void HeadInterventions::apply(
    int layer, int64_t b, int head,
    Eigen::Ref<Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> z,
    int64_t length) const
{
    bool keepOnly = false, kept = false;
    for (const HeadIntervention &item : items)
        if (actsOn(item, layer, b) && item.kind == InterventionKind::KeepOnly) {
            keepOnly = true;
            kept = kept || item.head == head;
        }
    if (keepOnly && !kept)
        z.topRows(length).setZero();
    for (const HeadIntervention &item : items) {
        if (!actsOn(item, layer, b) || item.head != head || item.kind == InterventionKind::KeepOnly)
            continue;
        const int64_t first = item.position >= 0 ? item.position : 0;
        const int64_t rows = item.position >= 0 ? 1 : length;
        switch (item.kind) {
        case InterventionKind::Zero:
            z.middleRows(first, rows).setZero();
            break;
        case InterventionKind::Mean: {
            if (!meanSource.isEmpty()) {
                const auto mean = meanSource.matrix({layer}).row(head).template cast<S>().eval();
                z.middleRows(first, rows).rowwise() = mean;
                break;
            }
            const auto mean = z.topRows(length).colwise().mean().eval();
            z.middleRows(first, rows).rowwise() = mean;
            break;
        }
        case InterventionKind::Patch: {
            const int64_t sources = patchSource.shape().size(1);
            const ConstRowMatrixMap source = patchSource.matrix({layer, b % sources, head});
            z.middleRows(first, rows) = source.middleRows(first, rows).template cast<S>();
            break;
        }
        case InterventionKind::KeepOnly:
            break;
        }
    }
}

template void HeadInterventions::apply<float>(
    int, int64_t, int,
    Eigen::Ref<Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>,
    int64_t) const;
template void HeadInterventions::apply<double>(
    int, int64_t, int,
    Eigen::Ref<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>,
    int64_t) const;

std::optional<std::string> HeadInterventions::problem(int layers, int heads, int64_t n,
                                                      int64_t dV) const
{
    for (const HeadIntervention &item : items) {
        if (item.layer < 0 || item.layer >= layers)
            return "There is no layer " + std::to_string(item.layer) + " to intervene on: layers " +
                   "run from 0 to " + std::to_string(layers - 1) + ".";
        if (item.head < 0 || item.head >= heads)
            return "Layer " + std::to_string(item.layer) + " has no head " +
                   std::to_string(item.head + 1) + ": heads run from 1 to " +
                   std::to_string(heads) + ".";
        if (item.position >= n)
            return "There is no position " + std::to_string(item.position) +
                   " to intervene at: " + "the text has " + std::to_string(n) +
                   " tokens (positions from 0).";
        if (item.kind == InterventionKind::Mean && !meanSource.isEmpty()) {
            const Shape &m = meanSource.shape();
            if (m.rank() != 3 || m.size(0) != layers || m.size(1) != heads || m.size(2) != dV)
                return std::string("The corpus means come from a model of other sizes: run the "
                                   "corpus through this model again.");
        }
        if (item.kind != InterventionKind::Patch)
            continue;
        const Shape &s = patchSource.shape();
        if (patchSource.isEmpty() || s.rank() != 5)
            return std::string("Patching needs the z of the run patched from: run that text "
                               "first and record its heads' outputs.");
        if (s.size(3) != n)
            return "The patch source has " + std::to_string(s.size(3)) + " tokens but this text " +
                   "has " + std::to_string(n) + ": patching needs texts of the same token length.";
        if (s.size(0) != layers || s.size(2) != heads || s.size(4) != dV)
            return std::string("The patch source comes from a model of other sizes: patch "
                               "between runs of the same model.");
    }
    return std::nullopt;
}

void HeadInterventions::check(int layers, int heads, int64_t n, int64_t dV) const
{
    if (auto message = problem(layers, heads, n, dV))
        throw InputError(*message);
}

HeadInterventions HeadInterventions::ablating(int layer, int head, InterventionKind kind)
{
    HeadInterventions result;
    result.items.push_back({layer, head, kind, -1, -1});
    return result;
}

} // namespace headlens
