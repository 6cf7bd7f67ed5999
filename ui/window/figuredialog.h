// FigureDialog: File > Export view asks what to draw, how large on paper, at which resolution.
#pragma once

#include "export/figurerequest.h"

#include <QDialog>
#include <QList>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace headlens {

/// Heads grid, one head, the model overview (when a model ran), each analysis of the model's
/// run computed so far (`analyses`: the atlas, the lens, ...) or a pipeline step; width and
/// height in cm or inches; the PNG resolution in dpi. Heads and steps are counted from 1.
class FigureDialog : public QDialog
{
    Q_OBJECT
public:
    FigureDialog(int heads, int steps, bool model, const QList<FigureRequest::Content> &analyses,
                 const FigureRequest &initial, QWidget *parent = nullptr);
    /// The words the dialog offers `content` in ("Head atlas (every head's type)").
    static QString contentName(FigureRequest::Content content);

    FigureRequest request() const;

private:
    void showContent();
    void convertUnit();
    double perInch() const;

    QComboBox *m_content;
    QLabel *m_indexLabel;
    QSpinBox *m_index;
    QDoubleSpinBox *m_width;
    QDoubleSpinBox *m_height;
    QComboBox *m_unit;
    QSpinBox *m_dpi;
    int m_heads;
    int m_steps;
    double m_perInch = 2.54; ///< the unit the sizes show now
};

} // namespace headlens
