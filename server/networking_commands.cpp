// The commands Redis answers in its networking and server layers rather than on the keyspace:
// connection state (HELLO, AUTH, CLIENT, QUIT, RESET), introspection (INFO, CONFIG, COMMAND) and
// WAIT and SHUTDOWN. Texts follow Redis 7.0.15's networking.c, server.c, config.c and acl.c.
#include <algorithm>
#include <charconv>

#include "base/assert.hpp"
#include "engine/command_context.hpp"
#include "engine/command_table.hpp"
#include "engine/errors.hpp"
#include "engine/glob.hpp"
#include "engine/notify.hpp"
#include "engine/replica_acks.hpp"
#include "engine/scripting.hpp"
#include "engine/types.hpp"
#include "server/server.hpp"

namespace locksim::server {
namespace {

using engine::equals_ignore_case;

constexpr std::string_view kVersion = "7.0.15";

bool parse_ll(std::string_view s, int64_t& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// The encoding thresholds (createSizeTConfig in config.c: 0 to LONG_MAX), each with its 6.x alias.
// A value threshold is a memory value ("1kb"), an entries threshold a plain integer.
struct EncodingParameter {
  std::string_view name;
  std::string_view alias;
  size_t engine::EncodingLimits::*field;
  bool memory;
};
constexpr EncodingParameter kEncodingParameters[] = {
    {"hash-max-listpack-entries", "hash-max-ziplist-entries", &engine::EncodingLimits::hash_listpack_entries, false},
    {"hash-max-listpack-value", "hash-max-ziplist-value", &engine::EncodingLimits::hash_listpack_value, true},
    {"set-max-intset-entries", "", &engine::EncodingLimits::set_intset_entries, false},
    {"zset-max-listpack-entries", "zset-max-ziplist-entries", &engine::EncodingLimits::zset_listpack_entries, false},
    {"zset-max-listpack-value", "zset-max-ziplist-value", &engine::EncodingLimits::zset_listpack_value, true},
};

const EncodingParameter* encoding_parameter(std::string_view name) {
  for (const EncodingParameter& p : kEncodingParameters)
    if (name == p.name || (!p.alias.empty() && name == p.alias)) return &p;
  return nullptr;
}

// numericParseString for a size_t config: an integer (string2ll) or a memory value (memtoull: digits
// and an optional unit, 1k = 1000, 1kb = 1024), then the 0..LONG_MAX bound; "" or why not.
std::string parse_size_config(std::string_view text, bool memory, size_t& out) {
  if (!memory) {
    int64_t v = 0;
    // string2ll takes only the canonical form: no '+', no leading zeros.
    if (!parse_ll(text, v) || std::to_string(v) != text) return "argument couldn't be parsed into an integer";
    if (v < 0) return "argument must be between 0 and 9223372036854775807 inclusive";
    out = static_cast<size_t>(v);
    return "";
  }
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  std::string unit(text.substr(digits));
  for (char& ch : unit) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  static const std::pair<std::string_view, unsigned __int128> kUnits[] = {
      {"", 1}, {"b", 1}, {"k", 1000}, {"kb", 1024}, {"m", 1000 * 1000}, {"mb", 1024 * 1024},
      {"g", 1000ULL * 1000 * 1000}, {"gb", 1024ULL * 1024 * 1024}};
  const auto u = std::find_if(std::begin(kUnits), std::end(kUnits), [&](const auto& e) { return e.first == unit; });
  if (digits == 0 || u == std::end(kUnits)) return "argument must be a memory value";
  unsigned __int128 value = 0;
  for (size_t i = 0; i < digits && value <= INT64_MAX; ++i) value = value * 10 + static_cast<unsigned>(text[i] - '0');
  value *= u->second;
  if (value > INT64_MAX) return "argument must be between 0 and 9223372036854775807 inclusive";
  out = static_cast<size_t>(value);
  return "";
}

// What CONFIG GET answers for the parameters clients ask about, as a default redis-server 7.0.
std::vector<std::pair<std::string, std::string>> config_defaults(const ServeOptions& o, int port,
                                                                 const engine::EncodingLimits& limits) {
  return {
      {"appendonly", o.appendonly ? "yes" : "no"},
      {"bind", o.bind},
      {"busy-reply-threshold", "5000"},
      {"client-query-buffer-limit", std::to_string(o.limits.client_query_buffer_limit)},
      {"cluster-enabled", "no"},
      {"databases", "16"},
      {"hash-max-listpack-entries", std::to_string(limits.hash_listpack_entries)},
      {"hash-max-listpack-value", std::to_string(limits.hash_listpack_value)},
      {"hash-max-ziplist-entries", std::to_string(limits.hash_listpack_entries)},
      {"hash-max-ziplist-value", std::to_string(limits.hash_listpack_value)},
      {"hz", "10"},
      {"list-compress-depth", "0"},
      {"list-max-listpack-size", "-2"},
      {"list-max-ziplist-size", "-2"},
      {"lua-time-limit", "5000"},
      {"maxclients", std::to_string(o.max_clients)},
      {"maxmemory", "0"},
      {"maxmemory-policy", "noeviction"},
      {"notify-keyspace-events", ""},
      {"port", std::to_string(port)},
      {"proto-max-bulk-len", std::to_string(o.limits.proto_max_bulk_len)},
      {"replica-read-only", "yes"},
      {"requirepass", o.requirepass.value_or("")},
      {"save", ""},
      {"set-max-intset-entries", std::to_string(limits.set_intset_entries)},
      {"slave-read-only", "yes"},
      {"timeout", "0"},
      {"zset-max-listpack-entries", std::to_string(limits.zset_listpack_entries)},
      {"zset-max-listpack-value", std::to_string(limits.zset_listpack_value)},
      {"zset-max-ziplist-entries", std::to_string(limits.zset_listpack_entries)},
      {"zset-max-ziplist-value", std::to_string(limits.zset_listpack_value)},
  };
}

Reply command_info(const engine::CommandSpec& spec) {
  std::vector<Reply> flags;
  if (spec.flags & engine::kCmdWrite) flags.push_back(Reply::status("write"));
  if (spec.flags & engine::kCmdReadOnly) flags.push_back(Reply::status("readonly"));
  if (spec.flags & engine::kCmdNoScript) flags.push_back(Reply::status("noscript"));
  if (spec.flags & engine::kCmdPubSubContext) flags.push_back(Reply::status("pubsub"));
  if (spec.flags & engine::kCmdMayReplicate) flags.push_back(Reply::status("may_replicate"));
  if (spec.flags & engine::kCmdBlocking) flags.push_back(Reply::status("blocking"));
  if (spec.flags & engine::kCmdAllowBusy) flags.push_back(Reply::status("allow_busy"));
  if (spec.flags & engine::kCmdNoAuth) flags.push_back(Reply::status("no_auth"));
  if (spec.flags & engine::kCmdNoMulti) flags.push_back(Reply::status("no_multi"));
  return Reply::array({Reply::bulk(spec.name), Reply::integer_of(spec.arity), Reply::array(std::move(flags)),
                       Reply::integer_of(0), Reply::integer_of(0), Reply::integer_of(0), Reply::array(),
                       Reply::array(), Reply::array(), Reply::array()});
}

}  // namespace

std::string Server::client_info(const Connection& c) const {
  const int64_t now = clock_.run_ms();
  return "id=" + std::to_string(c.id) + " addr=" + c.addr + " laddr=" + c.laddr + " fd=" + std::to_string(c.id + 7) +
         " name=" + c.name + " age=" + std::to_string((now - c.created_ms) / 1000) +
         " idle=" + std::to_string((now - c.last_ms) / 1000) + " flags=" + (c.blocked ? "b" : "N") + " db=0 sub=0 psub=0 ssub=0 multi=-1 qbuf=" +
         std::to_string(c.parser.buffered()) + " qbuf-free=0 argv-mem=0 multi-mem=0 rbs=16384 rbp=0 obl=0 oll=0 omem=" +
         std::to_string(c.out.size()) + " tot-mem=0 events=r cmd=" + (c.last_command.empty() ? "NULL" : c.last_command) +
         " user=default redir=-1 resp=" + std::to_string(static_cast<int>(c.protocol));
}

std::string Server::info(const std::string& section) const {
  const bool all = section.empty() || section == "default" || section == "all" || section == "everything";
  std::string out;
  auto add = [&](std::string_view name, const std::string& body) {
    if (!all && section != name) return;
    if (!out.empty()) out += "\r\n";
    std::string title(name);
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    out += "# " + title + "\r\n" + body;
  };
  const int64_t uptime_s = clock_.run_ms() / 1000;
  add("server", "redis_version:" + std::string(kVersion) +
                    "\r\nredis_mode:standalone\r\nos:locksim serve (fake Redis engine)\r\narch_bits:64\r\n"
                    "multiplexing_api:epoll\r\nprocess_id:" + std::to_string(::getpid()) +
                    "\r\ntcp_port:" + std::to_string(port_) + "\r\nuptime_in_seconds:" + std::to_string(uptime_s) +
                    "\r\nhz:10\r\nexecutable:locksim\r\n");
  add("clients", "connected_clients:" + std::to_string(connections_.size()) + "\r\nmaxclients:" +
                     std::to_string(options_.max_clients) + "\r\nblocked_clients:" +
                     std::to_string(std::count_if(connections_.begin(), connections_.end(),
                                                  [](const auto& each) { return each.second->blocked; })) +
                     "\r\n");
  add("memory", "used_memory:0\r\nmaxmemory:0\r\nmaxmemory_policy:noeviction\r\nnumber_of_cached_scripts:" +
                    std::to_string(engine_->scripting().cached_scripts()) + "\r\n");
  add("persistence", "loading:0\r\nasync_loading:0\r\nrdb_bgsave_in_progress:0\r\naof_enabled:0\r\n"
                     "aof_rewrite_in_progress:0\r\n");
  add("stats", "total_connections_received:" + std::to_string(next_id_ - 1) + "\r\n");
  add("replication", "role:master\r\nconnected_slaves:" + std::to_string(replicas()) + "\r\nmaster_repl_offset:0\r\n");
  add("cpu", "used_cpu_sys:0.000000\r\nused_cpu_user:0.000000\r\n");
  std::string errorstats;
  for (const auto& [prefix, count] : error_counts_)
    errorstats += "errorstat_" + prefix + ":count=" + std::to_string(count) + "\r\n";
  add("errorstats", errorstats);
  const auto& entries = engine_->keyspace().entries();
  const size_t expires = static_cast<size_t>(std::count_if(
      entries.begin(), entries.end(), [](const auto& e) { return e.second.expire_at_ms != engine::kNoExpire; }));
  add("keyspace", entries.empty() ? std::string()
                                  : "db0:keys=" + std::to_string(entries.size()) + ",expires=" +
                                        std::to_string(expires) + ",avg_ttl=0\r\n");
  return out;
}

// WAIT numreplicas timeout (replication.c's waitCommand): the replica of --replica-lag-ms
// acknowledges each write its lag after it ran; a WAIT for more than have acknowledged blocks the
// connection until they do or the timeout passes.
Reply Server::wait_command(const ConnPtr& c, const std::vector<std::string>& argv) {
  int64_t replicas = 0, timeout = 0;
  if (!parse_ll(argv[1], replicas)) return Reply::error(engine::errors::kNotInteger);
  if (!parse_ll(argv[2], timeout)) return Reply::error(engine::errors::kTimeoutNotInteger);
  if (timeout < 0) return Reply::error(engine::errors::kTimeoutNegative);
  const int64_t now = clock_.run_ms();
  const engine::WaitAnswer answer =
      engine::answer_wait(now, c->woff_ms, this->replicas(), options_.replica_lag_ms, replicas, timeout);
  if (answer.at_ms <= now) return Reply::integer_of(answer.replicas);
  c->blocked = true;
  c->waiting_acks = true;
  if (answer.at_ms != engine::kNeverMs) {
    c->block_timer.expires_at(steady_after(std::chrono::steady_clock::now(), answer.at_ms - now));
    c->block_timer.async_wait([this, c, counted = answer.replicas](const asio::error_code& ec) {
      if (ec || c->closed) return;
      c->blocked = c->waiting_acks = false;
      reply(c, Reply::integer_of(counted));
      process(c);
    });
  }
  return Reply::sequence({});
}

void Server::end_wait(const ConnPtr& c, bool with_error) {
  LS_ASSERT(c->waiting_acks);
  c->block_timer.cancel();
  c->blocked = c->waiting_acks = false;
  reply(c, with_error ? Reply::error(engine::errors::kUnblocked)
                      : Reply::integer_of(engine::acked_by(clock_.run_ms(), c->woff_ms, replicas(),
                                                           options_.replica_lag_ms)));
  asio::post(io_, [this, c] { process(c); });
}

// CLIENT KILL addr (the old form) or CLIENT KILL ID id / ADDR addr / SKIPME yes|no.
Reply Server::client_kill(const ConnPtr& c, const std::vector<std::string>& argv) {
  const size_t argc = argv.size();
  std::vector<ConnPtr> victims;
  bool skipme = true;
  if (argc == 3) {
    for (const auto& [id, other] : connections_)
      if (other->addr == argv[2]) victims.push_back(other);
    if (victims.empty()) return Reply::error(engine::errors::kNoSuchClient);
    for (const ConnPtr& v : victims) v->closing = true, flush(v);
    return Reply::ok();
  }
  if (argc % 2 != 0) return Reply::error(engine::errors::kSyntax);
  std::optional<int64_t> id;
  std::optional<std::string> addr;
  for (size_t i = 2; i + 1 < argc; i += 2) {
    int64_t v = 0;
    if (equals_ignore_case(argv[i], "id")) {
      if (!parse_ll(argv[i + 1], v) || v <= 0) return Reply::error(engine::errors::kClientIdNotPositive);
      id = v;
    } else if (equals_ignore_case(argv[i], "addr")) {
      addr = argv[i + 1];
    } else if (equals_ignore_case(argv[i], "skipme")) {
      skipme = !equals_ignore_case(argv[i + 1], "no");
    } else {
      return Reply::error(engine::errors::kSyntax);
    }
  }
  for (const auto& [cid, other] : connections_) {
    if (id && static_cast<int64_t>(cid) != *id) continue;
    if (addr && other->addr != *addr) continue;
    if (skipme && other == c) continue;
    victims.push_back(other);
  }
  for (const ConnPtr& v : victims) v->closing = true, flush(v);
  return Reply::integer_of(static_cast<int64_t>(victims.size()));
}

// CLIENT <subcommand> (networking.c's clientCommand), for the subcommands serve answers.
Reply Server::client_command(const ConnPtr& c, const std::vector<std::string>& argv) {
  // The engine's table checked the subcommand and its arity.
  const size_t argc = argv.size();
  const std::string_view sub = argv[1];
  if (equals_ignore_case(sub, "id") && argc == 2) return Reply::integer_of(static_cast<int64_t>(c->id));
  if (equals_ignore_case(sub, "getname") && argc == 2) return c->name.empty() ? Reply::nil() : Reply::bulk(c->name);
  if (equals_ignore_case(sub, "setname") && argc == 3) {
    for (char ch : argv[2])
      if (ch < '!' || ch > '~')
        return Reply::error(engine::errors::kBadClientName);
    c->name = argv[2];
    return Reply::ok();
  }
  if (equals_ignore_case(sub, "info") && argc == 2) return Reply::bulk(client_info(*c) + "\n");
  if (equals_ignore_case(sub, "list")) {
    std::string out;
    for (const auto& [id, other] : connections_) out += client_info(*other) + "\n";
    return Reply::bulk(out);
  }
  if (equals_ignore_case(sub, "kill")) return client_kill(c, argv);
  if (equals_ignore_case(sub, "unblock") && (argc == 3 || argc == 4)) {
    // CLIENT UNBLOCK id [TIMEOUT|ERROR]: a client blocked on keys answers as if timed out, or with
    // the UNBLOCKED error; one in WAIT answers its acknowledgements so far.
    bool with_error = false;
    if (argc == 4) {
      if (equals_ignore_case(argv[3], "error")) with_error = true;
      else if (!equals_ignore_case(argv[3], "timeout"))
        return Reply::error(engine::errors::kBadUnblockReason);
    }
    int64_t id = 0;
    if (!parse_ll(argv[2], id)) return Reply::error(engine::errors::kNotInteger);
    const auto target = id > 0 ? connections_.find(static_cast<uint64_t>(id)) : connections_.end();
    if (target == connections_.end() || !target->second->blocked) return Reply::integer_of(0);
    if (target->second->waiting_acks) end_wait(target->second, with_error);
    else engine_->unblock(target->second->session, with_error);
    return Reply::integer_of(1);
  }
  if (equals_ignore_case(sub, "reply") && argc == 3) {
    // CLIENT REPLY ON|OFF|SKIP: OFF silences this reply too, SKIP the next command's; pushes (pub/sub
    // messages and confirmations) still go, as Redis sends them with CLIENT_PUSHING.
    if (equals_ignore_case(argv[2], "on")) {
      c->reply_off = c->reply_skip = false;
      return Reply::ok();
    }
    if (equals_ignore_case(argv[2], "off")) {
      c->reply_off = true;
      return Reply::sequence({});
    }
    if (equals_ignore_case(argv[2], "skip")) {
      if (!c->reply_off) c->reply_skip_next = true;
      return Reply::sequence({});
    }
    return Reply::error(engine::errors::kSyntax);
  }
  if (equals_ignore_case(sub, "no-evict") || equals_ignore_case(sub, "no-touch")) return Reply::ok();
  // A known subcommand with a count of arguments its table row allows but clientCommand does not
  // (CLIENT UNBLOCK with four): addReplySubcommandSyntaxError.
  return Reply::error(engine::errors::unknown_subcommand_or_arity(sub, "CLIENT"));
}

// AUTH and HELLO (acl.c, networking.c): authentication, and HELLO's protocol and name.
Reply Server::auth_command(const ConnPtr& c, const std::vector<std::string>& argv) {
  const std::string_view cmd = argv[0];
  const size_t argc = argv.size();
  const bool hello = equals_ignore_case(cmd, "hello");
  std::optional<std::string> user, pass, setname;
  int protocol = static_cast<int>(c->protocol);
  if (hello) {
    size_t i = 1;
    if (argc >= 2) {
      int64_t v = 0;
      if (!parse_ll(argv[1], v) || v < INT32_MIN || v > INT32_MAX)
        return Reply::error(engine::errors::kBadProtocolVersion);
      if (v < 2 || v > 3) return Reply::error(engine::errors::kNoProto);
      protocol = static_cast<int>(v);
      i = 2;
    }
    for (; i < argc; ++i) {
      const bool more = i + 1 < argc;
      if (equals_ignore_case(argv[i], "auth") && i + 2 < argc) {
        user = argv[i + 1];
        pass = argv[i + 2];
        i += 2;
      } else if (equals_ignore_case(argv[i], "setname") && more) {
        setname = argv[i + 1];
        ++i;
      } else {
        return Reply::error(engine::errors::hello_syntax(argv[i]));
      }
    }
  } else {
    if (argc > 3) return Reply::error(std::string(engine::errors::kSyntax));  // authCommand's own check
    if (argc == 3) user = argv[1];
    pass = argv.back();
  }
  if (pass) {
    if (!options_.requirepass && !user)
      return Reply::error(engine::errors::kAuthWithoutPassword);
    const bool ok = (!user || *user == "default") && (!options_.requirepass || *pass == *options_.requirepass);
    if (!ok) return Reply::error(engine::errors::kWrongPass);
    c->authenticated = true;
    c->parser.set_authenticated(true);
  } else if (!c->authenticated) {
    return Reply::error(engine::errors::kHelloBeforeAuth);
  }
  if (!hello) return Reply::ok();
  if (setname) c->name = *setname;
  c->protocol = protocol == 3 ? Protocol::Resp3 : Protocol::Resp2;
  engine_->set_resp3(c->session, protocol == 3);
  // A map under RESP3 (resp3_shape), the same pairs flat under RESP2, as addReplyMapLen sends them.
  return Reply::array({Reply::bulk("server"), Reply::bulk("redis"), Reply::bulk("version"), Reply::bulk(kVersion),
                       Reply::bulk("proto"), Reply::integer_of(protocol), Reply::bulk("id"),
                       Reply::integer_of(static_cast<int64_t>(c->id)), Reply::bulk("mode"), Reply::bulk("standalone"),
                       Reply::bulk("role"), Reply::bulk("master"), Reply::bulk("modules"), Reply::array()});
}

// CONFIG GET/SET/RESETSTAT (config.c) over the parameters clients and the Tcl suite use.
Reply Server::config_command(const std::vector<std::string>& argv) {
  const size_t argc = argv.size();
  const std::string_view sub = argv[1];
  if (equals_ignore_case(sub, "get")) {
    std::vector<Reply> out;
    for (const auto& [name, value] : config_defaults(options_, port_, engine_->databases().limits())) {
      bool match = false;
      // CONFIG GET matches without case (stringmatch's nocase): the names are lower case.
      for (size_t i = 2; i < argc; ++i) {
        std::string pattern = argv[i];
        for (char& ch : pattern) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        match = match || engine::glob_match(pattern, name);
      }
      if (!match) continue;
      const auto set = config_.find(name);
      out.push_back(Reply::bulk(name));
      if (name == "notify-keyspace-events")  // the engine's flags, spelled as Redis spells them
        out.push_back(Reply::bulk(engine::keyspace_events_to_string(engine_->keyspace_events())));
      else
        out.push_back(Reply::bulk(set == config_.end() ? value : set->second));
    }
    return Reply::array(std::move(out));
  }
  if (equals_ignore_case(sub, "set")) {
    if (argc % 2 != 0) return Reply::error(engine::errors::wrong_arity("config|set"));  // configSetCommand's own check
    const auto defaults = config_defaults(options_, port_, engine_->databases().limits());
    std::vector<std::string> seen;
    for (size_t i = 2; i + 1 < argc; i += 2) {
      std::string name = argv[i];
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      const bool known = std::any_of(defaults.begin(), defaults.end(), [&](const auto& d) { return d.first == name; });
      if (!known) return Reply::error(engine::errors::config_set_unknown(argv[i]));
      if (std::find(seen.begin(), seen.end(), name) != seen.end())
        return Reply::error(engine::errors::config_set_failed(argv[i], "duplicate parameter"));
      seen.push_back(name);
      if (name == "busy-reply-threshold" || name == "lua-time-limit") {
        int64_t ms = 0;
        if (!parse_ll(argv[i + 1], ms))
          return Reply::error(engine::errors::config_set_failed(argv[i], "argument couldn't be parsed into an integer"));
        if (ms < 0)
          return Reply::error(engine::errors::config_set_failed(
              argv[i], "argument must be between 0 and 9223372036854775807 inclusive"));
      }
    }
    // Every value is checked before any is applied: CONFIG SET changes all or nothing.
    engine::EncodingLimits limits = engine_->databases().limits();
    for (size_t i = 2; i + 1 < argc; i += 2) {
      std::string name = argv[i];
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (name == "notify-keyspace-events" && !engine::keyspace_events_from_string(argv[i + 1]))
        return Reply::error(
            engine::errors::config_set_failed(argv[i], "Invalid event class character. Use 'Ag$lshzxeKEtmdn'."));
      if (const EncodingParameter* p = encoding_parameter(name)) {
        if (std::string why = parse_size_config(argv[i + 1], p->memory, limits.*(p->field)); !why.empty())
          return Reply::error(engine::errors::config_set_failed(argv[i], why));
      }
    }
    engine_->databases().limits() = limits;
    for (size_t i = 2; i + 1 < argc; i += 2) {
      std::string name = argv[i];
      for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (!encoding_parameter(name)) config_[name] = argv[i + 1];
      if (name == "notify-keyspace-events") engine_->set_keyspace_events(*engine::keyspace_events_from_string(argv[i + 1]));
      if (name == "busy-reply-threshold" || name == "lua-time-limit") {
        // One setting under two names (lua-time-limit is the old one): both read back the value.
        config_["busy-reply-threshold"] = config_["lua-time-limit"] = argv[i + 1];
        parse_ll(argv[i + 1], busy_reply_threshold_ms_);
      }
    }
    return Reply::ok();
  }
  LS_ASSERT(equals_ignore_case(sub, "resetstat"));
  error_counts_.clear();
  return Reply::ok();
}

// COMMAND [COUNT|INFO|DOCS] (server.c), from the engine's command table.
Reply Server::command_command(const std::vector<std::string>& argv) {
  const size_t argc = argv.size();
  if (argc == 1) {
    std::vector<Reply> all;
    for (const engine::CommandSpec& spec : engine::all_commands()) all.push_back(command_info(spec));
    return Reply::array(std::move(all));
  }
  const std::string_view sub = argv[1];
  if (equals_ignore_case(sub, "count"))
    return Reply::integer_of(static_cast<int64_t>(engine::all_commands().size()));
  if (equals_ignore_case(sub, "info")) {
    std::vector<Reply> out;
    for (size_t i = 2; i < argc; ++i) {
      const engine::CommandSpec* spec = engine::lookup_command(argv[i]);
      out.push_back(spec ? command_info(*spec) : Reply::nil());
    }
    return Reply::array(std::move(out));
  }
  // The fake keeps no command docs; an empty answer is a valid one (redis-cli then has no hints).
  LS_ASSERT(equals_ignore_case(sub, "docs"));
  return Reply::array();
}

Reply Server::server_command(engine::ServerCommand command, engine::CommandContext& ctx) {
  const auto found = by_session_.find(ctx.session);
  const ConnPtr c = found == by_session_.end() ? nullptr : found->second;
  const std::vector<std::string> argv(ctx.argv.begin(), ctx.argv.end());
  using enum engine::ServerCommand;
  if (command == Info) {
    std::string section = argv.size() >= 2 ? argv[1] : "";
    for (char& ch : section) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return Reply::bulk(info(section));
  }
  if (command == Command) return command_command(argv);
  // The others are no-script: a connection asked.
  LS_ASSERT(c != nullptr);
  switch (command) {
    case Auth:
    case Hello: return auth_command(c, argv);
    case Client: return client_command(c, argv);
    case Config: return config_command(argv);
    case Quit:
      c->closing = true;
      return Reply::ok();
    case Reset: return reset_command(c);
    case Shutdown: return shutdown_command(c, argv);
    case Wait: return wait_command(c, argv);
    case None:
    case Info:
    case Command: break;
  }
  LS_ASSERT(false && "a server command the table does not have");
  return Reply::error("ERR unknown server command");
}

// RESET (networking.c's resetCommand): the connection as new, on a new session of the engine.
Reply Server::reset_command(const ConnPtr& c) {
  c->name.clear();
  c->reply_off = c->reply_skip_next = false;
  c->protocol = Protocol::Resp2;
  engine_->close_session(c->session);
  by_session_.erase(c->session);
  c->session = engine_->open_session();
  by_session_[c->session] = c;
  if (options_.requirepass) {
    c->authenticated = false;
    c->parser.set_authenticated(false);
  }
  return Reply::status("RESET");
}

// SHUTDOWN (server.c): no-multi, so never queued; while a script is busy only SHUTDOWN NOSAVE,
// which ends the script whatever it wrote. Redis exits at once, so its caller hears nothing more,
// nor does anyone else.
Reply Server::shutdown_command(const ConnPtr& c, const std::vector<std::string>& argv) {
  if (engine_->script_busy()) {
    const bool nosave =
        std::any_of(argv.begin() + 1, argv.end(), [](const std::string& a) { return equals_ignore_case(a, "nosave"); });
    if (!nosave) return engine_->reject_busy(c->session);
    engine_->abort_script();
    halting_ = true;
  }
  stop();
  c->closing = true;
  return Reply::sequence({});
}

}  // namespace locksim::server
