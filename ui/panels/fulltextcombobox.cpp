// FullTextComboBox: the width from the items' text as QComboBox measures it, but every time.
#include "panels/fulltextcombobox.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QStyle>
#include <QStyleOptionComboBox>

#include <algorithm>

namespace headlens {

FullTextComboBox::FullTextComboBox(int maxCharacters, QWidget *parent)
    : QComboBox(parent), m_maxCharacters(maxCharacters)
{
    connect(model(), &QAbstractItemModel::rowsInserted, this, &FullTextComboBox::itemsChanged);
    connect(model(), &QAbstractItemModel::rowsRemoved, this, &FullTextComboBox::itemsChanged);
    connect(model(), &QAbstractItemModel::dataChanged, this, &FullTextComboBox::itemsChanged);
    connect(model(), &QAbstractItemModel::modelReset, this, &FullTextComboBox::itemsChanged);
}

QSize FullTextComboBox::minimumSizeHint() const
{
    const QFontMetrics metrics = fontMetrics();
    const int text =
        std::min(widestItem(), metrics.horizontalAdvance(QLatin1Char('x')) * m_maxCharacters);
    QStyleOptionComboBox option;
    initStyleOption(&option);
    const QSize contents(text, std::max(metrics.height(), 14) + 2);
    return style()->sizeFromContents(QStyle::CT_ComboBox, &option, contents, this);
}

QSize FullTextComboBox::sizeHint() const
{
    return QComboBox::sizeHint().expandedTo(minimumSizeHint());
}

// QComboBox asks its layout again only under some size policies: a new item (the model just
// opened) must widen the column now.
void FullTextComboBox::itemsChanged()
{
    m_widestItem = -1;
    updateGeometry();
}

void FullTextComboBox::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        m_widestItem = -1;
    QComboBox::changeEvent(event);
}

int FullTextComboBox::widestItem() const
{
    if (m_widestItem < 0) {
        const QFontMetrics metrics = fontMetrics();
        m_widestItem = 0;
        for (int i = 0; i < count(); ++i)
            m_widestItem = std::max(m_widestItem, metrics.horizontalAdvance(itemText(i)));
    }
    return m_widestItem;
}

} // namespace headlens
