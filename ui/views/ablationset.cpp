// AblationSet: removing and adding items so that each head has at most one.
#include "views/ablationset.h"

#include "attention/headinterventions.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <functional>

namespace headlens {

namespace {

AblationSet::Items without(AblationSet::Items items,
                           const std::function<bool(const HeadIntervention &)> &drop)
{
    items.erase(std::remove_if(items.begin(), items.end(), drop), items.end());
    return items;
}

} // namespace

AblationSet::Items AblationSet::ablated(Items items, int layer, int head, InterventionKind kind)
{
    items = without(std::move(items), [&](const HeadIntervention &item) {
        return item.layer == layer && item.head == head;
    });
    items.push_back({layer, head, kind, -1, -1});
    return items;
}

AblationSet::Items AblationSet::keptOnly(Items items, int layer, int head)
{
    items = without(std::move(items),
                    [&](const HeadIntervention &item) { return item.layer == layer; });
    items.push_back({layer, head, InterventionKind::KeepOnly, -1, -1});
    return items;
}

AblationSet::Items AblationSet::restored(Items items, int layer, int head)
{
    HeadInterventions before;
    before.items = items;
    const auto change = before.changeOf(layer, head);
    items = without(std::move(items), [&](const HeadIntervention &item) {
        return item.layer == layer && item.head == head && item.kind != InterventionKind::KeepOnly;
    });
    if (change == InterventionKind::KeepOnly)
        items.push_back({layer, head, InterventionKind::KeepOnly, -1, -1});
    return items;
}

bool AblationSet::changes(const Items &items, int layer, int head)
{
    HeadInterventions set;
    set.items = items;
    return set.changes(layer, head);
}

bool AblationSet::hasMean(const Items &items)
{
    return std::any_of(items.begin(), items.end(), [](const HeadIntervention &item) {
        return item.kind == InterventionKind::Mean;
    });
}

QString AblationSet::label(std::optional<InterventionKind> change, bool overCorpus)
{
    if (!change)
        return {};
    switch (*change) {
    case InterventionKind::Zero:
        return QObject::tr("ablated (zero)");
    case InterventionKind::Mean:
        return overCorpus ? QObject::tr("ablated (corpus mean)") : QObject::tr("ablated (mean)");
    case InterventionKind::KeepOnly:
        return QObject::tr("ablated (keep only other)");
    case InterventionKind::Patch:
        return QObject::tr("patched");
    }
    return {};
}

QString AblationSet::summary(const Items &items)
{
    QStringList parts;
    for (const HeadIntervention &item : items)
        parts << QObject::tr("L%1 H%2 %3")
                     .arg(item.layer)
                     .arg(item.head + 1)
                     .arg(item.kind == InterventionKind::KeepOnly
                              ? QObject::tr("kept alone")
                              : QString::fromStdString(toString(item.kind)));
    return parts.join(", ");
}

} // namespace headlens
