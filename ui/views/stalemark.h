// StaleMark: a band over a picture that no longer matches the settings, saying why.
#pragma once

#include <QLabel>

namespace headlens {

/// Hidden while the picture is current. setReason() shows it with the reason the newest
/// settings could not be computed, so the last valid picture can stay on screen without being
/// mistaken for the settings now in the controls.
class StaleMark : public QLabel
{
    Q_OBJECT
public:
    explicit StaleMark(QWidget *parent = nullptr);

    /// Shows the band with `reason` (a sentence from the core); empty hides it.
    void setReason(const QString &reason);
    /// The reason shown, or empty while the picture is current.
    const QString &reason() const { return m_reason; }
    void setLook(bool dark, double fontScale);

private:
    QString m_reason;
};

} // namespace headlens
