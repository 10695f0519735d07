#include "client/renewal_entry.hpp"

#include <algorithm>

#include "base/assert.hpp"

namespace locksim::client {

void RenewalEntry::add(int64_t thread) {
  ++counts_[thread];
  queue_.push_back(thread);
}

void RenewalEntry::remove(int64_t thread) {
  const auto it = counts_.find(thread);
  if (it == counts_.end() || --it->second > 0) return;
  counts_.erase(it);
  if (leak_ == EntryLeak::None) {
    std::erase(queue_, thread);
  } else {
    // ConcurrentLinkedQueue.remove(Object): the first copy only.
    const auto copy = std::find(queue_.begin(), queue_.end(), thread);
    LS_ASSERT(copy != queue_.end());
    queue_.erase(copy);
  }
}

int64_t RenewalEntry::first() const {
  LS_ASSERT(!queue_.empty());
  return queue_.front();
}

std::vector<int64_t> RenewalEntry::holders() const {
  std::vector<int64_t> out;
  for (const int64_t t : queue_)
    if (holds(t) && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  return out;
}

}  // namespace locksim::client
