// TraceReader: slices of the recorded tensors; every number shown comes from the trace as is.
#include "views/tracereader.h"

#include "attention/maskreason.h"
#include "text/tokenizer.h"
#include "views/ablationset.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <limits>

namespace headlens {

namespace {

QString label(const std::string &token)
{
    return QString::fromStdString(Tokenizer::displayLabel(token));
}

/// Why a masked cell is hidden, in the words of the mask that does it.
QString maskSentence(const AttentionConfig &config, int bits)
{
    switch (bits) {
    case MaskCausal:
        return "causal: a token sees only itself and earlier tokens";
    case MaskPadding:
        return "padding: this key is not part of the sequence";
    case MaskWindow:
        return QString("the sliding window: a token sees only the %1 most recent keys, itself "
                       "included")
            .arg(config.window);
    default:
        return QString::fromStdString(describeMaskReason(bits));
    }
}

} // namespace

bool TraceReader::isMasked(const Trace &trace, int b, int query, int key)
{
    const TraceTensor *mask = trace.find(keys::mask);
    if (!mask || mask->tensor.isEmpty() || mask->tensor.shape().rank() != 3)
        return false;
    return mask->tensor.at({b, query, key}) > 0.5f;
}

RowMatrix TraceReader::weights(const Trace &trace, int b, int head)
{
    const int n = int(trace.input.queryLengthOf(b));
    const int nKv = int(trace.input.keyLengthOf(b));
    const ConstRowMatrixMap all = trace.tensor(keys::attentionWeights).matrix({b, head});
    RowMatrix result = all.topLeftCorner(n, nKv);
    const TraceTensor *mask = trace.find(keys::mask);
    if (mask && !mask->tensor.isEmpty() && mask->tensor.shape().rank() == 3) {
        const ConstRowMatrixMap hidden = mask->tensor.matrix({b});
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < nKv; ++j) {
                if (hidden(i, j) > 0.5f)
                    result(i, j) = std::numeric_limits<float>::quiet_NaN();
            }
        }
    }
    return result;
}

QStringList TraceReader::queryLabels(const Trace &trace, int b)
{
    QStringList labels;
    for (int64_t i = 0; i < trace.input.queryLengthOf(b); ++i)
        labels << label(trace.input.queryLabel(b, i));
    return labels;
}

QStringList TraceReader::keyLabels(const Trace &trace, int b)
{
    QStringList labels;
    for (int64_t j = 0; j < trace.input.keyLengthOf(b); ++j)
        labels << label(trace.input.keyLabel(b, j));
    return labels;
}

QString TraceReader::headName(const Trace &trace, int head)
{
    // People count heads from 1 ("head 3"), as the CLI's tables do; indices stay 0-based.
    const AttentionConfig &c = trace.config;
    if (c.kvHeadCount() >= c.heads || c.kvHeadCount() <= 0 || c.heads % c.kvHeadCount() != 0)
        return QString("head %1").arg(head + 1);
    return QString("head %1 · K/V %2").arg(head + 1).arg(c.kvHeadOf(head) + 1);
}

QString TraceReader::headTitle(const Trace &trace, int b, int head)
{
    const size_t index = size_t(b) * size_t(trace.heads()) + size_t(head);
    if (index >= trace.headStats.size())
        return headName(trace, head);
    const HeadStats &stats = trace.stats(b, head);
    const QString change = headChange(trace, b, head);
    return QString("%1 · H %2 · dist %3")
        .arg(change.isEmpty() ? headName(trace, head) : headName(trace, head) + " · " + change,
             statistic(stats.entropy, 2), statistic(stats.meanDistance, 1));
}

QString TraceReader::statistic(double value, int decimals)
{
    return std::isfinite(value) ? QString::number(value, 'f', decimals) : QString("—");
}

QString TraceReader::headChange(const Trace &trace, int b, int head)
{
    return AblationSet::label(trace.interventions.changeOf(trace.layer, head, b),
                              !trace.interventions.meanSource.isEmpty());
}

