// LayerShapeBox: spin boxes and sliders kept in step; the Workspace holds the truth.
#include "panels/layershapebox.h"

#include "panels/wrappedlabel.h"
#include "workspace/workspace.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

namespace headlens {

LayerShapeBox::LayerShapeBox(Workspace *workspace, QWidget *parent)
    : QGroupBox(tr("Layer"), parent), m_workspace(workspace)
{
    auto *form = new QFormLayout(this);
    auto spin = [this](const char *name, int lo, int hi, const QString &tip) {
        auto *box = new QSpinBox(this);
        box->setObjectName(name);
        box->setRange(lo, hi);
        box->setToolTip(tip);
        box->setAccelerated(true);
        return box;
    };
    m_dModel = spin("d_model", 1, 4096, tr("Width of each token vector (d_model)"));
    m_dModelSlider = new QSlider(Qt::Horizontal, this);
    m_dModelSlider->setRange(1, 1024);
    m_heads =
        spin("heads", 1, 64,
             tr("Query heads h: how many attention patterns the layer computes side by side."));
    m_headsSlider = new QSlider(Qt::Horizontal, this);
    m_headsSlider->setRange(1, 32);
    m_tied = new QCheckBox(tr("d_k = d_v = d_model / h"), this);
    m_tied->setObjectName("tied");
    m_dK = spin("d_k", 1, 4096, tr("Query/key width per head"));
    m_dV = spin("d_v", 1, 4096, tr("Value width per head"));
    m_perHead = new WrappedLabel(this);
    m_seed = spin("seed", 0, 999999999, tr("Seed of the random weights"));
    m_newSeed = new QPushButton(tr("New seed"), this);
    auto *seedRow = new QHBoxLayout;
    seedRow->addWidget(m_seed, 1);
    seedRow->addWidget(m_newSeed);
    auto *dkRow = new QHBoxLayout;
    dkRow->addWidget(new QLabel("d_k", this));
    dkRow->addWidget(m_dK, 1);
    dkRow->addWidget(new QLabel("d_v", this));
    dkRow->addWidget(m_dV, 1);
    form->addRow("d_model", spinWithSlider(m_dModel, m_dModelSlider));
    form->addRow(tr("heads"), spinWithSlider(m_heads, m_headsSlider));
    form->addRow(tr("K/V heads"), kvHeadsRow());
    form->addRow(m_tied);
    form->addRow(dkRow);
    form->addRow(m_perHead);
    form->addRow(tr("seed"), seedRow);

    connect(m_dModel, &QSpinBox::valueChanged, this,
            [this](int v) { edit([v](AttentionConfig &c) { c.dModel = v; }); });
    connect(m_heads, &QSpinBox::valueChanged, this,
            [this](int v) { edit([v](AttentionConfig &c) { c.heads = v; }); });
    connect(m_tied, &QCheckBox::toggled, this, [this](bool on) {
        edit([on](AttentionConfig &c) {
            if (!on && c.tied && c.heads > 0 && c.dModel % c.heads == 0)
                c.dK = c.dV = c.dModel / c.heads; // untie from where it was
            c.tied = on;
        });
    });
    connect(m_dK, &QSpinBox::valueChanged, this,
            [this](int v) { edit([v](AttentionConfig &c) { c.dK = v; }); });
    connect(m_dV, &QSpinBox::valueChanged, this,
            [this](int v) { edit([v](AttentionConfig &c) { c.dV = v; }); });
    connect(m_seed, &QSpinBox::valueChanged, this,
            [this](int v) { edit([v](AttentionConfig &c) { c.seed = uint64_t(v); }); });
    connect(m_newSeed, &QPushButton::clicked, this,
            [this] { m_seed->setValue(int(QRandomGenerator::global()->bounded(1000000))); });
    syncFromWorkspace();
}

QLayout *LayerShapeBox::spinWithSlider(QSpinBox *spin, QSlider *slider)
{
    connect(slider, &QSlider::valueChanged, spin, &QSpinBox::setValue);
    connect(spin, &QSpinBox::valueChanged, slider, [slider](int v) {
        const QSignalBlocker blocker(slider);
        slider->setValue(v);
    });
    auto *row = new QHBoxLayout;
    row->addWidget(spin);
    row->addWidget(slider, 1);
    return row;
}

QLayout *LayerShapeBox::kvHeadsRow()
{
    m_kvHeads = new QSpinBox(this);
    m_kvHeads->setObjectName("kv_heads");
    m_kvHeads->setRange(1, 64);
    m_kvHeads->setToolTip(
        tr("Key/value heads h_kv: each is shared by h / h_kv query heads (h_kv "
           "= h is multi-head, 1 multi-query, between grouped-query attention)."));
    m_kvGroups = new WrappedLabel(this);
    // h_kv = h is stored as 0 ("as many as heads"), so multi-head attention stays multi-head
    // when the head count changes.
    connect(m_kvHeads, &QSpinBox::valueChanged, this,
            [this](int v) { edit([v](AttentionConfig &c) { c.kvHeads = v == c.heads ? 0 : v; }); });
    auto *row = new QHBoxLayout;
    row->addWidget(m_kvHeads);
    row->addWidget(m_kvGroups, 1);
    return row;
}

void LayerShapeBox::edit(const std::function<void(AttentionConfig &)> &change)
{
    AttentionConfig config = m_workspace->state().config;
    change(config);
    m_workspace->setConfig(config);
}

void LayerShapeBox::syncFromWorkspace()
{
    const AttentionConfig &c = m_workspace->state().config;
    const QSignalBlocker b1(m_dModel), b2(m_heads), b3(m_tied), b4(m_dK), b5(m_dV), b6(m_seed),
        b7(m_dModelSlider), b8(m_headsSlider), b9(m_kvHeads);
    m_dModel->setValue(c.dModel);
    m_dModelSlider->setValue(c.dModel);
    m_heads->setValue(c.heads);
    m_headsSlider->setValue(c.heads);
    syncKvHeads(c);
    m_tied->setChecked(c.tied);
    m_dK->setEnabled(!c.tied);
    m_dV->setEnabled(!c.tied);
    m_dK->setValue(c.tied && c.heads > 0 ? c.dModel / c.heads : c.dK);
    m_dV->setValue(c.tied && c.heads > 0 ? c.dModel / c.heads : c.dV);
    m_seed->setValue(int(std::min<uint64_t>(c.seed, 999999999u)));
    const bool even = c.heads > 0 && c.dModel % c.heads == 0;
    m_perHead->setText(c.tied ? (even ? tr("each head: d_k = %1/%2 = %3")
                                            .arg(c.dModel)
                                            .arg(c.heads)
                                            .arg(c.dModel / c.heads)
                                      : tr("d_model / h is not whole"))
                              : tr("h·d_v = %1 → W_O maps it back to d_model").arg(c.heads * c.dV));
}

void LayerShapeBox::syncKvHeads(const AttentionConfig &c)
{
    const int kv = c.kvHeadCount();
    m_kvHeads->setValue(kv);
    if (kv <= 0 || c.heads % kv != 0)
        m_kvGroups->setText(tr("must divide %1").arg(c.heads));
    else if (kv == c.heads)
        m_kvGroups->setText(tr("one per head: multi-head"));
    else if (kv == 1)
        m_kvGroups->setText(tr("all %1 share one: multi-query").arg(c.heads));
    else
        m_kvGroups->setText(tr("%1 heads share each: GQA").arg(c.heads / kv));
}

QWidget *LayerShapeBox::fieldWidget(const QString &field) const
{
    if (field == "d_model" || field == "d_in")
        return m_dModel;
    if (field == "heads")
        return m_heads;
    if (field == "kv_heads")
        return m_kvHeads;
    if (field == "d_k")
        return m_dK;
    if (field == "d_v")
        return m_dV;
    return nullptr;
}

} // namespace headlens
