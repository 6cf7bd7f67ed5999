// ToyTask: the toy tasks (previous token, reverse, sort, induction), their examples and scoring.
#pragma once

#include "train/batchsource.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace headlens {

enum class TaskKind
{
    PreviousToken, ///< copy the token before: scored where i >= 1, target x_{i-1}
    Reverse,       ///< s | reverse(s): scored on the second half
    Sort,          ///< s | sorted(s): scored on the second half
    Induction,     ///< filler, then s s with s distinct: scored on the second copy
};

std::string toString(TaskKind kind); ///< "previous", "reverse", "sort", "induction"
std::optional<TaskKind> taskKindFromString(const std::string &text);

/// A task: random examples of `length` tokens over `vocabulary` ids, each with its targets.
/// The model always predicts at every position; the task says which positions count
/// (the loss and the accuracy use only those). With n = length and L = n / 2:
///  - previous: x = n uniform tokens; target at i is x_{i-1}, scored for i = 1..n-1.
///  - reverse:  the full sequence is s | r, s = L uniform content tokens, '|' the separator
///    (id vocabulary-1), r = reverse(s); the model reads its first n = 2L tokens (s, '|',
///    r_0..r_{L-2}) and at position i predicts token i+1, scored for i = L..2L-1 (the
///    separator predicts r_0, ..., r_{L-2} predicts r_{L-1}): teacher forcing.
///  - sort:     as reverse with r = s sorted ascending.
///  - induction: x = f s s: s is R tokens with R uniform in [minimumRepeat(n), L], f is
///    n - 2R filler tokens, and all of f and s are distinct (so each token has one successor
///    and only the second copy repeats). The copies sit R apart, R varies, so position alone
///    cannot solve it: the model must find the earlier occurrence of the current token and
///    copy its successor (the two-layer induction circuit). Target at i is x_{i+1}, scored
///    for i = n-R..n-2 (from the start of the second copy on).
/// Examples are pure functions of (seed, stream, index), so batches and the held-out set
/// reproduce bit for bit; training and held-out draw from different streams.
class ToyTask : public BatchSource
{
public:
    /// Precondition: validate(kind, vocabulary, length) is empty.
    ToyTask(TaskKind kind, int vocabulary, int length);

    /// A message when the sizes do not suit the task (e.g. induction needs length/2 distinct
    /// tokens: "induction with sequence length 32 needs a vocabulary of at least 16").
    static std::optional<std::string> validate(TaskKind kind, int vocabulary, int length);

    TaskKind kind() const { return m_kind; }
    int vocabulary() const { return m_vocabulary; }
    int length() const { return m_length; }
    /// Content tokens: vocabulary - 1 for reverse and sort (the last id is the separator).
    int contentTokens() const;
    /// Shortest repeated sequence of the induction task of length n: max(2, ceil(n / 4)).
    static int minimumRepeat(int length);
    /// The separator's id, or -1 for tasks without one.
    int separator() const;

    /// Examples number first .. first+count-1 of stream `stream` under `seed`.
    ToyBatch batch(uint64_t seed, uint64_t stream, uint64_t first, int count) const override;
    /// The targets the task scores for `tokens` (length() of them); -1 where not scored.
    std::vector<int> targetsFor(const std::vector<int> &tokens) const;

    /// Why `tokens` is not an example of the task (its length, a missing separator, a second
    /// half that is not the answer, no repeated run of distinct tokens at the end), as a
    /// sentence; nothing when it is one. A model ranked on a text outside its task's format
    /// measures noise (a lecture saw 8-11 nats unablated and every head "unimportant").
    std::optional<std::string> formatProblem(const std::vector<int> &tokens) const;
    /// The task's own probe: held-out example 0 under `seed`, the sequence the Train tab
    /// draws the heads on.
    std::vector<int> probe(uint64_t seed) const { return example(seed, kHeldOutStream, 0); }

    /// A short label per id: "a".."z", "A".."Z", "0".."9", "+", "-" and "|" for the separator.
    std::string label(int id) const;
    /// Text a person typed, mapped onto the toy vocabulary one character at a time (spaces
    /// skipped): a character that is a content label maps to its id, any other character to
    /// a content id chosen from its code (so "hello" stays readable with 8+ letters and
    /// anything else still runs). At most length() tokens are kept.
    std::vector<int> encode(const std::string &text) const;
    /// What encode() does to `text`, for a note beside the tokens: the vocabulary it maps onto
    /// and, when they happen, characters outside it, skipped spaces and the cut at length()
    /// ("toy vocabulary a–t, one character per token; 3 characters outside it mapped onto it;
    /// spaces skipped; cut to the first 20 characters").
    std::string readingNote(const std::string &text) const;
    /// One sentence for the task's rules, for the window and --help.
    std::string description() const;

private:
    /// encode()'s walk through a text, with what it changed on the way.
    struct Reading
    {
        std::vector<int> ids;
        int outside = 0;  ///< characters not in the vocabulary, mapped onto it by their code
        int skipped = 0;  ///< whitespace characters before the cut
        bool cut = false; ///< characters were left after length() tokens
    };
    Reading read(const std::string &text) const;

    std::vector<int> example(uint64_t seed, uint64_t stream, uint64_t index) const;

    TaskKind m_kind;
    int m_vocabulary;
    int m_length;
};

} // namespace headlens
