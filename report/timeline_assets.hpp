#pragma once
// The timeline page's stylesheet and script, kept as real files (report/timeline.css,
// report/timeline.js) and compiled in at build time (cmake/embed.cmake), so a timeline.html needs
// nothing beside it.

namespace locksim::report {

extern const char* const kTimelineCss;
extern const char* const kTimelineJs;

}  // namespace locksim::report
