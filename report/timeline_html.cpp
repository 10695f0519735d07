#include <ostream>
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

std::string swatch(const std::string& shape, const std::string& label) {
  return "<span class=\"key-item\"><svg width=\"26\" height=\"14\">" + shape + "</svg>" + escape_markup(label) + "</span>";
}

std::string legend(bool queues, bool pending) {
  std::string out = "<div class=\"legend\">";
  out += swatch("<rect x=\"1\" y=\"2\" width=\"24\" height=\"10\" fill=\"#3467c8\"/>", "believes it holds");
  out += swatch("<rect x=\"1\" y=\"2.5\" width=\"24\" height=\"9\" fill=\"url(#wait-hatch)\" stroke=\"#3467c8\"/>", "waits to acquire");
  if (pending)
    out += swatch("<rect x=\"1\" y=\"2.5\" width=\"18\" height=\"9\" fill=\"url(#wait-hatch)\" stroke=\"#3467c8\"/>"
                  "<path d=\"M16,1 L25,7 L16,13 Z\" fill=\"#c2410c\"/>",
                  "still waiting at the end");
  out += swatch("<rect x=\"1\" y=\"5\" width=\"24\" height=\"4\" fill=\"#c4cad1\"/>", "other op");
  out += swatch("<circle cx=\"7\" cy=\"7\" r=\"3.5\" class=\"ok-s\"/><rect x=\"15\" y=\"3.5\" width=\"7\" height=\"7\" class=\"fail-s\"/>", "ok / fail");
  out += swatch("<rect x=\"12\" y=\"0\" width=\"2\" height=\"14\" fill=\"#1d2126\"/>", "renewal");
  out += swatch("<rect x=\"1\" y=\"2\" width=\"24\" height=\"10\" fill=\"#3467c8\" opacity=\"0.55\"/>", "key exists (by creator)");
  out += swatch("<rect x=\"1\" y=\"0\" width=\"24\" height=\"14\" fill=\"#f0a13a\" opacity=\"0.3\"/>", "pause");
  out += swatch("<rect x=\"1\" y=\"0\" width=\"24\" height=\"14\" fill=\"#8e6cd0\" opacity=\"0.25\"/>", "partition");
  out += swatch("<rect x=\"1\" y=\"0\" width=\"24\" height=\"14\" fill=\"url(#crash-hatch)\"/>", "crashed");
  out += swatch("<rect x=\"11\" y=\"0\" width=\"4\" height=\"14\" fill=\"#e4572e\" opacity=\"0.6\"/>", "restart / failover");
  out += swatch("<path d=\"M9.5,3.5 L16.5,10.5 M9.5,10.5 L16.5,3.5\" stroke=\"#d62728\" stroke-width=\"2\"/>", "lost message");
  out += swatch("<circle cx=\"13\" cy=\"7\" r=\"5.5\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>", "violation witness");
  if (queues) {
    out += swatch("<rect x=\"1\" y=\"1\" width=\"24\" height=\"12\" fill=\"#3467c8\" opacity=\"0.35\"/>"
                  "<text x=\"4\" y=\"11\" font-size=\"9\">2nd</text>", "place in the queue");
    out += swatch("<path d=\"M13,0 L13,14 M13,0 L19,3 L13,6\" stroke=\"#c2410c\" stroke-width=\"1.6\" fill=\"none\"/>", "timeout score");
    out += swatch("<path d=\"M8,2 L18,12 M8,12 L18,2\" stroke=\"#d62728\" stroke-width=\"2.2\"/>", "pruned");
    out += swatch("<circle cx=\"13\" cy=\"7\" r=\"4\" fill=\"#1f9a4a\"/>", "granted");
    out += swatch("<path d=\"M9,4 L17,4 L13,10 Z\" fill=\"#0f7c8c\"/>", "wake-up");
  }
  return out + "</div>";
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
         std::to_string(L.h.end_ms()) + (in.real_time ? " ms of real time (live)</p>" : " ms of virtual time</p>");
  return out + standings(in) + pending_note(L) + "</header>";
}

std::string toolbar(const Layout& L) {
  return "<div class=\"toolbar\"><button id=\"zoom-out\" title=\"zoom out\">&#8722;</button>"
         "<button id=\"zoom-in\" title=\"zoom in\">+</button>"
         "<button id=\"zoom-fit\" title=\"fit the span where something happens\">fit the action</button>"
         "<button id=\"zoom-all\" title=\"show the whole run, 0 to " + std::to_string(L.end_ms) + " ms\">whole run</button>"
         "<span class=\"hint\">ctrl+wheel zooms; hover a mark for its event, click it to pin the details</span>" +
         legend(!L.queues.empty(), !L.pending.empty()) + "</div>";
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
