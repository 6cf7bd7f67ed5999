// TitlePage: the handout's first page: the text, the settings, the date, the heads' colours.
#pragma once

#include "print/printsource.h"

#include <QCoreApplication>
#include <QDate>
#include <QRectF>
#include <QStringList>

class QCPPainter;

namespace headlens {

struct LaidOutPage;

/// Also a list of the steps with their pages and every head's weights at a glance, so the page
/// is used to its foot.
class TitlePage
{
    Q_DECLARE_TR_FUNCTIONS(TitlePage)

public:
    explicit TitlePage(PrintSource source, QDate date = QDate::currentDate());

    /// The text (one line per sequence), the sizes and the settings.
    QStringList settingsLines() const;
    /// The settings in one line, for every page's footer.
    QString footerLine() const;
    /// `firstStepPage`: the page number of step 1; `laidOut`, when given, gets every block.
    void paint(QCPPainter &painter, const QRectF &body, int firstStepPage,
               LaidOutPage *laidOut = nullptr) const;

private:
    double paintColours(QCPPainter &painter, const QRectF &rect) const;
    double paintContents(QCPPainter &painter, const QRectF &rect, int firstStepPage) const;

    PrintSource m_source;
    QDate m_date;
};

} // namespace headlens
