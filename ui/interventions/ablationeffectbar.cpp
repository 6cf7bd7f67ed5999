// AblationEffectBar: the effect as rich text, with block characters as the per-token bars.
#include "interventions/ablationeffectbar.h"

#include "views/ablationset.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace headlens {

namespace {

QString quoted(const std::string &token)
{
    return QString("“%1”").arg(QString::fromStdString(token).toHtmlEscaped());
}

QString percent(double p)
{
    return QString("%1 %").arg(100.0 * p, 0, 'f', p < 0.001 ? 3 : 1);
}

// One of ▁▂▃▄▅▆▇█ for value / largest.
QChar block(double value, double largest)
{
    const int level = largest > 0 ? std::clamp(int(std::lround(7.0 * value / largest)), 0, 7) : 0;
    return QChar(0x2581 + level);
}

} // namespace

AblationEffectBar::AblationEffectBar(QWidget *parent) : QLabel(parent)
{
    setObjectName("ablationEffect");
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setFrameShape(QFrame::StyledPanel);
    setMargin(4);
    hide();
}

void AblationEffectBar::setEffect(std::shared_ptr<const AblationEffect> effect,
                                  std::shared_ptr<const Trace> trace, int batchIndex)
{
    m_effect = std::move(effect);
    setVisible(m_effect && trace);
    if (!m_effect || !trace)
        return;
    const QString what =
        tr("<b>Ablated</b> %1").arg(AblationSet::summary(trace->interventions.items));
    const int b = std::clamp(batchIndex, 0, std::max(int(m_effect->outputChange.size()) - 1, 0));
    switch (m_effect->kind) {
    case AblationEffect::Kind::Token:
        setText(what + " · " + tokenText(*m_effect));
        break;
    case AblationEffect::Kind::Output:
        setText(what + " · " + outputText(*m_effect, b));
        break;
    case AblationEffect::Kind::None:
        setText(what + tr(" · no prediction to compare (add a mask token to the text)"));
        break;
    }
}

QString AblationEffectBar::tokenText(const AblationEffect &e) const
{
    QString text = tr("top token %1: p %2 → %3 · log p %4 → %5")
                       .arg(quoted(e.token), percent(e.before), percent(e.after))
                       .arg(std::log(e.before), 0, 'f', 2)
                       .arg(std::log(e.after), 0, 'f', 2);
    if (e.topAfter != e.token)
        text += tr(" · now most probable: %1 %2").arg(quoted(e.topAfter), percent(e.topAfterProb));
    if (!std::isnan(e.accuracyBefore))
        text += tr(" · task accuracy (held-out) %1 → %2")
                    .arg(percent(e.accuracyBefore), percent(e.accuracyAfter));
    return text;
}

QString AblationEffectBar::outputText(const AblationEffect &e, int b) const
{
    if (e.outputChange.empty())
        return {};
    const std::vector<double> &change = e.outputChange[size_t(b)];
    const std::vector<std::string> &tokens = e.tokens[size_t(b)];
    const double largest = change.empty() ? 0.0 : *std::max_element(change.begin(), change.end());
    // Bars only when some tokens are left out of the list: they show where the change is.
    QString bars;
    for (double value : change)
        bars += block(value, largest);
    const bool listedAll = change.size() <= size_t(kListedTokens);
    // The tokens changed most, in text order.
    std::vector<size_t> order(change.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&change](size_t a, size_t c) { return change[a] > change[c]; });
    order.resize(std::min(order.size(), size_t(kListedTokens)));
    std::sort(order.begin(), order.end());
    QStringList listed;
    for (size_t i : order)
        listed << QString("%1 %2").arg(quoted(tokens[i])).arg(change[i], 0, 'f', 3);
    if (listedAll)
        return tr("|Δ output| per token: %1").arg(listed.join(" · "));
    return tr("|Δ output| per token %1, the largest: %2").arg(bars, listed.join(" · "));
}

} // namespace headlens
