#pragma once
// Differential tests of replies whose order Redis leaves unspecified (a hashtable's iteration:
// SMEMBERS of a set that is not an intset, KEYS, what SCAN returns): the elements are compared as
// a set, sorted on both sides, and everything else (type, errors, integers) exactly.
#include <algorithm>
#include <string>
#include <vector>

#include "verify/support/differential.hpp"

namespace locksim::test {

// An array reply with its elements sorted by their rendering; any other reply as it is.
inline Reply sorted_elements(Reply reply) {
  if (reply.kind != Reply::Kind::Array) return reply;
  std::sort(reply.elements.begin(), reply.elements.end(),
            [](const Reply& a, const Reply& b) { return describe(a) < describe(b); });
  return reply;
}

class DifferentialUnordered : public Differential {
 protected:
  // Sends argv to both and expects the same reply up to the order of a top-level array.
  void expect_same_elements(const std::vector<std::string>& argv) {
    auto [fake, live] = both(argv);
    std::string command;
    for (const auto& arg : argv) command += (command.empty() ? "" : " ") + arg.substr(0, 60);
    EXPECT_EQ(describe(sorted_elements(fake)), describe(sorted_elements(live))) << "command: " << command;
  }
};

}  // namespace locksim::test
