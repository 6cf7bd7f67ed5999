// SplitConcatPanel: keeps the picked token across steps, so the class follows one word.
#include "pipeline/splitconcatpanel.h"

#include "text/tokenizer.h"

#include <QComboBox>
#include <QLabel>
#include <QVBoxLayout>

namespace headlens {

SplitConcatPanel::SplitConcatPanel(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    m_token = new QComboBox(this);
    top->addWidget(new QLabel(tr("Token:"), this));
    top->addWidget(m_token);
    top->addStretch(1);
    m_bar = new SplitBarWidget(this);
    m_route = new QLabel(this);
    m_route->setWordWrap(true);
    m_route->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addLayout(top);
    layout->addWidget(m_bar, 1);
    layout->addWidget(m_route);
    connect(m_token, &QComboBox::currentIndexChanged, this, &SplitConcatPanel::refresh);
    connect(m_bar, &SplitBarWidget::routeChanged, m_route, &QLabel::setText);
}

void SplitConcatPanel::setTrace(std::shared_ptr<const Trace> trace, int batch)
{
    m_trace = std::move(trace);
    m_batch = batch;
    const int previous = m_token->currentIndex();
    QSignalBlocker blocker(m_token);
    m_token->clear();
    for (int64_t i = 0; i < m_trace->queryLength(); ++i) {
        const std::string label = m_trace->input.queryLabel(batch, i);
        m_token->addItem(QString("%1 “%2”").arg(i).arg(
            label.empty() ? tr("(pad)") : QString::fromStdString(Tokenizer::displayLabel(label))));
    }
    m_token->setCurrentIndex(std::clamp(previous, 0, m_token->count() - 1));
    refresh();
}

void SplitConcatPanel::present(SplitBarWidget::Mode mode, double progress, bool animate)
{
    const bool modeChanged = mode != m_mode;
    m_mode = mode;
    if (modeChanged)
        refresh();
    // Concat starts from the head rows and closes into one bar.
    if (modeChanged || !animate)
        m_bar->moveTo(mode == SplitBarWidget::Mode::Split ? 0.0 : 1.0, false);
    m_bar->moveTo(progress, animate);
}

void SplitConcatPanel::setFontScale(double scale)
{
    m_bar->setFontScale(scale);
    QFont f = font();
    f.setPointSizeF(10.0 * scale);
    for (QWidget *w : {static_cast<QWidget *>(m_token), static_cast<QWidget *>(m_route)})
        w->setFont(f);
}

void SplitConcatPanel::setDark(bool dark)
{
    m_bar->setDark(dark);
}

void SplitConcatPanel::refresh()
{
    if (m_trace)
        m_bar->setData(m_trace, m_batch, std::max(m_token->currentIndex(), 0), m_mode);
}

} // namespace headlens
