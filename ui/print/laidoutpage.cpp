// LaidOutPage: a sheet's panels read back as the cells they drew.
#include "print/laidoutpage.h"

#include "print/heatmapsheet.h"

namespace headlens {

void LaidOutPage::addSheet(const HeatmapSheet &sheet, const QRectF &drawn)
{
    addBlock("sheet", drawn);
    const std::vector<SheetPanel> &panels = sheet.content().panels;
    for (size_t i = 0; i < sheet.cellAreas().size() && i < panels.size(); ++i)
        heatmaps.push_back(
            {sheet.cellAreas()[i], int(panels[i].pooled.rows()), int(panels[i].pooled.cols())});
}

} // namespace headlens
