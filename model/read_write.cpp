#include "model/read_write.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string_view>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
#include "model/holder_story.hpp"

namespace locksim::model {
namespace {

constexpr std::string_view kRead = ":read";
constexpr std::string_view kWrite = ":write";

// "<name>:read" -> {<name>, false}, "<name>:write" -> {<name>, true}; false for other locks.
bool split(const std::string& lock, std::string& name, bool& write) {
  for (const std::string_view side : {kRead, kWrite}) {
    if (lock.size() > side.size() && lock.ends_with(side)) {
      name = lock.substr(0, lock.size() - side.size());
      write = side == kWrite;
      return true;
    }
  }
  return false;
}

// A belief is judged when it begins, as in mutual_exclusion: whether another owner's was still open
// then is known. The story waits for the earlier hold's end (its evidence shows it), or the history's.
class ReadWriteJudge final : public Judge {
 public:
  explicit ReadWriteJudge(const Facts& facts) : facts_(facts) {}

  void advance(const Settled& settled) override {
    if (found_) {
      if (!verdict_ && (found_->first->span.end >= 0 || settled.end()))
        verdict_ = overlap_story(facts_, *found_->first, *found_->second, property::kReadWrite, found_->anomaly);
      return;
    }
    for (auto it = beliefs_from(facts_, next_); it != facts_.beliefs().end(); ++it) {
      const Belief& b = *it;
      next_ = b.span.begin + 1;
      std::string name;
      bool write = false;
      if (!split(b.lock, name, write)) continue;
      Open& on = seen_[name];
      // A belief ended before this one began cannot overlap a later one either.
      const auto ended = [&](const Belief* a) { return a->span.end >= 0 && a->span.end <= b.span.begin; };
      std::erase_if(on.readers, ended);
      std::erase_if(on.writers, ended);
      // The earliest-begun interval of another owner on `side` still open when `b` began.
      auto first_open = [&](const std::vector<const Belief*>& side) -> const Belief* {
        const Belief* first = nullptr;
        for (const Belief* a : side) {
          if (a->owner == b.owner) continue;
          if ((a->span.end < 0 || a->span.end > b.span.begin) && (!first || a->span.begin < first->span.begin)) first = a;
        }
        return first;
      };
      // A new writer conflicts with other writers first, then with readers; a new reader with writers.
      if (const Belief* w = first_open(on.writers))
        found_ = Found{w, &b, write ? anomaly::kWriteOverlap : anomaly::kReadWriteOverlap};
      else if (const Belief* r = write ? first_open(on.readers) : nullptr)
        found_ = Found{r, &b, anomaly::kReadWriteOverlap};
      if (found_) {
        advance(settled);
        return;
      }
      (write ? on.writers : on.readers).push_back(&b);
      ++(write ? writes_ : reads_);
    }
    // What has ended can overlap no belief still to come.
    for (auto& [lock, on] : seen_)
      for (auto* side : {&on.readers, &on.writers}) std::erase_if(*side, [](const Belief* a) { return a->span.end >= 0; });
  }

  Verdict verdict() override {
    if (verdict_) return *verdict_;
    // A reader is judged only against writers: readers alone could never break it.
    if (writes_ == 0) return support::nothing_to_judge(property::kReadWrite, "no owner held the write side of the lock");
    return support::holds(property::kReadWrite, {support::figure("write_intervals", writes_),
                                                 support::figure("read_intervals", reads_),
                                                 support::figure("locks", static_cast<int64_t>(seen_.size()))});
  }

  int64_t needs() const override {
    if (verdict_) return kForever;
    if (found_) return std::min(found_->first->since, found_->second->since);
    int64_t first = next_;
    for (const auto& [lock, on] : seen_)
      for (const auto* side : {&on.readers, &on.writers})
        for (const Belief* a : *side) first = std::min(first, a->since);
    return first;
  }

 private:
  struct Open {
    std::vector<const Belief*> readers, writers;
  };
  struct Found {
    const Belief* first;
    const Belief* second;
    std::string_view anomaly;
  };
  const Facts& facts_;
  int64_t next_ = 0;  // the begin of the next belief to judge, or before it
  int64_t reads_ = 0, writes_ = 0;
  std::map<std::string, Open> seen_;
  std::optional<Found> found_;
  std::optional<Verdict> verdict_;
};

}  // namespace

std::unique_ptr<Judge> read_write_judge(const Facts& facts, const ReadWriteOptions&) {
  return std::make_unique<ReadWriteJudge>(facts);
}

Verdict check_read_write(const Facts& facts, const ReadWriteOptions& options) {
  return judge_whole(*read_write_judge(facts, options), facts);
}

}  // namespace locksim::model
