#pragma once
// The timeline's plot, as SVG: the time axis, the lanes' backgrounds, faults, what each client
// believed and did, each key's life on each server, and the violations' witnesses; and the column
// of lane names beside it.
#include <string>
#include <vector>

#include "model/verdict.hpp"
#include "report/timeline_layout.hpp"

namespace locksim::report::timeline {

// The patterns the plot's marks (and the legend's swatches) fill with.
std::string defs();
std::string plot_svg(const Layout& L);
std::string labels_svg(const Layout& L);
// The verdicts that are violations, in order.
std::vector<const model::Verdict*> violations(const TimelineInput& in);

}  // namespace locksim::report::timeline
