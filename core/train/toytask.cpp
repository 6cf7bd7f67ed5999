// ToyTask: seeded example generators and the positions each task scores.
#include "train/toytask.h"

#include "util/counterrandom.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace headlens {

namespace {

constexpr char kLabels[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-";
constexpr int kMaxVocabulary = 64;

} // namespace

std::string toString(TaskKind kind)
{
    switch (kind) {
    case TaskKind::PreviousToken:
        return "previous";
    case TaskKind::Reverse:
        return "reverse";
    case TaskKind::Sort:
        return "sort";
    case TaskKind::Induction:
        return "induction";
    }
    return {};
}

std::optional<TaskKind> taskKindFromString(const std::string &text)
{
    for (TaskKind kind :
         {TaskKind::PreviousToken, TaskKind::Reverse, TaskKind::Sort, TaskKind::Induction})
        if (text == toString(kind))
            return kind;
    if (text == "previous-token")
        return TaskKind::PreviousToken;
    return std::nullopt;
}

ToyTask::ToyTask(TaskKind kind, int vocabulary, int length)
    : m_kind(kind), m_vocabulary(vocabulary), m_length(length)
{
    assert(!validate(kind, vocabulary, length));
}

std::optional<std::string> ToyTask::validate(TaskKind kind, int vocabulary, int length)
{
    if (vocabulary < 2 || vocabulary > kMaxVocabulary)
        return "The vocabulary must hold between 2 and 64 tokens, got " +
               std::to_string(vocabulary) + ".";
    if (length < 2 || length > 32)
        return "The sequence length must be between 2 and 32, got " + std::to_string(length) + ".";
    if (kind == TaskKind::PreviousToken)
        return std::nullopt;
    const std::string name = toString(kind);
    if (length % 2 != 0)
        return name + " needs an even sequence length (two halves), got " + std::to_string(length) +
               ": use " + std::to_string(length + 1) + ".";
    if (kind == TaskKind::Induction && vocabulary < length - minimumRepeat(length))
        return "induction with sequence length " + std::to_string(length) +
               " needs a vocabulary of at least " + std::to_string(length - minimumRepeat(length)) +
               " (every token before the second copy is distinct).";
    if (kind != TaskKind::Induction && vocabulary < 3)
        return name + " needs a vocabulary of at least 3 (two tokens and the separator).";
    return std::nullopt;
}

int ToyTask::minimumRepeat(int length)
{
    return std::max(2, (length + 3) / 4);
}

int ToyTask::contentTokens() const
{
    return separator() >= 0 ? m_vocabulary - 1 : m_vocabulary;
}

int ToyTask::separator() const
{
    return m_kind == TaskKind::Reverse || m_kind == TaskKind::Sort ? m_vocabulary - 1 : -1;
}

std::vector<int> ToyTask::example(uint64_t seed, uint64_t stream, uint64_t index) const
{
    const CounterRandom random(seed, stream);
    const uint64_t base = index * 64; // 64 draws per example: more than any length needs
    const int half = m_length / 2;
    const int content = contentTokens();
    std::vector<int> x(size_t(m_length), 0);
    if (m_kind == TaskKind::PreviousToken) {
        for (int i = 0; i < m_length; ++i)
            x[size_t(i)] = int(random.bits(base + uint64_t(i)) % uint64_t(content));
        return x;
    }
    std::vector<int> s(static_cast<size_t>(content));
    if (m_kind == TaskKind::Induction) {
        // Filler f then s s, with L = |s| drawn from [minimumRepeat, n/2] so that the distance
        // between the copies varies and position alone cannot solve the task. All of f and s
        // are distinct (a partial Fisher-Yates shuffle): only the second copy repeats anything.
        const int low = minimumRepeat(m_length);
        const int repeat = low + int(random.bits(base + 63) % uint64_t(half - low + 1));
        const int distinct = m_length - repeat;
        std::iota(s.begin(), s.end(), 0);
        for (int k = 0; k < distinct; ++k)
            std::swap(s[size_t(k)],
                      s[size_t(k) + random.bits(base + uint64_t(k)) % uint64_t(content - k)]);
        std::copy(s.begin(), s.begin() + distinct, x.begin());
        std::copy(s.begin() + distinct - repeat, s.begin() + distinct, x.begin() + distinct);
        return x;
    }
    s.resize(size_t(half));
    for (int k = 0; k < half; ++k)
        s[size_t(k)] = int(random.bits(base + uint64_t(k)) % uint64_t(content));
    std::vector<int> r = s;
    if (m_kind == TaskKind::Reverse)
        std::reverse(r.begin(), r.end());
    else
        std::sort(r.begin(), r.end());
    std::copy(s.begin(), s.end(), x.begin());
    x[size_t(half)] = separator();
    std::copy(r.begin(), r.end() - 1, x.begin() + half + 1);
    return x;
}

std::vector<int> ToyTask::targetsFor(const std::vector<int> &x) const
{
    const int n = int(x.size());
    const int half = n / 2;
    std::vector<int> t(x.size(), -1);
    if (m_kind == TaskKind::PreviousToken) {
        for (int i = 1; i < n; ++i)
            t[size_t(i)] = x[size_t(i - 1)];
    } else if (m_kind == TaskKind::Induction) {
        // From the first repeated token on (the start of the second copy), predict the next.
        int start = n;
        for (int i = 0; i < n && start == n; ++i)
            if (std::find(x.begin(), x.begin() + i, x[size_t(i)]) != x.begin() + i)
                start = i;
        for (int i = start; i + 1 < n; ++i)
            t[size_t(i)] = x[size_t(i + 1)];
    } else {
        // The answer r is not all in x (its last token is never read): rebuild it from s.
        std::vector<int> r(x.begin(), x.begin() + half);
        if (m_kind == TaskKind::Reverse)
            std::reverse(r.begin(), r.end());
        else
            std::sort(r.begin(), r.end());
        for (int k = 0; k < half; ++k)
            t[size_t(half + k)] = r[size_t(k)];
    }
    return t;
}

ToyBatch ToyTask::batch(uint64_t seed, uint64_t stream, uint64_t first, int count) const
{
    ToyBatch out;
    out.count = count;
    out.length = m_length;
    out.tokens.reserve(size_t(count) * size_t(m_length));
    out.targets.reserve(out.tokens.capacity());
    for (int e = 0; e < count; ++e) {
        const std::vector<int> x = example(seed, stream, first + uint64_t(e));
        const std::vector<int> t = targetsFor(x);
        out.tokens.insert(out.tokens.end(), x.begin(), x.end());
        out.targets.insert(out.targets.end(), t.begin(), t.end());
    }
    return out;
}

std::string ToyTask::label(int id) const
{
    if (id == separator())
        return "|";
    if (id < 0 || id >= kMaxVocabulary)
        return "?";
    return std::string(1, kLabels[id]);
}

std::vector<int> ToyTask::encode(const std::string &text) const
{
    return read(text).ids;
}

ToyTask::Reading ToyTask::read(const std::string &text) const
{
    const std::string labels(kLabels, size_t(contentTokens()));
    Reading r;
    for (unsigned char c : text) {
        const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        if (int(r.ids.size()) >= m_length) {
            r.cut = r.cut || !space;
            continue;
        }
        if (space) {
            ++r.skipped;
            continue;
        }
        if (c == '|' && separator() >= 0) {
            r.ids.push_back(separator());
            continue;
        }
        const size_t at = labels.find(char(c));
        r.outside += at == std::string::npos ? 1 : 0;
        r.ids.push_back(at != std::string::npos ? int(at) : int(c) % contentTokens());
    }
    return r;
}

std::string ToyTask::readingNote(const std::string &text) const
{
    const Reading r = read(text);
    std::string note = "toy vocabulary " + label(0) + "\u2013" + label(contentTokens() - 1) +
                       (separator() >= 0 ? " and |" : "") + ", one character per token";
    if (r.outside > 0)
        note += "; " + std::to_string(r.outside) +
                (r.outside == 1 ? " character outside it mapped onto it"
                                : " characters outside it mapped onto it");
    if (r.skipped > 0)
        note += "; spaces skipped";
    if (r.cut)
        note += "; cut to the first " + std::to_string(m_length) + " characters";
    return note;
}

std::optional<std::string> ToyTask::formatProblem(const std::vector<int> &x) const
{
    const int n = int(x.size());
    const std::string task = "The " + toString(m_kind) + " task";
    if (m_kind == TaskKind::PreviousToken) {
        if (n >= 2)
            return std::nullopt;
        return task + " predicts each token's previous one: it needs at least 2 tokens.";
    }
    if (n != m_length)
        return task + " reads " + std::to_string(m_length) + " tokens; the text has " +
               std::to_string(n) + ".";
    if (m_kind == TaskKind::Induction) {
        // f s s, every token of f and s distinct: the shape example() draws, for some |s|.
        for (int repeat = minimumRepeat(n); repeat <= n / 2; ++repeat) {
            const auto second = x.begin() + (n - repeat);
            if (!std::equal(second - repeat, second, second))
                continue;
            std::vector<int> distinct(x.begin(), second);
            std::sort(distinct.begin(), distinct.end());
            if (std::adjacent_find(distinct.begin(), distinct.end()) == distinct.end())
                return std::nullopt;
        }
        return task + " needs distinct tokens ending in a run of at least " +
               std::to_string(minimumRepeat(n)) + " typed twice (filler, s, s).";
    }
    const int half = n / 2;
    const auto separatorAt = std::find(x.begin(), x.end(), separator());
    if (separatorAt != x.begin() + half)
        return task + " needs " + std::to_string(half) + " tokens, then '|', then the answer.";
    const std::vector<int> targets = targetsFor(x);
    for (int k = half + 1; k < n; ++k)
        if (x[size_t(k)] != targets[size_t(k - 1)])
            return task + " needs the answer after '|': the " +
                   (m_kind == TaskKind::Reverse ? "first half backwards" : "first half sorted") +
                   ", and token " + std::to_string(k + 1) + " is not.";
    return std::nullopt;
}

std::string ToyTask::description() const
{
    switch (m_kind) {
    case TaskKind::PreviousToken:
        return "Output the token before: at every position after the first, predict the "
               "previous input token.";
    case TaskKind::Reverse:
        return "Read a sequence and a separator '|', then write the sequence backwards; "
               "scored on the second half.";
    case TaskKind::Sort:
        return "Read a sequence and a separator '|', then write it sorted; scored on the "
               "second half.";
    case TaskKind::Induction:
        return "Filler, then a random sequence of distinct tokens repeated: in the second copy, "
               "predict the next token from what followed it the first time.";
    }
    return {};
}

} // namespace headlens
