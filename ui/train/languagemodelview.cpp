// LanguageModelView: text + preset -> TrainingRunner (worker) -> reports -> curves, heads, log.
#include "train/languagemodelview.h"

#include "model/memoryneeds.h"
#include "panels/columnscrollarea.h"
#include "panels/problembanner.h"
#include "stories/storygenerator.h"
#include "stories/storywindow.h"
#include "text/printableline.h"
#include "train/curvecolors.h"
#include "train/curveplot.h"
#include "train/gpt2folderwriter.h"
#include "train/languagemodelcheck.h"
#include "train/languagemodelpreset.h"
#include "train/snapshotgrid.h"
#include "train/tokenizingrunner.h"
#include "train/trainingmemory.h"
#include "train/trainingrunner.h"
#include "train/trainingtext.h"
#include "util/bytesize.h"
#include "util/inputerror.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace headlens {

LanguageModelView::LanguageModelView(QWidget *parent) : QWidget(parent)
{
    setObjectName("languageModelView");
    m_runner = new TrainingRunner(this);
    m_tokenizing = new TokenizingRunner(this);
    m_lastPresetModel = LanguageModelPreset::named("tiny")->model;
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(buildControls());
    layout->addWidget(buildCharts(), 1);
    connect(m_runner, &TrainingRunner::stepped, this, &LanguageModelView::showMetrics);
    connect(m_runner, &TrainingRunner::reported, this, &LanguageModelView::showReport);
    connect(m_runner, &TrainingRunner::runningChanged, this, &LanguageModelView::updateButtons);
    connect(m_runner, &TrainingRunner::failed, m_banner, &ProblemBanner::showMessage);
    connect(m_tokenizing, &TokenizingRunner::finished, this, &LanguageModelView::useTokens);
    connect(m_tokenizing, &TokenizingRunner::failed, this, [this](const QString &problem) {
        m_status->clear();
        m_banner->showMessage(m_name + QStringLiteral(": ") + problem);
        updateButtons();
    });
    updateButtons();
}

// The stories are made and their run prepared when the view is first shown, not with the
// window: every window would otherwise spend a fifth of a second of a core on a first report
// nobody looks at.
void LanguageModelView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_textBytes)
        useStories(); // something meaningful to train on, with no file of one's own
}

