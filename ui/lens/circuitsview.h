// CircuitsView: the Circuits tab: what one head reads (QK) and what it writes (OV), by token.
#pragma once

#include "lens/runanalysisview.h"
#include "model/headcircuits.h"
#include "plot/plotstyle.h"

#include <QStringList>
#include <QWidget>

#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;

namespace headlens {

class DifferenceHeatmap;
class LayerHeadChoice;

/// The chosen head's QK circuit (which key token each query token prefers, through the
/// embeddings alone) and OV circuit (what attending to a token adds to each token's logit,
/// through the embeddings and the unembedding) on the text's tokens, both circuits' singular
/// values, the copying score (Elhage et al. 2021), and what grouped-query attention and RoPE
/// mean for them. Computed off the UI thread for the head chosen, when the tab is shown; the
/// model as opened (ablations change the run, not the weights).
class CircuitsView : public RunAnalysisView
{
    Q_OBJECT

public:
    explicit CircuitsView(QWidget *parent = nullptr);

    /// Reads head (layer, head)'s circuits, as the combo boxes do (and a head pinned elsewhere).
    void chooseHead(int layer, int head);
    void setPlotStyle(const PlotStyle &style);

    DifferenceHeatmap *qkPlot() const { return m_qk; }
    DifferenceHeatmap *ovPlot() const { return m_ov; }
    QCustomPlot *singularValuesPlot() const { return m_values; }
    QComboBox *layerChoice() const;
    QComboBox *headChoice() const;
    const std::shared_ptr<const HeadCircuits> &circuits() const { return m_circuits; }
    QString status() const;
    /// The sentences under the choices: the copying score, K/V sharing, RoPE's note.
    QString notes() const;
    /// The strongest query -> key pairs and the tokens each text token raises.
    QString tokenLists() const;

    /// The maps drawn (rows and columns the text's distinct tokens, at most kMaxTokens).
    RowMatrix qkShown() const;
    RowMatrix ovShown() const;
    QStringList tokensShown() const;

    /// The maps show the text's first distinct tokens, so that each cell can be read.
    static constexpr int kMaxTokens = HeadCircuits::kMapTokens;
    /// The query -> key pairs listed, over every token read (the text's and the stories').
    static constexpr int kListedPairs = 8;

protected:
    void runChanged() override;
    void start() override;

private:
    void setCircuits(std::shared_ptr<const HeadCircuits> circuits);
    void draw();
    void drawSingularValues();
    /// How many of circuits()'s tokens (the first ones) are the text's, at most kMaxTokens.
    int textTokens() const;

    std::shared_ptr<const HeadCircuits> m_circuits;
    QLabel *m_status = nullptr;
    LayerHeadChoice *m_choice = nullptr;
    QLabel *m_notes = nullptr;
    DifferenceHeatmap *m_qk = nullptr;
    DifferenceHeatmap *m_ov = nullptr;
    QCustomPlot *m_values = nullptr;
    QLabel *m_lists = nullptr;
    PlotStyle m_style;
};

} // namespace headlens
