// HeadsPage: the "Heads" tab: the token strip above the heads grid and the single head beside it.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QScrollArea;

namespace headlens {

class HeadsGridView;
class Selection;
class SingleHeadView;
class TokenStrip;

/// The three views share `selection`, so hovering in one highlights the others. Bars that
/// belong to these views (the model note, the ablation effect) go in with insertBar().
class HeadsPage : public QWidget
{
    Q_OBJECT
public:
    explicit HeadsPage(Selection *selection, QWidget *parent = nullptr);

    TokenStrip *strip() const { return m_strip; }
    HeadsGridView *grid() const { return m_grid; }
    SingleHeadView *single() const { return m_single; }
    /// `bar` at row `index` of the page's column (0 = above the strip).
    void insertBar(int index, QWidget *bar);
    /// Batch item `batchIndex` of `trace` in the grid, the single head and the strip's tokens.
    void setTrace(const std::shared_ptr<const Trace> &trace, int batchIndex);
    /// The three views' style; the strip's row follows its height at the new font.
    void setPlotStyle(const PlotStyle &style);

signals:
    /// What is under the pointer in the grid or the single head (for the status bar).
    void hoverTextChanged(const QString &text);

private:
    /// The strip's row as tall as the strip at the current font (one line, no scroll bar).
    void fitStripHeight();

    TokenStrip *m_strip = nullptr;
    QScrollArea *m_stripScroll = nullptr;
    HeadsGridView *m_grid = nullptr;
    SingleHeadView *m_single = nullptr;
};

} // namespace headlens
