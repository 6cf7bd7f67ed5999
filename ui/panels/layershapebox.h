// LayerShapeBox: d_model, heads, K/V heads, d_k/d_v (tied to d_model/h or not) and the seed.
#pragma once

#include <QGroupBox>

class QCheckBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace headlens {

class Workspace;
struct AttentionConfig;

class LayerShapeBox : public QGroupBox
{
    Q_OBJECT
public:
    explicit LayerShapeBox(Workspace *workspace, QWidget *parent = nullptr);

    void syncFromWorkspace();
    QWidget *fieldWidget(const QString &field) const;

private:
    void edit(const std::function<void(AttentionConfig &)> &change);
    QLayout *spinWithSlider(QSpinBox *spin, QSlider *slider);
    QLayout *kvHeadsRow();
    void syncKvHeads(const AttentionConfig &c);

    Workspace *m_workspace;
    QSpinBox *m_dModel = nullptr;
    QSlider *m_dModelSlider = nullptr;
    QSpinBox *m_heads = nullptr;
    QSlider *m_headsSlider = nullptr;
    QSpinBox *m_kvHeads = nullptr;
    QLabel *m_kvGroups = nullptr; ///< "4 query heads per K/V head (GQA)"
    QCheckBox *m_tied = nullptr;
    QSpinBox *m_dK = nullptr;
    QSpinBox *m_dV = nullptr;
    QLabel *m_perHead = nullptr;
    QSpinBox *m_seed = nullptr;
    QPushButton *m_newSeed = nullptr;
};

} // namespace headlens
