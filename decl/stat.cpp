#include "decl/stat.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace wormsim {

namespace {

std::vector<const StatTable*>& stat_registry() {
  static std::vector<const StatTable*> tables;
  return tables;
}

using ojson = nlohmann::ordered_json;

ojson::json_pointer pointer_to(const std::string& dotted) {
  std::string p;
  size_t start = 0;
  for (size_t dot; (dot = dotted.find('.', start)) != std::string::npos; start = dot + 1)
    p += "/" + dotted.substr(start, dot - start);
  return ojson::json_pointer(p + "/" + dotted.substr(start));
}

}  // namespace

std::string to_string(StatType type) {
  switch (type) {
    case StatType::Integer: return "integer";
    case StatType::Number: return "number";
    case StatType::Text: return "text";
    case StatType::Boolean: return "boolean";
  }
  return "?";
}

std::string StatTable::csv_header() const {
  std::string h;
  for (const StatDecl& s : stats) h += (h.empty() ? "" : ",") + s.name;
  return h + "\n";
}

const StatDecl* StatTable::find(const std::string& name) const {
  for (const StatDecl& s : stats)
    if (s.name == name) return &s;
  return nullptr;
}

bool register_stat_table(const StatTable& table) {
  stat_registry().push_back(&table);
  return true;
}

std::vector<const StatTable*> stat_tables() {
  std::vector<const StatTable*> all = stat_registry();
  std::stable_sort(all.begin(), all.end(), [](const StatTable* a, const StatTable* b) {
    return a->order != b->order ? a->order < b->order : a->where() < b->where();
  });
  return all;
}

const StatTable* find_stat_table(const std::string& file, const std::string& block) {
  for (const StatTable* t : stat_registry())
    if (t->file == file && t->block == block) return t;
  return nullptr;
}

ojson stats_json() {
  ojson out = ojson::array();
  for (const StatTable* t : stat_tables())
    for (const StatDecl& s : t->stats)
      out.push_back(ojson{{"file", t->file},
                          {"block", t->block.empty() ? ojson(nullptr) : ojson(t->block)},
                          {"presence", t->presence},
                          {"name", s.name},
                          {"type", to_string(s.type)},
                          {"unit", s.unit},
                          {"description", s.description}});
  return out;
}

std::string stats_text() {
  std::ostringstream os;
  for (const StatTable* t : stat_tables()) {
    os << t->where() << " (" << t->presence << "): " << t->summary << "\n";
    for (const StatDecl& s : t->stats) {
      os << "  " << s.name << "  " << to_string(s.type);
      if (!s.unit.empty()) os << "; unit " << s.unit;
      os << "\n      " << s.description << "\n";
    }
  }
  return os.str();
}

StatBlock& StatBlock::set(const std::string& name, ojson value) {
  if (!table_.find(name)) throw std::logic_error(table_.where() + ": " + name + " is written but not declared");
  if (values_.contains(name)) throw std::logic_error(table_.where() + ": " + name + " is set twice");
  values_[name] = std::move(value);
  return *this;
}

ojson StatBlock::json() const {
  ojson out = ojson::object();
  for (const StatDecl& s : table_.stats) {
    if (!values_.contains(s.name)) throw std::logic_error(table_.where() + ": " + s.name + " is declared but not written");
    out[pointer_to(s.name)] = values_[s.name];
  }
  return out;
}

}  // namespace wormsim
