// Unit: InlineFunction keeps a callable in place, runs it, moves it and destroys it
// exactly once, like the std::function it replaces on the world's agenda.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "base/inline_function.hpp"

namespace locksim {
namespace {

// Counts the live copies of a callable, so that a leak or a double destruction shows.
struct Census {
  int live = 0;
  int calls = 0;
};

template <size_t Padding, bool NothrowMove = true>
struct Counted {
  Census* census;
  std::array<char, Padding> padding{};
  explicit Counted(Census* c) : census(c) { ++census->live; }
  Counted(const Counted& other) : census(other.census), padding(other.padding) { ++census->live; }
  Counted(Counted&& other) noexcept(NothrowMove) : census(other.census), padding(other.padding) { ++census->live; }
  Counted& operator=(const Counted&) = delete;
  ~Counted() { --census->live; }
  void operator()() { ++census->calls; }
};

using Small = Counted<8>;            // fits in place
using Large = Counted<200>;          // too large to keep
using Throwing = Counted<8, false>;  // small, but its move may throw

template <typename Callable>
void check_lifetime() {
  Census census;
  {
    InlineFunction<void(), 64> f{Callable(&census)};
    EXPECT_EQ(census.live, 1);
    f();
    InlineFunction<void(), 64> g = std::move(f);
    EXPECT_FALSE(static_cast<bool>(f));  // NOLINT(bugprone-use-after-move): moved-from is empty
    EXPECT_TRUE(static_cast<bool>(g));
    EXPECT_EQ(census.live, 1);
    g();
    InlineFunction<void(), 64> h;
    h = std::move(g);
    h();
    EXPECT_EQ(census.live, 1);
    EXPECT_EQ(census.calls, 3);
    h = nullptr;  // destroys what it held
    EXPECT_EQ(census.live, 0);
    EXPECT_FALSE(static_cast<bool>(h));
    h = InlineFunction<void(), 64>{Callable(&census)};
    EXPECT_EQ(census.live, 1);
  }
  EXPECT_EQ(census.live, 0);
}

TEST(InlineFunction, ACallableKeptInPlaceLivesOnceAcrossMovesAndIsDestroyedOnce) {
  static_assert(InlineFunction<void(), 64>::kept_inline<Small>);
  check_lifetime<Small>();
}

// Constructing an InlineFunction from either does not compile (the constructor's static_asserts say
// why); the trait tells a caller beforehand.
TEST(InlineFunction, ACallableTooLargeOrWhoseMoveMayThrowCannotBeKept) {
  static_assert(!InlineFunction<void(), 64>::kept_inline<Large>);
  static_assert(!InlineFunction<void(), 64>::kept_inline<Throwing>);
}

TEST(InlineFunction, ReturnsWhatItsCallableReturnsAndKeepsItsCapturesAlive) {
  auto shared = std::make_shared<std::string>("kept");
  std::weak_ptr<std::string> watch = shared;
  InlineFunction<std::optional<bool>(), 64> answer = [s = std::move(shared)]() -> std::optional<bool> {
    return *s == "kept";
  };
  EXPECT_FALSE(watch.expired());
  EXPECT_EQ(answer(), std::optional<bool>(true));
  InlineFunction<std::optional<bool>(), 64> moved = std::move(answer);
  EXPECT_EQ(moved(), std::optional<bool>(true));
  moved = nullptr;
  EXPECT_TRUE(watch.expired());  // the capture went with the callable
  InlineFunction<std::optional<bool>(), 64> none = [] { return std::optional<bool>(); };
  EXPECT_EQ(none(), std::nullopt);
}

TEST(InlineFunction, AnExceptionFromTheCallableReachesTheCaller) {
  InlineFunction<void(), 32> f = [] { throw std::runtime_error("from the callable"); };
  EXPECT_THROW(f(), std::runtime_error);
}

}  // namespace
}  // namespace locksim
