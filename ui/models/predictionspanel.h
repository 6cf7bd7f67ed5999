// PredictionsPanel: the model's most probable tokens (after the text, or in each [MASK] of it) as
// labelled bars.
#pragma once

#include "model/modelrun.h"
#include "plot/plotstyle.h"

#include <QStringList>
#include <QWidget>

#include <vector>

namespace headlens {

/// Candidates for one place in the text, most probable first; `heading` names the place
/// ("t5 [MASK]") and is empty for the one place after a decoder's text.
struct PredictionGroup
{
    QString heading;
    std::vector<TokenPrediction> top;
};

/// Passive: draws what setGroups gave, a heading row over each group's bars, most probable on
/// top.
class PredictionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PredictionsPanel(QWidget *parent = nullptr);

    /// One group without a heading: a decoder's next tokens.
    void setPredictions(const std::vector<TokenPrediction> &predictions);
    void setGroups(std::vector<PredictionGroup> groups);
    void setPlotStyle(const PlotStyle &style);
    /// The tokens drawn, group after group, most probable first.
    QStringList labels() const;
    /// Every row as drawn, top to bottom: a heading, or "token  12.3 %".
    QStringList rowTexts() const;
    /// The first group's predictions.
    std::vector<TokenPrediction> predictions() const;
    const std::vector<PredictionGroup> &groups() const { return m_groups; }
    /// Height of the first group's rows: what must stay visible when the rest scrolls.
    int firstGroupHeight() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int rowHeight() const;
    int rowCount() const;

    std::vector<PredictionGroup> m_groups;
    PlotStyle m_style;
};

} // namespace headlens
