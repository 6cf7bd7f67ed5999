// CostPanel: the form on the left; the sentence, the table and the plot on the right.
#include "cost/costpanel.h"

#include "cost/costnumbers.h"
#include "cost/costsettingsform.h"
#include "cost/costtable.h"
#include "cost/kvcacheplot.h"
#include "panels/verticalscrollarea.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

namespace headlens {

namespace {

QString percent(double part, double whole)
{
    return QString::number(whole > 0 ? 100.0 * part / whole : 0.0, 'f', 0) + "%";
}

/// "1/8" of MHA's cache for h = 64, h_kv = 8 (the cache shrinks by h / h_kv exactly).
QString share(int64_t heads, int64_t kvHeads)
{
    return kvHeads >= heads ? QObject::tr("all") : QString("1/%1").arg(heads / kvHeads);
}

} // namespace

CostPanel::CostPanel(QWidget *parent) : QWidget(parent)
{
    setObjectName("costPanel");
    // At 1280 x 720 the table beside the form showed only its first column and the chart was
    // squeezed: the sentence on top, the form beside the chart, the table across the whole
    // width below them; the page scrolls down when the height does not hold them.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new VerticalScrollArea(this);
    scroll->setObjectName("costScroll");
    outer->addWidget(scroll);
    auto *page = new QWidget(scroll);
    auto *layout = new QVBoxLayout(page);
    m_headline = new QLabel(page);
    m_headline->setObjectName("costHeadline");
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_form = new CostSettingsForm(page);
    m_form->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Maximum);
    m_table = new CostTable(page);
    m_plot = new KvCachePlot(page);
    auto *middle = new QHBoxLayout;
    middle->addWidget(m_form, 0, Qt::AlignTop);
    middle->addWidget(m_plot, 1);
    layout->addWidget(m_headline);
    layout->addLayout(middle, 1);
    layout->addWidget(m_table);
    scroll->setWidget(page);
    connect(m_form, &CostSettingsForm::settingsChanged, this, &CostPanel::recompute);
    recompute();
}

void CostPanel::setTrace(const std::shared_ptr<const Trace> &trace, int batch)
{
    if (trace)
        m_form->follow(trace->config, trace->input.keyLengthOf(batch));
}

void CostPanel::setPlotStyle(const PlotStyle &style)
{
    m_plot->setPlotStyle(style);
    QFont f = font();
    f.setPointSizeF(11.0 * style.fontScale);
    m_headline->setFont(f);
}

QString CostPanel::headline() const
{
    return m_headline->text();
}

void CostPanel::recompute()
{
    const CostSettings s = m_form->settings();
    if (s.kvHeads < 1 || s.heads % s.kvHeads != 0) {
        m_headline->setText(tr("⚠ %1 query heads cannot share %2 K/V heads evenly: h_kv must "
                               "divide h.")
                                .arg(s.heads)
                                .arg(s.kvHeads));
        return;
    }
    m_costs = compareAttentionCosts(s);
    m_table->setComparison(m_costs, s);
    m_plot->setComparison(m_costs, s.tokens);
    const AttentionCost &mha = m_costs.multiHead, &mine = m_costs.chosen, &mqa = m_costs.multiQuery;
    m_headline->setText(
        tr("<b>KV cache at %1 tokens × %2:</b> MHA (%3 K/V heads) %4 · yours (%5) "
           "<b>%6</b> · MQA (1) %7.<br>With %5 K/V heads for %3 query heads each token keeps "
           "%8 of MHA's cache, while the layer keeps %9 of its parameters and %10 of its "
           "FLOPs: the query heads, and what they can attend to, stay.")
            .arg(QLocale().toString(qlonglong(s.tokens)))
            .arg(s.layers == 1 ? tr("1 layer") : tr("%1 layers").arg(s.layers))
            .arg(mha.kvHeads)
            .arg(CostNumbers::bytes(mha.kvCacheBytes))
            .arg(mine.kvHeads)
            .arg(CostNumbers::bytes(mine.kvCacheBytes), CostNumbers::bytes(mqa.kvCacheBytes),
                 share(s.heads, mine.kvHeads),
                 percent(double(mine.parameters), double(mha.parameters)),
                 percent(mine.flops, mha.flops)));
}

} // namespace headlens
