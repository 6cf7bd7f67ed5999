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
    /// The second box as sentence B of an encoder's pair, or as cross-attention keys/values.
    void showSecondTextMeaning(bool sentenceB);

    Workspace *m_workspace;
    QPlainTextEdit *m_text = nullptr;
    QSpinBox *m_batch = nullptr;
    QLabel *m_batchCount = nullptr;
    QCheckBox *m_cross = nullptr;
    QLabel *m_sentenceB = nullptr; ///< replaces m_cross while the model reads pairs
    QPlainTextEdit *m_kvText = nullptr;
};

} // namespace headlens
