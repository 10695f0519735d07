#include "verify/support/differential.hpp"

#include <chrono>
#include <thread>

#include "client/script_files.hpp"

namespace locksim::test {

RedisServer& shared_redis_server() {
  static RedisServer server;
  return server;
}

void Differential::SetUpTestSuite() {
  // Redis's active expiry samples keys with a TTL about every 100 ms, at random; the fake expires
  // only lazily here (its own active_expire() is a deterministic sweep the world calls). Left on, a
  // key set with PX 1 was sometimes swept from the live server before DBSIZE, SCAN TYPE none or
  // RANDOMKEY looked (CI failed on it). Lazy expiry alone is what these replies are compared on.
  RedisClient admin(shared_redis_server().port());
  ASSERT_EQ(admin.command({"DEBUG", "SET-ACTIVE-EXPIRE", "0"}), Reply::ok());
}

int64_t WallClockHost::now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

void WallClockHost::sleep_ms(int64_t ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

void Differential::SetUp() {
  live_ = std::make_unique<RedisClient>(shared_redis_server().port());
  ASSERT_EQ(live_->command({"FLUSHALL"}), Reply::ok());
  ASSERT_EQ(live_->command({"SCRIPT", "FLUSH"}), Reply::ok());
  ASSERT_EQ(live_->command({"FUNCTION", "FLUSH"}), Reply::ok());
  fake_ = std::make_unique<engine::Engine>(host_);
  session_ = fake_->open_session();
}

Connection Differential::connect() {
  return Connection{fake_->open_session(), std::make_unique<RedisClient>(shared_redis_server().port())};
}

Reply as_hiredis_reads(Reply reply) {
  reply.null_array = false;
  for (Reply& element : reply.elements) element = as_hiredis_reads(std::move(element));
  return reply;
}

std::pair<Reply, Reply> Differential::both(const std::vector<std::string>& argv) {
  Reply fake = as_hiredis_reads(fake_->execute(session_, argv));
  Reply live = live_->command(argv);
  return {std::move(fake), std::move(live)};
}

std::pair<Reply, Reply> Differential::both(Connection& connection, const std::vector<std::string>& argv) {
  Reply fake = as_hiredis_reads(fake_->execute(connection.fake, argv));
  Reply live = connection.live->command(argv);
  return {std::move(fake), std::move(live)};
}

namespace {

std::string show(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + (a.size() > 60 ? a.substr(0, 57) + "..." : a);
  return out;
}

bool close(const Reply& a, const Reply& b, int64_t tolerance) {
  if (a.kind != b.kind) return false;
  if (a.kind == Reply::Kind::Integer) {
    const int64_t d = a.integer - b.integer;
    return d <= tolerance && -d <= tolerance;
  }
  if (a.elements.size() != b.elements.size()) return a == b;
  for (size_t i = 0; i < a.elements.size(); ++i)
    if (!close(a.elements[i], b.elements[i], tolerance)) return false;
  return a.str == b.str;
}

}  // namespace

void Differential::expect_same(const std::vector<std::string>& argv) {
  auto [fake, live] = both(argv);
  EXPECT_EQ(locksim::describe(fake), locksim::describe(live)) << "command: " << show(argv);
  EXPECT_EQ(fake, live) << "command: " << show(argv);
}

void Differential::expect_same(Connection& connection, const std::vector<std::string>& argv) {
  auto [fake, live] = both(connection, argv);
  EXPECT_EQ(locksim::describe(fake), locksim::describe(live)) << "command: " << show(argv);
  EXPECT_EQ(fake, live) << "command: " << show(argv);
}

void Differential::expect_close(const std::vector<std::string>& argv, int64_t tolerance) {
  auto [fake, live] = both(argv);
  EXPECT_TRUE(close(fake, live, tolerance))
      << "command: " << show(argv) << "\n  fake: " << locksim::describe(fake) << "\n  live: " << locksim::describe(live);
}

std::string lock_script(const std::string& name) { return client::read_script(client::default_scripts_dir(), name); }

}  // namespace locksim::test