QWidget *LanguageModelView::buildControls()
{
    auto *column = new QWidget;
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 6, 0);
    m_preset = new QComboBox(column);
    m_preset->setObjectName("lmPreset");
    for (const LanguageModelPreset &preset : LanguageModelPreset::all())
        m_preset->addItem(QString::fromStdString(preset.title + ": " + preset.summary),
                          QString::fromStdString(preset.name));
    m_preset->addItem(tr("Custom…"), QStringLiteral("custom"));
    m_preset->setCurrentIndex(m_preset->findData(QStringLiteral("tiny")));
    m_tokenizer = new QComboBox(column);
    m_tokenizer->setObjectName("lmTokenizer");
    m_tokenizer->addItem(tr("Bytes: one token per byte (256)"), 0);
    m_tokenizer->addItem(tr("BPE learned from the text"), 1);
    m_tokenizer->setToolTip(tr("A byte-level BPE learns the text's frequent pieces (as Hugging "
                               "Face's BpeTrainer does), so a context holds 3 to 4 times more "
                               "text; bytes need nothing learned and read any text"));
    m_vocabulary = new QSpinBox(column);
    m_vocabulary->setObjectName("lmVocabulary");
    m_vocabulary->setRange(TrainingTokens::kMinBpeVocabulary, TrainingTokens::kMaxBpeVocabulary);
    m_vocabulary->setValue(1024);
    m_vocabulary->setSingleStep(256);
    m_vocabulary->setSuffix(tr(" tokens"));
    m_vocabulary->setToolTip(tr("The BPE's vocabulary: the 256 bytes, <|endoftext|> and the "
                                "merges learned"));
    m_vocabulary->setEnabled(false);
    m_axis = new QComboBox(column);
    m_axis->setObjectName("lmAxis");
    m_axis->addItem(tr("Steps"));
    m_axis->addItem(tr("Seconds of training"));
    m_axis->setToolTip(tr("The curves' x axis: steps compare runs, seconds show what one costs "
                          "on this computer"));
    m_memory = new QLabel(column);
    m_memory->setObjectName("lmMemory");
    m_memory->setWordWrap(true);
    m_stepsBox = new QSpinBox(column);
    m_stepsBox->setObjectName("lmSteps");
    m_stepsBox->setRange(10, 1000000);
    m_stepsBox->setValue(2000);
    m_stepsBox->setSingleStep(500);
    m_stepsBox->setToolTip(tr("The run's length in AdamW steps: warm-up, then the learning rate "
                              "decays along a cosine to a tenth at the last step. Train goes on "
                              "to it from where the run stands."));
    m_textName = new QLabel(tr("no text yet"), column);
    m_textName->setObjectName("lmTextName");
    m_textName->setWordWrap(true);
    auto *chooseText = new QPushButton(tr("Text file…"), column);
    chooseText->setObjectName("lmChooseText");
    auto *stories = new QPushButton(tr("Stories"), column);
    stories->setObjectName("lmStories");
    stories->setToolTip(tr("HeadLens's own stories: made-up names that recur, pronouns, relative "
                           "clauses, quotes and brackets (2 MB, generated in a moment)"));
    auto *textButtons = new QHBoxLayout;
    textButtons->addWidget(stories);
    textButtons->addWidget(chooseText);
    auto *form = new QFormLayout;
    form->addRow(tr("Size"), m_preset);
    form->addRow(QString(), buildSizes(column));
    form->addRow(QString(), m_memory);
    form->addRow(tr("Text"), m_textName);
    form->addRow(QString(), textButtons);
    form->addRow(tr("Tokens"), m_tokenizer);
    form->addRow(tr("Vocabulary"), m_vocabulary);
    form->addRow(tr("Steps"), m_stepsBox);
    form->addRow(tr("Curves against"), m_axis);
    m_banner = new ProblemBanner(column);
    m_train = new QPushButton(tr("Train"), column);
    m_train->setObjectName("lmTrain");
    m_pause = new QPushButton(tr("Pause"), column);
    m_pause->setObjectName("lmPause");
    m_reset = new QPushButton(tr("Reset"), column);
    m_reset->setObjectName("lmReset");
    m_save = new QPushButton(tr("Save model…"), column);
    m_save->setObjectName("lmSave");
    m_save->setToolTip(tr("A Hugging Face GPT-2 folder, which HeadLens, transformers and any "
                          "GPT-2 reader open; with RoPE or shared K/V heads, HeadLens's own "
                          "headlens_gpt, which HeadLens opens"));
    m_open = new QPushButton(tr("Open in views"), column);
    m_open->setObjectName("lmOpenInViews");
    m_open->setToolTip(tr("Show the model in Heads, Pipeline, Model, Heads that matter and "
                          "Compare"));
    auto *buttons = new QGridLayout;
    buttons->addWidget(m_train, 0, 0);
    buttons->addWidget(m_pause, 0, 1);
    buttons->addWidget(m_reset, 0, 2);
    buttons->addWidget(m_save, 1, 0, 1, 3);
    buttons->addWidget(m_open, 2, 0, 1, 3);
    m_status = new QLabel(column);
    m_status->setObjectName("lmStatus");
    m_status->setWordWrap(true);
    m_sample = new QLabel(column);
    m_sample->setObjectName("lmSample");
    m_sample->setWordWrap(true);
    m_sample->setTextFormat(Qt::PlainText); // generated text is never markup
    m_sample->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addLayout(form);
    layout->addWidget(m_banner);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_sample);
    layout->addStretch(1);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &LanguageModelView::presetChanged);
    connect(m_axis, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_loss->setAgainstSeconds(index == 1);
        m_scores->setAgainstSeconds(index == 1);
    });
    connect(m_tokenizer, &QComboBox::currentIndexChanged, this, [this] {
        m_vocabulary->setEnabled(m_tokenizer->currentData().toInt() == 1);
        tokenize();
    });
    // A new vocabulary is learned when the box is left (or Enter pressed), not at each digit.
    m_vocabulary->setKeyboardTracking(false);
    connect(m_vocabulary, &QSpinBox::valueChanged, this, &LanguageModelView::tokenize);
    // The learning rate decays over the run's length: a run not started yet takes a new one.
    connect(m_stepsBox, &QSpinBox::valueChanged, this, [this] {
        if (m_steps == 0 && !m_runner->isRunning())
            restart();
    });
    connect(chooseText, &QPushButton::clicked, this, &LanguageModelView::chooseText);
    connect(stories, &QPushButton::clicked, this, &LanguageModelView::useStories);
    connect(m_train, &QPushButton::clicked, this, &LanguageModelView::train);
    connect(m_pause, &QPushButton::clicked, this, &LanguageModelView::pause);
    connect(m_reset, &QPushButton::clicked, this, &LanguageModelView::reset);
    connect(m_save, &QPushButton::clicked, this, &LanguageModelView::chooseAndSave);
    connect(m_open, &QPushButton::clicked, this, &LanguageModelView::openInViews);
    auto *scroll = new ColumnScrollArea(this);
    scroll->setWidget(column);
    return scroll;
}

