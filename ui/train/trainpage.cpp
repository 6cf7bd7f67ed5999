// TrainPage: a frameless scroll area that resizes the TrainView to its width when it can.
#include "train/trainpage.h"

#include "train/trainview.h"

namespace headlens {

TrainPage::TrainPage(QWidget *parent) : QScrollArea(parent)
{
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    m_view = new TrainView(this);
    setWidget(m_view);
}

} // namespace headlens
