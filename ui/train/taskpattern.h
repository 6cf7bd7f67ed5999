// TaskPattern: per toy task, its name in the window and the attention pattern it needs.
#pragma once

#include "train/headscores.h"
#include "train/toytask.h"

#include <QCoreApplication>
#include <QString>

namespace headlens {

/// What the Train view says about a task: the title in the task list, which head pattern
/// solves it, and which of a head's scores measures that pattern.
class TaskPattern
{
    Q_DECLARE_TR_FUNCTIONS(TaskPattern)

public:
    static QString title(TaskKind task);
    /// One sentence: the pattern the task needs and where it should show up.
    static QString needs(TaskKind task);
    /// "previous-token" or "induction": the score plotted for this task.
    static QString scoreName(TaskKind task);
    /// "prev" or "ind": the same, where a heatmap title has little room.
    static QString shortScoreName(TaskKind task);
    static double score(TaskKind task, const HeadScores &head);
};

} // namespace headlens
