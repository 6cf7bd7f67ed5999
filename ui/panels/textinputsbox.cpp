// TextInputsBox: every edit goes straight to the Workspace; the runner drops what it outdates.
#include "panels/textinputsbox.h"

#include "panels/wrappedlabel.h"
#include "text/tokenizer.h"
#include "workspace/workspace.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSpinBox>

namespace headlens {

namespace {

QPlainTextEdit *makeEditor(const QString &placeholder, QWidget *parent)
{
    auto *editor = new QPlainTextEdit(parent);
    editor->setPlaceholderText(placeholder);
    editor->setTabChangesFocus(true);
    editor->setFixedHeight(editor->fontMetrics().lineSpacing() * 4 + 12);
    return editor;
}

int lineCount(const QString &text)
{
    return int(Tokenizer::splitLines(text.toStdString()).size());
}

} // namespace

TextInputsBox::TextInputsBox(Workspace *workspace, QWidget *parent)
    : QGroupBox(tr("Text"), parent), m_workspace(workspace)
{
    auto *layout = new QFormLayout(this);
    layout->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_text = makeEditor(tr("Type a sentence. Each line is one sequence of the batch."), this);
    m_text->setObjectName("text");
    m_batch = new QSpinBox(this);
    m_batch->setObjectName("batch");
    m_batch->setToolTip(tr("Which sequence (line) of the batch the heatmaps show"));
    m_batchCount = new WrappedLabel(this);
    auto *batchRow = new QHBoxLayout;
    batchRow->addWidget(m_batch);
    batchRow->addWidget(m_batchCount, 1);
    m_cross = new QCheckBox(tr("Cross-attention\n(keys/values from this text):"), this);
    m_cross->setObjectName("cross");
    m_sentenceB = new QLabel(tr("Sentence B"), this);
    m_sentenceB->setObjectName("sentenceBLabel");
    m_sentenceB->setToolTip(
        tr("The pair's second segment: the model reads [CLS] A [SEP] B [SEP], with the text "
           "above as sentence A. Leave it empty to read A alone."));
    m_sentenceB->hide();
    m_kvText = makeEditor(QString(), this);
    m_kvText->setObjectName("kv_text");
    layout->addRow(m_text);
    layout->addRow(tr("Show line"), batchRow);
    layout->addRow(m_cross);
    layout->addRow(m_sentenceB);
    layout->addRow(m_kvText);

    connect(m_text, &QPlainTextEdit::textChanged, this, [this] {
        m_workspace->setText(m_text->toPlainText());
        updateBatchRange();
    });
    connect(m_kvText, &QPlainTextEdit::textChanged, this,
            [this] { m_workspace->setKvText(m_kvText->toPlainText()); });
    connect(m_cross, &QCheckBox::toggled, this, [this](bool on) {
        m_kvText->setEnabled(on || m_workspace->state().kvTextIsSentenceB);
        m_workspace->setCrossAttention(on);
    });
    connect(m_workspace, &Workspace::kvTextIsSentenceBChanged, this,
            &TextInputsBox::showSecondTextMeaning);
    connect(m_batch, &QSpinBox::valueChanged, this,
            [this](int line) { m_workspace->setBatchIndex(line - 1); });
    syncFromWorkspace();
}

void TextInputsBox::syncFromWorkspace()
{
    const auto &state = m_workspace->state();
    const QSignalBlocker b1(m_text), b2(m_kvText), b3(m_cross), b4(m_batch);
    if (m_text->toPlainText() != state.text)
        m_text->setPlainText(state.text);
    if (m_kvText->toPlainText() != state.kvText)
        m_kvText->setPlainText(state.kvText);
    m_cross->setChecked(state.crossAttention);
    showSecondTextMeaning(state.kvTextIsSentenceB);
    updateBatchRange();
    m_batch->setValue(state.batchIndex + 1);
}

void TextInputsBox::showSecondTextMeaning(bool sentenceB)
{
    m_cross->setVisible(!sentenceB);
    m_sentenceB->setVisible(sentenceB);
    m_kvText->setEnabled(sentenceB || m_workspace->state().crossAttention);
    m_kvText->setPlaceholderText(sentenceB ? tr("Sentence B, read after the text above")
                                           : tr("Keys/values text, one sequence per line"));
    m_kvText->setToolTip(sentenceB ? m_sentenceB->toolTip() : QString());
}

void TextInputsBox::updateBatchRange()
{
    const int lines = std::max(1, lineCount(m_text->toPlainText()));
    const QSignalBlocker blocker(m_batch);
    m_batch->setRange(1, lines);
    m_batchCount->setText(tr("of %n sequence(s)", nullptr, lines));
    if (m_workspace->state().batchIndex >= lines)
        m_workspace->setBatchIndex(lines - 1);
}

QWidget *TextInputsBox::fieldWidget(const QString &field) const
{
    if (field == "text")
        return m_text;
    if (field == "kv_text")
        return m_kvText;
    return nullptr;
}

} // namespace headlens
