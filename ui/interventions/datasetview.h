// DatasetView: the heads that matter over a whole dataset: every prompt measured, then the mean
// and the spread per head.
#pragma once

#include "corpus/datasetexperiment.h"
#include "model/openedmodel.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace headlens {

class ProgressJob;
class RankingHeatmap;

/// headlens-cli --dataset in the window: a file of prompts (one text per line: each head's
/// importance, zero- or mean-ablated, optionally the direct logit attribution of a token and
/// the atlas scores on each prompt; or JSON lines of patching pairs) through the open model in the
/// thread pool, with progress and Cancel; then a layers x heads map of the chosen measure's mean
/// over the prompts or their spread, hover for both. A result stays until another dataset or
/// another model replaces it; a failed or cancelled run leaves it on screen and says why.
class DatasetView : public QWidget
{
    Q_OBJECT
public:
    explicit DatasetView(QWidget *parent = nullptr);

    /// The model the prompts run through (null: none open; the view says so).
    void setModel(std::shared_ptr<const OpenedModel> model);
    void setPlotStyle(const PlotStyle &style);
    /// Starts a run of the dataset at `path` (what the file dialog does after choosing).
    void runFile(const QString &path);
    void cancel();
    /// Writes DatasetExport's files into `directory`; false (and the status says why) when
    /// there is nothing to write or a file cannot be written.
    bool exportTo(const QString &directory);
    /// Shows measure `measure` (an index of the result's measures), its mean or its spread.
    void showMeasure(int measure, bool spread);

    const std::optional<DatasetResult> &result() const { return m_result; }
    bool isRunning() const;
    RankingHeatmap *heatmap() const { return m_heatmap; }
    QComboBox *ablationChoice() const { return m_ablation; }
    QLineEdit *tokenEdit() const { return m_token; }
    QLineEdit *wrongEdit() const { return m_wrong; }
    QCheckBox *atlasBox() const { return m_atlas; }
    QComboBox *measureChoice() const { return m_measure; }
    QComboBox *statisticChoice() const { return m_statistic; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *exportButton() const { return m_export; }
    /// The sentence under the map: the prompts measured and those left out.
    QString promptsText() const;
    /// What hovering head (layer, head) shows: the measure's mean and spread there.
    QString describeHead(int layer, int head) const;

signals:
    void headChosen(int layer, int head);

private:
    void chooseFile();
    void chooseExportFolder();
    void showResult(DatasetResult result, const QString &file);
    void setRunning(bool running);
    void showShownMeasure();

    std::shared_ptr<const OpenedModel> m_model;
    std::optional<DatasetResult> m_result;
    QString m_file; ///< the file of m_result
    ProgressJob *m_job = nullptr;
    QComboBox *m_ablation = nullptr;
    QLineEdit *m_token = nullptr;
    QLineEdit *m_wrong = nullptr;
    QCheckBox *m_atlas = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_export = nullptr;
    QComboBox *m_measure = nullptr;
    QComboBox *m_statistic = nullptr;
    QLabel *m_modelNote = nullptr;
    QLabel *m_prompts = nullptr;
    RankingHeatmap *m_heatmap = nullptr;
};

} // namespace headlens
