// CellArithmeticHtml: one attention weight worked out as HTML, for the One cell panel and paper.
#pragma once

#include "attention/cellarithmetic.h"

#include <QCoreApplication>
#include <QString>

namespace headlens {

/// The numbers come from explainCell; the HTML keeps them as text (selectable, printable).
class CellArithmeticHtml
{
    Q_DECLARE_TR_FUNCTIONS(CellArithmeticHtml)

public:
    /// What to show; a printed step shows the lines that lead to it.
    enum Part
    {
        Heading = 1,        ///< "head 3: query 8 “it” → key 2 “robot”"
        DotProduct = 2,     ///< 1. q · k
        Scale = 4,          ///< 2. × the scale
        Mask = 8,           ///< 3. the mask
        Softmax = 16,       ///< 4. the softmax over the row
        Dropout = 32,       ///< 5. after dropout
        ProductsTable = 64, ///< q_j, k_j and q_j k_j for every j
        SoftmaxTable = 128, ///< the row's scores, exponentials and weights
        Everything = 255,
        TablesStacked = 256, ///< the two tables one above the other (a narrow panel)
    };

    CellArithmeticHtml(const Trace &trace, int batch, const CellArithmetic &arithmetic, bool dark);

    /// `parts` (Part flags) in one <div>; the tables side by side, the products table in
    /// `productColumns` groups of rows side by side (a d_k of 64 fits a page in four). With
    /// `maxRows` above 0 a table shows at most that many rows of numbers (the first components;
    /// the keys around the cell's) and says in a row which it leaves out: a page holds no 512
    /// components of a single head, nor the 64 keys of a long text, under a heatmap.
    QString html(int parts, double points, int productColumns = 1, int maxRows = 0) const;

private:
    QString heading() const;
    QString lines(int parts) const;
    QString productsTable(int columns, int maxRows) const;
    QString softmaxTable(int maxRows) const;

    const Trace &m_trace;
    int m_batch;
    const CellArithmetic &m_a;
    bool m_dark;
};

} // namespace headlens
