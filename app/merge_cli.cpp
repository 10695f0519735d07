// `locksim merge`: shards of an explore run or of a search, into one.
#include <iostream>
#include <string>
#include <vector>

#include "app/command.hpp"
#include "explore/shard_merge.hpp"

namespace locksim::app {
namespace {

class MergeCommand final : public Command {
 public:
  explicit MergeCommand(CLI::App& app)
      : Command(app, "merge",
                "Combines the shards of an explore run or of a check --exhaustive search into one\n"
                "(explore's --out files, sorted by seed; exhaustive.json files, into the totals of one search).") {
    sub_->add_option("inputs", inputs_, "results.jsonl files, or exhaustive.json files")->required();
    sub_->add_option("--out", out_, "The merged file")->required();
  }

  int run() override {
    if (explore::is_exhaustive_json(inputs_.front()))
      return explore::merge_exhaustive_shards(inputs_, out_, std::cout, std::cerr);
    return explore::merge_explore_shards(inputs_, out_, std::cerr);
  }

 private:
  std::vector<std::string> inputs_;
  std::string out_;
};

}  // namespace

std::unique_ptr<Command> add_merge_command(CLI::App& app) { return std::make_unique<MergeCommand>(app); }

}  // namespace locksim::app
