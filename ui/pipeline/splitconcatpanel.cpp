// SplitConcatPanel: keeps the picked token across steps, so the class follows one word.
#include "pipeline/splitconcatpanel.h"

#include "panels/fulltextcombobox.h"
#include "panels/verticalscrollarea.h"
#include "pipeline/kvgroupdiagram.h"
#include "text/tokenizer.h"
#include "views/tokennumber.h"

#include <QComboBox>
#include <QLabel>
#include <QVBoxLayout>

namespace headlens {

SplitConcatPanel::SplitConcatPanel(QWidget *parent) : QWidget(parent)
{
    // In a scroll area: q's and k's bars one under the other need more height than the panel
    // has at 1280 x 720, and the window must not grow for them.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new VerticalScrollArea(this);
    scroll->setMinimumWidth(330); // the bars need 300 px, as before the scroll area
    auto *content = new QWidget(scroll);
    auto *layout = new QVBoxLayout(content);
    scroll->setWidget(content);
    outer->addWidget(scroll);
    m_tokenRow = new QWidget(this);
    auto *top = new QHBoxLayout(m_tokenRow);
    top->setContentsMargins(0, 0, 0, 0);
    m_token = new FullTextComboBox(24, m_tokenRow);
    m_token->setObjectName("splitToken");
    top->addWidget(new QLabel(tr("Token:"), m_tokenRow));
    top->addWidget(m_token);
    top->addStretch(1);
    m_bar = new SplitBarWidget(this);
    buildKvRow();
    m_kvBar = new SplitBarWidget(this);
    m_diagram = new KvGroupDiagram(this);
    m_route = new QLabel(this);
    m_route->setWordWrap(true);
    m_route->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_tokenRow);
    layout->addWidget(m_bar, 3);
    layout->addWidget(m_kvRow);
    layout->addWidget(m_kvBar, 2);
    layout->addWidget(m_diagram, 5);
    layout->addWidget(m_route);
    connect(m_token, &QComboBox::currentIndexChanged, this, &SplitConcatPanel::refresh);
    connect(m_kvChoice, &QComboBox::currentIndexChanged, this, &SplitConcatPanel::refresh);
    connect(m_bar, &SplitBarWidget::routeChanged, m_route, &QLabel::setText);
    connect(m_kvBar, &SplitBarWidget::routeChanged, m_route, &QLabel::setText);
    updateVisibility();
}

void SplitConcatPanel::buildKvRow()
{
    m_kvRow = new QWidget(this);
    auto *kvLayout = new QHBoxLayout(m_kvRow);
    kvLayout->setContentsMargins(0, 0, 0, 0);
    m_kvChoice = new FullTextComboBox(24, m_kvRow);
    m_kvChoice->setObjectName("kvBarChoice");
    m_kvChoice->addItem("k", int(Projection::Key));
    m_kvChoice->addItem("v", int(Projection::Value));
    m_kvChoice->setToolTip(tr("Which of the shared projections the lower bar cuts"));
    kvLayout->addWidget(new QLabel(tr("Keys and values have fewer heads:"), m_kvRow));
    kvLayout->addWidget(m_kvChoice);
    kvLayout->addStretch(1);
}

void SplitConcatPanel::setTrace(std::shared_ptr<const Trace> trace, int batch)
{
    m_trace = std::move(trace);
    m_batch = batch;
    const int previous = m_token->currentIndex();
    QSignalBlocker blocker(m_token);
    m_token->clear();
    // One insertion for all the tokens, not 1,024 (each one signals the combo box and its
    // width's owner that the items changed).
    QStringList entries;
    entries.reserve(int(m_trace->queryLength()));
    for (int64_t i = 0; i < m_trace->queryLength(); ++i) {
        const std::string label = m_trace->input.queryLabel(batch, i);
        // Tokens count from 1 as everywhere a person reads them (t_1 … t_n, One cell).
        entries << TokenNumber::entry(
            i,
            label.empty() ? tr("(pad)") : QString::fromStdString(Tokenizer::displayLabel(label)));
    }
    m_token->addItems(entries);
    m_token->setCurrentIndex(std::clamp(previous, 0, m_token->count() - 1));
    m_diagram->setTrace(m_trace);
    refresh();
}

void SplitConcatPanel::releaseTrace()
{
    m_trace.reset();
    m_bar->releaseTrace();
    m_kvBar->releaseTrace();
    m_diagram->setTrace(nullptr);
}

void SplitConcatPanel::present(SplitBarWidget::Mode mode, double progress, bool animate)
{
    const bool modeChanged = mode != m_mode;
    m_mode = mode;
    m_repeat = false;
    if (modeChanged)
        refresh();
    updateVisibility();
    // Concat starts from the head rows and closes into one bar.
    if (modeChanged || !animate) {
        m_bar->moveTo(mode == SplitBarWidget::Mode::Split ? 0.0 : 1.0, false);
        m_kvBar->moveTo(0.0, false);
    }
    m_bar->moveTo(progress, animate);
    m_kvBar->moveTo(progress, animate);
}

void SplitConcatPanel::presentRepeat()
{
    m_repeat = true;
    updateVisibility();
}

void SplitConcatPanel::setFontScale(double scale)
{
    m_bar->setFontScale(scale);
    m_kvBar->setFontScale(scale);
    m_diagram->setFontScale(scale);
    QFont f = font();
    f.setPointSizeF(10.0 * scale);
    for (QWidget *w : {static_cast<QWidget *>(m_token), static_cast<QWidget *>(m_route)})
        w->setFont(f);
}

void SplitConcatPanel::setDark(bool dark)
{
    m_bar->setDark(dark);
    m_kvBar->setDark(dark);
    m_diagram->setDark(dark);
}

bool SplitConcatPanel::grouped() const
{
    return m_trace && m_trace->config.kvHeadCount() < m_trace->heads();
}

void SplitConcatPanel::updateVisibility()
{
    const bool kvBar = grouped() && !m_repeat && m_mode == SplitBarWidget::Mode::Split;
    m_tokenRow->setVisible(!m_repeat);
    m_bar->setVisible(!m_repeat);
    m_route->setVisible(!m_repeat);
    m_kvRow->setVisible(kvBar);
    m_kvBar->setVisible(kvBar);
    m_diagram->setVisible(m_repeat && grouped());
}

void SplitConcatPanel::refresh()
{
    if (!m_trace)
        return;
    const int token = std::max(m_token->currentIndex(), 0);
    m_bar->setData(m_trace, m_batch, token, m_mode);
    const auto projection = Projection(m_kvChoice->currentData().toInt());
    m_kvBar->setData(m_trace, m_batch, token, SplitBarWidget::Mode::Split, projection);
    m_kvBar->setReferenceTotal(m_bar->total());
    updateVisibility();
}

} // namespace headlens
