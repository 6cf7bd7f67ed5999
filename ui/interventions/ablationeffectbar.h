// AblationEffectBar: one line over the heads saying what the ablated heads changed.
#pragma once

#include "attention/trace.h"
#include "session/ablationeffect.h"

#include <QLabel>

#include <memory>

namespace headlens {

/// Passive: shown only while the run on screen has ablated heads. A model's: the unchanged
/// model's top token, its probability and log-probability before and after, and what is most
/// probable now. The built-in layer's: |Δ output| per token of the sequence shown, as bars.
class AblationEffectBar : public QLabel
{
    Q_OBJECT
public:
    /// Tokens listed one by one for the built-in layer; longer texts give the largest changes.
    static constexpr int kListedTokens = 12;

    explicit AblationEffectBar(QWidget *parent = nullptr);

    /// `effect` of the run `trace` came from (null: nothing ablated, the bar hides).
    void setEffect(std::shared_ptr<const AblationEffect> effect, std::shared_ptr<const Trace> trace,
                   int batchIndex);
    const std::shared_ptr<const AblationEffect> &effect() const { return m_effect; }

private:
    QString tokenText(const AblationEffect &effect) const;
    QString outputText(const AblationEffect &effect, int b) const;

    std::shared_ptr<const AblationEffect> m_effect;
};

} // namespace headlens
