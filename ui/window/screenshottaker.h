// ScreenshotTaker: waits for the worker's trace, then writes the window (or a view) to a PNG.
#pragma once

#include "print/handoutwriter.h"
#include "session/comparisonrequest.h"
#include "session/rankingrequest.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <vector>

namespace headlens {

class MainWindow;

/// For `headlens --screenshot`: grabs only once the runner is idle, so the picture shows the
/// computed heads (or the message explaining why there are none), then quits the application.
class ScreenshotTaker : public QObject
{
    Q_OBJECT
public:
    static constexpr int kLiveStepsPerSecond = 10;
    static constexpr int kLiveSteps = 20;

    /// `view`: "handout" (writes the pipeline handout PDF to `path`), "heads", "head:N", "model",
    /// "pipeline" (then `step`, 1-based, is shown; 0 = the first; reached by stepping forward
    /// from the first step), "pipeline-back" (`step` reached by stepping back from the last),
    /// "pipeline-side" (as "pipeline", scrolled to the side tabs), "cost", "train" (waits until
    /// the training started with --train has finished), "train-live" (grabs that training
    /// after kLiveSteps steps, still running at kLiveStepsPerSecond), "lines", "corpus" (runs
    /// the file of setCorpus through the model and waits for its map), "compare" (compares
    /// with the B of setComparison), "importance" or "patching" (computes the ranking; the
    /// patching page is scrolled down to its map and bars), "dataset" (runs the file of
    /// setDataset through the model and waits for its map), "longtext" (the Long text tab once
    /// the tiled run is drawn, however long it takes), "longtext:Q,K,S" (its pinned head
    /// zoomed to S x S tokens from query Q and key K) or "longband[:Q,D,S]" (the pinned head
    /// as a band, zoomed from query Q and distance D).
    ScreenshotTaker(MainWindow *window, QString path, QString view, int step = 0);
    /// The handout's paper (headlens --page, --landscape).
    void setHandoutPage(const PageSetup &page) { m_page = page; }
    /// The corpus file the "corpus" view runs (headlens --corpus FILE).
    void setCorpus(const QString &path) { m_corpus = path; }
    /// The dataset file the "dataset" view runs (headlens --dataset FILE), the token whose
    /// logit it attributes, against `wrong` (--dla TOKEN[,WRONG]; empty: none), and whether it
    /// scores the atlas on each prompt (--atlas).
    void setDataset(const QString &path, const QString &token, const QString &wrong, bool atlas);
    /// B of the "compare" view (headlens --compare-text TEXT or --compare-change NAME).
    void setComparison(const ComparisonRequest &b) { m_comparison = b; }
    /// The "patching" view's clean text, answers and direction (headlens --patch-from, --answer,
    /// --wrong, --patch-direction), patched into the workspace's text; without a clean text it
    /// uses the indirect-object example, which a small model may read as too many tokens.
    void setPatching(const RankingRequest &patching) { m_patching = patching; }

private:
    void poll();
    void startWalk();
    /// Shows the next step of m_walk, then waits kWalkPauseMs for the layout; then the picture.
    void walk();
    /// Starts the corpus once the model's run is there; true when its run has ended.
    bool corpusDone();
    /// Starts the dataset once the model's run is there; true when its run has ended.
    bool datasetDone();
    void take();
    void writeHandout();

    MainWindow *m_window;
    QString m_path;
    QString m_view;
    int m_step = 0;
    static constexpr int kWalkPauseMs = 60;
    std::vector<int> m_walk; ///< the 0-based steps still to show, in order
    PageSetup m_page;
    QTimer m_timer;
    int m_waited = 0;
    QString m_corpus;
    bool m_corpusStarted = false;
    QString m_dataset, m_datasetToken, m_datasetWrong;
    bool m_datasetAtlas = false;
    bool m_datasetStarted = false;
    ComparisonRequest m_comparison;
    RankingRequest m_patching;
    bool m_ranked = false; ///< --view importance|patching|compare: asked for
};

} // namespace headlens