QWidget *LanguageModelView::buildCharts()
{
    auto *charts = new QWidget(this);
    auto *layout = new QVBoxLayout(charts);
    layout->setContentsMargins(0, 0, 0, 0);
    m_loss = new CurvePlot(tr("Loss (nats per byte)"), charts);
    m_loss->addSeries(tr("training"), CurveColors::training(), Qt::SolidLine, 1.2);
    m_loss->addSeries(tr("held-out"), CurveColors::heldOut(), Qt::SolidLine, 2.0);
    m_loss->addSeries(tr("a run of text, once"), CurveColors::unrepeated(), Qt::DashLine, 1.6);
    m_loss->addSeries(tr("the run seen before"), CurveColors::repeated(), Qt::SolidLine, 2.0);
    m_loss->setLegendBelow();
    m_loss->setLegendColumns(4);
    m_loss->setLogarithmicY(true);
    m_scores = new CurvePlot(tr("Strongest head"), charts);
    m_scores->setFixedYRange(0.0, 1.0);
    m_scores->addSeries(tr("induction"), CurveColors::repeated(), Qt::SolidLine, 2.0);
    m_scores->addSeries(tr("previous token"), CurveColors::heldOut(), Qt::SolidLine, 1.6);
    m_scores->setLegendBelow();
    m_scores->setLegendColumns(2);
    auto *curves = new QWidget(charts);
    auto *row = new QHBoxLayout(curves);
    row->setContentsMargins(0, 0, 0, 0);
    row->addStrut(210);
    row->addWidget(m_loss, 2);
    row->addWidget(m_scores, 1);
    m_heatmaps = new SnapshotGrid(charts);
    m_heatmaps->setShrinkToFit(true);
    auto *splitter = new QSplitter(Qt::Vertical, charts);
    splitter->addWidget(curves);
    splitter->addWidget(m_heatmaps);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 5);
    layout->addWidget(splitter, 1);
    return charts;
}

TrainingSettings LanguageModelView::settings() const
{
    const auto preset =
        LanguageModelPreset::named(m_preset->currentData().toString().toStdString());
    const int vocabulary = m_tokens ? m_tokens->vocabulary() : 256;
    if (!preset) { // Custom: Tiny's training settings at the sizes of the boxes
        TrainingSettings s =
            LanguageModelPreset::named("tiny")->settings(vocabulary, m_stepsBox->value(), 0);
        s.model.layers = m_layers->value();
        s.model.heads = m_heads->value();
        s.model.dModel = m_dModel->value();
        s.model.maxLength = m_context->value();
        s.model.kvHeads = m_kvHeads->value();
        s.model.rope = m_rope->isChecked();
        s.model.mlp = !m_attentionOnly->isChecked();
        s.model.dropout = float(m_dropout->value());
        return s;
    }
    return preset->settings(vocabulary, m_stepsBox->value(), 0);
}

