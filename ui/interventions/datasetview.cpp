// DatasetView: the form, a ProgressJob of runDatasetExperiment, and a RankingHeatmap of its means.
#include "interventions/datasetview.h"

#include "corpus/datasetexport.h"
#include "corpus/datasetfile.h"
#include "interventions/rankingheatmap.h"
#include "runner/progressjob.h"
#include "util/inputerror.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace headlens {

namespace {

/// The prompts left out that the sentence under the map names; the rest are counted.
constexpr int kSkippedNamed = 3;

} // namespace

DatasetView::DatasetView(QWidget *parent) : QWidget(parent)
{
    setObjectName("datasetView");
    m_job = new ProgressJob(this);
    auto *about = new QLabel(
        tr("<b>Over a dataset</b> — every prompt of a file measured alone, then each head's "
           "mean over the prompts and their spread (standard deviation), so that a head that "
           "matters for one sentence can be told from one that matters for the task. One text "
           "per line: each head's importance (the loss increase without it), with a token below "
           "its direct logit attribution at the last token, and its atlas scores on each "
           "prompt (where it looks). JSON lines "
           "<tt>{\"clean\": …, \"corrupted\": …, \"answer\": …, \"wrong\": …}</tt>: each head's "
           "patching share. As <tt>headlens-cli --dataset</tt>."),
        this);
    about->setWordWrap(true);
    m_ablation = new QComboBox(this);
    m_ablation->setObjectName("datasetAblation");
    m_ablation->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_ablation->addItem(tr("zeroed"), int(InterventionKind::Zero));
    m_ablation->addItem(tr("replaced by its mean over the dataset"), int(InterventionKind::Mean));
    m_token = new QLineEdit(this);
    m_token->setObjectName("datasetToken");
    m_token->setPlaceholderText(tr("none"));
    m_token->setToolTip(tr("A token's text, e.g. \" Paris\" (its leading space included): each "
                           "head's direct logit attribution to it at every prompt's last token"));
    m_wrong = new QLineEdit(this);
    m_wrong->setObjectName("datasetWrong");
    m_wrong->setPlaceholderText(tr("none"));
    m_wrong->setToolTip(tr("Optional: attribute logit(token) - logit(this token)"));
    m_atlas = new QCheckBox(tr("Atlas scores"), this);
    m_atlas->setObjectName("datasetAtlas");
    m_atlas->setToolTip(tr("Each head's share of attention on the first token, itself, a fixed "
                           "offset, nearby tokens, [CLS], [SEP] and punctuation, on each prompt"));
    auto *form = new QHBoxLayout;
    form->addWidget(new QLabel(tr("Ablate each head:"), this));
    form->addWidget(m_ablation);
    form->addSpacing(12);
    form->addWidget(new QLabel(tr("Attribute the token"), this));
    form->addWidget(m_token);
    form->addWidget(new QLabel(tr("against"), this));
    form->addWidget(m_wrong);
    form->addSpacing(12);
    form->addWidget(m_atlas);
    form->addStretch(1);
    m_run = new QPushButton(tr("Run a dataset file…"), this);
    m_run->setObjectName("datasetRun");
    m_export = new QPushButton(tr("Export…"), this);
    m_export->setObjectName("datasetExport");
    m_export->setToolTip(QString::fromStdString(DatasetExport::filesWritten()) + tr(" a folder"));
    m_measure = new QComboBox(this);
    m_measure->setObjectName("datasetMeasure");
    m_measure->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_statistic = new QComboBox(this);
    m_statistic->setObjectName("datasetStatistic");
    m_statistic->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_statistic->addItem(tr("mean over the prompts"));
    m_statistic->addItem(tr("spread (standard deviation)"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_export);
    buttons->addSpacing(12);
    buttons->addWidget(new QLabel(tr("Show"), this));
    buttons->addWidget(m_measure);
    buttons->addWidget(m_statistic);
    buttons->addStretch(1);
    m_modelNote = new QLabel(this);
    m_modelNote->setObjectName("datasetModelNote");
    m_modelNote->setWordWrap(true);
    m_prompts = new QLabel(this);
    m_prompts->setObjectName("datasetPrompts");
    m_prompts->setWordWrap(true);
    m_prompts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heatmap = new RankingHeatmap(this);
    m_heatmap->setCellDescriber([this](int layer, int head) { return describeHead(layer, head); });
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(about);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_modelNote);
    layout->addWidget(m_heatmap, 1);
    layout->addWidget(m_prompts);

    connect(m_run, &QPushButton::clicked, this, &DatasetView::chooseFile);
    connect(m_export, &QPushButton::clicked, this, &DatasetView::chooseExportFolder);
    connect(m_measure, qOverload<int>(&QComboBox::activated), this, &DatasetView::showShownMeasure);
    connect(m_statistic, qOverload<int>(&QComboBox::activated), this,
            &DatasetView::showShownMeasure);
    connect(m_heatmap, &RankingHeatmap::cancelRequested, this, &DatasetView::cancel);
    connect(m_heatmap, &RankingHeatmap::headActivated, this, &DatasetView::headChosen);
    connect(m_job, &ProgressJob::progressed, this,
            [this](double fraction) { m_heatmap->setProgress(int(fraction * 100.0)); });
    connect(m_job, &ProgressJob::failed, this, [this](const QString &message) {
        setRunning(false);
        m_heatmap->showFailed(message);
    });
    connect(m_job, &ProgressJob::cancelled, this, [this] {
        setRunning(false);
        m_heatmap->showCancelled();
    });
    setModel(nullptr);
}

