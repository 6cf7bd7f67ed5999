// LensView: the runner's answers routed to the lens plot and the attribution panel.
#include "lens/lensview.h"

#include "lens/attributionpanel.h"
#include "lens/lensrunner.h"
#include "lens/logitlensplot.h"

#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace headlens {

LensView::LensView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("lensView"));
    m_runner = new LensRunner(this);
    m_intro = new QLabel(
        tr("<b>Logit lens</b> (nostalgebraist 2020): the residual stream after each layer read "
           "as if it were the last, through the final norm and the output head (the last row is "
           "the model's output). Each cell names that layer's top token; its colour is the "
           "probability of the token the model finally predicts there. Hover a cell for its ten "
           "most probable tokens; click a column to "
           "attribute that position below."));
    m_intro->setWordWrap(true);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("lensStatus"));
    m_status->setWordWrap(true);
    m_plot = new LogitLensPlot;
    m_plot->setMinimumHeight(160);
    m_attribution = new AttributionPanel;
    m_attribution->setObjectName(QStringLiteral("attributionPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addWidget(m_status);
    layout->addWidget(m_plot, 3);
    layout->addWidget(m_attribution, 2);

    connect(m_runner, &LensRunner::lensReady, this, [this](std::shared_ptr<const LogitLens> lens) {
        m_status->clear();
        m_plot->setLens(lens, m_run->tokens);
        // The last position read: a decoder's next token, an encoder's last mask.
        attributeAt(lens->positions.back());
    });
    connect(m_runner, &LensRunner::lensFailed, this, [this](const QString &message) {
        m_status->setText(message);
        m_attribution->showFailed(QString());
    });
    connect(m_plot, &LogitLensPlot::positionChosen, this, &LensView::attributeAt);
    connect(m_attribution, &AttributionPanel::requested, this,
            [this](int position, int token, int wrong) {
                if (!m_run)
                    return;
                m_attribution->showComputing();
                m_runner->startAttribution(m_run->source.model, {m_run->tokenIds, m_run->segments},
                                           position, token, wrong);
            });
    connect(m_runner, &LensRunner::attributionReady, m_attribution,
            &AttributionPanel::setAttribution);
    connect(m_runner, &LensRunner::attributionFailed, m_attribution, &AttributionPanel::showFailed);
    connect(m_attribution, &AttributionPanel::headOpened, this, &LensView::headOpened);
}

void LensView::setRun(std::shared_ptr<const ModelRun> run)
{
    // Another layer traced, or heads ablated: the lens reads the unchanged model, so the same
    // text through the same model needs nothing new; the newer run is kept, the older let go.
    if (run && m_run && run->tokenIds == m_run->tokenIds && run->segments == m_run->segments &&
        run->source.model == m_run->source.model) {
        m_run = std::move(run);
        return;
    }
    m_run = std::move(run);
    m_runner->cancel();
    m_stale = m_run != nullptr;
    computeIfShown();
}

void LensView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    computeIfShown();
}

void LensView::computeIfShown()
{
    if (!m_stale || !isVisible() || !m_run || !m_run->source.model)
        return;
    m_stale = false;
    m_status->setText(tr("Reading every layer's stream…"));
    m_runner->startLens(m_run->source.model, {m_run->tokenIds, m_run->segments});
}

void LensView::attributeAt(int position)
{
    const LogitLens *lens = m_plot->lens();
    if (!lens || !m_run)
        return;
    const auto it = std::find(lens->positions.begin(), lens->positions.end(), position);
    if (it == lens->positions.end())
        return;
    const int column = int(it - lens->positions.begin());
    m_attribution->setChoices(position, QString::fromStdString(m_run->tokens.at(size_t(position))),
                              lens->topAt(lens->stages() - 1, column));
}

void LensView::chooseHead(int layer, int head)
{
    m_attribution->chooseHead(layer, head);
}

void LensView::setPlotStyle(const PlotStyle &style)
{
    m_plot->setPlotStyle(style, false);
    m_attribution->setPlotStyle(style);
}

QString LensView::status() const
{
    return m_status->text();
}

} // namespace headlens
