// TrainView: the training playground tab: settings, Start/Pause/Reset, live curves and heads.
#pragma once

#include "plot/plotstyle.h"
#include "train/trainingreport.h"

#include <QTimer>
#include <QWidget>

#include <memory>

class QPushButton;
class QSpinBox;

namespace headlens {

class CurvePlot;
class ProblemBanner;
class SnapshotGrid;
class TrainModelFiles;
class TrainScoreboard;
class TrainSettingsForm;
class TrainingRunner;

/// Composes the form, the runner and the passive displays, and wires them: edits restart the
/// run (when valid), reports refill the curves, the scoreboard and the heatmaps. Training
/// itself runs in TrainingRunner's worker thread.
class TrainView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kHeatmapsPerSecond = 8;

    explicit TrainView(QWidget *parent = nullptr);

    void start();
    void pause();
    void reset();
    /// A fresh run with `settings`, trained `steps` steps (headlens --train TASK --steps N).
    void train(const TrainingSettings &settings, int steps);
    /// Shows a trained model, ready to continue training.
    void openModel(std::shared_ptr<const TrainedModel> model);
    void chooseAndSave();
    void chooseAndOpen();
    void setPlotStyle(const PlotStyle &style);
    /// The watch speed (the Speed box): steps a second while training, 0 for full speed.
    void setStepsPerSecond(int rate);

    /// Training, or the worker still owes the window a report.
    bool isBusy() const;
    int64_t stepsDone() const { return m_steps; }
    std::shared_ptr<const TrainingReport> lastReport() const { return m_report; }

    TrainingRunner *runner() const { return m_runner; }
    TrainSettingsForm *form() const { return m_form; }
    ProblemBanner *banner() const { return m_banner; }
    SnapshotGrid *heatmaps() const { return m_heatmaps; }
    CurvePlot *lossPlot() const { return m_loss; }
    CurvePlot *accuracyPlot() const { return m_accuracy; }
    CurvePlot *scorePlot() const { return m_scores; }
    TrainModelFiles *files() const { return m_files; }

signals:
    /// "Open in Heads view": show this model's layers in the heads and pipeline views.
    void openInViews(std::shared_ptr<const headlens::TrainedModel> model);
    /// A sentence for the status bar (saved, opened, a file that could not be read).
    void message(const QString &text);

private:
    QWidget *buildControls();
    QWidget *buildCharts();
    void connectRunner();
    void applySettings();
    void clearCurves(const TrainingSettings &settings);
    void showMetrics(const TrainingMetrics &metrics);
    void showReport(std::shared_ptr<const TrainingReport> report);
    void updateButtons();
    void refreshHeatmaps();

    TrainingRunner *m_runner = nullptr;
    TrainSettingsForm *m_form = nullptr;
    ProblemBanner *m_banner = nullptr;
    TrainScoreboard *m_scoreboard = nullptr;
    SnapshotGrid *m_heatmaps = nullptr;
    CurvePlot *m_loss = nullptr;
    CurvePlot *m_accuracy = nullptr;
    CurvePlot *m_scores = nullptr;
    TrainModelFiles *m_files = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_pause = nullptr;
    QPushButton *m_reset = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_openInViews = nullptr;
    QSpinBox *m_speed = nullptr; ///< steps per second; 0: full speed
    QTimer m_edits;              ///< settles a burst of edits into one restart
    QTimer m_heatmapPace;        ///< at most kHeatmapsPerSecond heatmap refills, the newest one
    bool m_heatmapsBehind = false;
    std::shared_ptr<const TrainingReport> m_report;
    TaskKind m_task = TaskKind::PreviousToken;
    int m_headsPerLayer = 0; ///< the score series are layer by layer, a head each
    bool m_dark = false;     ///< the theme the head colours are chosen for
    int64_t m_steps = 0;
    bool m_valid = true;
};

} // namespace headlens
