#include "base/atom.hpp"

#include <ostream>
#include <unordered_map>

#include "base/assert.hpp"

namespace locksim {

// Never destroyed, so an atom a static holds outlives nothing it needs. Iterated by nobody: its
// order cannot reach an output.
std::unordered_map<std::string_view, Atom::Rep*>& Atom::table() {
  static auto* t = new std::unordered_map<std::string_view, Rep*>();
  return *t;
}

Atom::Atom(std::string_view text) {
  if (text.empty()) return;
  auto& t = table();
  const auto found = t.find(text);
  if (found != t.end()) {
    rep_ = found->second;
    ++rep_->refs;
    return;
  }
  rep_ = new Rep{std::string(text), 1};
  t.emplace(std::string_view(rep_->text), rep_);  // the key is the rep's own text: stable, it never moves
}

void Atom::release() {
  const size_t erased = table().erase(std::string_view(rep_->text));
  LS_ASSERT(erased == 1);
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
