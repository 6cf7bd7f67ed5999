// HandoutWriter: the whole walk-through as one PDF laid out for paper (title page, a page a step).
#pragma once

#include "model/headatlas.h"
#include "print/cellchoice.h"
#include "print/printsource.h"

#include <QPageLayout>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace headlens {

struct LaidOutPage;

/// A4 or US Letter, portrait or landscape (headlens --page, --landscape).
struct PageSetup
{
    QPageSize::PageSizeId size = QPageSize::A4;
    QPageLayout::Orientation orientation = QPageLayout::Portrait;

    QPageLayout layout() const;
};

/// Draws every page itself (TitlePage, StepPage) with the views' own drawing code and no
/// widgets' controls: a title page, then one page per step of the trace, each with the page
/// number and the settings in its footer. Text stays text, heatmaps are vectors, fonts are
/// embedded. Needs a QApplication (QT_QPA_PLATFORM=offscreen is enough).
class HandoutWriter
{
public:
    HandoutWriter(std::shared_ptr<const Trace> trace, std::shared_ptr<const TraceAnalysis> analysis,
                  int batch, PlotStyle style);

    void setPage(const PageSetup &page) { m_page = page; }
    /// The cell the one-cell pages work out; without one, the strongest weight of head 1.
    void setCell(const CellChoice &cell) { m_cell = cell; }
    /// A last page with the head atlas of `model` (AtlasPage); null: none.
    void setAtlas(std::shared_ptr<const HeadAtlas> atlas, const QString &model)
    {
        m_atlas = std::move(atlas);
        m_atlasModel = model;
    }

    /// Called after each page with the pages painted so far and the total; returning false
    /// stops the handout. A window shows progress here and gives the event loop a turn: a
    /// page takes a tenth of a second, a long handout seconds.
    using PagePainted = std::function<bool(int painted, int pages)>;
    void setProgress(PagePainted progress) { m_progress = std::move(progress); }

    /// Writes the handout; returns the number of pages written (steps + 1, + 1 with an atlas), or
    /// 0 when the
    /// progress callback stopped it (then whatever was at `path` is left as it was). Throws
    /// InputError. `laidOut`, when given, gets where each page put its blocks, its heatmaps
    /// and its footer.
    int write(const QString &path, std::vector<LaidOutPage> *laidOut = nullptr) const;

    /// The title page's lines: the text, the sizes and the settings.
    QStringList settingsLines() const;

private:
    PrintSource source() const;

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const TraceAnalysis> m_analysis;
    int m_batch = 0;
    PlotStyle m_style;
    PageSetup m_page;
    std::optional<CellChoice> m_cell;
    std::shared_ptr<const HeadAtlas> m_atlas;
    QString m_atlasModel;
    PagePainted m_progress;
};

} // namespace headlens
