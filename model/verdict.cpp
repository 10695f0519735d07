#include "model/verdict.hpp"

namespace locksim::model {

const Evidence* Verdict::find(std::string_view role) const {
  for (const Evidence& e : evidence)
    if (e.role == role) return &e;
  return nullptr;
}

std::string_view to_string(Validity v) {
  switch (v) {
    case Validity::Yes: return "holds";
    case Validity::No: return "violated";
    case Validity::Unknown: return "unknown";
  }
  return "unknown";
}

Validity merge(Validity a, Validity b) {
  if (a == Validity::No || b == Validity::No) return Validity::No;
  if (a == Validity::Unknown || b == Validity::Unknown) return Validity::Unknown;
  return Validity::Yes;
}

}  // namespace locksim::model
