#include "explore/finding.hpp"

#include <map>

#include "base/sha1.hpp"
#include "world/fault.hpp"

namespace locksim::explore {

Signature signature_of(const scenario::Scenario& s, const std::string& property, const std::string& anomaly,
                       const std::string& side) {
  std::map<std::string, std::string> clients;  // name in the case -> A, B, ... by first appearance
  std::map<std::pair<std::string, int64_t>, int> threads;
  auto client = [&](const std::string& name) -> std::string {
    auto [it, added] = clients.emplace(name, "");
    if (added) it->second = std::string(1, static_cast<char>('A' + clients.size() - 1));
    return it->second;
  };
  std::string shape, canonical;
  for (const scenario::TimelineEntry& e : s.timeline) {
    std::string step, named;  // with canonical names, and with the case's own
    if (e.op) {
      const std::string who = client(e.client);
      auto [it, added] = threads.emplace(std::make_pair(e.client, e.thread), 0);
      if (added) {
        int n = 0;
        for (const auto& [key, number] : threads) n += key.first == e.client ? 1 : 0;
        it->second = n;
      }
      std::string what = " " + std::string(world::op_name(e.op->kind));
      if (e.op->lease_ms >= 0) what += "+lease";
      if (const size_t colon = e.op->lock.rfind(':'); colon != std::string::npos) what += e.op->lock.substr(colon);
      step = who + (it->second > 1 ? "/" + std::to_string(it->second) : "") + what;
      named = e.client + (e.thread > 1 ? "/" + std::to_string(e.thread) : "") + what;
    } else if (e.fault) {
      std::string detail;
      if (e.fault->kind == world::FaultKind::RedisRestart)
        detail = e.fault->persistence == world::Persistence::None ? " no-aof" : " aof";
      if (e.fault->kind == world::FaultKind::ClockJump) detail = e.fault->by_ms < 0 ? " back" : " ahead";
      step = named = std::string(world::fault_name(*e.fault));
      if (!world::fault_info(e.fault->kind).on_server) {
        step += " " + client(e.fault->client);
        named += " " + e.fault->client;
      }
      step += detail;
      named += detail;
    }
    canonical += (canonical.empty() ? "" : ", ") + step;
    shape += (shape.empty() ? "" : ", ") + named;
  }
  Signature sig;
  sig.shape = shape;
  sig.text = property + " (" + anomaly + ")" + (side.empty() ? "" : " violated under " + side) + ": " + canonical;
  sig.id = sha1_hex(sig.text).substr(0, 8);
  return sig;
}

}  // namespace locksim::explore
