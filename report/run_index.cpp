#include "report/run_index.hpp"

#include <array>
#include <map>
#include <set>

#include "report/element.hpp"
#include "report/index_assets.hpp"
#include "report/markup.hpp"

namespace locksim::report {
namespace {

// The header's counts, failures first.
constexpr std::array<Outcome, 15> kChipOrder{
    Outcome::Affected, Outcome::Differs, Outcome::UnexpectedViolation, Outcome::MissedViolation, Outcome::Fail,
    Outcome::Error,    Outcome::Hazard,  Outcome::NotAffected,         Outcome::Fixed,           Outcome::NotYet,
    Outcome::Mitigated,
    Outcome::Pass,     Outcome::ExpectedViolation, Outcome::Seen,      Outcome::Skipped};

std::string header(const IndexPage& page) {
  El facts("p");
  facts.a("class", "facts");
  for (const auto& [key, value] : page.facts)
    facts.child(El("span").a("class", "fact").text(key + ": ").child(El("b").text(value.empty() ? "-" : value).str()).str());
  std::map<Outcome, int> counts;
  for (const IndexRow& row : page.rows) ++counts[row.outcome];
  El chips("p");
  chips.a("class", "counts");
  for (const Outcome o : kChipOrder) {
    if (!counts[o]) continue;
    chips.child(El("span")
                    .a("class", "chip " + std::string(outcome_class(o)))
                    .text(std::to_string(counts[o]) + " " + std::string(outcome_label(o)))
                    .str());
  }
  // Counted by scenario, as the terminal's summary counts them: every row of one shares its run.
  int pending = 0;
  for (size_t i = 0; i < page.rows.size(); ++i)
    pending += !page.rows[i].pending.empty() && (i == 0 || page.rows[i - 1].scenario != page.rows[i].scenario);
  if (pending)
    chips.child(El("span")
                    .a("class", "chip pending")
                    .text(std::to_string(pending) + (pending > 1 ? " scenarios" : " scenario") + " with pending operations")
                    .str());
  El h("header");
  h.child(El("h1").text(page.title).str()).child(facts.str());
  if (!page.summary.empty()) h.child(El("p").a("class", "summary").text(page.summary).str());
  return h.child(chips.str()).str();
}

std::string advice(const IndexPage& page) {
  if (page.advice.empty()) return {};
  El section("section");
  section.a("class", "advice").a("id", "advice");
  for (const AdviceSection& part : page.advice) {
    El list("ul");
    for (const AdviceItem& item : part.items) {
      El li("li");
      li.text(item.text);
      if (!item.code.empty()) li.text(" ").child(El("code").text(item.code).str());
      for (const IndexLink& link : item.links) li.text(" ").child(El("a").a("href", link.href).text(link.label).str());
      list.child(li.str());
    }
    section.child(El("div")
                      .a("class", "advice-part" + (part.kind.empty() ? std::string() : " " + part.kind))
                      .child(El("h2").text(part.heading).str())
                      .child(part.items.empty() ? "" : list.str())
                      .str());
  }
  return section.str();
}

std::string filters(const IndexPage& page) {
  std::set<std::string> locks;
  bool pending = false;
  for (const IndexRow& row : page.rows) {
    if (!row.lock.empty()) locks.insert(row.lock);
    pending = pending || !row.pending.empty();
  }
  El select("select");
  select.a("id", "f-lock").child(El("option").a("value", "").text("all").str());
  for (const std::string& lock : locks) select.child(El("option").a("value", lock).text(lock).str());
  auto box = [](const char* id, const std::string& label) {
    return El("label").child(El("input").a("type", "checkbox").a("id", id).str()).text(label).str();
  };
  // Offered only where some scenario left a call waiting: elsewhere it could only empty the page.
  return El("form")
      .a("class", "filters")
      .a("id", "filters")
      .child(box("f-failed", " " + page.failed_label))
      .child(box("f-violated", " violations only"))
      .child(pending ? box("f-pending", " pending operations only") : "")
      .child(El("label").text("lock type ").child(select.str()).str())
      .child(El("span").a("id", "shown").text(std::to_string(page.rows.size()) + " rows").str())  // the script counts
      .str();
}

// A table cell, never self-closed (El writes an empty element as <x/>, which HTML reads as an open tag).
std::string td(const std::string& css, const std::string& inner_markup) {
  return "<td class=\"" + escape_markup(css) + "\">" + inner_markup + "</td>";
}

// A row of one check: its verdict, the outcome and the checker's words.
std::string row_html(const IndexRow& row) {
  const std::string css(outcome_class(row.outcome));
  return El("tr")
      .a("class", "row is-" + css)
      .a("data-outcome", css)
      .a("data-failed", is_failure(row.outcome) ? "1" : "0")
      .a("data-violated", row.observed == "violated" ? "1" : "0")
      .a("data-lock", row.lock)
      .a("data-pending", row.pending.empty() ? "0" : "1")
      .child(td("property", escape_markup(row.property)))
      .child(td("verdict", escape_markup(row.expected)))
      // Only "violated" is marked: other observed words (fail, error) are also outcome classes.
      .child(td(row.observed == "violated" ? "verdict violated" : "verdict", escape_markup(row.observed)))
      .child(td("result", El("span").a("class", "badge " + css).text(outcome_label(row.outcome)).str()))
      .child(td("explanation", escape_markup(row.explanation)))
      .str();
}

// The heading row of a scenario's rows (those of `first`, which share its name): the name, the lock,
// the links to its files, the note, what the scenario is about and what it left waiting.
std::string head_html(const IndexRow& first) {
  El th("th");
  th.a("colspan", 5).a("scope", "rowgroup");
  th.child(El("span").a("class", "name").text(first.scenario).str());
  th.child(El("span").a("class", "lock").text(first.lock_label.empty() ? first.lock : first.lock_label).str());
  for (const IndexLink& link : first.links) th.child(El("a").a("href", link.href).text(link.label).str());
  if (!first.note.empty()) th.child(El("span").a("class", "note").text(first.note).str());
  if (!first.about.empty()) th.child(El("div").a("class", "about").text(first.about).str());
  if (!first.pending.empty())
    th.child(El("div")
                 .a("class", "pending")
                 .child(El("span").a("class", "badge pending").text("pending").str())
                 .text(" " + first.pending)
                 .str());
  return El("tr").a("class", "head").child(th.str()).str();
}

std::string table(const IndexPage& page) {
  El head("tr");
  for (const std::string& column : {std::string("property"), page.expected_heading, std::string("observed"),
                                    std::string("result"), std::string("explanation")})
    head.child(El("th").text(column).str());
  std::string groups;
  for (size_t i = 0; i < page.rows.size();) {
    // A scenario's rows come together; each group is a <tbody> the filters hide when all its rows are.
    size_t end = i + 1;
    while (end < page.rows.size() && page.rows[end].scenario == page.rows[i].scenario) ++end;
    El body("tbody");
    body.a("class", "scenario").child(head_html(page.rows[i]));
    for (size_t k = i; k < end; ++k) body.child(row_html(page.rows[k]));
    groups += body.str();
    i = end;
  }
  return El("table").a("class", "runs").child(El("thead").child(head.str()).str()).child(groups).str();
}

}  // namespace

std::string render_run_index(const IndexPage& page) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  html += El("title").text(page.title).str();
  html += "<style>" + std::string(kIndexCss) + "</style></head>\n<body>\n";
  html += header(page) + "\n" + advice(page) + filters(page) + "\n";
  html += page.rows.empty() ? El("p").a("class", "empty").text("Nothing ran.").str() : table(page);
  html += "\n" + El("p").a("class", "empty").a("id", "empty").a("hidden", "").text("No row matches the filters.").str();
  html += "\n<script>" + std::string(kIndexJs) + "</script>\n</body></html>\n";
  return html;
}

}  // namespace locksim::report
