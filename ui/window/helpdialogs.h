// HelpDialogs: About (with versions) and the keyboard shortcuts table.
#pragma once

class QWidget;

namespace headlens {

class HelpDialogs
{
public:
    static void about(QWidget *parent);
    static void shortcuts(QWidget *parent);
};

} // namespace headlens
