#include "shell/demo.hpp"

#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

#include "client/script_files.hpp"
#include "engine/engine.hpp"

namespace locksim::shell {
namespace {


class DemoHost : public engine::ManualHost {
 public:
  using ManualHost::ManualHost;
  void deliver(engine::SessionId subscriber, std::string_view channel, std::string_view message,
               std::string_view /*pattern: the demo subscribes to channels*/) override {
    delivered.push_back("session " + std::to_string(subscriber) + " <- " + std::string(channel) + " \"" +
                        std::string(message) + "\"");
  }
  std::vector<std::string> delivered;
};

class Demo {
 public:
  Demo(std::ostream& out, const std::string& scripts_dir) : out_(out), dir_(scripts_dir), fake_(host_) {
    a_ = fake_.open_session();
    b_ = fake_.open_session();
    admin_ = fake_.open_session();
  }

  int run() {
    const std::string lock = "orders", channel = "redisson_lock__channel:{orders}";
    const std::string a = "6f1c0a3e-a:1", b = "9b2d4e71-b:1";
    section("RLock (Redisson 3.12.3+ scripts): reentrancy, waiting, watchdog, unlock");
    script(a_, "A", "rlock_acquire_hincrby", {lock}, {"30000", a}, "nil = acquired");
    show("HGETALL", lock);
    script(a_, "A", "rlock_acquire_hincrby", {lock}, {"30000", a}, "re-entered");
    show("HGETALL", lock);
    script(b_, "B", "rlock_acquire_hincrby", {lock}, {"30000", b}, "B is told the ttl to wait");
    say("B", fake_.execute(b_, {"SUBSCRIBE", channel}), "SUBSCRIBE " + channel);
    sleep(10000);
    script(a_, "A", "rlock_renew", {lock}, {"30000", a}, "watchdog renews every 30000/3 ms");
    show("PTTL", lock);
    script(a_, "A", "rlock_unlock", {lock, channel}, {"0", "30000", a}, "0 = still held once");
    script(a_, "A", "rlock_unlock", {lock, channel}, {"0", "30000", a}, "1 = released, waiters told");
    for (const auto& d : host_.delivered) out_ << "           published: " << d << "\n";
    fake_.execute(b_, {"UNSUBSCRIBE"});
    script(b_, "B", "rlock_acquire_hincrby", {lock}, {"30000", b}, "B takes the free lock");
    script(a_, "A", "rlock_unlock", {lock, channel}, {"0", "30000", a},
           "nil = A does not hold it (IllegalMonitorStateException)");
    say("", Reply::nil(), "B crashes: no watchdog renews its lease");
    sleep(30001);
    show("EXISTS", lock);

    section("Fair lock (Redisson 3.11.1+ script): waiters queue in FIFO order");
    const std::string queue = "redisson_lock_queue:{fair}", timeouts = "redisson_lock_timeout:{fair}";
    const auto now = [&] { return std::to_string(host_.now_ms()); };
    const std::vector<std::string> fair_keys{"fair", queue, timeouts};
    for (const std::string who : {"A", "B", "C"}) {
      script(admin_, who, "fair_acquire_tail", fair_keys, {"30000", who + ":1", "5000", now()},
             who == "A" ? "acquired" : "queued; the reply is its ttl");
    }
    show("LRANGE", queue, {"0", "-1"});
    show("ZRANGE", timeouts, {"0", "-1", "WITHSCORES"});

    section("Token lock (article 001): SET NX PX, then compare-and-delete");
    say("A", fake_.execute(a_, {"SET", "job", "token-a", "NX", "PX", "10000"}), "SET job token-a NX PX 10000");
    say("B", fake_.execute(b_, {"SET", "job", "token-b", "NX", "PX", "10000"}), "SET job token-b NX PX 10000");
    script(b_, "B", "token_release", {"job"}, {"token-b"}, "0 = not B's lock, nothing deleted");
    script(a_, "A", "token_release", {"job"}, {"token-a"}, "1 = A's own lock deleted");
    out_ << "\nEvery reply above came from the real Lua scripts in " << dir_
         << ", run by locksim's fake Redis on a simulated clock.\n";
    return 0;
  }

 private:
  void section(const std::string& title) { out_ << "\n== " << title << "\n"; }

  void sleep(int64_t ms) {
    host_.advance_ms(ms);
    out_ << "  +" << std::setw(6) << ms << " ms  (simulated clock now t=" << elapsed() << " ms)\n";
  }

  int64_t elapsed() { return host_.now_ms() - kStart; }

  void script(engine::SessionId session, const std::string& who, const std::string& name,
              const std::vector<std::string>& keys, const std::vector<std::string>& args, const std::string& note) {
    std::vector<std::string> argv{"EVAL", client::read_script(dir_, name), std::to_string(keys.size())};
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    say(who, fake_.execute(session, argv), name + ".lua — " + note);
  }

  void show(const std::string& command, const std::string& key, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{command, key};
    argv.insert(argv.end(), extra.begin(), extra.end());
    std::string text = command + " " + key;
    for (const auto& e : extra) text += " " + e;
    say("", fake_.execute(admin_, argv), text);
  }

  void say(const std::string& who, const Reply& reply, const std::string& what) {
    out_ << "  t=" << std::setw(6) << elapsed() << "  " << std::setw(2) << who << "  " << std::left
         << std::setw(34) << locksim::describe(reply) << std::right << "  " << what << "\n";
  }

  static constexpr int64_t kStart = 1700000000000;
  std::ostream& out_;
  std::string dir_;
  DemoHost host_{kStart};
  engine::Engine fake_;
  engine::SessionId a_ = 0, b_ = 0, admin_ = 0;
};

}  // namespace

int run_demo(std::ostream& out, const std::string& scripts_dir) { return Demo(out, scripts_dir).run(); }

}  // namespace locksim::shell
