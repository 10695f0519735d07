#pragma once
// FencedResource: the storage a lock guards, with Kleppmann's remedy: it refuses a write whose
// fencing token is lower than the highest it has accepted (FenceRule::NotLower, ">=": a holder writes
// again with its own token, and so may anyone who got the same token; Redisson's FencedLock docs ask
// for this rule), or not greater than it (FenceRule::Greater, ">": a token is good for one write). A
// write with token 0 carries no token (the lock hands out none), so the resource cannot judge it and
// accepts it.
#include <cstdint>

namespace locksim::world {

enum class FenceRule { NotLower, Greater };

class FencedResource {
 public:
  explicit FencedResource(FenceRule rule = FenceRule::NotLower) : rule_(rule) {}
  // True when accepted.
  bool write(int64_t token) {
    if (token != 0 && (token < highest_ || (rule_ == FenceRule::Greater && token == highest_))) return false;
    if (token > highest_) highest_ = token;
    ++accepted_;
    return true;
  }
  int64_t highest() const { return highest_; }
  int64_t accepted() const { return accepted_; }

 private:
  FenceRule rule_;
  int64_t highest_ = 0;
  int64_t accepted_ = 0;
};

}  // namespace locksim::world
