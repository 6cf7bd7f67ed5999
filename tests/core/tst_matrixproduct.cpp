// Tests of assignProduct, addProduct and assignColumnSplitProduct: each backend against float64.
#include "approx.h"

#include "coremetatypes.h"
#include "linalg/blaslibrary.h"
#include "tensor/columnsplitproduct.h"
#include "tensor/tensor.h"
#include "testmain.h"
#include "util/counterrandom.h"

#include <QTest>

#include <omp.h>

using namespace headlens;

Q_DECLARE_METATYPE(headlens::Operand)

namespace {

/// Whole numbers in [-3, 3] (`exact`) or uniform in [-1, 1): with whole numbers every partial sum
/// of these sizes is an integer below 2^24, so every backend's float result must be exact.
RowMatrix values(int64_t rows, int64_t cols, uint64_t seed, bool exact)
{
    const CounterRandom random(seed, 3);
    RowMatrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        const double u = random.uniform(uint64_t(i));
        m.data()[i] = exact ? float(std::floor(u * 7.0) - 3.0) : float(2.0 * u - 1.0);
    }
    return m;
}

/// a op(b) summed in double by the textbook loop: independent of Eigen and of every BLAS.
Eigen::MatrixXd reference(const RowMatrix &a, const RowMatrix &b, Operand op)
{
    const bool t = op == Operand::Transposed;
    const Eigen::Index n = t ? b.rows() : b.cols();
    Eigen::MatrixXd c = Eigen::MatrixXd::Zero(a.rows(), n);
    for (Eigen::Index i = 0; i < a.rows(); ++i)
        for (Eigen::Index j = 0; j < n; ++j)
            for (Eigen::Index p = 0; p < a.cols(); ++p)
                c(i, j) += double(a(i, p)) * double(t ? b(j, p) : b(p, j));
    return c;
}

/// Every element within float rounding of a k-term sum of products of values below 1.
QByteArray mismatch(const RowMatrix &actual, const Eigen::MatrixXd &expected, bool exact)
{
    const RowMatrix wanted = expected.cast<float>();
    const double abs = exact ? 0.0 : 1e-6 * std::max<double>(1.0, double(expected.cols()));
    return test::elementsMismatch(actual.data(), wanted.data(), actual.size(), exact ? 0.0 : 1e-5,
                                  abs);
}

} // namespace

class TestMatrixProduct : public QObject
{
    Q_OBJECT

private slots:
    void productMatchesReference_data();
    void productMatchesReference();
    void stridedBlocks_data();
    void stridedBlocks();
    void columnSplitMatchesReference_data();
    void columnSplitMatchesReference();
    void emptyDepthGivesZeros_data();
    void emptyDepthGivesZeros();
    void addedProductMatchesReference_data();
    void addedProductMatchesReference();
    void emptyDepthAddsNothing_data();
    void emptyDepthAddsNothing();
};

namespace {

void addBackendRows(const std::function<void(const char *, GemmBackend)> &add)
{
    add("eigen", GemmBackend::Eigen);
    add("openblas", GemmBackend::OpenBlas);
    add("blis", GemmBackend::Blis);
}

} // namespace

void TestMatrixProduct::productMatchesReference_data()
{
    QTest::addColumn<GemmBackend>("backend");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("k");
    QTest::addColumn<Operand>("op");
    QTest::addColumn<bool>("exact");
    addBackendRows([](const char *name, GemmBackend backend) {
        auto row = [&](const char *shape, int m, int n, int k, Operand op, bool exact) {
            QTest::addRow("%s %s", name, shape) << backend << m << n << k << op << exact;
        };
        row("1x1 by 1x1", 1, 1, 1, Operand::AsIs, true);
        row("3x5 by 5x7", 3, 7, 5, Operand::AsIs, true);
        row("3x5 by (7x5)^T", 3, 7, 5, Operand::Transposed, true);
        row("1x768 by (50x768)^T, one token's logits", 1, 50, 768, Operand::Transposed, true);
        row("67x130 by 130x93, random", 67, 93, 130, Operand::AsIs, false);
        row("129x200 by (257x200)^T, random", 129, 257, 200, Operand::Transposed, false);
    });
}

