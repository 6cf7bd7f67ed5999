// LayerHeadChoice: the "Layer" and "Head" boxes an analysis tab reads one head (or layer) by.
#pragma once

#include <QWidget>

class QComboBox;

namespace headlens {

/// Two combo boxes in a row, filled from a run's layers and heads (heads numbered from 1, as
/// everywhere); optionally a first head item "every head, averaged". A refill keeps the choice
/// where the new run still has it. chosen() says the person changed it (not a refill, not
/// choose()).
class LayerHeadChoice : public QWidget
{
    Q_OBJECT

public:
    /// The head item that averages the layer's heads.
    static constexpr int kEveryHead = -1;

    /// The boxes are named `name`Layer and `name`Head (flowLayer, flowHead).
    LayerHeadChoice(const QString &name, bool everyHead, QWidget *parent = nullptr);

    /// Layers 0 to layers - 1, heads 1 to heads; the choice kept where it exists, else layer
    /// `firstLayer` (or 0) and the first head item. No layers: empty boxes.
    void fill(int layers, int heads, int firstLayer = 0);
    /// Chooses (layer, head) when both are items; false (nothing changed) otherwise.
    bool choose(int layer, int head);
    int layer() const;
    int head() const;
    bool isEmpty() const;
    QComboBox *layerBox() const { return m_layer; }
    QComboBox *headBox() const { return m_head; }

signals:
    void chosen(int layer, int head);

private:
    bool m_everyHead;
    QComboBox *m_layer = nullptr;
    QComboBox *m_head = nullptr;
};

} // namespace headlens
