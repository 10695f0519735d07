#include "explore/explore.hpp"

#include "report/markup.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "scenario/writer.hpp"
#include "report/timeline.hpp"
#include "report/verdict_json.hpp"

namespace locksim::explore {

using scenario::PropertyResult;
using scenario::Scenario;
using scenario::ScenarioResult;
using report::escape_markup;
using report::evidence_json;
using report::render_timeline_html;
using report::TimelineInput;
namespace {

std::string join(const std::vector<std::string>& items, const char* sep = ",") {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

// The explore command that generates this case again (seed and configuration, no shard).
std::string regenerate_command(const ExploreConfig& c, uint64_t seed) {
  std::string cmd = "locksim explore --lock " + c.lock_type + " --clients " + std::to_string(c.clients_max) + " --ops " +
                    std::to_string(c.ops_max);
  if (!c.faults.empty()) cmd += " --faults " + join(c.faults);
  if (c.world_loss_max > 0) cmd += " --world-loss " + std::to_string(c.world_loss_max);
  if (!c.leases) cmd += " --no-leases";
  if (!c.try_locks) cmd += " --no-try-lock";
  if (c.watchdog_keep) cmd += " --watchdog-keep";
  if (c.unlock_latch) cmd += " --unlock-latch";
  if (c.lock_type == "fair") cmd += " --fair-variant " + c.fair_variant + " --thread-wait-ms " + std::to_string(c.thread_wait_ms);
  for (const auto& [name, path] : c.script_files) cmd += " --script " + name + "=" + path;
  return cmd + " --properties " + join(c.properties) + " --seed " + std::to_string(seed);
}

const PropertyResult* property_of(const ScenarioResult& r, const std::string& name) {
  for (const auto& p : r.properties)
    if (p.property == name) return &p;
  return nullptr;
}

bool violates(const Scenario& s, const std::string& property) {
  Scenario only = s;
  only.expect = {{property, "holds"}};
  const ScenarioResult r = run_scenario(only);
  if (r.error) return false;
  const PropertyResult* p = property_of(r, property);
  return p && p->verdict.valid == model::Validity::No;
}

// Ctrl-C and an abort in the middle of a case.
std::atomic<uint64_t> g_current_seed{0};
std::atomic<bool> g_running{false};

extern "C" void on_interrupt(int) { explore_stop_flag().store(true); }

extern "C" void on_abort(int) {
  if (!g_running.load()) return;
  char buf[160];
  const char prefix[] = "\nlocksim explore: aborted (--emit DIR writes its scenario) while running seed ";
  std::memcpy(buf, prefix, sizeof prefix - 1);
  size_t n = sizeof prefix - 1;
  char digits[24];
  size_t d = 0;
  uint64_t v = g_current_seed.load();
  do {
    digits[d++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v && d < sizeof digits);
  while (d) buf[n++] = digits[--d];
  buf[n++] = '\n';
  [[maybe_unused]] const ssize_t w = ::write(2, buf, n);
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path.string() + ": cannot write");
  file << text;
  if (!file) throw std::runtime_error(path.string() + ": write failed");
}

std::string duration_text(double seconds) {
  std::ostringstream o;
  if (seconds < 90) o << static_cast<int64_t>(seconds + 0.5) << "s";
  else if (seconds < 5400) o << static_cast<int64_t>(seconds / 60 + 0.5) << "m";
  else o << std::fixed << std::setprecision(1) << seconds / 3600 << "h";
  return o.str();
}

}  // namespace

std::atomic<bool>& explore_stop_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

Scenario shrink_scenario(const rc::Shrinkable<Scenario>& start, const std::function<bool(const Scenario&)>& still_fails,
                         int runs_max, int* runs) {
  rc::Shrinkable<Scenario> current = start;
  int used = 0;
  bool progressed = true;
  while (progressed && used < runs_max) {
    progressed = false;
    rc::Seq<rc::Shrinkable<Scenario>> shrinks = current.shrinks();
    while (used < runs_max) {
      rc::Maybe<rc::Shrinkable<Scenario>> next = shrinks.next();
      if (!next) break;
      ++used;
      if (still_fails(next->value())) {
        current = std::move(*next);
        progressed = true;
        break;
      }
    }
  }
  if (runs) *runs = used;
  return current.value();
}

CaseResult explore_case(const ExploreConfig& config, uint64_t seed, const ShrinkOptions& shrink) {
  CaseResult result;
  result.seed = seed;
  const rc::Shrinkable<Scenario> generated = generate_case(config, seed);
  Scenario s = generated.value();
  result.steps = s.timeline.size();
  const ScenarioResult run = run_scenario(s);
  if (run.error) {
    result.error = *run.error;
    return result;
  }
  for (const auto& p : run.properties) {
    result.verdicts.emplace_back(p.property, std::string(model::to_string(p.verdict.valid)));
    if (result.violated.empty() && p.verdict.valid == model::Validity::No) result.violated = p.property;
  }
  if (result.violated.empty()) return result;

  const std::string property = result.violated;
  Scenario smallest = shrink.enabled
                          ? shrink_scenario(generated, [&](const Scenario& c) { return violates(c, property); },
                                            shrink.runs_max, &result.shrink_runs)
                          : s;
  smallest.name = "explore-" + config.lock_type + "-seed-" + std::to_string(seed);
  smallest.about = "Found by `" + regenerate_command(config, seed) + "`: " + property + " violated; shrunk from " +
                   std::to_string(result.steps) + " to " + std::to_string(smallest.timeline.size()) +
                   " timeline steps. Every property is expected to hold.";
  result.shrunk_steps = smallest.timeline.size();
  result.shrunk_run = run_scenario(smallest);
  if (const PropertyResult* p = property_of(result.shrunk_run, property)) {
    result.anomaly = p->verdict.anomaly;
    result.explanation = p->verdict.explanation;
    result.verdict = p->verdict;
  }
  result.shrunk = std::move(smallest);
  return result;
}

std::optional<CaseResult> find_counterexample(const ExploreConfig& config, uint64_t first, uint64_t count,
                                              const ShrinkOptions& shrink) {
  for (uint64_t seed = first; seed < first + count; ++seed) {
    CaseResult r = explore_case(config, seed, shrink);
    if (!r.violated.empty()) return r;
  }
  return std::nullopt;
}

std::string case_json_line(const CaseResult& r, const std::string& scenario_path, const std::string& timeline_path) {
  nlohmann::ordered_json j;
  j["seed"] = r.seed;
  if (r.error) {
    j["error"] = *r.error;
    return j.dump() + "\n";
  }
  nlohmann::ordered_json verdicts = nlohmann::ordered_json::object();
  for (const auto& [property, verdict] : r.verdicts) verdicts[property] = verdict;
  j["verdicts"] = verdicts;
  if (!r.violated.empty()) {
    j["violated"] = r.violated;
    j["anomaly"] = r.anomaly;
    j["steps"] = r.steps;
    j["shrunk_steps"] = r.shrunk_steps;
    j["scenario"] = scenario_path;
    j["timeline"] = timeline_path;
    j["explanation"] = r.explanation;
    j["witness"] = r.verdict.witness;
    j["evidence"] = evidence_json(r.verdict);
  }
  return j.dump() + "\n";
}

int run_explore(const ExploreOptions& o, std::ostream& out, std::ostream& err) {
  try {
    validate(o.config);
  } catch (const std::invalid_argument& e) {
    err << "locksim explore: " << e.what() << "\n";
    return 2;
  }
  if (o.seed_last < o.seed_first) {
    err << "locksim explore: the seed range is empty\n";
    return 2;
  }
  if (o.shard_count < 1 || o.shard_index < 0 || o.shard_index >= o.shard_count) {
    err << "locksim explore: --shard I/N needs 0 <= I < N\n";
    return 2;
  }
  std::vector<uint64_t> seeds;
  for (uint64_t seed = o.seed_first, i = 0;; ++seed, ++i) {
    if (i % static_cast<uint64_t>(o.shard_count) == static_cast<uint64_t>(o.shard_index)) seeds.push_back(seed);
    if (seed == o.seed_last) break;
  }

  std::ofstream results;
  if (!o.out.empty()) {
    const std::filesystem::path p(o.out);
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
    results.open(p, std::ios::binary | std::ios::trunc);
    if (!results) {
      err << "locksim explore: " << o.out << ": cannot write\n";
      return 2;
    }
  }

  explore_stop_flag().store(false);
  const auto old_int = std::signal(SIGINT, on_interrupt);
  const auto old_term = std::signal(SIGTERM, on_interrupt);
  const auto old_abrt = std::signal(SIGABRT, on_abort);
  g_running.store(true);

  const auto started = std::chrono::steady_clock::now();
  auto last_progress = started;
  size_t done = 0, violations = 0, errors = 0;
  std::ostringstream junit_cases;
  bool interrupted = false;
  for (const uint64_t seed : seeds) {
    if (explore_stop_flag().load()) {
      interrupted = true;
      break;
    }
    g_current_seed.store(seed);
    if (!o.emit_dir.empty()) {
      Scenario generated = generate_case(o.config, seed).value();
      generated.name = "explore-" + o.config.lock_type + "-seed-" + std::to_string(seed) + "-generated";
      generated.about = "Generated by `" + regenerate_command(o.config, seed) + "` (not shrunk).";
      try {
        write_scenario_file(generated, (std::filesystem::path(o.emit_dir) / ("seed-" + std::to_string(seed) + ".yaml")).string());
      } catch (const std::exception& e) {
        err << "locksim explore: " << e.what() << "\n";
        return 2;
      }
    }
    const auto case_started = std::chrono::steady_clock::now();
    CaseResult r = explore_case(o.config, seed, o.shrink);
    const double case_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - case_started).count();
    ++done;
    std::string scenario_path, timeline_path;
    if (r.error) {
      ++errors;
      if (o.progress) err << "\r\x1b[K";
      out << "ERROR seed=" << seed << ": " << *r.error << "\n  regenerate: " << regenerate_command(o.config, seed) << "\n";
    } else if (!r.violated.empty()) {
      ++violations;
      const std::filesystem::path dir(o.cases_dir);
      scenario_path = (dir / ("seed-" + std::to_string(seed) + ".yaml")).string();
      timeline_path = (dir / ("seed-" + std::to_string(seed) + ".html")).string();
      try {
        std::filesystem::create_directories(dir);
        write_scenario_file(r.shrunk, scenario_path);
        TimelineInput t;
        t.title = r.shrunk.name;
        t.about = r.shrunk.about;
        t.lock = r.shrunk.lock.name;
        t.lock_type = r.shrunk.lock.type;
        t.clients = r.shrunk_run.clients;
        t.history = &r.shrunk_run.history;
        for (const auto& p : r.shrunk_run.properties) t.verdicts.push_back(p.verdict);
        write_text(timeline_path, render_timeline_html(t));
      } catch (const std::exception& e) {
        err << "locksim explore: " << e.what() << "\n";
      }
      if (o.progress) err << "\r\x1b[K";
      out << "VIOLATION seed=" << seed << " " << r.violated << " (" << r.anomaly << "), shrunk from " << r.steps << " to "
          << r.shrunk_steps << " steps in " << r.shrink_runs << " runs\n"
          << "  " << r.explanation << "\n"
          << "  timeline: " << timeline_path << "\n"
          << "  replay:   locksim run " << scenario_path << "\n";
    }
    if (results) {
      results << case_json_line(r, scenario_path, timeline_path);
      results.flush();
    }
    if (!o.junit.empty()) {
      junit_cases << "  <testcase classname=\"explore." << escape_markup(o.config.lock_type) << "\" name=\"seed-" << seed
                  << "\" time=\"" << std::fixed << std::setprecision(6) << case_s << "\">";
      if (r.error) junit_cases << "<error message=\"" << escape_markup(*r.error) << "\"/>";
      else if (!r.violated.empty())
        junit_cases << "<failure message=\"" << escape_markup(r.violated + " violated (" + r.anomaly + ")") << "\">"
                    << escape_markup(r.explanation + "\nreplay: locksim run " + scenario_path) << "</failure>";
      junit_cases << "</testcase>\n";
    }
    const auto now = std::chrono::steady_clock::now();
    if (o.progress && now - last_progress > std::chrono::milliseconds(250)) {
      last_progress = now;
      const double elapsed = std::chrono::duration<double>(now - started).count();
      const double rate = done / std::max(elapsed, 1e-9);
      err << "\rexplore: " << done << "/" << seeds.size() << " cases, " << static_cast<int64_t>(rate) << "/s, "
          << violations << " violation" << (violations == 1 ? "" : "s") << ", ETA "
          << duration_text((seeds.size() - done) / std::max(rate, 1e-9)) << "\x1b[K" << std::flush;
    }
  }
  g_running.store(false);
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  std::signal(SIGABRT, old_abrt);
  if (o.progress) err << "\r\x1b[K" << std::flush;

  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!o.junit.empty()) {
    std::ostringstream xml;
    xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"locksim explore\" tests=\"" << done
        << "\" failures=\"" << violations << "\" errors=\"" << errors << "\" time=\"" << std::fixed
        << std::setprecision(3) << elapsed << "\">\n"
        << junit_cases.str() << "</testsuite>\n";
    try {
      write_text(o.junit, xml.str());
    } catch (const std::exception& e) {
      err << "locksim explore: " << e.what() << "\n";
    }
  }
  out << "explore: " << done << " of " << seeds.size() << " cases (seeds " << o.seed_first << ".." << o.seed_last;
  if (o.shard_count > 1) out << ", shard " << o.shard_index << "/" << o.shard_count;
  out << "), " << violations << " violation" << (violations == 1 ? "" : "s");
  if (errors) out << ", " << errors << " error" << (errors == 1 ? "" : "s");
  out << ", " << std::fixed << std::setprecision(1) << elapsed << " s (" << static_cast<int64_t>(done / std::max(elapsed, 1e-9))
      << " cases/s)" << (interrupted ? ", interrupted" : "") << "\n";
  if (violations || errors) return 1;
  return interrupted ? 130 : 0;
}

int run_merge(const std::vector<std::string>& inputs, const std::string& out_path, std::ostream& err) {
  std::vector<std::pair<uint64_t, std::string>> lines;
  for (const std::string& input : inputs) {
    std::ifstream file(input, std::ios::binary);
    if (!file) {
      err << "locksim merge: " << input << ": cannot read\n";
      return 2;
    }
    std::string line;
    for (int number = 1; std::getline(file, line); ++number) {
      if (line.empty()) continue;
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object() || !j.contains("seed") || !j["seed"].is_number_unsigned()) {
        err << "locksim merge: " << input << ":" << number << ": not a result line with a seed\n";
        return 2;
      }
      lines.emplace_back(j["seed"].get<uint64_t>(), line);
    }
  }
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  if (!out) {
    err << "locksim merge: " << out_path << ": cannot write\n";
    return 2;
  }
  for (const auto& [seed, line] : lines) out << line << "\n";
  if (!out) {
    err << "locksim merge: " << out_path << ": write failed\n";
    return 2;
  }
  return 0;
}

}  // namespace locksim::explore
