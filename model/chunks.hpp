#pragma once
// Chunks: the history's storage, a sequence of fixed-size chunks that only grows. Unlike a
// vector, appending never moves the events already stored: a long run does not copy its whole
// history on every doubling, nor hold the old and the new copy at once, and a reference to an event
// stays valid for the history's life. Random access, so histories are still searched by time.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "base/assert.hpp"

namespace locksim::model {

template <typename T>
class Chunks {
  static constexpr size_t kShift = 7;  // 128 per chunk (48 KiB of Events): below malloc's mmap threshold, so a chunk comes from reused heap rather than fresh pages the kernel must fault in
  static constexpr size_t kChunk = size_t{1} << kShift;

 public:
  template <bool Const>
  class Iter {
    using Owner = std::conditional_t<Const, const Chunks, Chunks>;

   public:
    using iterator_category = std::random_access_iterator_tag;
    using iterator_concept = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<Const, const T*, T*>;
    using reference = std::conditional_t<Const, const T&, T&>;

    Iter() = default;
    Iter(Owner* owner, size_t i) : owner_(owner), i_(i) {}
    reference operator*() const { return (*owner_)[i_]; }
    pointer operator->() const { return &(*owner_)[i_]; }
    reference operator[](difference_type n) const { return (*owner_)[static_cast<size_t>(static_cast<difference_type>(i_) + n)]; }
    Iter& operator++() { ++i_; return *this; }
    Iter operator++(int) { Iter old = *this; ++i_; return old; }
    Iter& operator--() { --i_; return *this; }
    Iter operator--(int) { Iter old = *this; --i_; return old; }
    Iter& operator+=(difference_type n) { i_ = static_cast<size_t>(static_cast<difference_type>(i_) + n); return *this; }
    Iter& operator-=(difference_type n) { return *this += -n; }
    friend Iter operator+(Iter it, difference_type n) { return it += n; }
    friend Iter operator+(difference_type n, Iter it) { return it += n; }
    friend Iter operator-(Iter it, difference_type n) { return it -= n; }
    friend difference_type operator-(const Iter& a, const Iter& b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const Iter& a, const Iter& b) { return a.i_ == b.i_; }
    friend auto operator<=>(const Iter& a, const Iter& b) { return a.i_ <=> b.i_; }

   private:
    Owner* owner_ = nullptr;
    size_t i_ = 0;
  };
  using iterator = Iter<false>;
  using const_iterator = Iter<true>;

  Chunks() = default;
  Chunks(Chunks&&) noexcept = default;
  Chunks& operator=(Chunks&&) noexcept = default;
  Chunks(const Chunks& other) { for (const T& x : other) push_back(x); }
  Chunks& operator=(const Chunks& other) {
    if (this != &other) {
      Chunks copy(other);
      *this = std::move(copy);
    }
    return *this;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const {
    LS_ASSERT(i < size_);
    return chunks_[i >> kShift][i & (kChunk - 1)];
  }
  T& operator[](size_t i) {
    LS_ASSERT(i < size_);
    return chunks_[i >> kShift][i & (kChunk - 1)];
  }
  const T& back() const { return (*this)[size_ - 1]; }
  T& back() { return (*this)[size_ - 1]; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }
  iterator begin() { return {this, 0}; }
  iterator end() { return {this, size_}; }

  void push_back(T value) {
    if ((size_ >> kShift) == chunks_.size()) {
      chunks_.emplace_back();
      chunks_.back().reserve(kChunk);  // room only: a short history touches (and faults in) what it uses
    }
    chunks_.back().push_back(std::move(value));
    ++size_;
  }

 private:
  std::vector<std::vector<T>> chunks_;  // each reserved to kChunk, so never reallocated
  size_t size_ = 0;
};

}  // namespace locksim::model
