// tst_positionalencoding: sinusoidal values from Vaswani et al. 3.5, random and empty tables.
#include "attention/positionalencoding.h"

#include "approx.h"
#include "testmain.h"

#include <QTest>

#include <cmath>

using headlens::PositionalEncoding;
using headlens::PositionTable;
using headlens::RowMatrix;

class tst_PositionalEncoding : public QObject
{
    Q_OBJECT

private slots:
    void sinusoidal_data();
    void sinusoidal();
    void randomTable();
    void randomSeeds();
    void none();
};

void tst_PositionalEncoding::sinusoidal_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("pos");
    QTest::addColumn<QList<double>>("expected");

    // 10000^(2/4) = 100; 10000^(2/6) = 21.5443469; 10000^(4/6) = 464.158883;
    // 10000^(2/5) = 39.8107171; 10000^(4/5) = 1584.89319.
    QTest::newRow("pos 0") << 4 << 0 << QList<double>{0, 1, 0, 1};
    QTest::newRow("pos 1, width 4")
        << 4 << 1 << QList<double>{std::sin(1.0), std::cos(1.0), std::sin(0.01), std::cos(0.01)};
    QTest::newRow("pos 2, width 6") << 6 << 2
                                    << QList<double>{std::sin(2.0),
                                                     std::cos(2.0),
                                                     std::sin(2 / 21.5443469),
                                                     std::cos(2 / 21.5443469),
                                                     std::sin(2 / 464.158883),
                                                     std::cos(2 / 464.158883)};
    QTest::newRow("odd width ends with a sine")
        << 5 << 3
        << QList<double>{std::sin(3.0), std::cos(3.0), std::sin(3 / 39.8107171),
                         std::cos(3 / 39.8107171), std::sin(3 / 1584.89319)};
    QTest::newRow("far position, width 2")
        << 2 << 5000 << QList<double>{std::sin(5000.0), std::cos(5000.0)};
}

void tst_PositionalEncoding::sinusoidal()
{
    QFETCH(int, width);
    QFETCH(int, pos);
    QFETCH(QList<double>, expected);
    const RowMatrix table = PositionTable::make(PositionalEncoding::Sinusoidal, pos + 1, width, 9);
    QCOMPARE(table.rows(), pos + 1);
    QCOMPARE(table.cols(), width);
    for (int i = 0; i < width; ++i)
        HL_COMPARE_NEAR(table(pos, i), expected[i], 1e-6, 1e-6);
}

void tst_PositionalEncoding::randomTable()
{
    const int n = 400, width = 500;
    const RowMatrix table = PositionTable::make(PositionalEncoding::Random, n, width, 11);
    QCOMPARE(table.rows(), n);
    QCOMPARE(table.cols(), width);
    const double bound = std::sqrt(3.0);
    QVERIFY(table.minCoeff() >= -bound);
    QVERIFY(table.maxCoeff() < bound);
    const double mean = table.cast<double>().mean();
    const double variance = (table.cast<double>().array() - mean).square().mean();
    // 200000 values: standard errors about 0.002 for both.
    HL_COMPARE_NEAR(mean, 0.0, 0.0, 0.01);
    HL_COMPARE_NEAR(variance, 1.0, 0.0, 0.01);
    QVERIFY(table.row(0) != table.row(1));
    // Row pos does not depend on how many rows were asked for.
    QVERIFY(PositionTable::make(PositionalEncoding::Random, 3, width, 11).row(2) == table.row(2));
}

void tst_PositionalEncoding::randomSeeds()
{
    const RowMatrix a = PositionTable::make(PositionalEncoding::Random, 4, 8, 1);
    QVERIFY(a == PositionTable::make(PositionalEncoding::Random, 4, 8, 1));
    const RowMatrix b = PositionTable::make(PositionalEncoding::Random, 4, 8, 2);
    QVERIFY((a.array() != b.array()).all());
}

void tst_PositionalEncoding::none()
{
    const RowMatrix table = PositionTable::make(PositionalEncoding::None, 3, 5, 1);
    QCOMPARE(table.rows(), 3);
    QCOMPARE(table.cols(), 5);
    QVERIFY(table.isZero(0.0f));
}

HEADLENS_TEST_APPLESS_MAIN(tst_PositionalEncoding)
#include "tst_positionalencoding.moc"
