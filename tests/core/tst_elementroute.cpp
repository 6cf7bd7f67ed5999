// Tests that following one element through view, transpose and concat lands on the same number.
#include "pipelinecases.h"

#include "attention/elementroute.h"
#include "testmain.h"

#include <QTest>

using namespace headlens;

class TestElementRoute : public QObject
{
    Q_OBJECT

private slots:
    void splitKeepsTheValue_data() { test::addPipelineCases(); }
    void splitKeepsTheValue();
    void concatKeepsTheValue_data() { test::addPipelineCases(); }
    void concatKeepsTheValue();
    void lessonsPicture();
};

namespace {

// The element at a full C-order index, computed from the sizes (no Tensor helper involved).
float valueAt(const Trace &trace, const TensorIndex &at)
{
    const Tensor &t = trace.tensor(at.tensor);
    [&] { QCOMPARE(t.shape().rank(), int(at.index.size())); }();
    int64_t offset = 0;
    for (int axis = 0; axis < t.shape().rank(); ++axis)
        offset = offset * t.shape().size(axis) + at.index[size_t(axis)];
    return t.data()[offset];
}

} // namespace

void TestElementRoute::splitKeepsTheValue()
{
    QFETCH(QString, caseName);
    const test::PipelineCase c = test::makePipelineCase(caseName);
    const Trace &t = *c.trace;
    const int64_t dK = t.config.headDimK();
    for (int64_t i = 0; i < t.queryLength(); ++i)
        for (int64_t f = 0; f < t.heads() * dK; ++f) {
            const auto route = splitRoute(Projection::Query, t.batch() - 1, i, f, dK);
            QCOMPARE(int(route.size()), 3);
            const float value = valueAt(t, route[0]);
            QCOMPARE(valueAt(t, route[1]), value);
            QCOMPARE(valueAt(t, route[2]), value);
        }
}

void TestElementRoute::concatKeepsTheValue()
{
    QFETCH(QString, caseName);
    const test::PipelineCase c = test::makePipelineCase(caseName);
    const Trace &t = *c.trace;
    const int64_t dV = t.config.headDimV();
    for (int64_t head = 0; head < t.heads(); ++head)
        for (int64_t i = 0; i < t.queryLength(); ++i)
            for (int64_t w = 0; w < dV; ++w) {
                const auto route = concatRoute(0, head, i, w, dV);
                const float value = valueAt(t, route[0]);
                QCOMPARE(valueAt(t, route[1]), value);
                QCOMPARE(valueAt(t, route[2]), value);
            }
}

// seeds/001: 8 dimensions, 2 heads: dimension 6 (index 5) is head 2's second number.
void TestElementRoute::lessonsPicture()
{
    const auto route = splitRoute(Projection::Query, 0, 3, 5, 4);
    QCOMPARE(QString::fromStdString(toString(route[1])), QString("q_view[0, 3, 1, 1]"));
    QCOMPARE(QString::fromStdString(toString(route[2])), QString("q_heads[0, 1, 3, 1]"));
    const auto back = concatRoute(0, 1, 3, 1, 4);
    QCOMPARE(QString::fromStdString(toString(back[2])), QString("concat[0, 3, 5]"));
}

HEADLENS_TEST_APPLESS_MAIN(TestElementRoute)
#include "tst_elementroute.moc"