QWidget *LanguageModelView::buildSizes(QWidget *parent)
{
    m_customSizes = new QWidget(parent);
    auto *grid = new QGridLayout(m_customSizes);
    grid->setContentsMargins(0, 0, 0, 0);
    const ToyModelConfig::Limits &limits = ToyModelConfig::kLanguageModelLimits;
    const auto box = [this](const char *name, int low, int high, int step) {
        auto *spin = new QSpinBox(m_customSizes);
        spin->setObjectName(name);
        spin->setRange(low, high);
        spin->setSingleStep(step);
        spin->setKeyboardTracking(false);
        connect(spin, &QSpinBox::valueChanged, this, &LanguageModelView::restart);
        return spin;
    };
    m_layers = box("lmLayers", 1, limits.layers, 1);
    m_heads = box("lmHeads", 1, limits.heads, 1);
    m_dModel = box("lmDModel", 8, limits.dModel, 32);
    m_context = box("lmContext", 8, limits.maxLength, 32);
    grid->addWidget(new QLabel(tr("Layers"), m_customSizes), 0, 0);
    grid->addWidget(m_layers, 0, 1);
    grid->addWidget(new QLabel(tr("Heads"), m_customSizes), 0, 2);
    grid->addWidget(m_heads, 0, 3);
    grid->addWidget(new QLabel(tr("d_model"), m_customSizes), 1, 0);
    grid->addWidget(m_dModel, 1, 1);
    grid->addWidget(new QLabel(tr("Context"), m_customSizes), 1, 2);
    grid->addWidget(m_context, 1, 3);
    m_kvHeads = box("lmKvHeads", 0, limits.heads, 1);
    m_kvHeads->setSpecialValueText(tr("all"));
    m_kvHeads->setToolTip(tr("Grouped-query attention: this many key/value heads, each shared by "
                             "heads / K/V query heads; \"all\" gives each head its own"));
    m_dropout = new QDoubleSpinBox(m_customSizes);
    m_dropout->setObjectName("lmDropout");
    m_dropout->setRange(0.0, 0.9);
    m_dropout->setSingleStep(0.05);
    m_dropout->setDecimals(2);
    m_dropout->setKeyboardTracking(false);
    m_dropout->setToolTip(tr("Dropout on the attention weights and each block's branches while "
                             "training (not when evaluating or sampling)"));
    connect(m_dropout, &QDoubleSpinBox::valueChanged, this, &LanguageModelView::restart);
    grid->addWidget(new QLabel(tr("K/V heads"), m_customSizes), 2, 0);
    grid->addWidget(m_kvHeads, 2, 1);
    grid->addWidget(new QLabel(tr("Dropout"), m_customSizes), 2, 2);
    grid->addWidget(m_dropout, 2, 3);
    m_rope = new QCheckBox(tr("Rotary positions (RoPE)"), m_customSizes);
    m_rope->setObjectName("lmRope");
    m_rope->setToolTip(tr("Positions turn queries and keys (as Llama) instead of a learned "
                          "table added to the input; saved as HeadLens's headlens_gpt"));
    m_attentionOnly = new QCheckBox(tr("Attention only (no MLP)"), m_customSizes);
    m_attentionOnly->setObjectName("lmAttentionOnly");
    m_attentionOnly->setToolTip(tr("Blocks of attention alone, as the models of Olsson et al. "
                                   "2022"));
    for (QCheckBox *check : {m_rope, m_attentionOnly})
        connect(check, &QCheckBox::toggled, this, &LanguageModelView::restart);
    grid->addWidget(m_rope, 3, 0, 1, 2);
    grid->addWidget(m_attentionOnly, 3, 2, 1, 2);
    m_customSizes->setVisible(false);
    return m_customSizes;
}

