#include "explore/shard_merge.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>

#include "explore/how_far_judged.hpp"

namespace locksim::explore {
namespace {

using Json = nlohmann::ordered_json;

// Whether `given` (a set or map of shard numbers) holds each of 0..shards-1; if not, "2 of 4 shards
// given; missing: 1 3" on err.
template <class Given>
bool all_shards_given(const Given& given, int64_t shards, std::ostream& err) {
  if (static_cast<int64_t>(given.size()) == shards) return true;
  err << "locksim merge: " << given.size() << " of " << shards << " shards given; missing:";
  for (int64_t i = 0; i < shards; ++i)
    if (!given.count(i)) err << " " << i;
  err << "\n";
  return false;
}

// The results.jsonl of an explore run's shards, read one after the other into one.
class ExploreMerge {
 public:
  ExploreMerge(const std::vector<std::string>& inputs, std::ostream& err) : inputs_(inputs), err_(err) {}

  // Input n's lines: false when it cannot be read or does not belong with the others (said on err).
  bool read(size_t n) {
    const std::string& input = inputs_[n];
    std::ifstream file(input, std::ios::binary);
    if (!file) return fail() << input << ": cannot read\n", false;
    std::string line;
    bool shard_line = false;
    for (int number = 1; std::getline(file, line); ++number) {
      if (line.empty()) continue;
      const auto j = Json::parse(line, nullptr, false);
      const bool object = !j.is_discarded() && j.is_object();
      if (number == 1 && object && j.contains("shards") && j.contains("exploration")) {
        if (!take_shard_line(j, n)) return false;
        shard_line = true;
        continue;
      }
      if (number == 1 && shards_ > 0) {
        fail() << input << " is no shard's file, but " << inputs_[0] << " is shard " << shard_from_.begin()->first << "/"
               << shards_ << "\n";
        return false;
      }
      if (object && j.contains("seed") && j["seed"].is_number_unsigned()) {
        if (!take_case(j["seed"].get<uint64_t>(), line, input)) return false;
        continue;
      }
      if (object && is_group(j)) {
        take_group(j);
        continue;
      }
      return fail() << input << ":" << number << ": not a case line (with a seed) or a finding line\n", false;
    }
    if (shards_ > 0 && !shard_line) return fail() << input << " is empty, not a shard's file\n", false;
    return true;
  }

  // Every shard of the exploration given (when the inputs are shards): false, said on err, if not.
  bool complete() { return shards_ <= 0 || all_shards_given(shard_from_, shards_, err_); }

  // The cases by seed, then the groups as one process writes them: false when it cannot be written.
  bool write(const std::string& out_path) {
    std::sort(lines_.begin(), lines_.end());
    std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
    if (!out) return fail() << out_path << ": cannot write\n", false;
    for (const auto& [seed, line] : lines_) out << line << "\n";
    for (const auto* j : groups_in_order()) out << j->dump() << "\n";
    if (!out) return fail() << out_path << ": write failed\n", false;
    return true;
  }

 private:
  std::ostream& fail() { return err_ << "locksim merge: "; }

  // A shard's first line: which shard of which exploration. It must agree with the first input's.
  bool take_shard_line(const Json& j, size_t n) {
    const std::string& input = inputs_[n];
    const int64_t i = j.value("shard", int64_t{-1}), of = j.value("shards", int64_t{0});
    const std::string what = j.value("exploration", std::string());
    if (n > 0 && shards_ == 0) {
      fail() << input << " is shard " << i << "/" << of << ", but " << inputs_[0] << " is no shard's file\n";
      return false;
    }
    if (n > 0 && (of != shards_ || what != exploration_)) {
      fail() << input << " is shard " << i << "/" << of << " of `" << what << "`, but " << inputs_[0] << " is of "
             << shards_ << " shards of `" << exploration_ << "`\n";
      return false;
    }
    if (const auto [it, added] = shard_from_.emplace(i, input); !added) {
      fail() << "shard " << i << " is given twice (" << it->second << " and " << input << ")\n";
      return false;
    }
    shards_ = of;
    exploration_ = what;
    return true;
  }

