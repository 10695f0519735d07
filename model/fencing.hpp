#pragma once
// Fencing: what a fencing token promises the resource it guards. Per resource (a Write event's
// `lock`), every write the resource accepted from a holder (its owner, client:thread) carries a
// token strictly greater than every token it accepted before from any other holder. So a token
// lower than one another holder used is a violation (fencing-order), and so is the same token
// accepted from two holders (shared-token): a token two holders share fences nothing, which is
// Kleppmann's point that the token source must never hand one out twice. One holder writing twice
// with its token is fine. Writes carrying no token (0) are not judged unless `unfenced_is_zero`.
// Evidence: both writes, and where each token came from (the server's execution that handed it
// out) with the server faults in between. Applies to lock types that hand out tokens (token,
// client-reentrant).
#include <memory>

#include "model/facts.hpp"
#include "model/judge.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct FencingOptions {
  // Treat an accepted write without a token as token 0, i.e. as going below any fenced write.
  bool unfenced_is_zero = false;
};

Verdict check_fencing(const Facts& facts, const FencingOptions& options = {});
std::unique_ptr<Judge> fencing_judge(const Facts& facts, const FencingOptions& options = {});

}  // namespace locksim::model