void TestMatrixProduct::productMatchesReference()
{
    QFETCH(GemmBackend, backend);
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, k);
    QFETCH(Operand, op);
    QFETCH(bool, exact);
    if (!BlasLibrary::installed(backend))
        QSKIP("this BLAS is not installed (scripts/install-deps.sh installs it)");
    const RowMatrix a = values(m, k, 1, exact);
    const RowMatrix b = op == Operand::Transposed ? values(n, k, 2, exact) : values(k, n, 2, exact);
    RowMatrix c = RowMatrix::Constant(m, n, 99.0f); // overwritten, not added to
    assignProduct(backend, c, a, b, op);
    const QByteArray problem = mismatch(c, reference(a, b, op), exact);
    QVERIFY2(problem.isEmpty(), problem.constData());
}

void TestMatrixProduct::stridedBlocks_data()
{
    QTest::addColumn<GemmBackend>("backend");
    QTest::addColumn<Operand>("op");
    QTest::addColumn<bool>("accumulate");
    addBackendRows([](const char *name, GemmBackend backend) {
        QTest::addRow("%s as stored", name) << backend << Operand::AsIs << false;
        QTest::addRow("%s transposed", name) << backend << Operand::Transposed << false;
        QTest::addRow("%s transposed, added", name) << backend << Operand::Transposed << true;
    });
}

/// Blocks of larger matrices (rows strided), as the projections' column blocks and a head's
/// slice of W_O are: only the block's elements are read, and only out's block is written.
void TestMatrixProduct::stridedBlocks()
{
    QFETCH(GemmBackend, backend);
    QFETCH(Operand, op);
    QFETCH(bool, accumulate);
    if (!BlasLibrary::installed(backend))
        QSKIP("this BLAS is not installed (scripts/install-deps.sh installs it)");
    const RowMatrix bigA = values(20, 30, 3, true), bigB = values(40, 50, 4, true);
    const RowMatrix a = bigA.block(2, 3, 9, 11); // (9, 11), row stride 30
    const RowMatrix b = op == Operand::Transposed ? RowMatrix(bigB.block(1, 5, 13, 11))
                                                  : RowMatrix(bigB.block(1, 5, 11, 13));
    RowMatrix out = RowMatrix::Constant(15, 25, -7.0f);
    const RowMatrix before = out;
    const auto bBlock =
        op == Operand::Transposed ? bigB.block(1, 5, 13, 11) : bigB.block(1, 5, 11, 13);
    if (accumulate)
        addProduct(backend, out.block(4, 6, 9, 13), bigA.block(2, 3, 9, 11), bBlock, op);
    else
        assignProduct(backend, out.block(4, 6, 9, 13), bigA.block(2, 3, 9, 11), bBlock, op);
    const Eigen::MatrixXd expected =
        reference(a, b, op).array() + (accumulate ? -7.0 : 0.0); // out held -7 before
    const QByteArray problem = mismatch(out.block(4, 6, 9, 13), expected, true);
    QVERIFY2(problem.isEmpty(), problem.constData());
    RowMatrix outside = out;
    outside.block(4, 6, 9, 13) = before.block(4, 6, 9, 13);
    QCOMPARE(outside, before);
}

void TestMatrixProduct::columnSplitMatchesReference_data()
{
    QTest::addColumn<GemmBackend>("backend");
    QTest::addColumn<int>("threads");
    addBackendRows([](const char *name, GemmBackend backend) {
        QTest::addRow("%s 1 thread", name) << backend << 1;
        QTest::addRow("%s 2 threads", name) << backend << 2;
    });
}

/// The core's way: column blocks of an nn.Linear product over parallelFor (37 rows, 300 output
/// columns: four blocks of uneven width).
void TestMatrixProduct::columnSplitMatchesReference()
{
    QFETCH(GemmBackend, backend);
    QFETCH(int, threads);
    if (!BlasLibrary::installed(backend))
        QSKIP("this BLAS is not installed (scripts/install-deps.sh installs it)");
    const RowMatrix x = values(37, 70, 5, true), w = values(300, 70, 6, true);
    RowMatrix y(37, 300);
    const int previous = omp_get_max_threads();
    omp_set_num_threads(threads);
    assignColumnSplitProduct(backend, y, x, w, Operand::Transposed);
    omp_set_num_threads(previous);
    const QByteArray problem = mismatch(y, reference(x, w, Operand::Transposed), true);
    QVERIFY2(problem.isEmpty(), problem.constData());
}