  // A seed in two files is a case counted twice, and its finding's seeds with it.
  bool take_case(uint64_t seed, const std::string& line, const std::string& input) {
    if (const auto [it, added] = seed_from_.emplace(seed, input); !added) {
      fail() << "seed " << seed << " is in both " << it->second << " and " << input
             << ": the files overlap (a file given twice, or explorations of the same seeds)\n";
      return false;
    }
    lines_.emplace_back(seed, line);
    return true;
  }

  static bool is_group(const Json& j) {
    return j.contains("seeds") && j.contains("first_seed") &&
           ((j.contains("finding") && j["finding"].is_string()) || (j.contains("hazard") && j["hazard"].is_string()) ||
            (j.contains("no_verdict_under") && j["no_verdict_under"].is_string()));
  }

  // A finding's seeds are grouped by its signature, a no-verdict pair's by the side without a
  // verdict (and the other's hazard), a hazard's by the hazard: seeds added, the first seed's line kept.
  void take_group(const Json& j) {
    const std::string key =
        j.contains("finding") ? j["finding"].get<std::string>()
        : j.contains("no_verdict_under")
            ? "no-verdict " + j["no_verdict_under"].get<std::string>() +
                  (j.contains("hazard") ? " " + j["hazard"].get<std::string>() : std::string())
            : "hazard " + j["hazard"].get<std::string>();
    auto [it, added] = merged_.emplace(key, j);
    if (added) return;
    Json& kept = it->second;
    const uint64_t seeds = kept["seeds"].get<uint64_t>() + j["seeds"].get<uint64_t>();
    if (j["first_seed"].get<uint64_t>() < kept["first_seed"].get<uint64_t>()) kept = j;
    kept["seeds"] = seeds;
  }

  // As one process writes them: findings by first seed, then the hazards, then the pairs with no
  // verdict on one side, each by first seed.
  std::vector<const Json*> groups_in_order() const {
    std::vector<const Json*> groups;
    for (const auto& [key, j] : merged_) groups.push_back(&j);
    std::sort(groups.begin(), groups.end(), [](const auto* a, const auto* b) {
      auto rank = [](const auto* j) { return j->contains("finding") ? 0 : j->contains("no_verdict_under") ? 2 : 1; };
      if (rank(a) != rank(b)) return rank(a) < rank(b);
      return (*a)["first_seed"].template get<uint64_t>() < (*b)["first_seed"].template get<uint64_t>();
    });
    return groups;
  }

  const std::vector<std::string>& inputs_;
  std::ostream& err_;
  std::vector<std::pair<uint64_t, std::string>> lines_;
  std::map<std::string, Json> merged_;        // finding id (or hazard name) -> its line
  std::map<uint64_t, std::string> seed_from_;  // each case's seed -> the file it came from
  std::map<int64_t, std::string> shard_from_;  // each shard given -> its file
  int64_t shards_ = 0;                         // of the shards' exploration; 0: files of no shard
  std::string exploration_;
};

// The exhaustive.json of a search's shards, added up into one search's.
class ExhaustiveMerge {
 public:
  explicit ExhaustiveMerge(std::ostream& err) : err_(err) {}

