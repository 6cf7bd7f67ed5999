// PositionsBox: positions added to the input, positions inside attention (RoPE, ALiBi), the window.
#pragma once

#include <QGroupBox>

#include <functional>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace headlens {

class Workspace;
struct AttentionConfig;

/// Two separate choices, as real models make them: a vector added to each input token
/// (sinusoidal, random or none) and what acts inside attention (nothing, RoPE in either pair
/// convention with its theta and position offset, or ALiBi); plus the sliding window.
class PositionsBox : public QGroupBox
{
    Q_OBJECT
public:
    explicit PositionsBox(Workspace *workspace, QWidget *parent = nullptr);

    void syncFromWorkspace();
    QWidget *fieldWidget(const QString &field) const;

private:
    void build();
    void connectEdits();
    void edit(const std::function<void(AttentionConfig &)> &change);

    Workspace *m_workspace;
    QComboBox *m_positional = nullptr;
    QComboBox *m_inside = nullptr;
    QDoubleSpinBox *m_theta = nullptr;
    QSpinBox *m_offset = nullptr;
    QSpinBox *m_window = nullptr;
};

} // namespace headlens