void DatasetView::setModel(std::shared_ptr<const OpenedModel> model)
{
    if (model && model == m_model) // a new run of the same model: the result stays
        return;
    m_job->forget(); // the run was for the model before: nothing of it may come
    m_model = std::move(model);
    m_result.reset();
    m_heatmap->clear();
    m_prompts->clear();
    m_measure->clear();
    m_modelNote->show();
    setRunning(false);
    m_modelNote->setText(m_model ? tr("Choose a dataset file to run through %1.")
                                       .arg(QString::fromStdString(m_model->name()))
                                 : tr("Open a model (Model box) to run a dataset through it."));
}

void DatasetView::setPlotStyle(const PlotStyle &style)
{
    m_heatmap->setPlotStyle(style);
}

bool DatasetView::isRunning() const
{
    return m_job->isRunning();
}

void DatasetView::setRunning(bool running)
{
    m_run->setEnabled(m_model != nullptr && !running);
    m_export->setEnabled(!running && m_result.has_value());
    m_measure->setEnabled(m_result.has_value());
    m_statistic->setEnabled(m_result.has_value());
    m_heatmap->setRunning(running);
}

void DatasetView::chooseFile()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Run a dataset file"), QString(),
                                     tr("Datasets (*.txt *.jsonl *.json);;All files (*)"));
    if (!path.isEmpty())
        runFile(path);
}

void DatasetView::runFile(const QString &path)
{
    if (!m_model)
        return;
    DatasetRequest request;
    request.ablation = InterventionKind(m_ablation->currentData().toInt());
    request.dlaToken = m_token->text().toStdString();
    request.dlaWrong = m_wrong->text().toStdString();
    request.atlas = m_atlas->isChecked();
    if (request.dlaToken.empty() && !request.dlaWrong.empty()) {
        m_heatmap->showFailed(tr("“Against” needs a token to attribute: fill in the token "
                                 "before it, or clear “against”."));
        return;
    }
    setRunning(true);
    m_heatmap->setStatus(
        tr("Running every prompt of %1 through %2…")
            .arg(QFileInfo(path).fileName(), QString::fromStdString(m_model->name())));
    m_job->start(
        [model = m_model, file = path.toStdString(),
         request](const ProgressJob::Progress &progress) {
            const Dataset dataset = DatasetFile::read(file);
            if (dataset.pairs && (!request.dlaToken.empty() || request.atlas))
                throw InputError("Attribution and atlas scores are measured on a dataset of "
                                 "texts; " +
                                 dataset.path +
                                 " holds patching pairs: clear the token to attribute and "
                                 "Atlas scores.");
            return runDatasetExperiment(*model, dataset, request, progress);
        },
        [this, path](DatasetResult result) { showResult(std::move(result), path); },
        tr("Out of memory: use a smaller model or shorter prompts."));
}

