#pragma once
// The protected resource: a counter that clients read and then write inside their critical
// section, through the lock's own server, judged from the server's log alone (no client notes, so
// any client in any language is judged). Exec events with role "resource_read" (the value read)
// and "resource_write" (the value written, or an update of any other kind) on a resource `lock`.
// A write whose writer read the resource last, before another owner's update of it, was computed
// from a stale value: the two critical sections overlapped and an update is lost (anomaly
// lost-update). Writes not preceded by a read of the same owner (INCR, a blind SET) are not judged,
// and a history with no read-then-write to judge is Unknown, never "holds".
#include <memory>

#include "model/facts.hpp"
#include "model/judge.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

inline constexpr std::string_view kResourceRead = "resource_read";
inline constexpr std::string_view kResourceWrite = "resource_write";

struct ProtectedResourceOptions {};

Verdict check_protected_resource(const Facts& facts, const ProtectedResourceOptions& options = {});
std::unique_ptr<Judge> protected_resource_judge(const Facts& facts, const ProtectedResourceOptions& options = {});

}  // namespace locksim::model
