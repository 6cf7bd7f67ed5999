// ModelTabs: the "Model", "Lens", "Atlas", "Flow", "Circuits" and "Corpus" tabs, there only while
// a model's run is on screen.
#pragma once

#include <QObject>

class QTabWidget;
class QWidget;

namespace headlens {

class ModelWiring;

/// Adds the model's overview and corpus pages to `tabs`, hidden; follows ModelWiring::runShown.
/// A tab that goes away while current gives the front to `fallback` (the Heads page).
class ModelTabs : public QObject
{
    Q_OBJECT
public:
    ModelTabs(QTabWidget *tabs, ModelWiring *models, QWidget *fallback);

    /// Bring the Model tab to the front, when a model has run (it is hidden otherwise).
    void showModel();
    /// Bring the Lens tab to the front, when a model has run.
    void showLens();
    /// Bring the Atlas tab to the front, when a model has run.
    void showAtlas();
    /// Bring the Flow tab to the front, when a model has run.
    void showFlow();
    /// Bring the Circuits tab to the front, when a model has run.
    void showCircuits();
    /// Bring the Corpus tab to the front, when a model is open.
    void showCorpus();

private:
    void setShown(bool shown);
    void showIfVisible(QWidget *page);

    QTabWidget *m_tabs;
    QWidget *m_overview;
    QWidget *m_lens;
    QWidget *m_atlas;
    QWidget *m_flow;
    QWidget *m_circuits;
    QWidget *m_corpus;
    QWidget *m_fallback;
};

} // namespace headlens
