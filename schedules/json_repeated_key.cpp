// The first key given twice in one object of a JSON text.
#include "schedules/json_repeated_key.hpp"

#include <set>
#include <vector>

#include <nlohmann/json.hpp>

namespace wormsim {

using json = nlohmann::json;

// nlohmann keeps the last of repeated keys; a repeated key is almost always a
// mistake. Found in a second, SAX pass over valid text: the DOM parser's
// callback form rescans a whole array at the end of each of its objects, which
// is quadratic in the messages of a step.
namespace {

class RepeatedKeyFinder : public nlohmann::json_sax<json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    keys_.emplace_back();
    return true;
  }
  bool key(string_t& k) override {
    if (!keys_.back().insert(k).second) {
      repeated_ = k;
      return false;  // the first one is all we report
    }
    return true;
  }
  bool end_object() override {
    keys_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
  const std::string& repeated() const { return repeated_; }

 private:
  std::vector<std::set<std::string>> keys_;
  std::string repeated_;
};

}  // namespace

std::string first_repeated_key(const std::string& text) {
  RepeatedKeyFinder finder;
  json::sax_parse(text, &finder);
  return finder.repeated();
}

}  // namespace wormsim
