// ModelPicker: a table of the cache's models filled from a pool thread, greyed where unsupported.
#include "models/modelpicker.h"
#include "model/ggufplaces.h"
#include "runner/pooledresult.h"
#include "util/bytesize.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace headlens {

namespace {

QString parametersText(int64_t count)
{
    if (count >= 1'000'000'000)
        return QString::number(double(count) / 1e9, 'f', 2) + " B";
    return count >= 1'000'000 ? QString::number(double(count) / 1e6, 'f', 1) + " M"
                              : QString::number(double(count) / 1e3, 'f', 1) + " k";
}

} // namespace

ModelPicker::ModelPicker(QWidget *parent, const QString &cache) : QDialog(parent), m_cache(cache)
{
    setWindowTitle(tr("Open model"));
    m_status = new QLabel(tr("Reading the Hugging Face cache %1 …").arg(cache), this);
    m_status->setWordWrap(true);
    m_table = new QTableWidget(0, 7, this);
    m_table->setObjectName("modelPickerTable");
    m_table->setHorizontalHeaderLabels({tr("Model"), tr("From"), tr("Architecture"),
                                        tr("Parameters"), tr("Stored as"), tr("On disk"),
                                        tr("Folder, file or reason")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_open = buttons->addButton(tr("Open"), QDialogButtonBox::AcceptRole);
    m_open->setEnabled(false);
    QPushButton *other = buttons->addButton(tr("Another folder…"), QDialogButtonBox::ActionRole);
    QPushButton *gguf = buttons->addButton(tr("A GGUF file…"), QDialogButtonBox::ActionRole);
    gguf->setObjectName("modelPickerGguf");
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(900, 420);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_open, &QPushButton::clicked, this, &ModelPicker::openSelected);
    connect(other, &QPushButton::clicked, this, &ModelPicker::chooseOtherFolder);
    connect(gguf, &QPushButton::clicked, this, &ModelPicker::chooseGgufFile);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, &ModelPicker::openSelected);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        const int row = m_table->currentRow();
        m_open->setEnabled(row >= 0 && size_t(row) < m_entries.size() &&
                           m_entries[size_t(row)].problem.empty());
    });

    m_watcher = new PooledWatcher<std::vector<CatalogEntry>>(this);
    connect(m_watcher, &QFutureWatcher<std::vector<CatalogEntry>>::finished, this,
            [this] { fill(takePooledResult(m_watcher).value_or(std::vector<CatalogEntry>())); });
    startPooled(m_watcher,
                [cache = cache.toStdString()]() -> std::optional<std::vector<CatalogEntry>> {
                    std::vector<CatalogEntry> entries = ModelCatalog::list(cache);
                    for (CatalogEntry &e : GgufPlaces::list())
                        entries.push_back(std::move(e));
                    return entries;
                });
}

void ModelPicker::fill(std::vector<CatalogEntry> entries)
{
    m_entries = std::move(entries);
    m_status->setText(m_entries.empty()
                          ? tr("No models in the Hugging Face cache (%1), nor GGUF files of "
                               "Ollama, LM Studio or llama.cpp. HeadLens downloads nothing: "
                               "choose a model folder with “Another folder…” or a file with "
                               "“A GGUF file…”.")
                                .arg(m_cache)
                          : tr("Models in the Hugging Face cache (%1) and the GGUF files of "
                               "Ollama, LM Studio and llama.cpp:")
                                .arg(m_cache));
    m_table->setRowCount(int(m_entries.size()));
    for (size_t row = 0; row < m_entries.size(); ++row) {
        const CatalogEntry &e = m_entries[row];
        const bool usable = e.problem.empty();
        const QStringList cells{
            QString::fromStdString(e.name),
            QString::fromStdString(e.source),
            QString::fromStdString(e.architecture),
            e.parameters ? parametersText(e.parameters) : QString(),
            QString::fromStdString(e.dtype),
            e.bytesOnDisk ? QString::fromStdString(formatBytes(double(e.bytesOnDisk))) : QString(),
            QString::fromStdString(usable ? e.path : e.problem)};
        for (int column = 0; column < cells.size(); ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            item->setToolTip(QString::fromStdString(usable ? e.path : e.problem));
            if (!usable)
                item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
            m_table->setItem(int(row), column, item);
        }
    }
    m_table->resizeColumnsToContents();
    emit listed();
}

void ModelPicker::openSelected()
{
    const int row = m_table->currentRow();
    if (row < 0 || size_t(row) >= m_entries.size() || !m_entries[size_t(row)].problem.empty())
        return;
    m_chosen = QString::fromStdString(m_entries[size_t(row)].path);
    accept();
}

void ModelPicker::chooseOtherFolder()
{
    const QString path = QFileDialog::getExistingDirectory(
        this, tr("Open a model folder (config.json, the safetensors weights, the tokenizer)"));
    if (path.isEmpty())
        return;
    m_chosen = path;
    accept();
}

void ModelPicker::chooseGgufFile()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a GGUF model file (llama.cpp, Ollama, LM Studio)"), QString(),
        tr("GGUF models (*.gguf);;All files (*)"));
    if (path.isEmpty())
        return;
    m_chosen = path;
    accept();
}

QString ModelPicker::choose(QWidget *parent)
{
    ModelPicker picker(parent);
    return picker.exec() == QDialog::Accepted ? picker.chosenPath() : QString();
}

} // namespace headlens
