#include <algorithm>
#include <ostream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "report/markup.hpp"
#include "report/timeline.hpp"
#include "report/timeline_assets.hpp"
#include "report/timeline_plot.hpp"

namespace locksim::report {
namespace {

using model::Verdict;
using timeline::Layout;
using timeline::violations;

const char* const kStandingClass[] = {"observed", "met", "missed"};

// Each verdict against what the scenario expected of it, and a line on them all.
std::string standings(const TimelineInput& in) {
  if (in.verdicts.empty()) return {};
  size_t missed = 0, expected = 0;
  std::string items;
  for (size_t i = 0; i < in.verdicts.size(); ++i) {
    const timeline::Standing st = timeline::standing_of(in, i);
    missed += st == timeline::Standing::Missed;
    expected += st != timeline::Standing::Observed;
    const Verdict& v = in.verdicts[i];
    El li("li");
    li.a("class", std::string("standing ") + kStandingClass[static_cast<int>(st)] + " " + std::string(to_string(v.valid)));
    if (!v.explanation.empty()) li.a("title", v.explanation);
    items += li.text(timeline::standing_text(in, i)).str();
  }
  std::string head = missed ? std::to_string(missed) + " of " + std::to_string(expected) +
                                  (expected == 1 ? " verdict" : " verdicts") + " did not meet the scenario's expectations"
                     : expected ? std::string("The verdicts met the scenario's expectations")
                                : std::string("Observed: the run expects no verdict");
  const char* cls = missed ? "standings missed" : expected ? "standings met" : "standings observed";
  return "<section class=\"" + std::string(cls) + "\" id=\"standings\"><p class=\"standing-head\">" + escape_markup(head) +
         "</p><ul>" + items + "</ul></section>";
}

// The witness numbers, each a link that selects its event on the plot.
std::string witness_links(const Verdict& v) {
  std::string out;
  for (int64_t i : v.witness) {
    const std::string n = std::to_string(i);
    out += " <a href=\"#select=" + n + "\" data-select=\"" + n + "\">#" + n + "</a>";
  }
  return out;
}

std::string violation_box(const TimelineInput& in) {
  const auto bad = violations(in);
  if (bad.empty()) return {};
  // Calm when every violation is one the scenario expected (it shows a bug), red when any is not.
  bool unexpected = false, all_expected = true;
  for (size_t i = 0; i < in.verdicts.size(); ++i) {
    if (in.verdicts[i].valid != model::Validity::No) continue;
    const timeline::Standing st = timeline::standing_of(in, i);
    unexpected |= st == timeline::Standing::Missed;
    all_expected &= st == timeline::Standing::Met;
  }
  const char* cls = unexpected ? "violations unexpected" : all_expected ? "violations expected" : "violations observed";
  std::string out = "<section class=\"" + std::string(cls) + "\" id=\"violations\"><h2>";
  out += std::to_string(bad.size()) + (bad.size() == 1 ? " violation" : " violations");
  out += unexpected ? " \u2014 not expected (the scenario expects the property to hold)"
         : all_expected ? " \u2014 expected (the scenario shows this bug)"
                        : " (observed)";
  out += " <a href=\"#\" id=\"jump-first\" data-jump=\"0\">jump to first violation</a></h2><ol>";
  for (size_t k = 0; k < bad.size(); ++k) {
    const Verdict& v = *bad[k];
    out += "<li><b>" + escape_markup(v.property) + "</b> <span class=\"anomaly\">" + escape_markup(v.anomaly) + "</span> " +
           "<span class=\"explanation\">" + escape_markup(v.explanation) + "</span> <span class=\"witness-list\">witness:" +
           witness_links(v) + "</span> <a href=\"#\" data-jump=\"" + std::to_string(k) + "\">show</a></li>";
  }
  return out + "</ol></section>";
}

// What was still waiting when the run ended, each a link that selects its open wait on the plot.
std::string pending_note(const Layout& L) {
  if (L.pending.empty()) return {};
  std::string links;
  for (const model::PendingOp& p : L.pending.ops) {
    const std::string n = std::to_string(p.invoke);
    links += " <a href=\"#select=" + n + "\" data-select=\"" + n + "\">" +
             escape_markup(p.owner + " " + p.f + "()" + (p.lock.empty() ? "" : " " + p.lock)) + " #" + n + "</a>";
  }
  return "<p class=\"pending-note\" id=\"pending\"><b>pending at the end:</b> " + escape_markup(L.pending.describe()) +
         " <span class=\"pending-links\">show:" + links + "</span></p>";
}

// The page's own words, each explained once, in the order they first appear.
std::string words(const Layout& L) {
  std::string text = L.in.title + "\n" + L.in.about + "\n" + L.pending.describe() + "\n";
  for (const model::Verdict& v : L.in.verdicts) text += v.explanation + "\n" + (v.valid == model::Validity::No ? "witness\n" : "");
  for (const timeline::Lane& lane : L.lanes) text += lane.id + "\n";
  std::vector<std::pair<size_t, std::string>> found;
  for (const timeline::PageWord& w : timeline::page_words()) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(std::string(w.pattern)))) continue;
    std::string said(w.explanation);
    const std::string what = m.str();
    auto put = [&](const std::string& hole, const std::string& with) {
      for (size_t at; (at = said.find(hole)) != std::string::npos;) said.replace(at, hole.size(), with);
    };
    put("{client}", what.substr(0, what.find(':')));
    put("{thread}", what.find(':') == std::string::npos ? "" : what.substr(what.find(':') + 1));
    const size_t colon = said.find("{}");
    found.emplace_back(static_cast<size_t>(m.position()),
                       "<span class=\"word\"><b>" + escape_markup(what) + "</b>" + escape_markup(said.substr(colon + 2)) + "</span>");
  }
  if (found.empty()) return {};
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out = "<p class=\"words\" id=\"words\"><b>Words on this page:</b> ";
  for (size_t i = 0; i < found.size(); ++i) out += (i ? "; " : "") + found[i].second;
  return out + ".</p>";
}

