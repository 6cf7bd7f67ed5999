// SplitConcatPanel: the split bar with a token picker and the picked element's route.
#pragma once

#include "steps/splitbarwidget.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace headlens {

class KvGroupDiagram;

/// With grouped-query attention (h_kv < h) a second bar shows k or v cut into its h_kv K/V
/// heads under q's h, at the same cell width; on the repeat step the bars give way to the
/// picture of each K/V head fanning out to its query heads.
class SplitConcatPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SplitConcatPanel(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batch);
    /// Lets the trace go while the Pipeline tab is hidden and a newer one waits (PipelineView);
    /// draws nothing until the next setTrace.
    void releaseTrace();
    std::shared_ptr<const Trace> trace() const { return m_trace; }
    /// Split for the steps up to "heads first", Concat from the weighted sum on; `progress`
    /// 0 = one bar, 1 = head rows.
    void present(SplitBarWidget::Mode mode, double progress, bool animate);
    /// The repeat step: the K/V groups picture instead of the bars.
    void presentRepeat();
    void setFontScale(double scale);
    void setDark(bool dark);
    SplitBarWidget *bar() const { return m_bar; }
    /// k's (or v's) bar, shown under q's when query heads share K/V heads.
    SplitBarWidget *kvBar() const { return m_kvBar; }
    KvGroupDiagram *groupDiagram() const { return m_diagram; }

private:
    void buildKvRow();
    void refresh();
    void updateVisibility();
    bool grouped() const;

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    SplitBarWidget::Mode m_mode = SplitBarWidget::Mode::Split;
    bool m_repeat = false;
    QWidget *m_tokenRow;
    QComboBox *m_token;
    SplitBarWidget *m_bar;
    QWidget *m_kvRow;
    QComboBox *m_kvChoice;
    SplitBarWidget *m_kvBar;
    KvGroupDiagram *m_diagram;
    QLabel *m_route;
};

} // namespace headlens
