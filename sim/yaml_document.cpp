#include "sim/yaml_document.hpp"

#include <optional>
#include <sstream>

#include <yaml-cpp/eventhandler.h>

namespace wormsim {

namespace {

// Where the events of a document begin: the document's start, then its first node.
class FirstMark : public YAML::EventHandler {
 public:
  std::optional<YAML::Mark> mark;
  YAML::Mark start = YAML::Mark::null_mark();
  void OnDocumentStart(const YAML::Mark& m) override {
    start = m;
    mark = m;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnMapEnd() override {}

 private:
  bool seen_node_ = false;
  void node(const YAML::Mark& m) {
    if (!seen_node_) mark = m;
    seen_node_ = true;
  }
};

}  // namespace

YAML::Node load_single_document(const std::string& text) {
  YAML::Node root = YAML::Load(text);
  // Two documents are looked for, no more: YAML::LoadAll never ends on some
  // invalid bytes (yaml-cpp 0.7 yields empty documents for ever after 0xFF).
  std::istringstream in(text);
  YAML::Parser parser(in);
  FirstMark first, second;
  if (!parser.HandleNextDocument(first) || !parser.HandleNextDocument(second)) return root;
  const YAML::Mark at = second.mark.value_or(YAML::Mark::null_mark());
  // A document that starts where the one before did is yaml-cpp stuck on a
  // character it cannot place (a ',' outside a flow list): not a document.
  const auto pos = static_cast<size_t>(second.start.pos);
  if (second.start.pos == first.start.pos && pos < text.size())
    throw YAML::ParserException(second.start, std::string("unexpected '") + text[pos] + "' outside any key or value");
  throw YAML::ParserException(at, "a second YAML document; a config file holds one");
}

}  // namespace wormsim
