// Examples: the lesson sentences of the Examples menu, read from resources/examples.json.
#pragma once

#include "workspace/workspacestate.h"

#include <QList>
#include <QString>

namespace headlens {

struct Example
{
    QString title;
    QString text;
    QString kvText;
    bool crossAttention = false;

    /// `state` with this example's texts (the settings stay as they are).
    WorkspaceState appliedTo(WorkspaceState state) const;
};

class Examples
{
public:
    static QList<Example> all();
};

} // namespace headlens
