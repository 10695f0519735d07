#include "base/atom.hpp"

#include <bit>
#include <cstring>
#include <ostream>
#include <vector>

#include "base/assert.hpp"

namespace locksim {

namespace {

// 8 bytes at a time, multiply and rotate; the table indexes by the top bits, which the last multiply
// mixes best. Only equal texts must hash equal: which slot a text gets reaches no output.
uint64_t hash_text(std::string_view text) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = text.size() * kMul;
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    h = (std::rotl(h, 23) ^ word) * kMul;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, text.data() + i, text.size() - i);
  return (std::rotl(h, 23) ^ tail) * kMul;
}

}  // namespace

// Open addressing with linear probing over a power-of-two array, at most half full; a removed text
// leaves no tombstone (the entries after it move back), so lookups never slow with churn.
class Atom::Table {
 public:
  Table() : slots_(1024, nullptr), shift_(64 - 10) {}

  Rep* intern(std::string_view text) {
    const uint64_t h = hash_text(text);
    size_t i = home(h);
    while (Rep* rep = slots_[i]) {
      if (rep->hash == h && rep->text == text) return rep;
      i = next(i);
    }
    Rep* rep = new Rep{std::string(text), 0, h};
    slots_[i] = rep;
    if (++size_ * 2 > slots_.size()) grow();
    return rep;
  }

  void erase(const Rep* rep) {
    size_t i = home(rep->hash);
    while (slots_[i] != rep) {
      LS_ASSERT(slots_[i] != nullptr);
      i = next(i);
    }
    slots_[i] = nullptr;
    --size_;
    // Backward shift: an entry after the hole whose home is not between the hole and it moves in.
    for (size_t j = next(i); slots_[j] != nullptr; j = next(j)) {
      const size_t k = home(slots_[j]->hash);
      const bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      slots_[j] = nullptr;
      i = j;
    }
  }

  size_t size() const { return size_; }

 private:
  size_t home(uint64_t h) const { return static_cast<size_t>(h >> shift_); }
  size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }
  void grow() {
    std::vector<Rep*> old(slots_.size() * 2, nullptr);
    old.swap(slots_);
    --shift_;
    for (Rep* rep : old) {
      if (rep == nullptr) continue;
      size_t i = home(rep->hash);
      while (slots_[i] != nullptr) i = next(i);
      slots_[i] = rep;
    }
  }

  std::vector<Rep*> slots_;
  unsigned shift_;
  size_t size_ = 0;
};

// Never destroyed, so an atom a static holds outlives nothing it needs.
Atom::Table& Atom::table() {
  static auto* t = new Table();
  return *t;
}

Atom::Atom(std::string_view text) {
  if (text.empty()) return;
  rep_ = table().intern(text);
  ++rep_->refs;
}

void Atom::release() {
  table().erase(rep_);
  delete rep_;
  rep_ = nullptr;
}

const std::string& Atom::empty_text() {
  static const std::string empty;
  return empty;
}

size_t Atom::live_count() { return table().size(); }

std::ostream& operator<<(std::ostream& out, const Atom& a) { return out << a.view(); }

}  // namespace locksim
