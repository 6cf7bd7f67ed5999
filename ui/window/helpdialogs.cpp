// HelpDialogs: rich-text message boxes; versions come from the libraries' own macros.
#include "window/helpdialogs.h"

#include <qcustomplot.h>

#include <Eigen/Core>
#include <QMessageBox>

namespace headlens {

void HelpDialogs::about(QWidget *parent)
{
    QMessageBox::about(
        parent, QObject::tr("About HeadLens"),
        QObject::tr("<h3>HeadLens %1</h3><p>Multi-head attention, visible: type a sentence and see "
                    "what every head attends to.</p><p>Qt %2 · QCustomPlot %3 · Eigen %4.%5.%6</p>")
            .arg(HEADLENS_VERSION, qVersion(), QCUSTOMPLOT_VERSION_STR)
            .arg(EIGEN_WORLD_VERSION)
            .arg(EIGEN_MAJOR_VERSION)
            .arg(EIGEN_MINOR_VERSION));
}

void HelpDialogs::shortcuts(QWidget *parent)
{
    const char *rows[][2] = {
        {"Ctrl+O", "Open workspace"},
        {"Ctrl+S / Ctrl+Shift+S", "Save workspace / save as"},
        {"Ctrl+Shift+O", "Open weights (.npz)"},
        {"Ctrl+E", "Export view as PNG, SVG or PDF"},
        {"Ctrl+Shift+E", "Export tensors"},
        {"Ctrl++ / Ctrl+- / Ctrl+0", "Zoom in / out / normal"},
        {"F5", "Presentation mode (it starts without the Controls)"},
        {"F4", "Show or hide the Controls"},
        {"Esc", "Close the large head view"},
        {"F1", "This list"},
        {"Ctrl+Q", "Quit"},
    };
    QString html = "<table cellpadding='4'>";
    for (const auto &row : rows)
        html += QString("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(row[0], row[1]);
    html += "</table><p>Hover a cell to read its weight; click a head to open it large.</p>";
    QMessageBox::information(parent, QObject::tr("Keyboard shortcuts"), html);
}

} // namespace headlens
