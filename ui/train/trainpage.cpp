// TrainPage: a frameless scroll area around the two modes, resized to its width when it can.
#include "train/trainpage.h"

#include "train/languagemodelview.h"
#include "train/trainview.h"

#include <QTabWidget>

namespace headlens {

TrainPage::TrainPage(QWidget *parent) : QScrollArea(parent)
{
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    m_modes = new QTabWidget(this);
    m_modes->setObjectName("trainModes");
    m_modes->setDocumentMode(true);
    m_view = new TrainView(m_modes);
    m_languageModel = new LanguageModelView(m_modes);
    m_modes->addTab(m_view, tr("Toy task"));
    m_modes->addTab(m_languageModel, tr("Language model"));
    setWidget(m_modes);
}

} // namespace headlens
