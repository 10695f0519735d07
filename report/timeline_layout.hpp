#pragma once
// The timeline's layout: who is in the run (clients, servers, the world), a lane per client thread
// and per server with its rows, the time scale, and where each event sits. The plot and the text
// timeline both read it; what it knows of beliefs, faults and keys comes from model/facts.hpp.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/facts.hpp"
#include "model/history.hpp"
#include "report/element.hpp"
#include "report/timeline.hpp"

namespace locksim::report::timeline {

using model::Event;
using model::EventKind;
using model::History;

inline std::string ms(int64_t t) { return std::to_string(t) + " ms"; }

// --- geometry

inline constexpr double kPad = 14;          // left and right margin of the plot
inline constexpr double kAxisH = 34;        // the time axis above the lanes
inline constexpr double kRowH = 18;         // a holding row (client) or key row (server)
inline constexpr double kOpRowH = 15;       // the operations row (client) or exec row (server)
inline constexpr double kTopPad = 13;       // above a lane's rows: room for fault labels
inline constexpr double kBottomPad = 5;
inline constexpr double kLabelW = 190;      // the fixed column of lane names
inline constexpr double kStaticWidth = 1200;  // the plot's width before the page's script fits it
inline constexpr const char* kRed = "#d62728";

struct Lane {
  std::string id;            // "A:1", "A" (a client without threads) or "redis0"
  std::string process;
  int64_t thread = 0;
  bool server = false;
  int color = -1;            // index into the palette, -1 for servers and the world
  std::vector<std::string> rows;  // locks (client) or keys (server), a row each
  double top = 0;

  double height() const { return kTopPad + kBottomPad + static_cast<double>(rows.size()) * kRowH + kOpRowH; }
  double bottom() const { return top + height(); }
  double row_y(const std::string& lock) const {
    const auto it = std::find(rows.begin(), rows.end(), lock);
    const size_t i = it == rows.end() ? 0 : static_cast<size_t>(it - rows.begin());
    return top + kTopPad + static_cast<double>(i) * kRowH + kRowH / 2;
  }
  double op_y() const { return top + kTopPad + static_cast<double>(rows.size()) * kRowH + kOpRowH / 2; }
};

struct Scale {
  double px_per_ms = 1;
  double x(int64_t t) const { return kPad + static_cast<double>(t) * px_per_ms; }
};

// A client's colour (grey for -1: servers and the world).
std::string color_of(int index);
// A rectangle over [t0, t1] the page's script re-lays out on zoom (data-t0/t1; data-minw).
El span_rect(const Scale& s, int64_t t0, int64_t t1, double y, double h, double min_w = 1);
// A group placed at (time t, y): markers are drawn around its origin.
El point(const Scale& s, int64_t t, double y);
El vline(const Scale& s, int64_t t, double y1, double y2);

// --- who is in the run

bool is_acquire(const std::string& f);
bool contains(const std::vector<std::string>& v, const std::string& name);

struct Cast {
  std::vector<std::string> clients;  // lane order
  std::vector<std::string> others;   // "world" and the like: events that are no one's
  std::vector<std::string> servers;
};

Cast find_cast(const TimelineInput& in, const model::Facts& facts);

// --- the layout

struct Layout {
  const TimelineInput& in;
  const History& h;
  model::Facts facts;
  Cast cast;
  std::vector<Lane> lanes;
  Scale scale;
  int64_t end_ms = 1;
  double height = 0;

  explicit Layout(const TimelineInput& input);

  double width() const { return scale.x(end_ms) + kPad; }
  const Lane* lane_of(const std::string& process, int64_t thread) const;
  const Lane* lane_of(const Event& e) const { return lane_of(e.process, e.thread); }
  // The vertical extent of all of a process's lanes.
  std::pair<double, double> block_of(const std::string& process) const;
  int client_color(const std::string& client) const;
};

// Where an event sits on the plot: its time and the y of its row.
struct Anchor {
  int64_t t = 0;
  double y = 0;
};

std::optional<Anchor> anchor_of(const Layout& L, const Event& e);

// "A:1" for a client thread's event, else its process.
std::string who(const Event& e);
// Every detail of one event, for hover texts.
std::string describe(const Event& e);

}  // namespace locksim::report::timeline
