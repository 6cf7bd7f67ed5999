// AttentionOptionsBox: mask, scaling, bias, dropout and tokenizer of the layer.
#pragma once

#include <QGroupBox>

#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace headlens {

class Workspace;
struct AttentionConfig;

class AttentionOptionsBox : public QGroupBox
{
    Q_OBJECT
public:
    explicit AttentionOptionsBox(Workspace *workspace, QWidget *parent = nullptr);

    void syncFromWorkspace();
    QWidget *fieldWidget(const QString &field) const;

private:
    void edit(const std::function<void(AttentionConfig &)> &change);
    void connectEdits();

    Workspace *m_workspace;
    QCheckBox *m_causal = nullptr;
    QComboBox *m_scale = nullptr;
    QSlider *m_temperature = nullptr;
    QLabel *m_temperatureValue = nullptr;
    QCheckBox *m_bias = nullptr;
    QDoubleSpinBox *m_dropout = nullptr;
    QCheckBox *m_training = nullptr;
    QComboBox *m_tokenizer = nullptr;
};

} // namespace headlens
