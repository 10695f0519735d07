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

std::string verdict_chips(const TimelineInput& in) {
  if (in.verdicts.empty()) return {};
  std::string out = "<div class=\"verdicts\">";
  for (const Verdict& v : in.verdicts) {
    const std::string valid(to_string(v.valid));
    El chip("span");
    chip.a("class", "chip " + valid).a("title", v.explanation.empty() ? v.anomaly : v.anomaly + ": " + v.explanation);
    out += chip.text(v.property + ": " + valid + (v.anomaly.empty() ? "" : " (" + v.anomaly + ")")).str();
  }
  return out + "</div>";
}

std::string violation_box(const TimelineInput& in) {
  const auto bad = violations(in);
  if (bad.empty()) return {};
  std::string out = "<section class=\"violations\" id=\"violations\"><h2>";
  out += std::to_string(bad.size()) + (bad.size() == 1 ? " violation" : " violations");
  out += " <a href=\"#\" id=\"jump-first\" data-jump=\"0\">jump to first violation</a></h2><ol>";
  for (size_t k = 0; k < bad.size(); ++k) {
    const Verdict& v = *bad[k];
    std::string witness;
    for (int64_t i : v.witness) witness += (witness.empty() ? "#" : " #") + std::to_string(i);
    out += "<li><b>" + escape_markup(v.property) + "</b> <span class=\"anomaly\">" + escape_markup(v.anomaly) + "</span> " +
           "<span class=\"explanation\">" + escape_markup(v.explanation) + "</span> <span class=\"witness-list\">witness: " +
           escape_markup(witness) + "</span> <a href=\"#\" data-jump=\"" + std::to_string(k) + "\">show</a></li>";
  }
  return out + "</ol></section>";
}

std::string swatch(const std::string& shape, const std::string& label) {
  return "<span class=\"key-item\"><svg width=\"26\" height=\"14\">" + shape + "</svg>" + escape_markup(label) + "</span>";
}

std::string legend() {
  std::string out = "<div class=\"legend\">";
  out += swatch("<rect x=\"1\" y=\"2\" width=\"24\" height=\"10\" fill=\"#3467c8\"/>", "believes it holds");
  out += swatch("<rect x=\"1\" y=\"2.5\" width=\"24\" height=\"9\" fill=\"url(#wait-hatch)\" stroke=\"#3467c8\"/>", "waits to acquire");
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
  return out + "</div>";
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
  return out + verdict_chips(in) + "</header>";
}

std::string toolbar() {
  return "<div class=\"toolbar\"><button id=\"zoom-out\" title=\"zoom out\">&#8722;</button>"
         "<button id=\"zoom-in\" title=\"zoom in\">+</button><button id=\"zoom-fit\" title=\"fit the run\">fit</button>"
         "<span class=\"hint\">ctrl+wheel zooms, hover a mark for its event</span>" +
         legend() + "</div>";
}

}  // namespace

std::string render_timeline_html(const TimelineInput& in) {
  if (!in.history) throw std::invalid_argument("render_timeline_html: no history");
  const Layout L(in);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  out += "<title>" + escape_markup("locksim timeline: " + (in.title.empty() ? std::string("run") : in.title)) + "</title>";
  out += "<style>" + std::string(kTimelineCss) + "</style></head>\n<body>";
  out += header(L) + violation_box(in) + toolbar();
  // The legend's swatches use the plot's patterns; an empty SVG carries a copy of them.
  out += "<svg width=\"0\" height=\"0\" style=\"position:absolute\">" + timeline::defs() + "</svg>";
  out += "<div class=\"chart\">" + timeline::labels_svg(L) + "<div class=\"scroll\" id=\"scroll\">" + timeline::plot_svg(L) + "</div></div>";
  out += "<div id=\"tip\"></div>\n<script>" + std::string(kTimelineJs) + "</script>\n</body></html>\n";
  return out;
}

}  // namespace locksim::report
