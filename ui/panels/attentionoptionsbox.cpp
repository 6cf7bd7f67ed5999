// AttentionOptionsBox: combo boxes carry the core's enum names as item data.
#include "panels/attentionoptionsbox.h"

#include "panels/fulltextcombobox.h"
#include "workspace/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <cmath>

namespace headlens {

namespace {

// The slider is logarithmic: 0.1 .. 10, with 1 in the middle.
float temperatureAt(int position)
{
    return float(std::pow(10.0, (position - 50) / 50.0));
}

int positionOf(float temperature)
{
    return int(std::lround(50.0 + 50.0 * std::log10(std::max(temperature, 1e-3f))));
}

QComboBox *combo(QWidget *parent, const char *name,
                 const std::vector<std::pair<QString, QString>> &items)
{
    auto *box = new FullTextComboBox(40, parent);
    box->setObjectName(name);
    for (const auto &[label, value] : items)
        box->addItem(label, value);
    return box;
}

} // namespace

AttentionOptionsBox::AttentionOptionsBox(Workspace *workspace, QWidget *parent)
    : QGroupBox(tr("Attention"), parent), m_workspace(workspace)
{
    auto *form = new QFormLayout(this);
    m_causal = new QCheckBox(tr("Causal mask\n(a token sees only earlier tokens)"), this);
    m_causal->setObjectName("causal");
    m_scale =
        combo(this, "scale",
              {{tr("1/√d_k"), "sqrt"}, {tr("none"), "none"}, {tr("temperature"), "temperature"}});
    m_temperature = new QSlider(Qt::Horizontal, this);
    m_temperature->setObjectName("temperature");
    m_temperature->setRange(0, 100);
    m_temperatureValue = new QLabel(this);
    m_temperatureValue->setMinimumWidth(
        m_temperatureValue->fontMetrics().horizontalAdvance("10.00"));
    auto *temperatureRow = new QHBoxLayout;
    temperatureRow->addWidget(m_temperature, 1);
    temperatureRow->addWidget(m_temperatureValue);
    m_bias = new QCheckBox(tr("Bias in the projections"), this);
    m_bias->setObjectName("bias");
    m_dropout = new QDoubleSpinBox(this);
    m_dropout->setObjectName("dropout");
    m_dropout->setRange(0.0, 0.95);
    m_dropout->setSingleStep(0.05);
    m_training = new QCheckBox(tr("training mode"), this);
    m_training->setObjectName("training");
    m_training->setToolTip(tr("Dropout acts only in training mode, as in PyTorch"));
    auto *dropoutRow = new QHBoxLayout;
    dropoutRow->addWidget(m_dropout);
    dropoutRow->addWidget(m_training, 1);
    m_tokenizer = combo(this, "tokenizer", {{tr("words"), "words"}, {tr("characters"), "chars"}});
    form->addRow(m_causal);
    form->addRow(tr("scaling"), m_scale);
    form->addRow(tr("temperature"), temperatureRow);
    form->addRow(m_bias);
    form->addRow(tr("dropout"), dropoutRow);
    form->addRow(tr("tokens"), m_tokenizer);
    connectEdits();
    syncFromWorkspace();
}

void AttentionOptionsBox::connectEdits()
{
    connect(m_causal, &QCheckBox::toggled, this,
            [this](bool on) { edit([on](AttentionConfig &c) { c.causal = on; }); });
    connect(m_bias, &QCheckBox::toggled, this,
            [this](bool on) { edit([on](AttentionConfig &c) { c.bias = on; }); });
    connect(m_training, &QCheckBox::toggled, this,
            [this](bool on) { edit([on](AttentionConfig &c) { c.training = on; }); });
    connect(m_dropout, &QDoubleSpinBox::valueChanged, this,
            [this](double v) { edit([v](AttentionConfig &c) { c.dropout = float(v); }); });
    connect(m_temperature, &QSlider::valueChanged, this, [this](int position) {
        edit([position](AttentionConfig &c) { c.temperature = temperatureAt(position); });
    });
    connect(m_scale, &QComboBox::currentIndexChanged, this, [this] {
        const auto mode = scaleModeFromString(m_scale->currentData().toString().toStdString());
        edit([mode](AttentionConfig &c) { c.scale = mode.value_or(ScaleMode::InvSqrtDk); });
    });
    connect(m_tokenizer, &QComboBox::currentIndexChanged, this, [this] {
        const auto kind = tokenizerFromString(m_tokenizer->currentData().toString().toStdString());
        edit([kind](AttentionConfig &c) { c.tokenizer = kind.value_or(TokenizerKind::Words); });
    });
}

void AttentionOptionsBox::edit(const std::function<void(AttentionConfig &)> &change)
{
    AttentionConfig config = m_workspace->state().config;
    change(config);
    m_workspace->setConfig(config);
}

void AttentionOptionsBox::syncFromWorkspace()
{
    const AttentionConfig &c = m_workspace->state().config;
    const QSignalBlocker b1(m_causal), b2(m_scale), b3(m_temperature), b4(m_bias), b5(m_dropout),
        b6(m_training), b7(m_tokenizer);
    m_causal->setChecked(c.causal);
    m_scale->setCurrentIndex(m_scale->findData(QString::fromStdString(toString(c.scale))));
    m_temperature->setValue(positionOf(c.temperature));
    m_temperature->setEnabled(c.scale == ScaleMode::Temperature);
    m_temperatureValue->setText(QString::number(double(c.temperature), 'f', 2));
    m_bias->setChecked(c.bias);
    m_dropout->setValue(double(c.dropout));
    m_training->setChecked(c.training);
    m_tokenizer->setCurrentIndex(
        m_tokenizer->findData(QString::fromStdString(toString(c.tokenizer))));
}

QWidget *AttentionOptionsBox::fieldWidget(const QString &field) const
{
    if (field == "temperature")
        return m_temperature;
    if (field == "dropout")
        return m_dropout;
    return nullptr;
}

} // namespace headlens