void LanguageModelView::presetChanged()
{
    const bool custom = m_preset->currentData().toString() == QStringLiteral("custom");
    if (custom) {
        // From the sizes trained last, so Custom starts as a small change of a known model.
        const ToyModelConfig &c = m_lastPresetModel;
        for (auto [spin, value] : {std::pair{m_layers, c.layers},
                                   {m_heads, c.heads},
                                   {m_dModel, c.dModel},
                                   {m_context, c.maxLength}}) {
            const QSignalBlocker quiet(spin);
            spin->setValue(value);
        }
        const QSignalBlocker quietKv(m_kvHeads), quietDropout(m_dropout), quietRope(m_rope),
            quietMlp(m_attentionOnly);
        m_kvHeads->setValue(c.kvHeads);
        m_dropout->setValue(double(c.dropout));
        m_rope->setChecked(c.rope);
        m_attentionOnly->setChecked(!c.mlp);
    } else {
        m_lastPresetModel =
            LanguageModelPreset::named(m_preset->currentData().toString().toStdString())->model;
    }
    m_customSizes->setVisible(custom);
    // Custom starts from the sizes of the preset before it: the same model, so the run on
    // screen (perhaps trained for minutes) stays.
    if (m_text && settings() == m_log.settings())
        return;
    restart();
}

void LanguageModelView::setText(const QString &name, const std::string &text)
{
    m_name = name;
    m_textName->setText(tr("%1 (%2 bytes)").arg(name).arg(text.size()));
    m_relations.clear();
    m_textBytes = std::make_shared<const std::string>(text);
    tokenize();
}

void LanguageModelView::tokenize()
{
    if (!m_textBytes)
        return;
    m_tokens.reset();
    m_pendingGoal = 0;
    restart(); // nothing trains on the tokens of before
    const int vocabulary = m_tokenizer->currentData().toInt() == 1 ? m_vocabulary->value() : 0;
    if (vocabulary > 0)
        m_status->setText(tr("Learning a BPE of %1 tokens from the text…").arg(vocabulary));
    m_tokenizing->start(m_textBytes, vocabulary);
}

void LanguageModelView::useTokens(std::shared_ptr<const TrainingTokens> tokens)
{
    m_tokens = std::move(tokens);
    m_textName->setText(tr("%1 (%2 bytes, %3 tokens)")
                            .arg(m_name)
                            .arg(m_textBytes->size())
                            .arg(m_tokens->ids().size()));
    m_loss->setTitle(m_tokens->name() == "bytes" ? tr("Loss (nats per byte)")
                                                 : tr("Loss (nats per token)"));
    restart();
    if (m_pendingGoal > 0)
        trainTo(std::exchange(m_pendingGoal, 0));
}

void LanguageModelView::useStories()
{
    StoryText stories = StoryGenerator(0).generate(kStoryBytes);
    setText(tr("Generated stories"), stories.text);
    m_relations = std::move(stories.relations);
}

void LanguageModelView::openText(const QString &path)
{
    try {
        setText(QFileInfo(path).fileName(), TrainingText::read(path.toStdString()));
    } catch (const InputError &error) {
        m_banner->showMessage(QString::fromStdString(error.what()));
    }
}

void LanguageModelView::chooseText()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Text to train on"), QString(),
                                                      tr("Text files (*.txt);;All files (*)"));
    if (!path.isEmpty())
        openText(path);
}

