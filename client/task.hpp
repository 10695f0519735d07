#pragma once
// Task<T>: a lazily started coroutine whose result is awaited by its caller (symmetric transfer, so
// deep chains do not grow the stack). Lock clients are written with it once, for every backend.
// Destroying a Task destroys its frame, and with it every Task that frame was awaiting: that is
// how a crashed client's coroutines vanish mid-flight.
#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <utility>

#include "base/frame_pool.hpp"

namespace locksim::client {

template <class T>
class Task;

namespace detail {

struct FinalAwaiter {
  bool await_ready() noexcept { return false; }
  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> h) noexcept {
    auto next = h.promise().continuation;
    return next ? next : std::noop_coroutine();
  }
  void await_resume() noexcept {}
};

struct PromiseBase {
  // Frames are recycled (base/frame_pool.hpp): a simulated run starts and ends very many.
  static void* operator new(size_t size) { return FramePool::allocate(size); }
  static void operator delete(void* frame, size_t size) noexcept { FramePool::deallocate(frame, size); }

  std::coroutine_handle<> continuation;
  std::exception_ptr error;
  std::suspend_always initial_suspend() noexcept { return {}; }
  FinalAwaiter final_suspend() noexcept { return {}; }
  void unhandled_exception() { error = std::current_exception(); }
};

}  // namespace detail

template <class T>
class [[nodiscard]] Task {
 public:
  struct promise_type : detail::PromiseBase {
    std::optional<T> value;
    Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    template <class U>
    void return_value(U&& v) { value.emplace(std::forward<U>(v)); }
  };

  Task() = default;
  explicit Task(std::coroutine_handle<promise_type> h) : handle_(h) {}
  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      if (handle_) handle_.destroy();
      handle_ = std::exchange(other.handle_, {});
    }
    return *this;
  }
  ~Task() {
    if (handle_) handle_.destroy();
  }

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) noexcept {
    handle_.promise().continuation = caller;
    return handle_;
  }
  T await_resume() {
    if (handle_.promise().error) std::rethrow_exception(handle_.promise().error);
    return std::move(*handle_.promise().value);
  }

  std::coroutine_handle<promise_type> handle() const { return handle_; }

 private:
  std::coroutine_handle<promise_type> handle_;
};

template <>
class [[nodiscard]] Task<void> {
 public:
  struct promise_type : detail::PromiseBase {
    Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    void return_void() {}
  };

  Task() = default;
  explicit Task(std::coroutine_handle<promise_type> h) : handle_(h) {}
  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      if (handle_) handle_.destroy();
      handle_ = std::exchange(other.handle_, {});
    }
    return *this;
  }
  ~Task() {
    if (handle_) handle_.destroy();
  }

  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) noexcept {
    handle_.promise().continuation = caller;
    return handle_;
  }
  void await_resume() {
    if (handle_.promise().error) std::rethrow_exception(handle_.promise().error);
  }

  // For the owner of a top-level task: start it, and ask whether it has finished.
  void start() { handle_.resume(); }
  bool done() const { return !handle_ || handle_.done(); }
  std::coroutine_handle<promise_type> handle() const { return handle_; }
  // Rethrows what a finished top-level task threw.
  void rethrow_if_failed() const {
    if (handle_ && handle_.done() && handle_.promise().error) std::rethrow_exception(handle_.promise().error);
  }

 private:
  std::coroutine_handle<promise_type> handle_;
};

}  // namespace locksim::client