void TestMatrixProduct::emptyDepthGivesZeros_data()
{
    QTest::addColumn<GemmBackend>("backend");
    addBackendRows([](const char *name, GemmBackend backend) { QTest::newRow(name) << backend; });
}

/// A (3, 0) by (0, 4) product is a sum of nothing: zeros, whatever out held.
void TestMatrixProduct::emptyDepthGivesZeros()
{
    QFETCH(GemmBackend, backend);
    if (!BlasLibrary::installed(backend))
        QSKIP("this BLAS is not installed (scripts/install-deps.sh installs it)");
    RowMatrix out = RowMatrix::Constant(3, 4, 5.0f);
    assignProduct(backend, out, RowMatrix(3, 0), RowMatrix(0, 4), Operand::AsIs);
    QCOMPARE(out, RowMatrix::Zero(3, 4).eval());
}

void TestMatrixProduct::addedProductMatchesReference_data()
{
    QTest::addColumn<GemmBackend>("backend");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("k");
    QTest::addColumn<Operand>("op");
    QTest::addColumn<bool>("exact");
    addBackendRows([](const char *name, GemmBackend backend) {
        auto row = [&](const char *shape, int m, int n, int k, Operand op, bool exact) {
            QTest::addRow("%s %s", name, shape) << backend << m << n << k << op << exact;
        };
        row("1x1 by 1x1", 1, 1, 1, Operand::AsIs, true);
        row("3x5 by 5x7", 3, 7, 5, Operand::AsIs, true);
        row("3x5 by (7x5)^T", 3, 7, 5, Operand::Transposed, true);
        // A head's z_h (n, d_v) by its block of W_O, (d_model, d_v) stored: z_h W_O_h^T.
        row("130x64 by (96x64)^T, one head's output", 130, 96, 64, Operand::Transposed, true);
        row("67x130 by 130x93, random", 67, 93, 130, Operand::AsIs, false);
    });
}

/// out += a op(b): what out held plus the product, so whole numbers give exact sums.
void TestMatrixProduct::addedProductMatchesReference()
{
    QFETCH(GemmBackend, backend);
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, k);
    QFETCH(Operand, op);
    QFETCH(bool, exact);
    if (!BlasLibrary::installed(backend))
        QSKIP("this BLAS is not installed (scripts/install-deps.sh installs it)");
    const RowMatrix a = values(m, k, 1, exact);
    const RowMatrix b = op == Operand::Transposed ? values(n, k, 2, exact) : values(k, n, 2, exact);
    const RowMatrix before = values(m, n, 7, exact);
    RowMatrix c = before;
    addProduct(backend, c, a, b, op);
    const Eigen::MatrixXd expected = before.cast<double>() + reference(a, b, op);
    const QByteArray problem = mismatch(c, expected, exact);
    QVERIFY2(problem.isEmpty(), problem.constData());
}

void TestMatrixProduct::emptyDepthAddsNothing_data()
{
    emptyDepthGivesZeros_data();
}

/// Adding a sum of nothing leaves out as it was.
void TestMatrixProduct::emptyDepthAddsNothing()
{
    QFETCH(GemmBackend, backend);
    if (!BlasLibrary::installed(backend))
        QSKIP("this BLAS is not installed (scripts/install-deps.sh installs it)");
    RowMatrix out = RowMatrix::Constant(3, 4, 5.0f);
    addProduct(backend, out, RowMatrix(3, 0), RowMatrix(0, 4), Operand::AsIs);
    QCOMPARE(out, RowMatrix::Constant(3, 4, 5.0f).eval());
}

HEADLENS_TEST_APPLESS_MAIN(TestMatrixProduct)
#include "tst_matrixproduct.moc"
