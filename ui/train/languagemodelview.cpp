// LanguageModelView: text + preset -> TrainingRunner (worker) -> reports -> curves, heads, log.
#include "train/languagemodelview.h"

#include "panels/columnscrollarea.h"
#include "panels/problembanner.h"
#include "stories/storygenerator.h"
#include "stories/storywindow.h"
#include "text/bytetokenizerjson.h"
#include "text/tokenizer.h"
#include "train/curvecolors.h"
#include "train/curveplot.h"
#include "train/gpt2folderwriter.h"
#include "train/languagemodelpreset.h"
#include "train/snapshotgrid.h"
#include "train/trainingrunner.h"
#include "train/trainingtext.h"
#include "util/inputerror.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <algorithm>

namespace headlens {

namespace {

/// The byte's label on the heatmaps' axes: ASCII as it reads (a space as ␣, a newline as ⏎),
/// other bytes as \xNN (one byte of a longer UTF-8 character).
std::string byteLabel(int byte)
{
    if (byte < 0x80)
        return Tokenizer::displayLabel(std::string(1, char(byte)));
    static const char digits[] = "0123456789ABCDEF";
    return std::string("\\x") + digits[byte >> 4] + digits[byte & 15];
}

std::vector<std::string> byteLabels()
{
    std::vector<std::string> labels;
    for (int byte = 0; byte < 256; ++byte)
        labels.push_back(byteLabel(byte));
    return labels;
}

QString printable(const std::vector<int> &bytes)
{
    std::string text;
    for (int b : bytes)
        text += b == '\n' || b == '\t' ? ' ' : char(b);
    return QString::fromStdString(Tokenizer::toValidUtf8(text));
}

} // namespace

LanguageModelView::LanguageModelView(QWidget *parent) : QWidget(parent)
{
    setObjectName("languageModelView");
    m_runner = new TrainingRunner(this);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(buildControls());
    layout->addWidget(buildCharts(), 1);
    connect(m_runner, &TrainingRunner::stepped, this, &LanguageModelView::showMetrics);
    connect(m_runner, &TrainingRunner::reported, this, &LanguageModelView::showReport);
    connect(m_runner, &TrainingRunner::runningChanged, this, &LanguageModelView::updateButtons);
    connect(m_runner, &TrainingRunner::failed, m_banner, &ProblemBanner::showMessage);
    updateButtons();
}

// The stories are made and their run prepared when the view is first shown, not with the
// window: every window would otherwise spend a fifth of a second of a core on a first report
// nobody looks at.
void LanguageModelView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_tokens.empty())
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
    m_preset->setCurrentIndex(m_preset->findData(QStringLiteral("tiny")));
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
    form->addRow(tr("Text"), m_textName);
    form->addRow(QString(), textButtons);
    form->addRow(tr("Steps"), m_stepsBox);
    m_banner = new ProblemBanner(column);
    m_train = new QPushButton(tr("Train"), column);
    m_train->setObjectName("lmTrain");
    m_pause = new QPushButton(tr("Pause"), column);
    m_pause->setObjectName("lmPause");
    m_reset = new QPushButton(tr("Reset"), column);
    m_reset->setObjectName("lmReset");
    m_save = new QPushButton(tr("Save model…"), column);
    m_save->setObjectName("lmSave");
    m_save->setToolTip(tr("A Hugging Face GPT-2 folder: HeadLens, transformers and any GPT-2 "
                          "reader open it"));
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
    connect(m_preset, &QComboBox::currentIndexChanged, this, &LanguageModelView::restart);
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
    return preset->settings(256, m_stepsBox->value(), 0);
}

void LanguageModelView::setText(const QString &name, const std::string &text)
{
    m_name = name;
    m_textName->setText(tr("%1 (%2 bytes)").arg(name).arg(text.size()));
    m_relations.clear();
    m_tokens.assign(text.begin(), text.end());
    for (int &token : m_tokens)
        token = static_cast<unsigned char>(token);
    m_text.reset();
    restart();
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
    if (m_tokens.empty()) {
        updateButtons();
        return;
    }
    const int n = s.model.maxLength;
    if (auto problem = TextBatches::validate(m_tokens.size(), n)) {
        m_banner->showMessage(m_name + QStringLiteral(": ") + QString::fromStdString(*problem));
        updateButtons();
        return;
    }
    m_text = std::make_shared<const TextBatches>(m_tokens, n, byteLabels());
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
    m_loss->addPoint(0, double(metrics.step), metrics.loss);
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
    m_loss->addPoint(1, step, report->evaluation.loss);
    if (report->inContext) {
        const InContextScores &c = *report->inContext;
        m_loss->addPoint(2, step, c.unrepeatedLoss);
        m_loss->addPoint(3, step, c.repeatedLoss);
        const double induction = *std::max_element(c.induction.begin(), c.induction.end());
        const double previous = *std::max_element(c.previousToken.begin(), c.previousToken.end());
        m_scores->addPoint(0, step, induction);
        m_scores->addPoint(1, step, previous);
        const bool before = m_log.copyingStep() >= 0;
        m_log.add({report->evaluation.step, report->seconds, m_trainLoss, report->evaluation.loss,
                   c.unrepeatedLoss, c.repeatedLoss, induction, previous});
        if (!before && m_log.copyingStep() >= 0) {
            const QString label = tr("copying from step %1").arg(m_log.copyingStep());
            m_loss->setMarker(double(m_log.copyingStep()), label);
            m_scores->setMarker(double(m_log.copyingStep()), label);
            emit message(tr("In-context copying appeared at step %1: induction heads formed.")
                             .arg(m_log.copyingStep()));
        }
    }
    m_heatmaps->setSnapshot(report->snapshot, TaskKind::Induction);
    if (!report->sample.empty())
        m_sample->setText(tr("Sample at step %1: “%2”")
                              .arg(report->evaluation.step)
                              .arg(printable(report->sample)));
    updateButtons();
}

bool LanguageModelView::saveTo(const QString &folder)
{
    return save(folder, m_report);
}

bool LanguageModelView::save(const QString &folder,
                             const std::shared_ptr<const TrainingReport> &report)
{
    if (!report)
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
                                byteTokenizerJson(), log.toJson(m_name.toStdString(), "bytes"));
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
    // The probe is the start of a held-out window: that window becomes the views' text.
    StoryText text{std::string(m_tokens.size(), '\0'), m_relations};
    std::transform(m_tokens.begin(), m_tokens.end(), text.text.begin(),
                   [](int byte) { return char(byte); });
    const std::vector<int> &probe = m_report->snapshot.tokens;
    std::string probeText(probe.size(), '\0');
    std::transform(probe.begin(), probe.end(), probeText.begin(),
                   [](int byte) { return char(byte); });
    if (auto window = windowAt(text, probeText, m_text ? m_text->trainingTokens() : 0,
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
    return m_runner->isBusy();
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
}

} // namespace headlens
