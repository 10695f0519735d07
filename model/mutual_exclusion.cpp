#include "model/mutual_exclusion.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
#include "model/holder_story.hpp"

namespace locksim::model {
namespace {

class MutualExclusionJudge final : public Judge {
 public:
  explicit MutualExclusionJudge(const Facts& facts) : facts_(facts) {}

  // A belief is judged when it begins: whether another owner's was still open then is known.
  void advance(const Settled& settled) override {
    if (found_) {
      // The story waits for the earlier hold's end (its evidence shows it), or the history's.
      if (!verdict_ && (found_->first->span.end >= 0 || settled.end()))
        verdict_ = overlap_story(facts_, *found_->first, *found_->second, property::kMutualExclusion,
                                 anomaly::kMutexOverlap);
      return;
    }
    for (auto it = beliefs_from(facts_, next_); it != facts_.beliefs().end(); ++it) {
      const Belief& b = *it;
      next_ = b.span.begin + 1;
      ++intervals_;
      auto& earlier = by_lock_[b.lock];
      // Beliefs come in the order they began: one ended by the time this one began has ended for
      // every later one too, so it is dropped, and each belief is compared with those still open.
      std::erase_if(earlier, [&](const Belief* a) { return a->span.end >= 0 && a->span.end <= b.span.begin; });
      const Belief* first = nullptr;
      for (const Belief* a : earlier) {
        if (a->owner == b.owner) continue;
        const bool open = a->span.end < 0 || a->span.end > b.span.begin;
        if (open && (!first || a->span.begin < first->span.begin)) first = a;
      }
      earlier.push_back(&b);
      if (first) {
        found_ = Found{first, &b};
        advance(settled);
        return;
      }
    }
    // What has ended can overlap no belief still to come.
    for (auto& [lock, open] : by_lock_) std::erase_if(open, [](const Belief* a) { return a->span.end >= 0; });
  }

  Verdict verdict() override {
    if (verdict_) return *verdict_;
    if (intervals_ == 0) return support::nothing_to_judge(property::kMutualExclusion, "no owner held the lock");
    return support::holds(property::kMutualExclusion,
                          {support::figure("intervals", intervals_),
                           support::figure("locks", static_cast<int64_t>(by_lock_.size()))});
  }

  int64_t needs() const override {
    if (verdict_) return kForever;
    if (found_) return std::min(found_->first->since, found_->second->since);
    int64_t first = next_;
    for (const auto& [lock, open] : by_lock_)
      for (const Belief* a : open) first = std::min(first, a->since);
    return first;
  }

 private:
  struct Found {
    const Belief* first;
    const Belief* second;
  };
  const Facts& facts_;
  int64_t next_ = 0;  // the begin of the next belief to judge, or before it
  int64_t intervals_ = 0;
  std::map<std::string, std::vector<const Belief*>> by_lock_;  // each lock's beliefs that may still be open
  std::optional<Found> found_;
  std::optional<Verdict> verdict_;
};

}  // namespace

std::unique_ptr<Judge> mutual_exclusion_judge(const Facts& facts, const MutualExclusionOptions&) {
  return std::make_unique<MutualExclusionJudge>(facts);
}

Verdict check_mutual_exclusion(const Facts& facts, const MutualExclusionOptions& options) {
  return judge_whole(*mutual_exclusion_judge(facts, options), facts);
}

}  // namespace locksim::model
