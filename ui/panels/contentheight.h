// ContentHeight: how tall a page must be to show all of its content without a scroll bar.
#pragma once

class QWidget;

namespace headlens {

/// For a page that lies in a page that scrolls (the pipeline's side tabs below its heatmaps): a
/// page that scrolls too made the W_O tab need two scrolls, the page's and then the tab's. Made
/// this tall, only the outer page scrolls.
class ContentHeight
{
public:
    /// At `width`: a text browser's document, the content of a scroll area the page holds (its
    /// height for that width), else the page's own preferred height.
    static int of(const QWidget *page, int width);
};

} // namespace headlens
