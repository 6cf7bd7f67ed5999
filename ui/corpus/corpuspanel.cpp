// CorpusPanel: buttons and status over a splitter of the map and the table.
#include "corpus/corpuspanel.h"

#include "corpus/corpusexport.h"
#include "corpus/corpusmapplot.h"
#include "corpus/corpusrun.h"
#include "export/figureexporter.h"
#include "panels/reflowsplitter.h"
#include "runner/progressjob.h"
#include "util/inputerror.h"
#include "views/headstatstable.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace headlens {

CorpusPanel::CorpusPanel(QWidget *parent) : QWidget(parent)
{
    setObjectName("corpusPanel");
    m_job = new ProgressJob(this);
    auto *intro = new QLabel(
        tr("<b>Every head over a corpus</b> — a text file, one text per line (the first 128 "
           "tokens of each). The heads' statistics are averaged over every token, each head's "
           "induction score is measured on random tokens of the corpus repeated once, and the "
           "heads are placed on a map by how alike they attend (Jensen–Shannon distance, "
           "Clark et al. 2019): heads that attend alike sit close together."),
        this);
    intro->setWordWrap(true);
    m_open = new QPushButton(tr("Run a corpus file…"), this);
    m_open->setObjectName("corpusOpenButton");
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName("corpusCancelButton");
    m_export = new QPushButton(tr("Export…"), this);
    m_export->setObjectName("corpusExportButton");
    m_export->setToolTip(tr("corpus_heads.csv, corpus_distances.npy, corpus_map.npy and "
                            "corpus_map.png into a folder"));
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_status = new QLabel(this);
    m_status->setObjectName("corpusStatus");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    buttons->addStretch(); // the buttons keep their size while the progress bar is hidden
    buttons->addWidget(m_export);

    m_map = new CorpusMapPlot(this);
    m_map->setObjectName("corpusMap");
    m_table = new HeadStatsTable(this);
    m_table->setObjectName("corpusTable");
    // Nine columns did not fit half of 1280 px in presentation mode: the table goes below the
    // map when they do not fit beside it, every column whole.
    m_table->setMinimumHoldsColumns(true);
    auto *splitter = new ReflowSplitter(this);
    splitter->addWidget(m_map);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    connect(m_open, &QPushButton::clicked, this, &CorpusPanel::chooseFile);
    connect(m_cancel, &QPushButton::clicked, this, &CorpusPanel::cancel);
    connect(m_export, &QPushButton::clicked, this, &CorpusPanel::chooseExportFolder);
    connect(m_map, &CorpusMapPlot::headChosen, this, &CorpusPanel::headChosen);
    connect(m_table, &HeadStatsTable::headActivated, this, &CorpusPanel::headChosen);
    connect(m_job, &ProgressJob::progressed, this,
            [this](double fraction) { m_progress->setValue(int(fraction * 1000.0)); });
    connect(m_job, &ProgressJob::failed, this, [this](const QString &message) {
        setRunning(false);
        m_status->setText(message);
    });
    connect(m_job, &ProgressJob::cancelled, this, [this] {
        setRunning(false);
        m_status->setText(m_summary ? tr("Cancelled; the map shows the previous corpus.")
                                    : tr("Cancelled."));
    });
    setRunning(false);
    setModel(nullptr);
}

void CorpusPanel::setModel(std::shared_ptr<const OpenedModel> model)
{
    if (model == m_model)
        return;
    m_job->forget(); // the run was for the model before: nothing of it may come
    m_model = std::move(model);
    const bool hadSummary = m_summary.has_value();
    m_summary.reset();
    if (hadSummary)
        emit meansChanged(Tensor(), nullptr);
    m_map->clearSummary();
    m_table->setStats({}, 1, 0, {});
    setRunning(false);
    m_status->setText(m_model ? tr("Choose a text file to run through %1.")
                                    .arg(QString::fromStdString(m_model->name()))
                              : tr("Open a model (Model box) to run a corpus through it."));
}

void CorpusPanel::setPlotStyle(const PlotStyle &style)
{
    m_style = style;
    m_map->setPlotStyle(style);
}

bool CorpusPanel::isRunning() const
{
    return m_job->isRunning();
}

void CorpusPanel::setRunning(bool running)
{
    m_open->setEnabled(m_model != nullptr && !running);
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    m_export->setEnabled(!running && m_summary.has_value());
}

void CorpusPanel::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Run a corpus file"), QString(),
                                                      tr("Text files (*.txt);;All files (*)"));
    if (!path.isEmpty())
        runFile(path);
}

void CorpusPanel::runFile(const QString &path)
{
    if (!m_model)
        return;
    m_progress->setValue(0);
    m_status->setText(
        tr("Running %1 through %2…")
            .arg(QFileInfo(path).fileName(), QString::fromStdString(m_model->name())));
    m_job->start(
        [model = m_model, file = path.toStdString()](const ProgressJob::Progress &progress) {
            return runCorpus(*model, file, {}, progress);
        },
        [this](CorpusSummary summary) { showSummary(summary); },
        tr("Out of memory: use a smaller model or corpus."));
    setRunning(true);
}

void CorpusPanel::cancel()
{
    m_job->cancel();
}

void CorpusPanel::showSummary(const CorpusSummary &summary)
{
    m_summary = summary;
    emit meansChanged(summary.headOutputMeans, m_model);
    m_map->setSummary(summary);
    m_table->setStats(summary.stats, summary.heads, 0, summary.induction);
    QString text = tr("%1 over %2: %3 texts, %4 tokens")
                       .arg(QString::fromStdString(summary.model),
                            QFileInfo(QString::fromStdString(summary.corpus)).fileName())
                       .arg(summary.texts)
                       .arg(summary.tokens);
    if (summary.cutTexts > 0)
        text +=
            tr(" (%1 cut to their first %2 tokens)").arg(summary.cutTexts).arg(summary.tokenLimit);
    text += tr("; induction on %1 random tokens repeated once.").arg(summary.inductionLength());
    m_status->setText(text);
    setRunning(false);
}

void CorpusPanel::chooseExportFolder()
{
    const QString directory =
        QFileDialog::getExistingDirectory(this, tr("Export the corpus summary into"));
    if (!directory.isEmpty())
        exportTo(directory);
}

bool CorpusPanel::exportTo(const QString &directory)
{
    if (!m_summary) {
        m_status->setText(tr("Run a corpus first: there is nothing to export yet."));
        return false;
    }
    try {
        CorpusExport::write(*m_summary, directory.toStdString());
        FigureExporter::writeWidget(m_map, directory + "/corpus_map.png", m_style.background());
    } catch (const InputError &error) {
        m_status->setText(QString::fromStdString(error.what()));
        return false;
    }
    m_status->setText(tr("Wrote corpus_heads.csv, corpus_distances.npy, corpus_map.npy and "
                         "corpus_map.png to %1.")
                          .arg(directory));
    return true;
}

} // namespace headlens
