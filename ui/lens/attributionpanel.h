// AttributionPanel: direct logit attribution as a layers x heads map, with each head's tokens.
#pragma once

#include "model/logitattribution.h"
#include "model/tokenpredictions.h"
#include "plot/plotstyle.h"

#include <QPoint>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

namespace headlens {

class DifferenceHeatmap;

/// Passive: the view says which position is attributed and which tokens may be (setChoices),
/// the panel asks for an attribution when the person picks a token (requested), and draws the
/// one it is given. Heads are coloured by their share of the logit on a diverging scale (red
/// pushes the token up, blue down, white nothing); the chosen head's promoted and suppressed
/// tokens are listed below the map.
class AttributionPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AttributionPanel(QWidget *parent = nullptr);

    /// The position attributed (an index into `tokens`), its label, and the tokens offered:
    /// the model's most probable there, best first. Asks for the first one (requested).
    void setChoices(int position, const QString &label,
                    const std::vector<TokenPrediction> &candidates);
    void setAttribution(std::shared_ptr<const LogitAttribution> attribution);
    /// Computing (a status line) or the sentence why there is none (the map is hidden).
    void showComputing();
    void showFailed(const QString &message);
    /// Outlines head (layer, head) and lists its tokens; -1 clears.
    void chooseHead(int layer, int head);
    void setPlotStyle(const PlotStyle &style);

    const std::shared_ptr<const LogitAttribution> &attribution() const { return m_attribution; }
    DifferenceHeatmap *map() const { return m_map; }
    QString headText() const;
    QString partsText() const;
    QString status() const;
    int chosenLayer() const { return m_layer; }
    int chosenHead() const { return m_head; }

signals:
    /// Attribute logit(token) [- logit(wrong), -1: none] at `position`.
    void requested(int position, int token, int wrong);
    /// "Show in the Heads view" for the chosen head.
    void headOpened(int layer, int head);

private:
    void request();
    void describeHead();

    std::shared_ptr<const LogitAttribution> m_attribution;
    std::vector<TokenPrediction> m_candidates;
    int m_position = -1;
    int m_layer = -1;
    int m_head = -1;
    QLabel *m_heading = nullptr;
    QComboBox *m_token = nullptr;
    QComboBox *m_wrong = nullptr;
    QLabel *m_status = nullptr;
    DifferenceHeatmap *m_map = nullptr;
    QLabel *m_parts = nullptr;
    QLabel *m_headLabel = nullptr;
    QPushButton *m_open = nullptr;
};

} // namespace headlens
