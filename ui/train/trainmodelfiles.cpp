// TrainModelFiles: file names carry the task and step count, so a folder of runs stays readable.
#include "train/trainmodelfiles.h"

#include "train/toymodelfile.h"
#include "util/inputerror.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QWidget>

namespace headlens {

TrainModelFiles::TrainModelFiles(QWidget *parent)
    : QObject(parent), m_parent(parent), m_folder(QDir::homePath())
{}

void TrainModelFiles::chooseAndSave(std::shared_ptr<const TrainedModel> model)
{
    const QString name = QString("toy-%1-%2steps.npz")
                             .arg(QString::fromStdString(toString(model->settings.task)))
                             .arg(model->steps);
    QString path =
        QFileDialog::getSaveFileName(m_parent, tr("Save trained model"),
                                     QDir(m_folder).filePath(name), tr("Toy models (*.npz)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(".npz", Qt::CaseInsensitive))
        path += ".npz";
    save(path, *model);
}

void TrainModelFiles::chooseAndOpen()
{
    const QString path = QFileDialog::getOpenFileName(m_parent, tr("Open trained model"), m_folder,
                                                      tr("Toy models (*.npz)"));
    if (!path.isEmpty())
        open(path);
}

bool TrainModelFiles::save(const QString &path, const TrainedModel &model)
{
    try {
        ToyModelFile::save(path.toStdString(), model);
    } catch (const InputError &error) {
        emit message(QString::fromStdString(error.what()));
        return false;
    }
    m_folder = QFileInfo(path).absolutePath();
    emit message(tr("Saved the model after %1 steps to %2").arg(model.steps).arg(path));
    return true;
}

bool TrainModelFiles::open(const QString &path)
{
    try {
        auto model = std::make_shared<const TrainedModel>(ToyModelFile::load(path.toStdString()));
        m_folder = QFileInfo(path).absolutePath();
        emit opened(model);
    } catch (const InputError &error) {
        emit message(QString::fromStdString(error.what()));
        return false;
    }
    emit message(tr("Opened %1").arg(QFileInfo(path).fileName()));
    return true;
}

} // namespace headlens
