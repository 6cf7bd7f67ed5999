// PredictionsPanel: the model's most probable next tokens after the text, as labelled bars.
#pragma once

#include "model/modelrun.h"
#include "plot/plotstyle.h"

#include <QStringList>
#include <QWidget>

#include <vector>

namespace headlens {

/// Passive: draws what setPredictions gave, most probable on top.
class PredictionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PredictionsPanel(QWidget *parent = nullptr);

    void setPredictions(const std::vector<TokenPrediction> &predictions);
    void setPlotStyle(const PlotStyle &style);
    /// The tokens drawn, most probable first.
    QStringList labels() const;
    const std::vector<TokenPrediction> &predictions() const { return m_predictions; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    int rowHeight() const;

    std::vector<TokenPrediction> m_predictions;
    PlotStyle m_style;
};

} // namespace headlens
