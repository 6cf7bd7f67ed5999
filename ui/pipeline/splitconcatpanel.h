// SplitConcatPanel: the split bar with a token picker and the picked element's route.
#pragma once

#include "pipeline/splitbarwidget.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace headlens {

class SplitConcatPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SplitConcatPanel(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace, int batch);
    /// Split for the steps up to "heads first", Concat from the weighted sum on; `progress`
    /// 0 = one bar, 1 = head rows.
    void present(SplitBarWidget::Mode mode, double progress, bool animate);
    void setFontScale(double scale);
    void setDark(bool dark);
    SplitBarWidget *bar() const { return m_bar; }

private:
    void refresh();

    std::shared_ptr<const Trace> m_trace;
    int m_batch = 0;
    SplitBarWidget::Mode m_mode = SplitBarWidget::Mode::Split;
    QComboBox *m_token;
    SplitBarWidget *m_bar;
    QLabel *m_route;
};

} // namespace headlens
