#pragma once
// The run index's stylesheet and script, kept as real files (report/index.css, report/index.js) and
// compiled in at build time (cmake/embed.cmake), so an index.html needs nothing beside it.

namespace locksim::report {

extern const char* const kIndexCss;
extern const char* const kIndexJs;

}  // namespace locksim::report
