// CostSettingsForm: the sizes the cost panel compares, following the layer or set by hand.
#pragma once

#include "attention/attentionconfig.h"
#include "attention/attentioncost.h"

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QPushButton;
class QSpinBox;

namespace headlens {

/// d_model, h, h_kv, d_k, d_v, biases, layers, context length and the bytes of a value. While
/// "follow the layer" is checked the fields show the layer on the left (follow()); editing one,
/// or a preset such as Llama 2 70B, unchecks it.
class CostSettingsForm : public QGroupBox
{
    Q_OBJECT
public:
    explicit CostSettingsForm(QWidget *parent = nullptr);

    /// Takes the layer's sizes and `tokens` when following.
    void follow(const AttentionConfig &config, int64_t tokens);
    bool isFollowing() const;
    CostSettings settings() const;
    /// Llama 2 70B: d_model 8192, 64 heads, 8 K/V heads (d_k 128), 80 layers, 4096 tokens, bf16.
    void applyLlama2();
    QPushButton *llama2Button() const { return m_llama2; }

signals:
    void settingsChanged();

private:
    void build();
    void connectEdits();
    QSpinBox *spin(const char *name, int lo, int hi, const QString &tip);
    void setFields(const CostSettings &s, bool following);

    QCheckBox *m_follow = nullptr;
    QSpinBox *m_dModel = nullptr, *m_heads = nullptr, *m_kvHeads = nullptr;
    QSpinBox *m_dK = nullptr, *m_dV = nullptr, *m_layers = nullptr, *m_tokens = nullptr;
    QComboBox *m_dtype = nullptr;
    QCheckBox *m_bias = nullptr;
    QPushButton *m_llama2 = nullptr;
    QPushButton *m_llama3 = nullptr;
    bool m_filling = false;                 ///< fields set by code, not by a person
    std::optional<AttentionConfig> m_layer; ///< the layer last given to follow()
    int64_t m_layerTokens = 1;
};

} // namespace headlens