int64_t TraceReader::notANumberCount(const Trace &trace, int b, int head)
{
    const int n = int(trace.input.queryLengthOf(b));
    const int nKv = int(trace.input.keyLengthOf(b));
    const ConstRowMatrixMap all = trace.tensor(keys::attentionWeights).matrix({b, head});
    // Almost always every weight is a number: a row whose sum is a number holds only numbers
    // (weights are at most 1, so the sum cannot overflow), and Eigen vectorises the sums; only
    // other rows are walked cell by cell with their mask look-ups (25 ms per head at 1,024
    // tokens on the UI thread; Eigen's allFinite() took 10 ms a head at 2,048).
    int64_t count = 0;
    for (int i = 0; i < n; ++i) {
        if (std::isfinite(all.row(i).head(nKv).sum()))
            continue;
        for (int j = 0; j < nKv; ++j) {
            if (!std::isfinite(all(i, j)) && !isMasked(trace, b, i, j))
                ++count;
        }
    }
    return count;
}

QString TraceReader::veilLabel(const Trace &trace, int b, int head)
{
    return veilLabel(trace, b, head, notANumberCount(trace, b, head));
}

QString TraceReader::veilLabel(const Trace &trace, int b, int head, int64_t bad)
{
    const QString change = headChange(trace, b, head);
    if (!change.isEmpty())
        return change;
    if (bad == 0)
        return {};
    const int64_t cells = trace.input.queryLengthOf(b) * trace.input.keyLengthOf(b);
    return QObject::tr("not a number: %1 of %2 weights").arg(bad).arg(cells);
}

QString TraceReader::headTitleToolTip(const Trace &trace, int b, int head)
{
    const size_t index = size_t(b) * size_t(trace.heads()) + size_t(head);
    if (index >= trace.headStats.size())
        return {};
    const HeadStats &stats = trace.stats(b, head);
    const int64_t keys = trace.input.keyLengthOf(b);
    if (!std::isfinite(stats.entropy) || !std::isfinite(stats.meanDistance))
        return QObject::tr("%1\n"
                           "H (entropy) and dist (mean attention distance) are not numbers: the "
                           "head's weights are not, because the weights opened hold NaN or "
                           "infinite values (the status bar and the Controls' banner name them).")
            .arg(headTitle(trace, b, head));
    return QObject::tr("%1\n"
                       "H %2: the entropy of the head's attention, in nats, averaged over its "
                       "queries: 0 when each query looks at one key, %3 (ln %4) when it spreads "
                       "evenly over all %4 keys.\n"
                       "dist %5: how far, in tokens, a query's attention reaches on average "
                       "(the sum of weight × |query − key|).")
        .arg(headTitle(trace, b, head))
        .arg(stats.entropy, 0, 'f', 2)
        .arg(std::log(double(std::max<int64_t>(keys, 1))), 0, 'f', 2)
        .arg(keys)
        .arg(stats.meanDistance, 0, 'f', 1);
}

QString TraceReader::describeCell(const Trace &trace, int b, int head, int query, int key)
{
    const QString from = label(trace.input.queryLabel(b, query));
    const QString to = label(trace.input.keyLabel(b, key));
    QString text = QString("%1 · \"%2\" -> \"%3\"").arg(headName(trace, head), from, to);
    if (isMasked(trace, b, query, key))
        return text + QString(" · masked (%1)")
                          .arg(maskSentence(trace.config, maskReason(trace, b, query, key)));
    const float weight = trace.tensor(keys::attentionWeights).at({b, head, query, key});
    if (!std::isfinite(weight))
        return text + QObject::tr(" · weight not a number (the weights hold NaN or infinite "
                                  "values; the status bar names them)");
    text += QString(" · weight %1").arg(double(weight), 0, 'f', 3);
    if (trace.hasTensor(keys::scores)) {
        const float score = trace.tensor(keys::scores).at({b, head, query, key});
        text += QString(" · score %1").arg(double(score), 0, 'f', 2);
    }
    return text;
}

int TraceReader::maskReason(const Trace &trace, int b, int query, int key)
{
    if (!isMasked(trace, b, query, key))
        return MaskVisible;
    if (const TraceTensor *reason = trace.find(keys::maskReason))
        return int(reason->tensor.at({b, query, key}));
    const Tensor &padding = trace.input.keyPaddingMask;
    if (!padding.isEmpty() && padding.at({b, key}) > 0.5f)
        return MaskPadding;
    return MaskCausal;
}

std::pair<double, double> TraceReader::range(const RowMatrix &weights)
{
    double lower = std::numeric_limits<double>::infinity();
    double upper = -lower;
    for (Eigen::Index i = 0; i < weights.size(); ++i) {
        const double v = weights.data()[i];
        if (!std::isnan(v)) {
            lower = std::min(lower, v);
            upper = std::max(upper, v);
        }
    }
    if (lower > upper)
        return {0.0, 1.0};
    return {lower, upper};
}

} // namespace headlens
