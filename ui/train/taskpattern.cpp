// TaskPattern: the sentences follow Olsson et al. 2022 ("In-context learning and induction heads").
#include "train/taskpattern.h"

namespace headlens {

QString TaskPattern::title(TaskKind task)
{
    switch (task) {
    case TaskKind::PreviousToken:
        return tr("Previous token");
    case TaskKind::Reverse:
        return tr("Reverse");
    case TaskKind::Sort:
        return tr("Sort");
    case TaskKind::Induction:
        return tr("Induction (copy a repeat)");
    }
    return {};
}

QString TaskPattern::needs(TaskKind task)
{
    switch (task) {
    case TaskKind::PreviousToken:
        return tr("Needs a previous-token head: each row puts its weight just left of "
                  "the diagonal.");
    case TaskKind::Reverse:
        return tr("Needs heads that look back across '|' to the mirrored position: an "
                  "anti-diagonal in the second half.");
    case TaskKind::Sort:
        return tr("Needs heads that find the next-larger token in the first half: "
                  "weights jump around rather than follow a line.");
    case TaskKind::Induction:
        return tr("Needs two layers: a previous-token head in layer 0, then an "
                  "induction head in layer 1 that looks at the token after the "
                  "earlier copy (a stripe one step right of the repeat).");
    }
    return {};
}

QString TaskPattern::scoreName(TaskKind task)
{
    return task == TaskKind::Induction ? tr("induction") : tr("previous-token");
}

QString TaskPattern::shortScoreName(TaskKind task)
{
    return task == TaskKind::Induction ? tr("ind") : tr("prev");
}

double TaskPattern::score(TaskKind task, const HeadScores &head)
{
    return task == TaskKind::Induction ? head.induction : head.previousToken;
}

} // namespace headlens
