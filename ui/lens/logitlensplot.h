// LogitLensPlot: the logit lens as stages x positions, each cell naming its top token.
#pragma once

#include "model/logitlens.h"
#include "plot/heatmapplot.h"

#include <QStringList>

#include <memory>
#include <vector>

namespace headlens {

/// Rows are the stages (the embeddings, then the stream after each layer: the last row is
/// the model's output), columns the positions read. A cell's colour is the probability of the
/// token the model finally predicts at that position (0 to 1, the same scale for every
/// model), and the cell names the stage's own top token where it is wide enough to read; the
/// tooltip lists the stage's ten most probable tokens. Clicking a column chooses its position.
class LogitLensPlot : public HeatmapPlot
{
    Q_OBJECT
public:
    explicit LogitLensPlot(QWidget *parent = nullptr);

    /// `tokens` labels every position of the text (lens.positions index into it).
    void setLens(std::shared_ptr<const LogitLens> lens, const std::vector<std::string> &tokens);
    const std::shared_ptr<const LogitLens> &lens() const { return m_lens; }
    /// The tooltip of cell (stage, column): its top tokens with their probabilities.
    QString cellToolTip(int stage, int column) const;

signals:
    /// A cell was clicked: the position (index into the text) of its column.
    void positionChosen(int position);

private:
    std::shared_ptr<const LogitLens> m_lens;
};

} // namespace headlens
