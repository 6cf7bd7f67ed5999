// PredictionsBox: what the model predicts from the text: the next token after a decoder's text,
// the fillers of each mask in an encoder's.
#pragma once

#include "model/modelrun.h"
#include "plot/plotstyle.h"

#include <QWidget>

#include <memory>

class QLabel;
class QScrollArea;

namespace headlens {

class PredictionsPanel;

/// A title (with the encoder's note or hint under it) over a PredictionsPanel that scrolls
/// when several masks do not fit. Passive: setRun() fills both.
class PredictionsBox : public QWidget
{
    Q_OBJECT
public:
    /// Fillers listed per mask (the MLM head's top five, as BertViz and the HF widget show).
    static constexpr int kFillers = 5;

    explicit PredictionsBox(QWidget *parent = nullptr);

    void setRun(const ModelRun &run);
    void setPlotStyle(const PlotStyle &style);
    PredictionsPanel *panel() const { return m_panel; }
    /// The title and, for an encoder, the note or hint under it (rich text).
    QString title() const;

private:
    void showFills(const ModelRun &run);
    void fitScrollArea();

    QLabel *m_title = nullptr;
    QScrollArea *m_scroll = nullptr;
    PredictionsPanel *m_panel = nullptr;
};

} // namespace headlens
