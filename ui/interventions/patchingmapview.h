// PatchingMapView: which heads carry the answer: a clean text patched head by head into another.
#pragma once

#include "model/patchingmap.h"
#include "plot/plotstyle.h"
#include "session/rankingrequest.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace headlens {

class PositionPatchPlot;
class RankingHeatmap;

/// Two texts of the same token length (the model's tokenizer decides; the core says so when
/// they differ), two one-token answers, a direction, and the fraction of logit(answer) -
/// logit(wrong) each head's patched output restores (clean into corrupted) or removes
/// (corrupted into clean); below it the strongest head patched one position at a time. Above
/// the map a line names the two runs, their texts and metrics: the corrupted run is the map's
/// alone, the other tabs keep the workspace's text. Passive like HeadImportanceView.
class PatchingMapView : public QWidget
{
    Q_OBJECT
public:
    explicit PatchingMapView(QWidget *parent = nullptr);

    void setPatching(std::shared_ptr<const PatchingMap> patching);
    void setPlotStyle(const PlotStyle &style);
    /// Wang et al. 2022's indirect-object example is offered while a GPT-2 is open.
    void setExampleAvailable(bool available);
    /// Fills the boxes with that example.
    void fillIndirectObjectExample();
    /// Fills the boxes with `request`'s clean text, answers and direction, and `corrupted`
    /// (headlens --patch-from, --answer, --wrong, --patch-direction and --text).
    void fill(const RankingRequest &request, const QString &corrupted);
    /// The boxes as a request: the clean and corrupted texts (an empty corrupted box: the
    /// workspace's text), the answers and the direction.
    RankingRequest request() const;
    QString corrupted() const;
    RankingHeatmap *heatmap() const { return m_heatmap; }
    PositionPatchPlot *positions() const { return m_positions; }
    QPushButton *computeButton() const { return m_compute; }
    QPushButton *exampleButton() const { return m_example; }
    const std::shared_ptr<const PatchingMap> &patching() const { return m_patching; }

signals:
    void computeRequested();

private:
    std::shared_ptr<const PatchingMap> m_patching;
    /// The texts of the last Compute, which the map delivered next is of.
    QString m_askedClean, m_askedCorrupted;
    QLabel *m_runs = nullptr;
    QLineEdit *m_clean = nullptr;
    QLineEdit *m_corrupted = nullptr;
    QLineEdit *m_answer = nullptr;
    QLineEdit *m_wrong = nullptr;
    QComboBox *m_direction = nullptr;
    QPushButton *m_compute = nullptr;
    QPushButton *m_example = nullptr;
    RankingHeatmap *m_heatmap = nullptr;
    PositionPatchPlot *m_positions = nullptr;
};

} // namespace headlens
