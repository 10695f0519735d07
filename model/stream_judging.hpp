#pragma once
// Judging a history as it streams, for histories longer than memory: the checkers' facts learn from
// a first reading of the events, then take a second, and every `step` events the judges judge what
// is settled and the facts drop what none of them needs any more. The verdicts are the ones
// run_checkers gives on the whole history (verify/property/stream_judging_test.cpp holds them to
// it); what the stream holds at once depends on how long operations and holds last, not on how
// long the history is.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/checkers.hpp"
#include "model/history.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

// One reading of the history's events, in order: the next, or nullopt at the end.
using EventReading = std::function<std::optional<Event>()>;

// Readings of the history file at `path`, each from its start (HistoryReader: the file is never
// held whole). A reading throws std::runtime_error when the file cannot be read, and what
// HistoryReader throws for a bad line.
std::function<EventReading()> file_readings(const std::string& path);

// Readings of a history in memory (which must outlive them), each from its start.
std::function<EventReading()> history_readings(const History& history);

struct StreamFigures {
  int64_t events = 0;     // the history's events
  int64_t most_kept = 0;  // the most events held at once
};

// How far a long judgement has come: called every `step` events with the events read so far and
// the history's length (-1 during the first reading, which learns it).
using StreamProgress = std::function<void(int64_t read, int64_t events)>;

// The verdicts of the checkers named, over the history `read` reads (it is called twice, for two
// readings). Throws what run_checkers throws for bad names, and what a reading throws.
std::vector<Verdict> judge_stream(const std::function<EventReading()>& read, const std::vector<std::string>& names,
                                  const CheckerOptions& options = {}, StreamFigures* figures = nullptr,
                                  int64_t step = 4096, const std::vector<NamedChecker>& table = standard_checkers(),
                                  const StreamProgress& progress = {});

}  // namespace locksim::model
