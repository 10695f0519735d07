// RightSpans builds, span by span as they begin and end, the union merge_spans makes of the whole
// list at once: the same answers to holds_at at every ms, and the same ends, on random lists.
#include "model/right_spans.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/facts.hpp"

namespace locksim::model {
namespace {

// A small deterministic generator: the lists are the same on every run.
struct Lcg {
  uint64_t state;
  int64_t below(int64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(n));
  }
};

TEST(RightSpans, TheUnionIsMergeSpansOfTheWholeList) {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Lcg rng{seed};
    // Spans begin in time order; each ends 0..12 ms later (0: an empty span), some never.
    std::vector<Span> spans;
    int64_t t = 0;
    for (int i = 0; i < 1 + rng.below(12); ++i) {
      t += rng.below(4);
      const bool open = rng.below(6) == 0;
      spans.push_back(Span{t, open ? kForever : t + rng.below(13), 10 * i, open ? -1 : 10 * i + 5});
    }
    // Built as a stream builds it, ms by ms: the spans that begin, then those that end.
    RightSpans built;
    std::vector<int64_t> handles(spans.size(), -1);
    for (int64_t now = 0; now <= t + 13; ++now) {
      for (size_t i = 0; i < spans.size(); ++i)
        if (spans[i].from_ms == now) handles[i] = built.begin(Span{now, kForever, spans[i].begin, -1});
      for (size_t i = 0; i < spans.size(); ++i)
        if (spans[i].end >= 0 && spans[i].to_ms == now) built.end(handles[i], now, spans[i].end);
    }
    const std::vector<Span> merged = merge_spans(spans);
    for (int64_t at = 0; at <= t + 14; ++at) {
      bool in = false;
      std::vector<int64_t> ends;
      for (const Span& m : merged) {
        in = in || m.contains(at);
        if (m.to_ms == at && m.from_ms <= at) ends.push_back(m.end);
      }
      ASSERT_EQ(built.holds_at(at), in) << "seed " << seed << " at " << at;
      // merge_spans leaves ties in the ending event to its sort; the union's own rule is tested below.
      ASSERT_EQ(built.ends_at(at).size(), ends.size()) << "seed " << seed << " at " << at;
    }
    EXPECT_EQ(built.spans().size(), spans.size());
  }
}

TEST(RightSpans, AUnionEndsWithItsLatestMemberAndOfMembersEndingTogetherTheFirstBegun) {
  RightSpans r;
  const int64_t a = r.begin(Span{10, kForever, 1, -1});
  const int64_t b = r.begin(Span{12, kForever, 2, -1});
  r.end(b, 20, 7);  // the later-begun one ends first
  r.end(a, 20, 9);
  EXPECT_EQ(r.ends_at(20), (std::vector<int64_t>{9}));
  EXPECT_TRUE(r.holds_at(19));
  EXPECT_FALSE(r.holds_at(20));
  const int64_t c = r.begin(Span{20, kForever, 3, -1});  // touching: the same union
  EXPECT_TRUE(r.holds_at(25));
  r.end(c, 30, 11);
  EXPECT_EQ(r.ends_at(30), (std::vector<int64_t>{11}));
  EXPECT_TRUE(r.ends_at(20).empty());
}

TEST(RightSpans, RetiringDropsOnlyWhatEndedBefore) {
  RightSpans r;
  const int64_t a = r.begin(Span{0, kForever, 1, -1});
  r.end(a, 5, 2);
  const int64_t b = r.begin(Span{10, kForever, 3, -1});  // still open
  const int64_t c = r.begin(Span{11, kForever, 4, -1});
  r.end(c, 12, 5);
  r.retire(8);
  EXPECT_FALSE(r.holds_at(3));  // dropped
  EXPECT_TRUE(r.holds_at(11));
  EXPECT_EQ(r.spans().size(), 2u);
  r.end(b, 40, 6);
  EXPECT_TRUE(r.holds_at(39));
  EXPECT_EQ(r.ends_at(40), (std::vector<int64_t>{6}));
}

}  // namespace
}  // namespace locksim::model
