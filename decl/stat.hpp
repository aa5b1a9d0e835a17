// Statistics declared once (docs/extending.md, "Declaring parameters and
// statistics"). Each output table -- a CSV file, or a block of summary.json --
// is a StatTable: its columns or fields in order, each with its type, unit and
// one-line description. The CSV headers, summary.json's blocks (StatBlock),
// `wormsim stats`, the Python readers' column types (scripts/wormsim_py/stats.json)
// and the drift test of docs/metrics.md all read these declarations.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wormsim {

enum class StatType { Integer, Number, Text, Boolean };
std::string to_string(StatType type);
// One letter each, for the tables of columns (`using namespace stat_type_letters;`).
namespace stat_type_letters {
constexpr StatType I = StatType::Integer, N = StatType::Number, T = StatType::Text, B = StatType::Boolean;
}

struct StatDecl {
  std::string name;  // column name, or dotted path inside a summary.json block ("latency.p99")
  StatType type = StatType::Integer;
  std::string unit;  // "cycles", "flits", ... or empty
  std::string description;  // one line
};

struct StatTable {
  std::string file;   // "messages.csv", "summary.json"
  std::string block;  // summary.json: the top-level field ("metrics"); CSV files: empty
  std::string summary;  // one line
  std::string presence;  // when the table or block is written ("always", "only with background traffic")
  int order = 0;      // place in listings
  std::vector<StatDecl> stats;

  std::string where() const { return block.empty() ? file : file + " " + block; }
  // The CSV header line: the names, comma-separated, with a newline.
  std::string csv_header() const;
  const StatDecl* find(const std::string& name) const;
};

// Every declared table, in listing order.
std::vector<const StatTable*> stat_tables();
// The table of `file` (and `block`), or nullptr.
const StatTable* find_stat_table(const std::string& file, const std::string& block = "");

bool register_stat_table(const StatTable& table);

// `wormsim stats --json`: a list of {file, block, presence, name, type, unit, description}.
nlohmann::ordered_json stats_json();
// `wormsim stats`: one line per statistic.
std::string stats_text();

// Builds one summary.json block from its declaration: every declared field must
// be set exactly once, nothing undeclared may be; fields come out in declared
// order, dotted names as nested objects. A mismatch is a bug in wormsim
// (std::logic_error), caught by every test that writes a summary.
class StatBlock {
 public:
  explicit StatBlock(const StatTable& table) : table_(table) {}
  StatBlock& set(const std::string& name, nlohmann::ordered_json value);
  nlohmann::ordered_json json() const;

 private:
  const StatTable& table_;
  nlohmann::ordered_json values_ = nlohmann::ordered_json::object();
};

}  // namespace wormsim

#define WORMSIM_STATS_CONCAT_(a, b) a##b
#define WORMSIM_STATS_CONCAT(a, b) WORMSIM_STATS_CONCAT_(a, b)
// Registers a `static const StatTable` defined in the same (linked) file.
#define WORMSIM_DECLARE_STATS(table)                                \
  [[maybe_unused]] static const bool WORMSIM_STATS_CONCAT(wormsim_stats_registered_, __LINE__) = \
      ::wormsim::register_stat_table(table)
