// LanguageModelView: the Train tab's language model: a preset and a text, Train/Pause/Reset,
// the loss curves with the moment copying appeared, the heads forming, samples, save and open.
#pragma once

#include "plot/plotstyle.h"
#include "stories/storytext.h"
#include "train/traininglog.h"
#include "train/trainingreport.h"
#include "train/trainingtokens.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <string>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace headlens {

class CurvePlot;
class ProblemBanner;
class SnapshotGrid;
class TokenizingRunner;
class TrainingRunner;

/// Trains a GPT-2-style model (LanguageModelPreset, or custom sizes) on a text, one byte per
/// token or with a BPE learned from the text (TokenizingRunner, off the UI thread), in
/// TrainingRunner's worker. Sizes that do not fit memory are refused before anything is
/// allocated (TrainingMemory). The text is HeadLens's generated stories (useStories(), the
/// default), the one set with setText(), or one chosen with "Text file…". Reports fill the loss
/// curves (training, held-out, and the copying test: a run of the text after itself against after
/// another run), the heads' strongest induction and previous-token scores, the heads of every layer
/// on a held-out window, and the status line (step, tokens per second, time left). Save writes a
/// Hugging Face GPT-2 folder; "Open in views" opens the saved folder in every view (saving it first
/// when needed).
class LanguageModelView : public QWidget
{
    Q_OBJECT
public:
    explicit LanguageModelView(QWidget *parent = nullptr);

    /// The text to train on next, named for messages and the saved log. Starts a new run
    /// (paused at step 0) when the text can train the preset; else the banner says why.
    void setText(const QString &name, const std::string &text);
    /// Reads `path` (TrainingText's checks) and trains on it next.
    void openText(const QString &path);
    /// HeadLens's generated stories (StoryGenerator, seed 0), the text a new view starts with.
    void useStories();
    /// 2 MB: two passes of a 2,000-step Tiny run.
    static constexpr size_t kStoryBytes = size_t(2) << 20;
    /// Trains to the Steps box's length (from where the run stands).
    void train();
    /// Trains until step `goal` of the run, then pauses (a picture mid-run).
    void trainTo(int64_t goal);
    void pause();
    void reset();
    /// Writes the model as it is now into `folder` (Gpt2FolderWriter); false with the reason
    /// in the banner.
    bool saveTo(const QString &folder);
    void chooseAndSave();
    void chooseText();
    /// Opens the last saved folder in the views, saving into a new folder of the cache first
    /// when the model has changed since.
    void openInViews();
    void setPlotStyle(const PlotStyle &style);

    bool isBusy() const;
    int64_t stepsDone() const { return m_steps; }
    std::shared_ptr<const TrainingReport> lastReport() const { return m_report; }
    const TrainingLog &log() const { return m_log; }