// A new run, paused at step 0, for the text and the preset on screen. The text's windows
// are the preset's context long, so the batches are made again for it.
void LanguageModelView::restart()
{
    m_banner->clear();
    m_report.reset();
    m_steps = 0;
    m_goal = 0;
    m_savedStep = -1;
    m_loss->clearPoints();
    m_scores->clearPoints();
    m_heatmaps->clear();
    m_status->clear();
    m_sample->clear();
    const TrainingSettings s = settings();
    m_log = TrainingLog(s);
    m_text.reset();
    // The run of the text before stops: nothing trains, and nothing it reports is shown, until
    // a text that fits starts a run of its own.
    m_runner->pause();
    if (auto problem = s.validateLanguageModel()) {
        m_memory->clear();
        m_banner->showMessage(QString::fromStdString(*problem));
        updateButtons();
        return;
    }
    const TrainingMemory memory = TrainingMemory::of(s);
    m_memory->setText(tr("%1 M parameters; training holds about %2")
                          .arg(double(memory.parameters) / 1e6, 0, 'f', 2)
                          .arg(QString::fromStdString(formatBytes(double(memory.total())))));
    if (!m_tokens) {
        updateButtons();
        return;
    }
    m_status->clear();
    const int n = s.model.maxLength;
    try {
        checkLanguageModelRun(s, m_tokens->ids().size(), m_name.toStdString(),
                              MemoryNeeds::availableBytes());
    } catch (const InputError &error) {
        m_banner->showMessage(QString::fromStdString(error.what()));
        updateButtons();
        return;
    }
    m_text = std::make_shared<const TextBatches>(m_tokens->ids(), n, m_tokens->labels());
    m_runner->restartOnText(s, m_text);
    updateButtons();
}

void LanguageModelView::train()
{
    const int steps = m_stepsBox->value();
    trainTo(m_steps < steps ? steps : m_steps + steps);
}

void LanguageModelView::trainTo(int64_t goal)
{
    if (!m_text && m_tokenizing->isRunning()) {
        m_pendingGoal = goal; // trained to once the tokens are ready
        return;
    }
    if (!m_text)
        return;
    m_goal = goal;
    m_runner->trainUntil(m_goal);
}

void LanguageModelView::pause()
{
    m_runner->pause();
}

void LanguageModelView::reset()
{
    restart();
}

void LanguageModelView::showMetrics(const TrainingMetrics &metrics)
{
    if (!m_text)
        return; // the last words of a run whose text was replaced by one that cannot train
    m_steps = metrics.step;
    m_trainLoss = metrics.loss;
    m_loss->addPoint(0, double(metrics.step), metrics.loss, metrics.seconds);
    const TrainingSettings s = settings();
    const double tokensPerSecond = metrics.seconds > 0.0 ? double(metrics.step) * s.batchSize *
                                                               s.model.maxLength / metrics.seconds
                                                         : 0.0;
    const double left =
        tokensPerSecond > 0.0 && m_goal > metrics.step
            ? double(m_goal - metrics.step) * s.batchSize * s.model.maxLength / tokensPerSecond
            : 0.0;
    m_status->setText(tr("Step %1 of %2 · %3 tokens/s · %4 s left")
                          .arg(metrics.step)
                          .arg(std::max(m_goal, metrics.step))
                          .arg(tokensPerSecond, 0, 'f', 0)
                          .arg(left, 0, 'f', 0));
}

void LanguageModelView::showReport(std::shared_ptr<const TrainingReport> report)
{
    if (!m_text)
        return;
    m_report = report;
    m_steps = report->evaluation.step;
    const double step = double(report->evaluation.step);
    const double seconds = report->seconds;
    m_loss->addPoint(1, step, report->evaluation.loss, seconds);
    if (report->inContext) {
        const InContextScores &c = *report->inContext;
        m_loss->addPoint(2, step, c.unrepeatedLoss, seconds);
        m_loss->addPoint(3, step, c.repeatedLoss, seconds);
        const double induction = *std::max_element(c.induction.begin(), c.induction.end());
        const double previous = *std::max_element(c.previousToken.begin(), c.previousToken.end());
        m_scores->addPoint(0, step, induction, seconds);
        m_scores->addPoint(1, step, previous, seconds);
        const bool before = m_log.copyingStep() >= 0;
        m_log.add({report->evaluation.step, report->seconds, m_trainLoss, report->evaluation.loss,
                   c.unrepeatedLoss, c.repeatedLoss, induction, previous});
        if (!before && m_log.copyingStep() >= 0) {
            const QString label = tr("copying from step %1").arg(m_log.copyingStep());
            m_loss->setMarker(double(m_log.copyingStep()), label, seconds);
            m_scores->setMarker(double(m_log.copyingStep()), label, seconds);
            emit message(tr("In-context copying appeared at step %1: induction heads formed.")
                             .arg(m_log.copyingStep()));
        }
    }
    m_heatmaps->setSnapshot(report->snapshot, TaskKind::Induction);
    if (!report->sample.empty())
        m_sample->setText(
            tr("Sample at step %1: “%2”")
                .arg(report->evaluation.step)
                .arg(QString::fromStdString(printableLine(m_tokens->decode(report->sample)))));
    updateButtons();
}

