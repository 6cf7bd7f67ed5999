// ModelWiring: the Model box, the Model tab and the note above the views, wired to each other.
#pragma once

#include "export/figureexporter.h"
#include "model/modelrun.h"
#include "plot/plotstyle.h"

#include <QObject>

#include <memory>

class QLabel;

namespace headlens {

class CorpusPanel;
class AtlasView;
class FlowView;
class CircuitsView;
class LensView;
class ModelBox;
class ModelController;
class ModelOverview;
class Selection;
class Workspace;

/// Keeps MainWindow small: builds the model widgets and connects them to the workspace and the
/// selection. It never reaches into the window: the window places box(), overview() and
/// note() and follows the signals below.
class ModelWiring : public QObject
{
    Q_OBJECT
public:
    ModelWiring(Workspace *workspace, Selection *selection, QObject *parent = nullptr);

    ModelController *controller() const { return m_controller; }
    ModelOverview *overview() const { return m_overview; }
    ModelBox *box() const { return m_box; }
    /// The "Corpus" tab: the open model's heads over a text file.
    CorpusPanel *corpus() const { return m_corpus; }
    /// The "Lens" tab: the logit lens and direct logit attribution of the run's text.
    LensView *lens() const { return m_lens; }
    AtlasView *atlas() const { return m_atlas; }
    FlowView *flow() const { return m_flow; }
    CircuitsView *circuits() const { return m_circuits; }
    /// What the Atlas, Lens, Flow and Circuits tabs computed for the run on screen, for
    /// File > Export view.
    FigureAnalyses figureAnalyses() const;
    /// Above the token strip: which model and layer the views show, or that the built-in
    /// layer's weights are random (and their seed) or read from a file.
    QLabel *note() const { return m_note; }
    void setPlotStyle(const PlotStyle &style);
    /// Says layerSettingsVisibleChanged for the current choice (after the window connected).
    void syncActive();

signals:
    /// A model's run is on screen (true) or none is: the Model, Lens and Corpus tabs come and
    /// go with it.
    void runShown(bool shown);
    /// A head was opened from the Model tab: the Heads view should come to the front.
    void headOpened();
    /// The built-in layer's settings are hidden while a model fixes them.
    void layerSettingsVisibleChanged(bool visible);
    /// Head (layer, head) of the model's run is pinned (-1: none): every analysis outlines it.
    void headPinned(int layer, int head);

private:
    void showRun(const std::shared_ptr<const ModelRun> &run);
    void showBuiltInLayer();
    void openHead(int layer, int head);

    Workspace *m_workspace;
    Selection *m_selection;
    ModelController *m_controller = nullptr;
    ModelBox *m_box = nullptr;
    ModelOverview *m_overview = nullptr;
    CorpusPanel *m_corpus = nullptr;
    LensView *m_lens = nullptr;
    AtlasView *m_atlas = nullptr;
    FlowView *m_flow = nullptr;
    CircuitsView *m_circuits = nullptr;
    QLabel *m_note = nullptr;
};

} // namespace headlens
