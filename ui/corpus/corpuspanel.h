// CorpusPanel: the "Corpus" tab: a text file through the open model, its heads mapped.
#pragma once

#include "corpus/corpussummary.h"
#include "model/openedmodel.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace headlens {

class CorpusMapPlot;
class ProgressJob;
class HeadStatsTable;

/// Runs a corpus file (one text per line) through the model the window shows, in the thread
/// pool with a progress bar and Cancel, then shows the heads' map (CorpusMapPlot) beside the
/// table of their means and induction scores (HeadStatsTable). Clicking a head asks to open
/// it. A summary stays until another corpus or another model replaces it; a failed or
/// cancelled run leaves the previous summary on screen and says why.
class CorpusPanel : public QWidget
{
    Q_OBJECT
public:
    explicit CorpusPanel(QWidget *parent = nullptr);

    /// The model a corpus runs through (null: none open; the panel says so).
    void setModel(std::shared_ptr<const OpenedModel> model);
    void setPlotStyle(const PlotStyle &style);
    /// Starts a run of `path` (what the file dialog does after choosing).
    void runFile(const QString &path);
    void cancel();
    /// Writes CorpusExport's files and corpus_map.png into `directory`; false (and the status
    /// says why) when there is nothing to write or a file cannot be written.
    bool exportTo(const QString &directory);

    const std::optional<CorpusSummary> &summary() const { return m_summary; }
    bool isRunning() const;
    CorpusMapPlot *map() const { return m_map; }
    HeadStatsTable *table() const { return m_table; }
    QLabel *status() const { return m_status; }
    QProgressBar *progress() const { return m_progress; }

signals:
    void headChosen(int layer, int head);
    /// The heads' mean outputs over the corpus shown (CorpusSummary::headOutputMeans) and the
    /// model they are of; empty and null when no summary is shown. A mean ablation uses them.
    void meansChanged(const headlens::Tensor &means,
                      std::shared_ptr<const headlens::OpenedModel> model);

private:
    void chooseFile();
    void chooseExportFolder();
    void showSummary(const CorpusSummary &summary);
    void setRunning(bool running);

    std::shared_ptr<const OpenedModel> m_model;
    std::optional<CorpusSummary> m_summary;
    ProgressJob *m_job = nullptr;
    CorpusMapPlot *m_map = nullptr;
    HeadStatsTable *m_table = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_export = nullptr;
    PlotStyle m_style;
};

} // namespace headlens
