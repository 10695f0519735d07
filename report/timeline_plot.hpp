#pragma once
// The timeline's plot, as SVG: the time axis, the lanes' backgrounds, faults, what each client
// believed and did, each key's life on each server, and the violations' witnesses; and the column
// of lane names beside it.
#include <iosfwd>
#include <string>
#include <vector>

#include "model/verdict.hpp"
#include "report/timeline_layout.hpp"

namespace locksim::report::timeline {

// The patterns the plot's marks (and the legend's swatches) fill with.
std::string defs();
// The plot, written lane by lane.
void write_plot_svg(const Layout& L, std::ostream& out);
std::string labels_svg(const Layout& L);
// The legend: an entry per mark, line style and colour the plot can draw (report/timeline_legend.cpp).
std::string legend_html();
// The verdicts that are violations, in order.
std::vector<const model::Verdict*> violations(const TimelineInput& in);

}  // namespace locksim::report::timeline
