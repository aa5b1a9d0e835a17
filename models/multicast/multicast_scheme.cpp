#include "models/multicast/multicast_scheme.hpp"

#include <stdexcept>

#include "models/multicast/registry.hpp"

#define WORMSIM_DECLARE_MULTICAST(ID) \
  namespace wormsim::multicast_schemes { MulticastInfo ID(); }
WORMSIM_MULTICAST_SCHEMES(WORMSIM_DECLARE_MULTICAST)
#undef WORMSIM_DECLARE_MULTICAST

namespace wormsim {

const std::vector<MulticastInfo>& multicast_registry() {
#define WORMSIM_LIST_MULTICAST(ID) multicast_schemes::ID(),
  static const std::vector<MulticastInfo> registry = {WORMSIM_MULTICAST_SCHEMES(WORMSIM_LIST_MULTICAST)};
#undef WORMSIM_LIST_MULTICAST
  return registry;
}

const MulticastInfo* find_multicast(const std::string& name) {
  for (const MulticastInfo& info : multicast_registry())
    if (info.name == name) return &info;
  return nullptr;
}

std::optional<std::string> absorbing_risk(const std::string& scheme, const MulticastSetting& s) {
  if (s.ejection_per_link || !s.destinations_shared) return std::nullopt;
  return scheme + " worms hold a destination's ejection channel while they absorb and go on, so two messages' " +
         "worms to the same destinations can each hold the channel the other waits for (one-port and k-port " +
         "interfaces share an endpoint's ejection channels among the links; docs/multicast.md, \"Deadlock\"): " +
         "use port_model: all-port (an ejection channel per link), give the messages no common destination (in " +
         "barrier mode, within a step), or set network.allow_deadlock";
}

std::string multicast_names() {
  std::string names;
  for (const MulticastInfo& i : multicast_registry()) names += (names.empty() ? "" : ", ") + i.name;
  return names;
}

std::unique_ptr<MulticastScheme> make_multicast(const std::string& name, const MulticastSetting& s) {
  const MulticastInfo* info = find_multicast(name);
  if (!info)
    throw std::invalid_argument("unknown multicast scheme \"" + name + "\" (expected one of: " + multicast_names() +
                                ")");
  info->check(s);
  return info->make(s);
}

}  // namespace wormsim