  // One shard's file: false when it is none, or not of the same search as the others (said on err).
  bool add(const std::string& input) {
    std::ifstream file(input, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    const auto j = Json::parse(text.str(), nullptr, false);
    if (!file || j.is_discarded() || !j.is_object() || !j.contains("shards") || !j.contains("shard"))
      return fail() << input << ": not the exhaustive.json of a `check --exhaustive` run\n", false;
    const int64_t n = j["shards"].get<int64_t>(), i = j["shard"].get<int64_t>();
    if (shards_ >= 0 && n != shards_)
      return fail() << input << ": shard " << i << " of " << n << ", but the others are of " << shards_ << "\n", false;
    const std::string this_search = j.value("search", std::string());
    if (shards_ >= 0 && this_search != search_)
      return fail() << input << ": a shard of another search (" << this_search << "), not of " << search_ << "\n", false;
    search_ = this_search;
    shards_ = n;
    if (!seen_.insert(i).second) return fail() << input << ": shard " << i << " is given twice\n", false;
    // The search's identity names --first, so every shard agrees on it.
    first_pass_ = !j.value("shortest", true);
    if (total_.empty()) {
      expect_ = j.value("expect", Json::object());
      total_ = {{"search", search_}, {"shards", n},       {"schedules", 0},     {"runs", 0},
                {"states", 0},       {"pruned", 0},       {"cut", 0},           {"level", j["level"]},
                {"complete", true},  {"shortest", !first_pass_}, {"stopped", ""}, {"seconds", 0.0},
                {"counterexample", nullptr}};
    }
    add_totals(j);
    add_counterexample(j, i);
    return true;
  }

  // Every shard of 0..N-1 given: false, said on err, if not.
  bool complete() { return all_shards_given(seen_, shards_, err_); }

  // The totals, as one search's exhaustive.json: false when it cannot be written.
  bool write(const std::string& out_path) {
    total_["level"] = total_["complete"].get<bool>() ? deepest_level_ : stopped_level_;
    total_["counterexample"] = !unexpected_c_.is_null() ? unexpected_c_ : expected_c_;
    total_["expect"] = expect_;
    total_["unknown"] = unknown_;
    total_["nothing_to_judge"] = nothing_to_judge_;
    std::ofstream file(out_path, std::ios::binary);
    file << total_.dump() << "\n";
    if (!file) return fail() << "cannot write " << out_path << "\n", false;
    return true;
  }

  // What one search would say of it, and the exit code it would give: 0 when what was expected
  // came out (a counterexample of a property expected violated; else every schedule holding, and
  // none expected violated).
  int report(std::ostream& out) const {
    out << total_["schedules"] << " schedules, " << total_["runs"] << " runs, " << total_["states"] << " states, "
        << total_["pruned"] << " orders pruned over " << shards_ << " shards ("
        << (total_["complete"].get<bool>() ? "complete" : "not complete") << ")";
    const Json& c = total_["counterexample"];
    if (c.is_object()) say_counterexample(c, out);
    out << "\n";
    const HowFarJudged judged = judged_claims();
    if (unexpected_c_.is_null()) out << judged.lines;
    bool violated_expected = false;
    for (const auto& [name, value] : expect_.items()) violated_expected = violated_expected || value == "violated";
    if (!unexpected_c_.is_null()) return 1;
    if (c.is_object()) return judged.unjudged ? 1 : 0;
    return total_["complete"].get<bool>() && !violated_expected && !judged.unjudged ? 0 : 1;
  }

 private:
  std::ostream& fail() { return err_ << "locksim merge: "; }

  void add_totals(const Json& j) {
    for (const char* key : {"schedules", "runs", "states", "pruned", "cut"})
      total_[key] = total_[key].get<uint64_t>() + j[key].get<uint64_t>();
    // A complete shard ran every schedule of its part, at whatever level; one stopped early, every
    // one with at most its level's deviations. So the search's level is the least of the stopped
    // shards', or, when none stopped, the deepest any shard needed (the single search's).
    if (j["complete"].get<bool>()) deepest_level_ = std::max(deepest_level_, j["level"].get<int64_t>());
    else stopped_level_ = std::min(stopped_level_, j["level"].get<int64_t>());
    total_["complete"] = total_["complete"].get<bool>() && j["complete"].get<bool>();
    if (!j["stopped"].get<std::string>().empty()) total_["stopped"] = j["stopped"];
    total_["seconds"] = total_["seconds"].get<double>() + j["seconds"].get<double>();
    const Json shard_unknown = j.value("unknown", Json::object());
    for (const auto& [name, n] : shard_unknown.items()) unknown_[name] = unknown_.value(name, uint64_t{0}) + n.get<uint64_t>();
    const Json shard_nothing = j.value("nothing_to_judge", Json::object());
    for (const auto& [name, n] : shard_nothing.items())
      nothing_to_judge_[name] = nothing_to_judge_.value(name, uint64_t{0}) + n.get<uint64_t>();
  }

  // Every shard's counterexample counts: one of a property expected to hold (or of a pinned
  // outcome) makes the search's outcome unexpected, whichever is shorter. And a counterexample is
  // the shortest of all only if every shard without one searched every level below it.
  void add_counterexample(const Json& j, int64_t i) {
    const auto& c = j["counterexample"];
    if (c.is_object()) {
      const bool looked_for =
          j.value("expect", Json::object()).value(c["property"].get<std::string>(), std::string()) == "violated";
      auto& kept = looked_for ? expected_c_ : unexpected_c_;
      if (kept.is_null() || c["cost"].get<int64_t>() < kept["cost"].get<int64_t>()) {
        kept = c;
        kept["shard"] = i;
      }
    }
    finished_[i] = j["complete"].get<bool>() ? std::numeric_limits<int64_t>::max()
                   : c.is_object()           ? c["cost"].get<int64_t>() - 1
                                             : j["level"].get<int64_t>();
  }

  void say_counterexample(const Json& c, std::ostream& out) const {
    const int64_t cost = c["cost"].get<int64_t>(), in = c["shard"].get<int64_t>();
    bool others_searched = true;
    for (const auto& [shard, level] : finished_) others_searched = others_searched && (shard == in || level >= cost - 1);
    const bool shortest = !first_pass_ && others_searched;
    out << (shortest ? "; the shortest counterexample: " : "; a counterexample: ") << c["property"].get<std::string>()
        << ", " << cost << (cost == 1 ? " deviation" : " deviations") << ", in shard " << in;
    if (first_pass_) out << " (--first: not necessarily the fewest)";
    else if (!others_searched) out << " (not necessarily the fewest: another shard stopped before searching every schedule with fewer)";
  }

  // How far each claim was judged, as one search says it: not beside an unexpected counterexample;
  // beside an expected one, for the properties expected to hold (judged in the schedules before it).
  HowFarJudged judged_claims() const {
    const bool counterexample = total_["counterexample"].is_object();
    std::vector<PropertyCounts> counts;
    for (const auto& [name, value] : expect_.items())
      if (value != "violated" || !counterexample)
        counts.push_back({name, unknown_.value(name, uint64_t{0}), nothing_to_judge_.value(name, uint64_t{0})});
    return how_far_judged(counts, total_["schedules"].get<uint64_t>());
  }

  std::ostream& err_;
  Json total_, expect_, unknown_ = Json::object(), nothing_to_judge_ = Json::object();
  std::set<int64_t> seen_;
  int64_t shards_ = -1;
  int64_t deepest_level_ = -1, stopped_level_ = std::numeric_limits<int64_t>::max();
  Json unexpected_c_, expected_c_;
  std::map<int64_t, int64_t> finished_;  // per shard, every level up to this one searched to its end
  std::string search_;
  bool first_pass_ = false;  // --first shards: their counterexamples are not the shortest
};

}  // namespace

int merge_explore_shards(const std::vector<std::string>& inputs, const std::string& out_path, std::ostream& err) {
  ExploreMerge merge(inputs, err);
  for (size_t n = 0; n < inputs.size(); ++n)
    if (!merge.read(n)) return 2;
  return merge.complete() && merge.write(out_path) ? 0 : 2;
}

bool is_exhaustive_json(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  const auto j = nlohmann::json::parse(text.str(), nullptr, false);
  return !j.is_discarded() && j.is_object() && j.contains("shards") && j.contains("schedules");
}

int merge_exhaustive_shards(const std::vector<std::string>& inputs, const std::string& out_path, std::ostream& out,
                            std::ostream& err) {
  ExhaustiveMerge merge(err);
  for (const std::string& input : inputs)
    if (!merge.add(input)) return 2;
  if (!merge.complete() || !merge.write(out_path)) return 2;
  return merge.report(out);
}

}  // namespace locksim::explore
