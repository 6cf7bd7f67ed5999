// ModelWiring: pointer-to-member connections between the model classes; signals to the window.
#include "window/modelwiring.h"

#include "corpus/corpuspanel.h"
#include "lens/atlasview.h"
#include "lens/attributionpanel.h"
#include "lens/circuitsview.h"
#include "lens/flowview.h"
#include "lens/lensview.h"
#include "lens/logitlensplot.h"
#include "models/modelbox.h"
#include "models/modelcontroller.h"
#include "models/modeloverview.h"
#include "selection/selection.h"
#include "views/tokenstrip.h"
#include "workspace/workspace.h"

#include <QFileInfo>
#include <QLabel>

namespace headlens {

namespace {

// The legend of the token strip's segment bands, in their colours.
QString pairTokens(const ModelRun &run)
{
    const QString count = QObject::tr("%1 tokens").arg(run.tokens.size());
    if (!TokenStrip::hasSentenceB(run.segments))
        return count;
    const auto swatch = [](int segment, const QString &name) {
        return QString("<span style='color:%1'>▬</span> %2")
            .arg(TokenStrip::segmentColor(segment).name(), name);
    };
    return QObject::tr("%1: %2 %3")
        .arg(count, swatch(0, QObject::tr("sentence A")), swatch(1, QObject::tr("B")));
}

QString tokenSummary(const ModelRun &run)
{
    if (run.mappedOntoToyVocabulary && !run.readingNote.empty())
        return QObject::tr("typed text read in the %1")
            .arg(QString::fromStdString(run.readingNote).toHtmlEscaped());
    if (run.mappedOntoToyVocabulary)
        return QObject::tr("typed text mapped onto the toy vocabulary");
    if (run.readsPairs)
        return pairTokens(run);
    return QObject::tr("%1 tokens").arg(run.tokens.size());
}

} // namespace

ModelWiring::ModelWiring(Workspace *workspace, Selection *selection, QObject *parent)
    : QObject(parent), m_workspace(workspace), m_selection(selection)
{
    m_controller = new ModelController(workspace, this);
    m_box = new ModelBox(m_controller, workspace);
    m_overview = new ModelOverview;
    m_corpus = new CorpusPanel;
    m_lens = new LensView;
    m_atlas = new AtlasView;
    m_flow = new FlowView;
    m_circuits = new CircuitsView;
    m_note = new QLabel;
    m_note->setObjectName("modelNote");
    // Wrapped: a toy model's note (its vocabulary and what of the text was cut) on one line
    // made the window 2292 px wide at least.
    m_note->setWordWrap(true);
    showBuiltInLayer();
    connect(m_controller, &ModelController::runChanged, this, &ModelWiring::showRun);
    connect(m_controller, &ModelController::sourceChanged, this, &ModelWiring::syncActive);
    connect(workspace, &Workspace::inputChanged, this, &ModelWiring::syncActive);
    connect(workspace, &Workspace::inputChanged, this, [this] {
        if (!m_controller->run())
            showBuiltInLayer();
    });
    connect(m_overview, &ModelOverview::headChosen, m_controller, &ModelController::openHead);
    connect(m_corpus, &CorpusPanel::headChosen, m_controller, &ModelController::openHead);
    connect(m_lens, &LensView::headOpened, m_controller, &ModelController::openHead);
    connect(m_atlas, &AtlasView::headOpened, m_controller, &ModelController::openHead);
    // A head pinned anywhere is outlined in the attribution too.
    connect(selection, &Selection::pinnedHeadChanged, this, [this](int head) {
        if (const auto &run = m_controller->run()) {
            m_lens->chooseHead(run->source.layer, head);
            m_atlas->chooseHead(run->source.layer, head);
            m_flow->chooseHead(run->source.layer, head);
            m_circuits->chooseHead(run->source.layer, head);
            emit headPinned(run->source.layer, head);
        }
    });
    connect(m_controller, &ModelController::headOpened, this, &ModelWiring::openHead);
}

FigureAnalyses ModelWiring::figureAnalyses() const
{
    // Only what was computed for the run on screen: a tab not shown since the text changed
    // still holds the last text's.
    const auto current = [](const RunAnalysisView *view, auto result) {
        return view->isCurrent() ? result : decltype(result)();
    };
    return {current(m_atlas, m_atlas->atlas()), current(m_lens, m_lens->lensPlot()->lens()),
            current(m_flow, m_flow->flow()), current(m_lens, m_lens->attribution()->attribution()),
            current(m_circuits, m_circuits->circuits())};
}

void ModelWiring::setPlotStyle(const PlotStyle &style)
{
    m_overview->setPlotStyle(style);
    m_corpus->setPlotStyle(style);
    m_lens->setPlotStyle(style);
    m_atlas->setPlotStyle(style);
    m_flow->setPlotStyle(style);
    m_circuits->setPlotStyle(style);
}

void ModelWiring::syncActive()
{
    emit layerSettingsVisibleChanged(!m_controller->isActive());
}

void ModelWiring::showRun(const std::shared_ptr<const ModelRun> &run)
{
    emit runShown(bool(run));
    m_workspace->setKvTextIsSentenceB(run && run->readsPairs);
    m_corpus->setModel(run ? run->source.model : nullptr);
    m_lens->setRun(run);
    m_atlas->setRun(run);
    m_flow->setRun(run);
    m_circuits->setRun(run);
    if (!run) {
        showBuiltInLayer();
        return;
    }
    m_note->show();
    m_overview->setRun(run);
    m_overview->setCurrent(run->source.layer, m_selection->pinnedHead());
    m_note->setText(tr("<b>%1</b> · layer %2 of %3 · %4")
                        .arg(QString::fromStdString(run->name).toHtmlEscaped())
                        .arg(run->source.layer)
                        .arg(run->layers)
                        .arg(tokenSummary(*run)));
}

// Students read meaning into the patterns of random weights: until a trained or opened model
// is shown, the note says they are not learned (#33.5).
void ModelWiring::showBuiltInLayer()
{
    const WorkspaceState &state = m_workspace->state();
    // A model chosen but not read yet: its note comes with its run.
    m_note->setVisible(state.modelPath.isEmpty());
    if (!state.weightsPath.isEmpty()) {
        m_note->setText(tr("<b>Built-in layer</b> · weights from %1")
                            .arg(QFileInfo(state.weightsPath).fileName().toHtmlEscaped()));
        return;
    }
    m_note->setText(tr("<b>Built-in layer</b> · random weights, seed %1: these patterns are not "
                       "learned · open a model or train one to see learned heads")
                        .arg(qulonglong(state.config.seed)));
}

void ModelWiring::openHead(int layer, int head)
{
    m_selection->setPinnedHead(head);
    m_overview->setCurrent(layer, head);
    emit headOpened();
}

} // namespace headlens
