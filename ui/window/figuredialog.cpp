// FigureDialog: a form; the sizes follow the unit, the number follows what is drawn.
#include "window/figuredialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace headlens {

namespace {

using Content = FigureRequest::Content;

QDoubleSpinBox *sizeBox(QWidget *parent)
{
    auto *box = new QDoubleSpinBox(parent);
    box->setDecimals(2);
    box->setRange(0.5, 100.0);
    box->setSingleStep(0.5);
    return box;
}

} // namespace

FigureDialog::FigureDialog(int heads, int steps, bool model, const QList<Content> &analyses,
                           const FigureRequest &initial, QWidget *parent)
    : QDialog(parent), m_heads(std::max(heads, 1)), m_steps(std::max(steps, 1))
{
    setWindowTitle(tr("Export a figure"));
    auto *form = new QFormLayout(this);
    m_content = new QComboBox(this);
    QList<Content> offered{Content::Heads, Content::Head};
    if (model)
        offered << Content::Model << analyses;
    offered << Content::Step;
    for (const Content content : offered)
        m_content->addItem(contentName(content), int(content));
    m_content->setCurrentIndex(std::max(0, m_content->findData(int(initial.content))));
    m_indexLabel = new QLabel(this);
    m_index = new QSpinBox(this);
    m_width = sizeBox(this);
    m_height = sizeBox(this);
    m_unit = new QComboBox(this);
    m_unit->addItem(tr("cm"), 2.54);
    m_unit->addItem(tr("in"), 1.0);
    m_dpi = new QSpinBox(this);
    m_dpi->setRange(30, 2400);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setValue(initial.dpi);
    m_dpi->setToolTip(tr("PNG only: the image is (size in inches × dpi) pixels and says its dpi"));
    form->addRow(tr("Draw"), m_content);
    form->addRow(m_indexLabel, m_index);
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    form->addRow(tr("Unit"), m_unit);
    form->addRow(tr("Resolution (PNG)"), m_dpi);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    const QSizeF size = initial.size();
    m_width->setValue(size.width() * m_perInch);
    m_height->setValue(size.height() * m_perInch);
    showContent();
    m_index->setValue(initial.index + 1);
    connect(m_content, &QComboBox::currentIndexChanged, this, &FigureDialog::showContent);
    connect(m_unit, &QComboBox::currentIndexChanged, this, &FigureDialog::convertUnit);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QString FigureDialog::contentName(Content content)
{
    switch (content) {
    case Content::Heads:
        return tr("Grid of heads");
    case Content::Head:
        return tr("One head");
    case Content::Model:
        return tr("Model overview (every layer × head)");
    case Content::Step:
        return tr("Pipeline step (as on the handout)");
    case Content::Atlas:
        return tr("Head atlas (every head's type)");
    case Content::Lens:
        return tr("Logit lens (each layer's top token)");
    case Content::Rollout:
        return tr("Attention rollout (through each layer)");
    case Content::Attribution:
        return tr("Direct logit attribution (every head)");
    case Content::Circuits:
        return tr("QK and OV circuits of the head");
    }
    return {};
}

void FigureDialog::showContent()
{
    const auto content = Content(m_content->currentData().toInt());
    const bool head = content == Content::Head;
    const bool numbered = head || content == Content::Step;
    m_indexLabel->setText(head ? tr("Head") : tr("Step"));
    m_indexLabel->setVisible(numbered);
    m_index->setVisible(numbered);
    m_index->setRange(1, head ? m_heads : m_steps);
}

double FigureDialog::perInch() const
{
    return m_unit->currentData().toDouble();
}

void FigureDialog::convertUnit()
{
    const double factor = perInch() / m_perInch;
    m_perInch = perInch();
    m_width->setValue(m_width->value() * factor);
    m_height->setValue(m_height->value() * factor);
}

FigureRequest FigureDialog::request() const
{
    FigureRequest request;
    request.content = Content(m_content->currentData().toInt());
    request.index = m_index->value() - 1;
    request.inches = QSizeF(m_width->value() / m_perInch, m_height->value() / m_perInch);
    request.dpi = m_dpi->value();
    return request;
}

} // namespace headlens
