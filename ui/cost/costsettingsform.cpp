// CostSettingsForm: spin boxes in a form; any edit by a person stops following the layer.
#include "cost/costsettingsform.h"

#include "attention/attentionconfig.h"
#include "panels/fulltextcombobox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSpinBox>

namespace headlens {

namespace {

CostSettings llama(int64_t dModel, int64_t heads, int64_t kvHeads, int64_t layers, int64_t tokens)
{
    CostSettings s;
    s.dModel = dModel;
    s.heads = heads;
    s.kvHeads = kvHeads;
    s.dK = s.dV = dModel / heads;
    s.layers = layers;
    s.tokens = tokens;
    s.bytesPerValue = 2.0; // bf16
    s.bias = false;        // Llama's projections have no biases
    return s;
}

} // namespace

CostSettingsForm::CostSettingsForm(QWidget *parent) : QGroupBox(tr("Sizes"), parent)
{
    build();
    setFields(CostSettings(), true);
}

QSpinBox *CostSettingsForm::spin(const char *name, int lo, int hi, const QString &tip)
{
    auto *box = new QSpinBox(this);
    box->setObjectName(name);
    box->setRange(lo, hi);
    box->setToolTip(tip);
    box->setAccelerated(true);
    box->setGroupSeparatorShown(true);
    connect(box, &QSpinBox::valueChanged, this, [this] {
        if (m_filling)
            return;
        m_follow->setChecked(false);
        emit settingsChanged();
    });
    return box;
}

void CostSettingsForm::build()
{
    auto *form = new QFormLayout(this);
    m_follow = new QCheckBox(tr("follow the layer on the left"), this);
    m_follow->setObjectName("costFollow");
    m_follow->setToolTip(tr("Use the Controls' sizes and the text's length"));
    m_dModel = spin("cost_d_model", 1, 1 << 17, tr("Model width d_model"));
    m_heads = spin("cost_heads", 1, 4096, tr("Query heads h"));
    m_kvHeads = spin("cost_kv_heads", 1, 4096, tr("K/V heads h_kv: a divisor of h"));
    m_dK = spin("cost_d_k", 1, 1 << 14, tr("Query/key width of each head (head_dim)"));
    m_dV = spin("cost_d_v", 1, 1 << 14, tr("Value width of each head"));
    m_layers = spin("cost_layers", 1, 10000, tr("How many such layers the model stacks"));
    m_tokens = spin("cost_tokens", 1, 1 << 30, tr("Context length n: tokens in the KV cache"));
    m_dtype = new FullTextComboBox(24, this);
    m_dtype->setObjectName("cost_dtype");
    m_dtype->addItem("float32", 4.0);
    m_dtype->addItem("bf16 / f16", 2.0);
    m_dtype->addItem("int8 / fp8", 1.0);
    m_dtype->setToolTip(tr("Bytes per cached number"));
    m_bias = new QCheckBox(tr("biases in the projections"), this);
    m_llama2 = new QPushButton(tr("Llama 2 70B"), this);
    m_llama2->setObjectName("costLlama2");
    m_llama2->setToolTip(tr("d_model 8192, 64 heads, 8 K/V heads, 80 layers, 4096 tokens, bf16"));
    m_llama3 = new QPushButton(tr("Llama 3 8B"), this);
    m_llama3->setToolTip(tr("d_model 4096, 32 heads, 8 K/V heads, 32 layers, 8192 tokens, bf16"));
    auto *presets = new QHBoxLayout;
    presets->addWidget(m_llama2);
    presets->addWidget(m_llama3);
    auto *widths = new QHBoxLayout;
    widths->addWidget(m_dK, 1);
    widths->addWidget(m_dV, 1);
    form->addRow(m_follow);
    form->addRow(tr("presets"), presets);
    form->addRow("d_model", m_dModel);
    form->addRow(tr("heads h"), m_heads);
    form->addRow(tr("K/V heads"), m_kvHeads);
    form->addRow(tr("d_k, d_v"), widths);
    form->addRow(tr("layers"), m_layers);
    form->addRow(tr("tokens n"), m_tokens);
    form->addRow(tr("cached as"), m_dtype);
    form->addRow(m_bias);
    connectEdits();
}

void CostSettingsForm::connectEdits()
{
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (m_filling)
            return;
        if (on && m_layer)
            setFields(CostSettings::of(*m_layer, m_layerTokens), true);
        else
            emit settingsChanged();
    });
    connect(m_dtype, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_filling)
            emit settingsChanged(); // the cache's number type is the panel's own, kept
    });
    connect(m_bias, &QCheckBox::toggled, this, [this] {
        if (m_filling)
            return;
        m_follow->setChecked(false);
        emit settingsChanged();
    });
    connect(m_llama2, &QPushButton::clicked, this, &CostSettingsForm::applyLlama2);
    connect(m_llama3, &QPushButton::clicked, this,
            [this] { setFields(llama(4096, 32, 8, 32, 8192), false); });
}

void CostSettingsForm::applyLlama2()
{
    setFields(llama(8192, 64, 8, 80, 4096), false);
}

void CostSettingsForm::setFields(const CostSettings &s, bool following)
{
    m_filling = true;
    m_follow->setChecked(following);
    m_dModel->setValue(int(s.dModel));
    m_heads->setValue(int(s.heads));
    m_kvHeads->setValue(int(s.kvHeads));
    m_dK->setValue(int(s.dK));
    m_dV->setValue(int(s.dV));
    m_tokens->setValue(int(std::min<int64_t>(s.tokens, 1 << 30)));
    m_bias->setChecked(s.bias);
    if (!following) {
        m_layers->setValue(int(s.layers));
        m_dtype->setCurrentIndex(m_dtype->findData(s.bytesPerValue));
    }
    m_filling = false;
    emit settingsChanged();
}

void CostSettingsForm::follow(const AttentionConfig &config, int64_t tokens)
{
    if (config.validate())
        return; // the Controls show the problem; the last valid sizes stay
    m_layer = config;
    m_layerTokens = std::max<int64_t>(tokens, 1);
    if (isFollowing())
        setFields(CostSettings::of(config, m_layerTokens), true);
}

bool CostSettingsForm::isFollowing() const
{
    return m_follow->isChecked();
}

CostSettings CostSettingsForm::settings() const
{
    CostSettings s;
    s.dModel = m_dModel->value();
    s.heads = m_heads->value();
    s.kvHeads = m_kvHeads->value();
    s.dK = m_dK->value();
    s.dV = m_dV->value();
    s.layers = m_layers->value();
    s.tokens = m_tokens->value();
    s.bytesPerValue = m_dtype->currentData().toDouble();
    s.bias = m_bias->isChecked();
    return s;
}

} // namespace headlens
