// FullTextComboBox: a combo box at least as wide as its longest item at the current font.
#pragma once

#include <QComboBox>

namespace headlens {

/// QComboBox keeps the minimum width it measured at the first font: after presentation mode
/// enlarged the font it cut "Induction (copy a sequence)" to "Induction (copy a", and a
/// minimum of a few characters cut "Toy model: previous-token.npz". This one measures when
/// asked, so the settings column around it widens instead. Items longer than `maxCharacters`
/// (a long model folder) are still elided: the owner's tooltip names them in full.
/// The widest item is measured once per change of the items or the font: a token picker holds
/// 1,024 entries, and layouts ask for the size several times per change.
class FullTextComboBox : public QComboBox
{
    Q_OBJECT
public:
    explicit FullTextComboBox(int maxCharacters, QWidget *parent = nullptr);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void changeEvent(QEvent *event) override;

private:
    void itemsChanged();
    int widestItem() const;

    int m_maxCharacters;
    mutable int m_widestItem = -1; ///< pixels at the current font; -1 until measured
};

} // namespace headlens