bool LanguageModelView::saveTo(const QString &folder)
{
    return save(folder, m_report);
}

bool LanguageModelView::save(const QString &folder,
                             const std::shared_ptr<const TrainingReport> &report)
{
    if (!report || !m_tokens)
        return false;
    const TrainedModel &model = *report->model;
    try {
        TrainingLog log = m_log;
        const std::vector<int> &probe = report->snapshot.tokens;
        ToyModel::Activations acts;
        const ToyModel forward(model.settings.model, model.parameters);
        forward.forward(probe, 1, int(probe.size()), acts);
        const auto last = acts.logits.row(acts.logits.rows() - 1);
        log.setCheck(probe, std::vector<float>(last.data(), last.data() + last.size()));
        Gpt2FolderWriter::write(folder.toStdString(), model.settings.model, model.parameters,
                                m_tokens->tokenizerJson(),
                                log.toJson(m_name.toStdString(), m_tokens->name()));
    } catch (const InputError &error) {
        m_banner->showMessage(QString::fromStdString(error.what()));
        return false;
    }
    m_savedFolder = folder;
    m_savedStep = model.steps;
    emit message(tr("Saved the model at step %1 to %2").arg(model.steps).arg(folder));
    return true;
}

void LanguageModelView::chooseAndSave()
{
    // The report of the click: later reports must not change what the dialog's choice saves.
    const std::shared_ptr<const TrainingReport> report = m_report;
    const QString folder =
        QFileDialog::getSaveFileName(this, tr("Save the language model as a folder"),
                                     QDir::home().filePath(QStringLiteral("headlens-model")));
    if (!folder.isEmpty())
        save(folder, report);
}

void LanguageModelView::openInViews()
{
    if (!m_report)
        return;
    if (m_savedStep != m_report->model->steps || m_savedFolder.isEmpty()) {
        const QString cache =
            QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/trained";
        QDir().mkpath(cache);
        const QString folder =
            cache + QStringLiteral("/model-") +
            QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-hhmmss-zzz"));
        if (!saveTo(folder))
            return;
    }
    emit openFolder(m_savedFolder);
    // The probe starts a held-out window: that window (or the nearest sentences of the stories
    // with a relation) becomes the views' text. A token is at least a byte, so as many bytes
    // as the context has tokens always fit it.
    if (!m_textBytes || !m_tokens || !m_text)
        return;
    const StoryText text{*m_textBytes, m_relations};
    if (auto window = windowAt(text, m_tokens->decode(m_report->snapshot.tokens),
                               m_tokens->begin(m_text->trainingTokens()),
                               size_t(m_report->model->settings.model.maxLength)))
        emit probeStory(*window);
}

void LanguageModelView::setPlotStyle(const PlotStyle &style)
{
    m_loss->setPlotStyle(style);
    m_scores->setPlotStyle(style);
    m_heatmaps->setPlotStyle(style);
}

bool LanguageModelView::isBusy() const
{
    return m_runner->isBusy() || m_tokenizing->isRunning();
}

void LanguageModelView::updateButtons()
{
    const bool running = m_runner->isRunning();
    m_train->setEnabled(m_text && !running);
    m_pause->setEnabled(running);
    m_reset->setEnabled(m_text != nullptr);
    m_save->setEnabled(m_report != nullptr);
    m_open->setEnabled(m_report != nullptr);
    m_preset->setEnabled(!running);
    m_customSizes->setEnabled(!running);
    m_tokenizer->setEnabled(!running);
    m_vocabulary->setEnabled(!running && m_tokenizer->currentData().toInt() == 1);
}

} // namespace headlens