    TrainingRunner *runner() const { return m_runner; }
    ProblemBanner *banner() const { return m_banner; }
    CurvePlot *lossPlot() const { return m_loss; }
    CurvePlot *scorePlot() const { return m_scores; }
    SnapshotGrid *heatmaps() const { return m_heatmaps; }
    QComboBox *presetBox() const { return m_preset; }
    /// Bytes or BPE, and the BPE's vocabulary size.
    QComboBox *tokenizerBox() const { return m_tokenizer; }
    QSpinBox *vocabularyBox() const { return m_vocabulary; }
    /// The custom size's layers, heads, d_model and context (shown with the "Custom" preset).
    QSpinBox *layersBox() const { return m_layers; }
    QSpinBox *headsBox() const { return m_heads; }
    QSpinBox *dModelBox() const { return m_dModel; }
    QSpinBox *contextBox() const { return m_context; }
    /// The custom model's options: K/V heads (0: all), dropout, RoPE, attention only.
    QSpinBox *kvHeadsBox() const { return m_kvHeads; }
    QDoubleSpinBox *dropoutBox() const { return m_dropout; }
    QCheckBox *ropeBox() const { return m_rope; }
    QCheckBox *attentionOnlyBox() const { return m_attentionOnly; }
    /// The curves' x axis: steps (0) or seconds of training (1).
    QComboBox *axisBox() const { return m_axis; }
    /// The memory the run will hold, and its parameters.
    QLabel *memoryLabel() const { return m_memory; }
    /// The tokens the run trains on; null while a BPE is being learned or without a text.
    std::shared_ptr<const TrainingTokens> tokens() const { return m_tokens; }
    QSpinBox *stepsBox() const { return m_stepsBox; }
    QLabel *statusLabel() const { return m_status; }
    QLabel *sampleLabel() const { return m_sample; }

signals:
    /// Show the saved model folder `folder` in the views.
    void openFolder(const QString &folder);
    /// A sentence for the status bar.
    void message(const QString &text);
    /// After openFolder: the probe's held-out window as the views' text (one line), with the
    /// stories' relations inside it; when it holds none, the nearest sentences of the stories
    /// that fit the context and do (windowAt). No relations for a text of one's own.
    void probeStory(const headlens::StoryText &story);

protected:
    void showEvent(QShowEvent *event) override;

private:
    QWidget *buildControls();
    QWidget *buildSizes(QWidget *parent);
    QWidget *buildCharts();
    /// Turns the text into tokens with the tokenizer on screen, then restart()s.
    void tokenize();
    void useTokens(std::shared_ptr<const TrainingTokens> tokens);
    /// The custom size boxes take the preset chosen (or shown) before Custom.
    void presetChanged();
    void restart();
    void showMetrics(const TrainingMetrics &metrics);
    void showReport(std::shared_ptr<const TrainingReport> report);
    void updateButtons();
    TrainingSettings settings() const;
    /// Writes `report`'s model (the one on screen when Save was clicked) into `folder`.
    bool save(const QString &folder, const std::shared_ptr<const TrainingReport> &report);

    TrainingRunner *m_runner = nullptr;
    QComboBox *m_preset = nullptr;
    QWidget *m_customSizes = nullptr;
    QSpinBox *m_layers = nullptr;
    QSpinBox *m_heads = nullptr;
    QSpinBox *m_dModel = nullptr;
    QSpinBox *m_context = nullptr;
    QSpinBox *m_kvHeads = nullptr; ///< 0: every head its own K and V
    QDoubleSpinBox *m_dropout = nullptr;
    QCheckBox *m_rope = nullptr;
    QCheckBox *m_attentionOnly = nullptr;
    QLabel *m_memory = nullptr;
    QComboBox *m_axis = nullptr; ///< the curves against steps or seconds
    QComboBox *m_tokenizer = nullptr;
    QSpinBox *m_vocabulary = nullptr;
    TokenizingRunner *m_tokenizing = nullptr;
    QSpinBox *m_stepsBox = nullptr;
    QLabel *m_textName = nullptr;
    QPushButton *m_train = nullptr;
    QPushButton *m_pause = nullptr;
    QPushButton *m_reset = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_open = nullptr;
    ProblemBanner *m_banner = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_sample = nullptr;
    CurvePlot *m_loss = nullptr;
    CurvePlot *m_scores = nullptr;
    SnapshotGrid *m_heatmaps = nullptr;

    QString m_name;                                 ///< the text's name
    std::shared_ptr<const std::string> m_textBytes; ///< the text; null before the first
    std::shared_ptr<const TrainingTokens> m_tokens; ///< null while tokenizing
    std::vector<StoryRelation> m_relations;         ///< the stories' relations; empty for a file
    std::shared_ptr<const TextBatches> m_text; ///< the run's windows; null when it cannot train
    std::shared_ptr<const TrainingReport> m_report;
    TrainingLog m_log{TrainingSettings()};
    double m_trainLoss = 0.0; ///< the latest chunk's, for the log row of the next report
    int64_t m_steps = 0;
    int64_t m_goal = 0;
    int64_t m_pendingGoal = 0;        ///< a trainTo() asked for while the BPE was being learned
    QString m_savedFolder;            ///< the last folder saved to
    int64_t m_savedStep = -1;         ///< the step it holds
    ToyModelConfig m_lastPresetModel; ///< the sizes of the preset chosen before Custom
};

} // namespace headlens