// "31 s (31000 ms)", "250 ms": a run's length as a reader takes it in.
std::string seconds_text(int64_t ms) {
  if (ms < 1000) return std::to_string(ms) + " ms";
  std::ostringstream out;
  out << static_cast<double>(ms) / 1000.0 << " s (" << ms << " ms)";
  return out.str();
}

std::string header(const Layout& L) {
  const TimelineInput& in = L.in;
  std::string out = "<header><h1>" + escape_markup(in.title.empty() ? "locksim run" : in.title) + "</h1>";
  if (!in.about.empty()) out += "<p class=\"about\">" + escape_markup(in.about) + "</p>";
  std::string clients;
  for (const auto& c : L.cast.clients) clients += (clients.empty() ? "" : ", ") + escape_markup(c);
  std::string servers;
  for (const auto& s : L.cast.servers) servers += (servers.empty() ? "" : ", ") + escape_markup(s);
  out += "<p class=\"facts\">";
  if (!in.lock.empty()) out += "lock <code>" + escape_markup(in.lock) + "</code> · ";
  if (!in.redisson.empty()) out += "Redisson " + escape_markup(in.redisson) + " · ";
  out += "clients " + (clients.empty() ? std::string("none") : clients) + " · servers " +
         (servers.empty() ? std::string("none") : servers) + " · " + std::to_string(L.h.size()) + " events · 0 to " +
         seconds_text(L.h.end_ms()) + (in.real_time ? " of real time (live)" : " of virtual time") + "</p>";
  return out + standings(in) + pending_note(L) + words(L) + "</header>";
}

std::string toolbar(const Layout& L) {
  return "<div class=\"toolbar\"><button id=\"zoom-out\" title=\"zoom out\">&#8722;</button>"
         "<button id=\"zoom-in\" title=\"zoom in\">+</button>"
         "<button id=\"zoom-fit\" title=\"fit the span where something happens\">fit the action</button>"
         "<button id=\"zoom-all\" title=\"show the whole run, 0 to " + std::to_string(L.end_ms) + " ms\">whole run</button>"
         "<span class=\"hint\">ctrl+wheel zooms; hover a mark for its event, click it to pin the details</span>" +
         timeline::legend_html() + "</div>";
}

std::string panel() {
  return "<aside class=\"panel\" id=\"panel\"><h3>Details</h3><div id=\"panel-body\" class=\"panel-empty\">"
         "Click a mark to pin its event here.</div></aside>";
}

}  // namespace

void write_timeline_html(const TimelineInput& in, std::ostream& out) {
  if (!in.history) throw std::invalid_argument("write_timeline_html: no history");
  const Layout L(in);
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  out << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  out << "<title>" << escape_markup("locksim timeline: " + (in.title.empty() ? std::string("run") : in.title)) << "</title>";
  out << "<style>" << kTimelineCss << "</style></head>\n<body>";
  out << header(L) << violation_box(in) << toolbar(L);
  // The legend's swatches use the plot's patterns; an empty SVG carries a copy of them.
  out << "<svg width=\"0\" height=\"0\" style=\"position:absolute\">" << timeline::defs() << "</svg>";
  out << "<div class=\"main\"><div class=\"chart\">" << timeline::labels_svg(L) << "<div class=\"scroll\" id=\"scroll\">";
  timeline::write_plot_svg(L, out);
  out << "</div></div>" << panel() << "</div>";
  out << "<div id=\"tip\"></div>\n<script>" << kTimelineJs << "</script>\n</body></html>\n";
}

std::string render_timeline_html(const TimelineInput& in) {
  std::ostringstream out;
  write_timeline_html(in, out);
  return std::move(out).str();
}

}  // namespace locksim::report
