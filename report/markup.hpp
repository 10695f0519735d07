#pragma once
// Escaping text for HTML, SVG and XML (the timeline, JUnit reports): markup characters become
// entities, control characters (other than tab and newline) and bytes that are not UTF-8 become a
// visible \xNN, so that any history, however odd its bytes, gives a well-formed file.
#include <string>
#include <string_view>

namespace locksim::report {

std::string escape_markup(std::string_view s);

}  // namespace locksim::report
