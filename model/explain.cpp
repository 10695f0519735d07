#include "model/explain.hpp"

#include <functional>
#include <map>

#include "model/anomaly.hpp"
#include "model/facts.hpp"
#include "model/fault_events.hpp"
#include "model/rendered.hpp"

namespace locksim::model {
namespace {

std::string ms(int64_t t) { return std::to_string(t) + " ms"; }
std::string fair_starved(const Verdict& v);

std::string figure(const Verdict& v, std::string_view name, int64_t otherwise = 0) {
  for (const Evidence& e : v.evidence)
    if (e.role == "figure" && e.where == name) return std::to_string(e.number);
  return std::to_string(otherwise);
}

int64_t number(const Verdict& v, std::string_view name) {
  for (const Evidence& e : v.evidence)
    if (e.role == "figure" && e.where == name) return e.number;
  return 0;
}

// A figure with its noun, singular for one: "1 holding interval", "3 holding intervals".
std::string counted(const Verdict& v, std::string_view name, std::string_view noun, std::string_view nouns) {
  const int64_t n = number(v, name);
  return std::to_string(n) + " " + std::string(n == 1 ? noun : nouns);
}

std::vector<const Evidence*> all(const Verdict& v, std::string_view role) {
  std::vector<const Evidence*> out;
  for (const Evidence& e : v.evidence)
    if (e.role == role) out.push_back(&e);
  return out;
}

std::string fault_text(const Evidence& f) {
  std::string s = f.state + " of " + f.who + " at " + ms(f.from_ms);
  if (f.to_ms == kForever) s += " (to the end)";
  else if (f.to_ms > f.from_ms) s += " for " + ms(f.to_ms - f.from_ms);
  if (f.state == "delay") s += " (+" + ms(f.number) + " a message)";
  if (f.state == "loss") s += " (" + std::to_string(f.number) + " per thousand)";
  if (f.state == "failover" && f.number > 0) s += " (replica " + ms(f.number) + " behind)";
  if (f.state == fault_name::kErrorReply && !f.where.empty()) s += " (answering every command \"" + f.where + "\")";
  if (f.state == fault_name::kReset) s += " (its requests in flight failed; it reconnected)";
  return s;
}

std::string faults_meanwhile(const Verdict& v) {
  const auto faults = all(v, "fault");
  if (faults.empty()) return "";
  std::string s = " Faults meanwhile: ";
  for (size_t i = 0; i < faults.size(); ++i) s += (i ? "; " : "") + fault_text(*faults[i]);
  return s + ".";
}

std::string until(const Evidence& span) {
  return span.to_ms == kForever || span.to_ms < 0 ? "to the end of the history" : "until " + ms(span.to_ms);
}

std::string key_state(const Evidence& k) {
  if (k.state.empty()) return "no key";
  return "\"" + k.state + "\"";
}

std::string fate_text(const Evidence& c, const std::string& whose) {
  std::string s = "in " + c.where + ", " + whose + "'s hold ";
  if (c.state == "expired") return s + "had expired at " + ms(c.from_ms);
  if (c.state == "removed") return s + "had been removed by " + c.who + " at " + ms(c.from_ms);
  if (c.state == "lost") return s + "had been lost in the " + c.who + " at " + ms(c.from_ms);
  return s + "was still there";
}

std::string overlap(const Verdict& v) {
  const Evidence* first = v.find("first_hold");
  const Evidence* second = v.find("second_hold");
  if (!first || !second) return v.anomaly;
  auto ran = [](const Evidence& g) {
    return "its acquire ran on " + g.who + " at " + ms(g.from_ms) + "; the reply reached it " + ms(g.number) + " later";
  };
  std::string s = "Let " + first->who + " hold " + first->where + " from " + ms(first->from_ms);
  if (const Evidence* g = v.find("first_grant")) s += " (" + ran(*g) + ")";
  s += ". Then " + second->who + " acquired " + second->where + " at " + ms(second->from_ms);
  if (const Evidence* g = v.find("second_grant")) s += " (" + ran(*g) + ")";
  s += " while " + first->who + " still believed it held " + first->where + " (" + until(*first) + ")";
  for (const Evidence* c : all(v, "first_claim")) s += "; " + fate_text(*c, first->who);
  // The later believer was let in first, and learnt it late.
  for (const Evidence* c : all(v, "second_claim"))
    s += "; " + fate_text(*c, second->who) + ", before " + first->who + "'s acquire ran there";
  return s + "." + faults_meanwhile(v);
}

std::string fencing(const Verdict& v) {
  const Evidence* a = v.find("earlier_write");
  const Evidence* b = v.find("later_write");
  if (!a || !b) return v.anomaly;
  std::string res = a->where.empty() ? "the resource" : a->where;
  auto source = [&](std::string_view role) {
    const Evidence* t = v.find(role);
    return t ? " (handed out by " + t->who + " at " + ms(t->from_ms) + ")" : std::string();
  };
  std::string s = "Let " + res + " accept a write from " + a->who + " with token " + std::to_string(a->number) + " at " +
                  ms(a->from_ms) + source("earlier_token") + ". Then it accepted a write from " + b->who + ", another holder, ";
  if (v.anomaly == anomaly::kSharedToken)
    s += "with the same token " + std::to_string(b->number) + " at " + ms(b->from_ms) + source("later_token") +
         ": a token two holders share fences nothing.";
  else
    s += "with token " + std::to_string(b->number) + " at " + ms(b->from_ms) + source("later_token") + ", lower than " +
         std::to_string(a->number) + ".";
  return s + faults_meanwhile(v);
}

std::string expiry_text(int64_t at) { return at == kNoExpiry ? "none" : at == kUnknownExpiry ? "unknown" : ms(at); }

// "1 ms, 2301 ms and 2302 ms".
std::string times_text(const std::vector<const Evidence*>& events) {
  std::string s;
  for (size_t i = 0; i < events.size(); ++i)
    s += (i == 0 ? "" : i + 1 == events.size() ? " and " : ", ") + ms(events[i]->from_ms);
  return s;
}

std::string reentrancy(const Verdict& v) {
  const Evidence* op = v.find("operation");
  const Evidence* sender = v.find("sender");
  const Evidence* exec = v.find("execution");
  const Evidence* count = v.find("count");
  const Evidence* key = v.find("key");
  const Evidence* outcome = v.find("outcome");
  // A request of no operation (a renewal) is told by its sender and execution.
  if (!op && !(sender && exec)) return v.anomaly;
  std::string s = op ? "Let " + op->who + " " + op->state + " " + op->where + " at " + ms(op->from_ms)
                     : "Let " + sender->who + "'s " + sender->state + " run on " + exec->where + " at " +
                           ms(exec->from_ms) + " (reply " + exec->state + ")";
  const std::string then = op && exec ? ". Then its execution on " + exec->where + " at " + ms(exec->from_ms) +
                                            " (reply " + exec->state + ")"
                                      : ". Then it";
  bool client_counted = false;
  for (const Evidence& e : v.evidence) client_counted = client_counted || (e.role == "figure" && e.where == "depth_after");
  bool removals = false;
  for (const Evidence& e : v.evidence) removals = removals || (e.role == "figure" && e.where == "removals");
  if (removals) return s + ". Then that one unlock removed the key " + figure(v, "removals") + " times.";
  if (client_counted) {
    const std::string depth = figure(v, "depth_after");
    if (v.anomaly == anomaly::kNotFreedAtZero)
      return s + ", taking its count to 0. Then the unlock reported success and the key stayed.";
    if (v.anomaly == anomaly::kUnlockByNonHolder)
      return s + " holding nothing. Then the unlock " +
             (outcome && outcome->state == "ok" ? "succeeded" : std::string("changed the key")) + ".";
    return s + ", leaving its count at " + depth + ". Then " + (op->state == "unlock" ? "the key was released" : "the re-entry changed the key") +
           " on the server.";
  }
  if (v.anomaly == anomaly::kReentryNotRefused && exec && count)
    return s + " while holding it (count " + figure(v, "count_before") + ")" + then + " " +
           (is_grant_reply(exec->state) ? "granted it again" : "told it to wait") +
           ", where a non-reentrant lock refuses its holder's second acquire at once.";
  bool expiry = false;
  for (const Evidence& e : v.evidence) expiry = expiry || (e.role == "figure" && e.where == "expiry_before");
  if (expiry && exec) {
    s += " holding nothing in the key" + then + " moved the key's expiry from " + expiry_text(number(v, "expiry_before")) +
         " to " + expiry_text(number(v, "expiry_after")) + ", where an unlock by a non-holder changes nothing";
    if (key) s += " (the key: " + key->state + ")";
    return s + ".";
  }
  if (v.anomaly == anomaly::kUnlockByNonHolder && !count) {
    if (outcome && outcome->state != "ok") return s + " holding nothing in the key. Then its unlock changed the key.";
    s += " holding nothing in the key. Then its unlock succeeded";
    if (outcome) s += " at " + ms(outcome->from_ms);
    return s + ".";
  }
  if (!exec || !count) return s + ".";
  if (count->state == "its hold left alone")
    return s + ". Then its execution on " + count->where + " at " + ms(exec->from_ms) + " removed the key, which held " +
           count->who + "'s hold.";
  // A ReadWriteLock counts each side apart.
  std::string side;
  if ((op && (op->where.ends_with(":read") || op->where.ends_with(":write"))) || count->where.ends_with(":write"))
    side = count->where.ends_with(":write") ? " write" : " read";
  bool between = false;
  for (const Evidence& e : v.evidence) between = between || (e.role == "figure" && e.where == "count_expected");
  if (between) {
    // A count that moved between executions: what the executions before made it, and what came in between.
    s += then + " found " + count->who + "'s" + side + " count at " + figure(v, "count_found") +
         ", where the acquires and unlocks that ran there make it " + figure(v, "count_expected");
    const auto counted = all(v, "counted");
    if (!counted.empty()) s += " (its unmatched acquires ran at " + times_text(counted) + ")";
    if (key) s += " (the key: " + key->state + ")";
    return s + "." + faults_meanwhile(v);
  }
  s += then + " took " + count->who + "'s" + side + " count from " + figure(v, "count_before") + " to " +
       figure(v, "count_after") + ", where the reference model says " + count->state;
  if (key) s += " (the key: " + key->state + ")";
  return s + ".";
}

std::string lapse(const Verdict& v) {
  const Evidence* hold = v.find("hold");
  const Evidence* set = v.find("expiry_set");
  const Evidence* expired = v.find("expired");
  if (!hold || !expired) return v.anomaly;
  std::string s = "Let " + hold->who + " hold " + hold->where + " from " + ms(hold->from_ms) +
                  " with the watchdog (no lease). Then its hold in " + expired->where + " expired at " + ms(expired->from_ms);
  if (set) s += " (the expiry it ran out of was set at " + ms(set->from_ms) + ")";
  if (number(v, "renewal_period_ms") > 0)
    s += " while it still believed it held the lock, although " + hold->who.substr(0, hold->who.find(':')) +
         "'s connection to " + expired->who + " had worked for " + figure(v, "working_ms") +
         " ms in one stretch in between, more than one renewal period (" + figure(v, "renewal_period_ms") +
         " ms): the faults in between do not explain it";
  else
    s += " while it still believed it held the lock, with no fault on " + hold->who.substr(0, hold->who.find(':')) +
         " or " + expired->who + " in between";
  const auto failed = all(v, "failed_renewal");
  if (!failed.empty()) {
    s += "; renewals without success at";
    for (size_t i = 0; i < failed.size(); ++i) s += (i ? ", " : " ") + ms(failed[i]->from_ms);
  }
  return s + ".";
}

std::string late(const Verdict& v) {
  const Evidence* hold = v.find("hold");
  if (!hold) return v.anomaly;
  const Evidence* crash = v.find("crash");
  std::string s = "Let " + hold->who + " hold " + hold->where;
  if (const Evidence* armed = v.find("armed")) {
    s += " with a lease of " + figure(v, "lease") + " ms, last armed by its own " + armed->state + " on " + armed->who +
         " at " + ms(armed->from_ms);
    if (crash) s += ", and crash at " + ms(crash->from_ms);
    s += ". Then its hold should have gone by " + figure(v, "deadline") + " ms (with " + figure(v, "slack") +
         " ms slack), whatever else touched the key, ";
  } else {
    s += " with the watchdog and crash at " + (crash ? ms(crash->from_ms) : std::string("?"));
    if (const Evidence* set = v.find("lease_set"))
      s += "; the last of its acquires and renewals that set an expiry ran on " + set->who + " at " + ms(set->from_ms);
    else
      s += "; none of its requests had set an expiry, so it was given one watchdog lease from the crash";
    s += ". Then its hold should have gone one watchdog lease later, by " + figure(v, "deadline") + " ms (with " +
         figure(v, "slack") + " ms slack), ";
  }
  if (const Evidence* g = v.find("gone")) s += "but it went only at " + ms(g->from_ms);
  else if (const Evidence* k = v.find("still_there")) s += "but it was still in " + k->where + " when the history ended";
  else s += "but it did not";
  if (const Evidence* by = v.find("extended_by"))
    s += " (" + by->who + "'s " + by->state + " at " + ms(by->from_ms) + " had set its expiry to " + ms(by->number) + ")";
  return s + ".";
}

std::string renewal(const Verdict& v) {
  const Evidence* r = v.find("renewal");
  if (!r) return v.anomaly;
  if (v.anomaly == anomaly::kRenewedExplicitLease) {
    const Evidence* hold = v.find("hold");
    std::string s = hold ? "Let " + hold->who + " hold " + hold->where + " from " + ms(hold->from_ms) +
                               " with an explicit lease of " + ms(hold->number) + ". "
                         : "";
    return s + "Then a renewal for " + r->who + " ran on " + r->where + " at " + ms(r->from_ms) + ".";
  }
  if (v.anomaly == anomaly::kRevivedAfterUnlock) {
    // Without a release, the owner never believed it held the lock (an interrupted acquire, #7272).
    const Evidence* rel = v.find("release");
    std::string s = rel ? "Let " + r->who + " give the lock up (at " + ms(rel->from_ms) + ")"
                        : "Let " + r->who + " not believe it holds the lock";
    return s + ". Then a renewal it sent at " + figure(v, "sent") + " ms, holding nothing, succeeded on " + r->where +
           " at " + ms(r->from_ms) + ".";
  }
  const Evidence* key = v.find("key");
  return "Let " + r->where + " not carry " + r->who + "'s hold at " + ms(r->from_ms) + " (it held " +
         (key ? key_state(*key) : std::string("?")) + "). Then " + r->who + "'s renewal succeeded there.";
}

std::string lease(const Verdict& v) {
  const Evidence* a = v.find("acquire");
  const Evidence* key = v.find("key");
  if (const Evidence* r = v.find("renewal"); r && key) {
    const int64_t ttl = number(v, "ttl");
    return "Let " + r->who + " renew its hold in " + r->where + " at " + ms(r->from_ms) +
           ". Then the server set the key to expire after " + ms(ttl) + ", not the watchdog's lease of " +
           figure(v, "lease") + " ms.";
  }
  if (!a || !key) return v.anomaly;
  const int64_t ttl = number(v, "ttl");
  return "Let " + a->who + " acquire " + a->where + " at " + ms(a->from_ms) + " with a lease of " + figure(v, "lease") +
         " ms. Then the server set its hold in " + key->where + " to expire " +
         (ttl < 0 ? std::string("never") : "after " + ms(ttl)) + ".";
}

std::string free_text(const Evidence& f) {
  std::string s = "from " + ms(f.from_ms) + " to " + ms(f.to_ms) + " ";
  if (f.state == "open") return s + (f.where.empty() ? "no key" : f.where + (f.who.empty() ? " absent" : " held only by the waiter itself"));
  if (f.state == "forever") return s + f.where + " held \"" + f.who + "\" for holders that were gone, with no expiry";
  return s + f.where + " held \"" + f.who + "\" for holders that were gone, its expiry (" + ms(f.number) +
         ") beyond the lease they set";
}

std::string starved(const Verdict& v) {
  const Evidence* w = v.find("waiter");
  if (!w) return fair_starved(v);
  std::string s = "Let " + w->who + " wait for " + w->where + " from " + ms(w->from_ms) + " ";
  if (const Evidence* o = v.find("outcome"))
    s += "until its " + std::string(o->state == "ok" ? "success" : o->state == "fail" ? "failure" : "unknown outcome") +
         " at " + ms(o->from_ms);
  else
    s += "until " + (w->to_ms >= 0 ? ms(w->to_ms) : std::string("the end")) + " without an answer";
  s += ". Then ";
  if (const Evidence* r = v.find("refusal")) s += "the server refused it at " + ms(r->from_ms) + " for a key nobody could release";
  else s += "for " + figure(v, "free_ms") + " ms of that, while it could act, the lock was free: nothing that a holder could "
            "still release or let expire kept it out (grace " + figure(v, "grace_ms") + " ms)";
  const auto free = all(v, "free");
  for (size_t i = 0; i < free.size(); ++i) s += (i ? "; " : ": ") + free_text(*free[i]);
  if (const Evidence* q = v.find("queue_ahead"))
    s += ". The queue had told it to wait, but from " + ms(q->to_ms) + " " + q->who +
         "'s entry ahead of it kept it out for nobody: " + q->who +
         " was no longer live (not waiting, unable to act, or every message lost), and the server had last heard "
         "from it at " + ms(q->from_ms) + ", more than its thread wait of " + ms(q->number) + " before";
  return s + "." + faults_meanwhile(v);
}

std::string fifo(const Verdict& v) {
  const Evidence* e = v.find("earlier_enqueue");
  const Evidence* g = v.find("grant");
  if (!e || !g) return v.anomaly;
  const Evidence* later = v.find("later_enqueue");
  return "Let " + e->who + " enqueue for " + e->where + " at " + ms(e->from_ms) + ". Then " + g->who + ", " +
         (later ? "which had enqueued at " + ms(later->from_ms) : std::string("which had never queued")) +
         ", was granted " + g->where + " at " + ms(g->from_ms) + " while " + e->who +
         " was still waiting and live (never silent for the thread wait of " + figure(v, "thread_wait_ms") + " ms).";
}

std::string holds(const Verdict& v) {
  const std::string& p = v.property;
  if (p == property::kMutualExclusion)
    return counted(v, "intervals", "holding interval", "holding intervals") + " on " + counted(v, "locks", "lock", "locks") +
           ", none overlapping";
  if (p == property::kFencing)
    return number(v, "accepted_writes") == 0
               ? "no write with a fencing token accepted"
               : counted(v, "accepted_writes", "accepted write", "accepted writes") +
                     ", each holder's tokens above every other holder's before it";
  if (p == property::kReentrancy)
    return counted(v, "executions", "lock execution agrees", "lock executions agree") + " with the reference counts";
  if (p == property::kWatchdog)
    return counted(v, "holds", "hold", "holds") + ", " + counted(v, "renewals", "successful renewal", "successful renewals") +
           ", no lapse, late expiry or stray renewal";
  if (p == property::kLiveness)
    return counted(v, "attempts", "acquire attempt", "acquire attempts") + ", none kept from a free lock";
  if (p == property::kFairQueue)
    return counted(v, "queue_stays", "queue stay", "queue stays") + " and " + counted(v, "grants", "grant", "grants") +
           ", in FIFO order, none kept waiting while the lock was free";
  if (p == property::kReadWrite)
    return figure(v, "write_intervals") + " write and " +
           counted(v, "read_intervals", "read holding interval", "read holding intervals") + " on " +
           counted(v, "locks", "read-write lock", "read-write locks") + ", no writer overlapping another holder";
  if (p == property::kResource)
    return counted(v, "judged_writes", "write", "writes") +
           " of the protected resource, each from a value no other client had changed since";
  return "holds";
}

std::string lost_update(const Verdict& v) {
  const Evidence* r = v.find("read");
  const Evidence* o = v.find("other_update");
  const Evidence* w = v.find("stale_write");
  if (!r || !o || !w) return v.anomaly;
  return "Let " + r->who + " read " + r->where + " at " + ms(r->from_ms) + " (" + r->state + "). Then " + o->who +
         " updated it at " + ms(o->from_ms) + ", and " + w->who + " wrote it at " + ms(w->from_ms) +
         " from the value it had read: " + o->who + "'s update is lost, so both were in the critical section at once." +
         faults_meanwhile(v);
}

std::string fair_starved(const Verdict& v) {
  const Evidence* q = v.find("enqueue");
  if (!q) return v.anomaly;
  std::string waited = q->who + " enqueued for " + q->where + " at " + ms(q->from_ms) + " and waited ";
  waited += q->state == "granted" ? "until it was granted at " + ms(q->to_ms)
            : q->state == "left"  ? "until it gave up at " + ms(q->to_ms)
            : q->state == "open"  ? "until the history ended at " + ms(q->to_ms)
                                  : "until it was itself evicted at " + ms(q->to_ms);
  waited += ", while the lock was free for " + figure(v, "free_ms") + " ms of it (grace " + figure(v, "grace_ms") + " ms)";
  if (const Evidence* g = v.find("ghost_enqueue"))
    return "Let " + g->who + ", enqueued for " + q->where + " at " + ms(g->from_ms) +
           ", fall silent so that it was due for eviction at " + ms(g->to_ms) + " (thread wait " + ms(g->number) +
           "). Then " + waited + "; " + figure(v, "blocked_ms") + " ms of that came after " + g->who +
           " was due for eviction.";
  return "Let " + q->who + " be a live waiter. Then " + waited + ".";
}

}  // namespace

std::string explain(const Verdict& v) {
  if (v.valid == Validity::Yes) return holds(v);
  if (v.valid == Validity::Unknown) return v.explanation;
  static const std::map<std::string_view, std::function<std::string(const Verdict&)>> kTemplates{
      {anomaly::kMutexOverlap, overlap},         {anomaly::kWriteOverlap, overlap},
      {anomaly::kReadWriteOverlap, overlap},     {anomaly::kFencingOrder, fencing},
      {anomaly::kSharedToken, fencing},          {anomaly::kReentryCount, reentrancy},
      {anomaly::kUnlockByNonHolder, reentrancy}, {anomaly::kNotFreedAtZero, reentrancy},
      {anomaly::kReentryNotRefused, reentrancy},
      {anomaly::kWatchdogLapse, lapse},          {anomaly::kLateExpiry, late},
      {anomaly::kRenewedExplicitLease, renewal}, {anomaly::kRevivedAfterUnlock, renewal},
      {anomaly::kRenewedWithoutHold, renewal},   {anomaly::kLeaseMismatch, lease},
      {anomaly::kStarved, starved},              {anomaly::kFifoInversion, fifo},
      {anomaly::kBlockedByEvicted, fair_starved},  {anomaly::kLostUpdate, lost_update},
  };
  const auto it = kTemplates.find(v.anomaly);
  return it == kTemplates.end() ? v.anomaly : it->second(v);
}

}  // namespace locksim::model
