#pragma once
// The sentences verdicts are read in, rendered from their evidence alone: a template per anomaly
// (and per property for "holds"), "Let ... Then ..." as Porcupine and Elle tell a counterexample.
#include <string>

#include "model/verdict.hpp"

namespace locksim::model {

std::string explain(const Verdict& verdict);

}  // namespace locksim::model
