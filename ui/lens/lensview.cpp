// LensView: the runner's answers routed to the lens plot and the attribution panel.
#include "lens/lensview.h"

#include "lens/attributionpanel.h"
#include "lens/lensrunner.h"
#include "lens/logitlensplot.h"

#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace headlens {

LensView::LensView(QWidget *parent) : RunAnalysisView(Reads::UnchangedModel, parent)
{
    setObjectName(QStringLiteral("lensView"));
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

    connect(runner(), &LensRunner::lensReady, this, [this](std::shared_ptr<const LogitLens> lens) {
        m_status->clear();
        m_plot->setLens(lens, run()->tokens);
        markAnalysed();
        // The last position read: a decoder's next token, an encoder's last mask.
        attributeAt(lens->positions.back());
    });
    connect(runner(), &LensRunner::lensFailed, this, [this](const QString &message) {
        m_status->setText(message);
        m_attribution->showFailed(QString());
    });
    connect(m_plot, &LogitLensPlot::positionChosen, this, &LensView::attributeAt);
    connect(m_attribution, &AttributionPanel::requested, this,
            [this](int position, int token, int wrong) {
                if (!run())
                    return;
                m_attribution->showComputing();
                runner()->startAttribution(run()->source.model, {run()->tokenIds, run()->segments},
                                           position, token, wrong);
            });
    connect(runner(), &LensRunner::attributionReady, m_attribution,
            &AttributionPanel::setAttribution);
    connect(runner(), &LensRunner::attributionFailed, m_attribution, &AttributionPanel::showFailed);
    connect(m_attribution, &AttributionPanel::headOpened, this, &LensView::headOpened);
}

void LensView::start()
{
    m_status->setText(tr("Reading every layer's stream…"));
    runner()->startLens(run()->source.model, {run()->tokenIds, run()->segments});
}

void LensView::attributeAt(int position)
{
    const LogitLens *lens = m_plot->lens().get();
    if (!lens || !run())
        return;
    const auto it = std::find(lens->positions.begin(), lens->positions.end(), position);
    if (it == lens->positions.end())
        return;
    const int column = int(it - lens->positions.begin());
    m_attribution->setChoices(position, QString::fromStdString(run()->tokens.at(size_t(position))),
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
