// TextInputsBox: the sentences (one sequence per line), which one to view, and cross-attention
// text.
#pragma once

#include <QGroupBox>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QSpinBox;

namespace headlens {

class Workspace;

class TextInputsBox : public QGroupBox
{
    Q_OBJECT
public:
    explicit TextInputsBox(Workspace *workspace, QWidget *parent = nullptr);

    /// Shows the workspace's values without echoing them back.
    void syncFromWorkspace();
    QWidget *fieldWidget(const QString &field) const;

private:
    void updateBatchRange();

    Workspace *m_workspace;
    QPlainTextEdit *m_text = nullptr;
    QSpinBox *m_batch = nullptr;
    QLabel *m_batchCount = nullptr;
    QCheckBox *m_cross = nullptr;
    QPlainTextEdit *m_kvText = nullptr;
};

} // namespace headlens