void DatasetView::cancel()
{
    m_job->cancel();
}

void DatasetView::showResult(DatasetResult result, const QString &file)
{
    m_result = std::move(result);
    m_file = file;
    m_modelNote->hide(); // the map's title names the file and what it shows
    setRunning(false);
    m_measure->clear();
    for (const DatasetMeasure &measure : m_result->measures)
        m_measure->addItem(QString::fromStdString(measure.name)
                               .replace(QStringLiteral("atlas_"), QStringLiteral("atlas: "))
                               .replace(QLatin1Char('_'), QLatin1Char(' ')));
    m_measure->setCurrentIndex(0);
    m_prompts->setText(promptsText());
    showShownMeasure();
}

void DatasetView::showShownMeasure()
{
    showMeasure(m_measure->currentIndex(), m_statistic->currentIndex() == 1);
}

void DatasetView::showMeasure(int measure, bool spread)
{
    if (!m_result || measure < 0 || measure >= int(m_result->measures.size()))
        return;
    m_measure->setCurrentIndex(measure);
    m_statistic->setCurrentIndex(spread ? 1 : 0);
    const DatasetMeasure &shown = m_result->measures[size_t(measure)];
    const QString meaning = QString::fromStdString(shown.meaning);
    const QString over =
        tr("over %1 prompts of %2").arg(m_result->lines.size()).arg(QFileInfo(m_file).fileName());
    m_heatmap->setValues(
        spread ? shown.spread : shown.mean,
        (spread ? tr("<b>%1</b>: the spread (standard deviation) of the %2, %3")
                : tr("<b>%1</b>: the mean %2, %3"))
            .arg(QString::fromStdString(shown.name), meaning.toHtmlEscaped(), over),
        spread ? tr("spread") : tr("mean"));
}

QString DatasetView::describeHead(int layer, int head) const
{
    if (!m_result || m_measure->currentIndex() < 0)
        return {};
    const DatasetMeasure &shown = m_result->measures[size_t(m_measure->currentIndex())];
    if (layer < 0 || layer >= shown.mean.rows() || head < 0 || head >= shown.mean.cols())
        return {};
    return tr("layer %1 · head %2: %3 %4 ± %5 over %6 prompts")
        .arg(layer)
        .arg(head + 1)
        .arg(QString::fromStdString(shown.name))
        .arg(double(shown.mean(layer, head)), 0, 'f', 4)
        .arg(double(shown.spread(layer, head)), 0, 'f', 4)
        .arg(m_result->lines.size());
}

QString DatasetView::promptsText() const
{
    if (!m_result)
        return {};
    QString text = tr("%1 prompts measured").arg(m_result->lines.size());
    if (m_result->skipped.empty())
        return text + QStringLiteral(".");
    text += tr("; %1 left out:").arg(m_result->skipped.size());
    for (size_t i = 0; i < m_result->skipped.size() && i < size_t(kSkippedNamed); ++i)
        text += QStringLiteral("\n") + QString::fromStdString(m_result->skipped[i]);
    if (m_result->skipped.size() > size_t(kSkippedNamed))
        text += tr("\nand %1 more (headlens-cli --dataset lists them all).")
                    .arg(m_result->skipped.size() - size_t(kSkippedNamed));
    return text;
}

void DatasetView::chooseExportFolder()
{
    const QString directory =
        QFileDialog::getExistingDirectory(this, tr("Export the dataset's results into"));
    if (!directory.isEmpty())
        exportTo(directory);
}

bool DatasetView::exportTo(const QString &directory)
{
    if (!m_result) {
        m_heatmap->showFailed(tr("Run a dataset first: there is nothing to export yet."));
        return false;
    }
    try {
        DatasetExport::write(*m_result, directory.toStdString());
    } catch (const InputError &error) {
        m_heatmap->showFailed(QString::fromStdString(error.what()));
        return false;
    }
    m_heatmap->setStatus(QString::fromStdString(DatasetExport::filesWritten()) + " " + directory +
                         ".");
    return true;
}

} // namespace headlens
