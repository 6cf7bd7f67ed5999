// storyWindow: sentences found at ". ", every run of them tried against `fits`.
#include "stories/storywindow.h"

#include <algorithm>
#include <cassert>
#include <utility>
#include <vector>

namespace headlens {

namespace {

/// How many stories from the probe's on windowAt looks through for a relation that fits.
constexpr int kStoriesAfterProbe = 64;

} // namespace

StoryText storyExcerpt(const StoryText &story, size_t begin, size_t end)
{
    assert(begin <= end && end <= story.text.size());
    StoryText out;
    out.text = story.text.substr(begin, end - begin);
    for (const StoryRelation &r : story.relations) {
        if (r.sourceBegin < begin || r.targetBegin < begin || r.sourceEnd > end ||
            r.targetEnd > end)
            continue;
        out.relations.push_back({r.kind, r.sourceBegin - begin, r.sourceEnd - begin,
                                 r.targetBegin - begin, r.targetEnd - begin});
    }
    return out;
}

StoryText oneLineExcerpt(const StoryText &story, size_t begin, size_t end)
{
    assert(begin <= end && end <= story.text.size());
    std::pair<size_t, size_t> best{begin, begin};
    for (size_t start = begin; start <= end;) {
        const size_t stop = std::min(story.text.find('\n', start), end);
        if (stop - start > best.second - best.first)
            best = {start, stop};
        start = stop + 1;
    }
    while (best.first < best.second && story.text[best.first] == ' ')
        ++best.first;
    while (best.second > best.first && story.text[best.second - 1] == ' ')
        --best.second;
    return storyExcerpt(story, best.first, best.second);
}

std::optional<StoryText> windowAt(const StoryText &story, const std::string &probe, size_t from,
                                  size_t length)
{
    const size_t at = probe.empty() ? std::string::npos : story.text.find(probe, from);
    if (at == std::string::npos)
        return std::nullopt;
    StoryText window = oneLineExcerpt(story, at, std::min(at + length, story.text.size()));
    if (!window.relations.empty())
        return window;
    // The probe's story first, then the stories after it (a short context may hold none of
    // the probe story's sentences with a relation).
    const auto fits = [length](const std::string &t) { return t.size() <= length; };
    size_t lineStart =
        story.text.rfind('\n', at) == std::string::npos ? 0 : story.text.rfind('\n', at) + 1;
    for (int line = 0; line < kStoriesAfterProbe && lineStart < story.text.size(); ++line) {
        const size_t lineEnd = std::min(story.text.find('\n', lineStart), story.text.size());
        StoryText sentences = storyWindow(storyExcerpt(story, lineStart, lineEnd), fits);
        if (!sentences.relations.empty())
            return sentences;
        lineStart = lineEnd + 1;
    }
    return window;
}

StoryText storyWindow(const StoryText &story, const std::function<bool(const std::string &)> &fits)
{
    const size_t line = std::min(story.text.find('\n'), story.text.size());
    // Sentences end at a full stop before a space or the line's end (a quote's comma does not).
    std::vector<std::pair<size_t, size_t>> sentences;
    for (size_t start = 0, at = 0; at < line; ++at) {
        if (story.text[at] != '.' || (at + 1 < line && story.text[at + 1] != ' '))
            continue;
        sentences.emplace_back(start, at + 1);
        start = at + 2;
    }
    StoryText best;
    bool found = false;
    for (size_t a = 0; a < sentences.size(); ++a)
        for (size_t b = a; b < sentences.size(); ++b) {
            StoryText window = storyExcerpt(story, sentences[a].first, sentences[b].second);
            const bool better = !found || window.relations.size() > best.relations.size() ||
                                (window.relations.size() == best.relations.size() &&
                                 window.text.size() > best.text.size());
            if (!better || !fits(window.text))
                continue;
            best = std::move(window);
            found = true;
        }
    if (found)
        return best;
    // Not one sentence fits: the words from the start, as many as fit.
    for (size_t end = story.text.rfind(' ', line); end != std::string::npos && end > 0;
         end = story.text.rfind(' ', end - 1)) {
        StoryText words = storyExcerpt(story, 0, end);
        if (fits(words.text))
            return words;
    }
    return {};
}

} // namespace headlens
