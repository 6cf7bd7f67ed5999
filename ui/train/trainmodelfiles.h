// TrainModelFiles: the dialogs and messages for saving and opening trained toy models (.npz).
#pragma once

#include "train/trainedmodel.h"

#include <QObject>
#include <QString>

#include <memory>

class QWidget;

namespace headlens {

/// ToyModelFile under the window: remembers the last folder, turns InputError into a
/// message, never throws.
class TrainModelFiles : public QObject
{
    Q_OBJECT
public:
    explicit TrainModelFiles(QWidget *parent);

    /// Saves the model as it was when asked: the caller may replace its own copy while the
    /// dialog is open, so this one is held until it is written.
    void chooseAndSave(std::shared_ptr<const TrainedModel> model);
    void chooseAndOpen();
    /// Writes atomically (ToyModelFile::save); false and a message when it cannot.
    bool save(const QString &path, const TrainedModel &model);
    /// Emits opened() or message().
    bool open(const QString &path);

signals:
    void opened(std::shared_ptr<const headlens::TrainedModel> model);
    void message(const QString &text);

private:
    QWidget *m_parent;
    QString m_folder;
};

} // namespace headlens
