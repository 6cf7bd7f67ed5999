// PositionsBox: combo boxes carry the core's names ("rope", "alibi") as item data.
#include "panels/positionsbox.h"

#include "attention/attentionconfig.h"
#include "panels/fulltextcombobox.h"
#include "workspace/workspace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace headlens {

PositionsBox::PositionsBox(Workspace *workspace, QWidget *parent)
    : QGroupBox(tr("Positions && window"), parent), m_workspace(workspace)
{
    build();
    connectEdits();
    syncFromWorkspace();
}

void PositionsBox::build()
{
    auto *form = new QFormLayout(this);
    m_positional = new FullTextComboBox(40, this);
    m_positional->setObjectName("positional");
    m_positional->addItem(tr("sinusoidal"), "sinusoidal");
    m_positional->addItem(tr("random"), "random");
    m_positional->addItem(tr("none"), "none");
    m_positional->setToolTip(tr("A vector added to each token's embedding before the layer, so "
                                "that x itself carries the token's place."));
    m_inside = new FullTextComboBox(40, this);
    m_inside->setObjectName("attention_positions");
    m_inside->addItem(tr("none"), "none");
    m_inside->addItem(tr("RoPE split-half (Llama, Qwen, Mistral)"), "rope");
    m_inside->addItem(tr("RoPE interleaved (RoFormer)"), "rope-interleaved");
    m_inside->addItem(tr("ALiBi (linear biases)"), "alibi");
    // Its longest entry must not set the dock's width: the row spans the whole box.
    m_inside->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_inside->setMinimumContentsLength(16);
    m_inside->setToolTip(tr("RoPE turns each pair of q and k numbers by an angle that grows with "
                            "the position; ALiBi subtracts a slope times the distance from each "
                            "head's scores."));
    m_theta = new QDoubleSpinBox(this);
    m_theta->setObjectName("rope_theta");
    m_theta->setRange(0.0, 1e9);
    m_theta->setDecimals(0);
    m_theta->setToolTip(tr("RoPE's base θ: pair j turns by θ^(-2j/d_k) radians per position "
                           "(Llama 2 uses 10000, Llama 3 500000)."));
    m_offset = new QSpinBox(this);
    m_offset->setObjectName("rope_position_offset");
    m_offset->setRange(0, 1 << 24);
    m_offset->setToolTip(tr("Adds this to every RoPE position, as for tokens that follow a "
                            "cache; the scores do not change."));
    m_window = new QSpinBox(this);
    m_window->setObjectName("window");
    m_window->setRange(0, 1 << 16);
    m_window->setSpecialValueText(tr("off"));
    m_window->setSuffix(tr(" keys"));
    m_window->setToolTip(tr("Sliding window (Mistral, Gemma): each query sees only the w most "
                            "recent keys, itself included; 0 turns it off."));
    form->addRow(tr("input positions"), m_positional);
    form->addRow(new QLabel(tr("positions inside attention"), this));
    form->addRow(m_inside);
    form->addRow(tr("RoPE θ"), m_theta);
    form->addRow(tr("RoPE offset"), m_offset);
    form->addRow(tr("sliding window"), m_window);
}

void PositionsBox::connectEdits()
{
    connect(m_positional, &QComboBox::currentIndexChanged, this, [this] {
        const auto kind =
            positionalFromString(m_positional->currentData().toString().toStdString());
        edit([kind](AttentionConfig &c) {
            c.positional = kind.value_or(PositionalEncoding::Sinusoidal);
        });
    });
    connect(m_inside, &QComboBox::currentIndexChanged, this, [this] {
        const auto kind =
            attentionPositionsFromString(m_inside->currentData().toString().toStdString());
        edit([kind](AttentionConfig &c) {
            c.attentionPositions = kind.value_or(AttentionPositions::None);
        });
    });
    connect(m_theta, &QDoubleSpinBox::valueChanged, this,
            [this](double v) { edit([v](AttentionConfig &c) { c.ropeTheta = float(v); }); });
    connect(m_offset, &QSpinBox::valueChanged, this,
            [this](int v) { edit([v](AttentionConfig &c) { c.ropePositionOffset = v; }); });
    connect(m_window, &QSpinBox::valueChanged, this,
            [this](int v) { edit([v](AttentionConfig &c) { c.window = v; }); });
}

void PositionsBox::edit(const std::function<void(AttentionConfig &)> &change)
{
    AttentionConfig config = m_workspace->state().config;
    change(config);
    m_workspace->setConfig(config);
}

void PositionsBox::syncFromWorkspace()
{
    const AttentionConfig &c = m_workspace->state().config;
    const QSignalBlocker b1(m_positional), b2(m_inside), b3(m_theta), b4(m_offset), b5(m_window);
    m_positional->setCurrentIndex(
        m_positional->findData(QString::fromStdString(toString(c.positional))));
    m_inside->setCurrentIndex(
        m_inside->findData(QString::fromStdString(toString(c.attentionPositions))));
    m_theta->setValue(double(c.ropeTheta));
    m_offset->setValue(c.ropePositionOffset);
    m_window->setValue(c.window);
    m_theta->setEnabled(c.usesRope());
    m_offset->setEnabled(c.usesRope());
}

QWidget *PositionsBox::fieldWidget(const QString &field) const
{
    if (field == "rope_theta")
        return m_theta;
    if (field == "rope_position_offset")
        return m_offset;
    if (field == "window")
        return m_window;
    return nullptr;
}

} // namespace headlens
