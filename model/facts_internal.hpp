#pragma once
// Only for the files that implement Facts (facts_passes.cpp, key_states.cpp, free_spans.cpp): the
// second pass's working state, which follows operations and keys at once, and the parsing they share.
#include <charconv>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/facts.hpp"

namespace locksim::model {

inline std::string pair_key(const std::string& owner, const std::string& lock) { return owner + '\n' + lock; }

// "<prefix>:<thread>" or "<prefix>:<thread>:write": a holder's field. Its prefix is a view of the
// field parsed.
struct HolderField {
  std::string_view prefix;
  int64_t thread = 0;
  bool write = false;
};

inline std::optional<HolderField> parse_holder(std::string_view field) {
  HolderField h;
  if (field.ends_with(":write")) {
    h.write = true;
    field.remove_suffix(6);
  }
  const size_t colon = field.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == field.size()) return std::nullopt;
  const std::string_view digits = field.substr(colon + 1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), h.thread);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  h.prefix = field.substr(0, colon);
  return h;
}

// Calls `each` with every item of a rendered list "[a,b]", as views of it.
template <typename Each>
void for_each_listed(std::string_view rendered, Each each) {
  if (rendered.size() < 2) return;
  rendered = rendered.substr(1, rendered.size() - 2);
  while (!rendered.empty()) {
    const size_t comma = rendered.find(',');
    each(rendered.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rendered.remove_prefix(comma + 1);
  }
}

inline bool is_acquire_op(std::string_view f) { return f == "lock" || f == "try_lock"; }

// What the second pass carries from one event to the next.
struct Facts::Tracking {
  explicit Tracking(Facts& facts) : facts(facts), creator(facts.keys_.size()), parsed_queue(facts.keys_.size()),
                                    before_fault(facts.keys_.size()) {
    for (size_t i = 0; i < facts.keys_.size(); ++i) {
      index[{facts.keys_[i].server, facts.keys_[i].key}] = i;
      facts.keys_[i].states.push_back(KeyState{});
    }
  }
  void push(size_t k, KeyState s);
  void reveal(size_t k, bool present, const std::optional<std::string>& value);
  // Key k's waiter queue, from an Exec's rendering of it.
  std::shared_ptr<const std::vector<std::string>> queue(size_t k, const Atom& rendered);

  Facts& facts;
  // Beliefs under way, by owner + lock: the belief, its unmatched acquires (whether each had no
  // lease, innermost last), and its spans of right.
  struct OpenBelief {
    size_t belief;  // its position among all beliefs, retired ones included
    std::vector<bool> leaseless;
    int64_t right = -1, believed = -1;
  };
  std::map<std::string, OpenBelief> open_beliefs;
  std::map<int64_t, int64_t> op_rights;  // an acquire or unlock under way -> its span of right
  std::map<int64_t, int64_t> op_acquiring;  // an acquire under way -> its span in Waiting::acquiring
  // Keys follow the events of a millisecond once it is over, when every right that began or ended
  // in it is known: the events from `untracked` on are still to follow.
  int64_t ms = -1;
  int64_t untracked = 0;
  // Views of keys_'s names: keys_ does not change size in this pass.
  std::map<std::pair<std::string_view, std::string_view>, size_t> index;
  std::vector<std::string> creator;
  // Each key's latest queue rendering, parsed.
  std::vector<std::pair<Atom, std::shared_ptr<const std::vector<std::string>>>> parsed_queue;
  // What each key was before the restart or failover that left it unknown (a restored copy may
  // still be it), with its creator.
  std::vector<std::optional<std::pair<KeyState, std::string>>> before_fault;
  // Each key's latest claims_of, by value and creator: most executions leave a key's value as it
  // was (a renewal, a refused acquire), and parsing it again is most of what following keys costs.
  struct ClaimsMemo {
    Atom value;
    std::string creator;
    std::vector<Claim> claims;
    bool valid = false;
  };
  std::vector<ClaimsMemo> claims_memo = std::vector<ClaimsMemo>(facts.keys_.size());
  // claims_of(keys_[k], value, creator), from the memo where nothing it reads has changed. A
  // ReadWriteLock's reader claims also read the reader timeouts, which change apart from the value:
  // those are never remembered.
  std::vector<Claim> claims_of(size_t k, const Atom& value, const std::string& creator) {
    if (facts.type_ && facts.type_->sides) return facts.claims_of(facts.keys_[k], value, creator);
    ClaimsMemo& memo = claims_memo[k];
    if (!memo.valid || memo.value != value || memo.creator != creator) {
      memo.claims = facts.claims_of(facts.keys_[k], value, creator);
      memo.value = value;
      memo.creator = creator;
      memo.valid = true;
    }
    return memo.claims;
  }
};

}  // namespace locksim::model
