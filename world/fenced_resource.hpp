#pragma once
// FencedResource: the storage a lock guards, with Kleppmann's remedy: it refuses a write whose
// fencing token is lower than the highest it has accepted. A write with token 0 carries no token
// (the lock hands out none), so the resource cannot judge it and accepts it.
#include <cstdint>

namespace locksim::world {

class FencedResource {
 public:
  // True when accepted.
  bool write(int64_t token) {
    if (token != 0 && token < highest_) return false;
    if (token > highest_) highest_ = token;
    ++accepted_;
    return true;
  }
  int64_t highest() const { return highest_; }
  int64_t accepted() const { return accepted_; }

 private:
  int64_t highest_ = 0;
  int64_t accepted_ = 0;
};

}  // namespace locksim::world
