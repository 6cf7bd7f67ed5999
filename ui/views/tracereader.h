// TraceReader: read-only helpers that pull what a view draws out of a Trace (no computing).
#pragma once

#include "attention/trace.h"

#include <QString>
#include <QStringList>

namespace headlens {

/// The attention weights, labels and numbers of one sequence of a trace, as views show them.
class TraceReader
{
public:
    /// Head `head`'s weights of sequence `b`, cut to its real (unpadded) tokens, with NaN where
    /// the mask hides a key: rows = queries, cols = keys.
    static RowMatrix weights(const Trace &trace, int b, int head);
    /// Whether the trace's mask hides key `key` from query `query` of sequence `b`.
    static bool isMasked(const Trace &trace, int b, int query, int key);
    /// Query / key labels of sequence `b`, made visible (spaces as "␣").
    static QStringList queryLabels(const Trace &trace, int b);
    static QStringList keyLabels(const Trace &trace, int b);
    /// "head 5", or "head 5 · K/V 2" when query heads share K/V heads (both counted from 1).
    static QString headName(const Trace &trace, int head);
    /// "head 3 · H 1.23 · dist 2.4": the name with the head's statistics ("H — · dist —" for a
    /// head whose weights are not numbers).
    static QString headTitle(const Trace &trace, int b, int head);
    /// A statistic as titles and tooltips show it: `decimals` after the point, or "—" when it is
    /// NaN or infinite (weights that hold such values), instead of "nan".
    static QString statistic(double value, int decimals);
    /// What the title's abbreviations mean, with this head's numbers and sequence b's keys:
    /// H the mean entropy of its rows (0 to ln n_kv), dist the mean attended distance.
    /// What the pass's interventions did to the head ("ablated (zero)"); empty when nothing.
    static QString headChange(const Trace &trace, int b, int head);
    /// How many of head `head`'s unmasked weights of sequence `b` are NaN or infinite (weights
    /// files that hold such values make them; Trace::warnings names the file's tensor).
    static int64_t notANumberCount(const Trace &trace, int b, int head);
    /// The words on a head's veil (HeatmapPlot::setDimmed): its intervention, else "not a number:
    /// N of M weights" when notANumberCount() is not 0, so such a head is not mistaken for a
    /// masked one; empty when nothing is to be said.
    static QString veilLabel(const Trace &trace, int b, int head);
    /// The same with notANumberCount() already counted (off the UI thread: a pass over every
    /// weight, 1 M per head at 1,024 tokens).
    static QString veilLabel(const Trace &trace, int b, int head, int64_t notANumber);
    static QString headTitleToolTip(const Trace &trace, int b, int head);
    /// `head 3 · "it" -> "gear" · weight 0.412 · score 1.87`; a masked cell says which masks
    /// hide it (causal, padding, sliding window).
    static QString describeCell(const Trace &trace, int b, int head, int query, int key);
    /// MaskReason bits of cell (query, key): the trace's mask_reason where it records one (with
    /// a window), else padding when the key is padding, else causal; 0 when visible.
    static int maskReason(const Trace &trace, int b, int query, int key);
    /// Smallest and largest unmasked weight of one head (for a per-head color scale).
    static std::pair<double, double> range(const RowMatrix &weights);
};

} // namespace headlens
