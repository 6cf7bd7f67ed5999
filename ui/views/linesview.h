// LinesView: the "Lines" tab: AttentionLines with the heads to draw, scrolling for long texts.
#pragma once

#include "attention/trace.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;

namespace headlens {

class AttentionLines;
class Selection;

/// "All heads" overlays every head, one colour each; choosing a head draws it alone and pins it
/// (the Heads view opens the same head), and pinning a head elsewhere chooses it here.
class LinesView : public QWidget
{
    Q_OBJECT
public:
    explicit LinesView(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batchIndex);
    void setSelection(Selection *selection);
    void setPlotStyle(const PlotStyle &style);
    AttentionLines *lines() const { return m_lines; }
    QComboBox *heads() const { return m_heads; }

private:
    void fillHeads(int count);
    void showPinned(int head);

    AttentionLines *m_lines = nullptr;
    QComboBox *m_heads = nullptr;
    QLabel *m_hint = nullptr;
    Selection *m_selection = nullptr;
    bool m_dark = false;
};

} // namespace headlens
