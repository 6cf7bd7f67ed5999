// LayerHeadChoice: two combo boxes whose items carry the layer and the head (from 0).
#include "lens/layerheadchoice.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>

namespace headlens {

LayerHeadChoice::LayerHeadChoice(const QString &name, bool everyHead, QWidget *parent)
    : QWidget(parent), m_everyHead(everyHead)
{
    m_layer = new QComboBox;
    m_layer->setObjectName(name + QStringLiteral("Layer"));
    m_head = new QComboBox;
    m_head->setObjectName(name + QStringLiteral("Head"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Layer")));
    row->addWidget(m_layer);
    row->addWidget(new QLabel(tr("Head")));
    row->addWidget(m_head);
    row->addStretch(1);
    for (QComboBox *box : {m_layer, m_head})
        connect(box, qOverload<int>(&QComboBox::activated), this,
                [this] { emit chosen(layer(), head()); });
}

void LayerHeadChoice::fill(int layers, int heads, int firstLayer)
{
    const int layer = isEmpty() ? firstLayer : this->layer(), head = this->head();
    const QSignalBlocker blockLayer(m_layer), blockHead(m_head);
    m_layer->clear();
    m_head->clear();
    if (layers <= 0)
        return;
    for (int l = 0; l < layers; ++l)
        m_layer->addItem(QString::number(l), l);
    if (m_everyHead)
        m_head->addItem(tr("every head, averaged"), kEveryHead);
    for (int h = 0; h < heads; ++h)
        m_head->addItem(QString::number(h + 1), h);
    m_layer->setCurrentIndex(std::max(0, m_layer->findData(layer)));
    m_head->setCurrentIndex(std::max(0, m_head->findData(head)));
}

bool LayerHeadChoice::choose(int layer, int head)
{
    const int layerItem = m_layer->findData(layer), headItem = m_head->findData(head);
    if (layerItem < 0 || headItem < 0)
        return false;
    m_layer->setCurrentIndex(layerItem);
    m_head->setCurrentIndex(headItem);
    return true;
}

int LayerHeadChoice::layer() const
{
    return m_layer->currentData().toInt();
}

int LayerHeadChoice::head() const
{
    return m_head->currentData().toInt();
}

bool LayerHeadChoice::isEmpty() const
{
    return m_layer->count() == 0;
}

} // namespace headlens
