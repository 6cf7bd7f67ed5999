// PredictionsPair: model A's and model B's next tokens side by side, as the Compare tab lists them.
#pragma once

#include "model/modelrun.h"

#include <QTableWidget>

namespace headlens {

/// One row per rank: A's token and probability, then B's, each token with its rank among all
/// of the other model's next tokens, so what quantization or fine-tuning moved is read along a
/// row. Passive: setRuns() fills it.
class PredictionsPair : public QTableWidget
{
    Q_OBJECT
public:
    static constexpr int kRanks = 5;

    explicit PredictionsPair(QWidget *parent = nullptr);

    /// A's and B's topNext (decoders); empty and hidden when either has none (an encoder).
    void setRuns(const ModelRun &a, const ModelRun &b);
    QSize sizeHint() const override;
};

} // namespace headlens
