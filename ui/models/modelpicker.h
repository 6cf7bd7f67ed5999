// ModelPicker: File > Open model: the models already on this computer, and "another folder…".
#pragma once

#include "model/modelcatalog.h"

#include <QDialog>
#include <QFutureWatcher>

#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace headlens {

/// Lists the Hugging Face cache (ModelCatalog, read on ViewWorkPool so that a large cache
/// does not freeze the window) with each model's architecture, parameters, dtype and size on
/// disk; one that HeadLens cannot open is shown greyed with the reason. Nothing is downloaded.
class ModelPicker : public QDialog
{
    Q_OBJECT
public:
    /// `cache`: the folder to list (ModelCatalog::cacheFolder() by default).
    explicit ModelPicker(QWidget *parent = nullptr, const QString &cache = QString::fromStdString(
                                                        ModelCatalog::cacheFolder()));

    /// The folder chosen: a listed model or one picked with "Another folder…"; empty when the
    /// dialog was cancelled.
    QString chosenPath() const { return m_chosen; }
    /// The rows once listed (for tests); empty while the cache is being read.
    const std::vector<CatalogEntry> &entries() const { return m_entries; }
    QTableWidget *table() const { return m_table; }

    /// Shows the dialog and returns the chosen folder (empty: cancelled).
    static QString choose(QWidget *parent);

signals:
    void listed(); ///< the cache has been read and the table filled

private:
    void fill(std::vector<CatalogEntry> entries);
    void openSelected();
    void chooseOtherFolder();
    void chooseGgufFile();

    QString m_cache;
    QString m_chosen;
    std::vector<CatalogEntry> m_entries;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
    QPushButton *m_open = nullptr;
    QFutureWatcher<std::vector<CatalogEntry>> *m_watcher = nullptr;
};

} // namespace headlens
