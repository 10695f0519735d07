#pragma once
// Chunks: the history's storage, a sequence of fixed-size chunks that only grows. Unlike a
// vector, appending never moves the events already stored: a long run does not copy its whole
// history on every doubling, nor hold the old and the new copy at once, and a reference to an event
// stays valid until the chunk holding it is dropped. Random access, so histories are still searched
// by time. A stream drops what lies before what it still needs (drop_before): indices stay what
// they were, and the storage before them is freed a chunk at a time.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <vector>

#include "base/assert.hpp"

namespace locksim::model {

template <typename T>
class Chunks {
  // 128 per chunk (48 KiB of Events): below malloc's mmap threshold, so a new world's chunks come
  // from reused heap, not fresh pages the kernel must fault in.
  static constexpr size_t kShift = 7;
  static constexpr size_t kChunk = size_t{1} << kShift;

 public:
  // Read-only: what is stored is never changed, only added to.
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using iterator_concept = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;

    const_iterator() = default;
    const_iterator(const Chunks* owner, size_t i) : owner_(owner), i_(i) {}
    reference operator*() const { return (*owner_)[i_]; }
    pointer operator->() const { return &(*owner_)[i_]; }
    reference operator[](difference_type n) const { return *(*this + n); }
    const_iterator& operator++() { ++i_; return *this; }
    const_iterator operator++(int) { const_iterator old = *this; ++i_; return old; }
    const_iterator& operator--() { --i_; return *this; }
    const_iterator operator--(int) { const_iterator old = *this; --i_; return old; }
    const_iterator& operator+=(difference_type n) {
      i_ = static_cast<size_t>(static_cast<difference_type>(i_) + n);
      return *this;
    }
    const_iterator& operator-=(difference_type n) { return *this += -n; }
    friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
    friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
    friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.i_ <=> b.i_; }

   private:
    const Chunks* owner_ = nullptr;
    size_t i_ = 0;
  };

  Chunks() = default;
  Chunks(Chunks&&) noexcept = default;
  Chunks& operator=(Chunks&&) noexcept = default;
  // A copy's last chunk gets its room back, so that appending to the copy moves nothing either.
  Chunks(const Chunks& other) : chunks_(other.chunks_), size_(other.size_), first_(other.first_) {
    if (!chunks_.empty()) chunks_.back().reserve(kChunk);
  }
  Chunks& operator=(const Chunks& other) { return *this = Chunks(other); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The first index still stored (0 unless drop_before dropped some).
  size_t first() const { return first_; }
  const T& operator[](size_t i) const {
    LS_ASSERT(i >= first_);
    LS_ASSERT(i < size_);
    return chunks_[(i - first_) >> kShift][i & (kChunk - 1)];
  }
  const T& back() const { return (*this)[size_ - 1]; }
  const_iterator begin() const { return {this, first_}; }
  const_iterator end() const { return {this, size_}; }

  void push_back(T value) {
    if (((size_ - first_) >> kShift) == chunks_.size()) {
      chunks_.emplace_back();
      chunks_.back().reserve(kChunk);  // room only: a short history touches (and faults in) what it uses
    }
    chunks_.back().push_back(std::move(value));
    ++size_;
  }

  // Frees the chunks wholly before index `i`; what is from the chunk holding `i` on stays, and so
  // does the last element (back() is always there).
  void drop_before(size_t i) {
    if (size_ == 0) return;
    const size_t chunk = std::min(i, size_ - 1) >> kShift;
    while ((first_ >> kShift) < chunk) {
      chunks_.pop_front();
      first_ += kChunk;
    }
  }

 private:
  std::deque<std::vector<T>> chunks_;  // each reserved to kChunk, so never reallocated; from first_ on
  size_t size_ = 0;
  size_t first_ = 0;  // a multiple of kChunk
};

}  // namespace locksim::model
