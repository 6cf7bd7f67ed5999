// ContentHeight: measured on a copy of a document, so the page itself is not laid out again.
#include "panels/contentheight.h"

#include <QScrollArea>
#include <QTextDocument>
#include <QTextEdit>

#include <algorithm>
#include <cmath>
#include <memory>

namespace headlens {

namespace {

/// The height `widget` prefers at `width`, never below its minimum.
int preferredHeight(const QWidget *widget, int width)
{
    const int preferred =
        widget->hasHeightForWidth() ? widget->heightForWidth(width) : widget->sizeHint().height();
    return std::max({preferred, widget->minimumSizeHint().height(), widget->minimumHeight()});
}

} // namespace

int ContentHeight::of(const QWidget *page, int width)
{
    if (const auto *text = qobject_cast<const QTextEdit *>(page)) {
        const int frame = 2 * text->frameWidth();
        const std::unique_ptr<QTextDocument> copy(text->document()->clone());
        copy->setTextWidth(std::max(1, width - frame));
        return int(std::ceil(copy->size().height())) + frame;
    }
    const auto *scroll =
        page->findChild<const QScrollArea *>(QString(), Qt::FindDirectChildrenOnly);
    if (scroll && scroll->widget()) {
        const int frame = 2 * scroll->frameWidth();
        return preferredHeight(scroll->widget(), width - frame) + frame;
    }
    return preferredHeight(page, width);
}

} // namespace headlens
