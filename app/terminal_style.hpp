#pragma once
// How standard output takes text: a terminal's width and colours; into a pipe the same text, plain,
// 100 columns wide (or $COLUMNS, as a script that knows its reader's width says).
#include "report/text_table.hpp"

namespace locksim::app {

report::TextStyle terminal_style();

}  // namespace locksim::app
