#pragma once
// InlineFunction<R(), Capacity>: a move-only callable of no arguments that keeps a callable of up to `Capacity` bytes inside
// itself rather than on the heap. The world schedules hundreds of thousands of small closures each
// simulated minute (a request's arrival, a reply's, a timeout); std::function holds only 16 bytes in
// place (libstdc++), so nearly each of them cost an allocation and a free. A larger callable, or one
// that might throw when moved, does not compile: a closure that quietly went to the heap on every
// request is what this type is for ruling out, so the fix is to capture less or raise `Capacity`.
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "base/assert.hpp"

namespace locksim {

template <typename Signature, size_t Capacity>
class InlineFunction;

template <typename R, size_t Capacity>
class InlineFunction<R(), Capacity> {
 public:
  InlineFunction() = default;
  InlineFunction(std::nullptr_t) {}  // NOLINT: as std::function
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, InlineFunction> &&
                                                    std::is_invocable_r_v<R, std::decay_t<F>&>>>
  InlineFunction(F&& f) {  // NOLINT: as std::function, so a lambda converts
    using Fn = std::decay_t<F>;
    static_assert(sizeof(Fn) <= Capacity,
                  "this closure is larger than its InlineFunction's buffer: capture less, or raise its Capacity");
    static_assert(alignof(Fn) <= alignof(std::max_align_t) && std::is_nothrow_move_constructible_v<Fn>,
                  "this closure cannot be moved in place without a chance of throwing");
    ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
    ops_ = &kInlineOps<Fn>;
  }
  InlineFunction(InlineFunction&& other) noexcept { take(other); }
  InlineFunction& operator=(InlineFunction&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  InlineFunction& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }
  InlineFunction(const InlineFunction&) = delete;
  InlineFunction& operator=(const InlineFunction&) = delete;
  ~InlineFunction() { reset(); }

  // Whether a callable of type F can be kept (in place: there is no other way).
  template <typename F>
  static constexpr bool kept_inline = sizeof(std::decay_t<F>) <= Capacity &&
                                      alignof(std::decay_t<F>) <= alignof(std::max_align_t) &&
                                      std::is_nothrow_move_constructible_v<std::decay_t<F>>;

  explicit operator bool() const { return ops_ != nullptr; }
  R operator()() {
    LS_ASSERT(ops_ != nullptr);
    return ops_->call(storage_);
  }

 private:
  struct Ops {
    R (*call)(void* storage);
    void (*move)(void* from, void* to) noexcept;  // leaves `from` destroyed
    void (*destroy)(void* storage) noexcept;
  };

  template <typename Fn>
  static constexpr Ops kInlineOps = {
      [](void* s) -> R { return (*std::launder(static_cast<Fn*>(s)))(); },
      [](void* from, void* to) noexcept {
        Fn* f = std::launder(static_cast<Fn*>(from));
        ::new (to) Fn(std::move(*f));
        f->~Fn();
      },
      [](void* s) noexcept { std::launder(static_cast<Fn*>(s))->~Fn(); },
  };
  void take(InlineFunction& other) noexcept {
    if (other.ops_ == nullptr) return;
    other.ops_->move(other.storage_, storage_);
    ops_ = other.ops_;
    other.ops_ = nullptr;
  }
  void reset() noexcept {
    if (ops_ == nullptr) return;
    const Ops* ops = ops_;
    ops_ = nullptr;
    ops->destroy(storage_);
  }

  static_assert(Capacity >= sizeof(void*));
  alignas(std::max_align_t) unsigned char storage_[Capacity];
  const Ops* ops_ = nullptr;
};

}  // namespace locksim
