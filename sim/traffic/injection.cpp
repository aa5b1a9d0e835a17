#include "sim/traffic/injection.hpp"

#include <stdexcept>

#include "sim/background_traffic.hpp"
#include "sim/traffic/named.hpp"
#include "sim/traffic/injection/registry.hpp"

#define WORMSIM_DECLARE_INJECTION(ID) \
  namespace wormsim::injection_processes { InjectionInfo ID(); }
WORMSIM_INJECTION_PROCESSES(WORMSIM_DECLARE_INJECTION)
#undef WORMSIM_DECLARE_INJECTION

namespace wormsim {

const std::vector<InjectionInfo>& injection_registry() {
#define WORMSIM_LIST_INJECTION(ID) injection_processes::ID(),
  static const std::vector<InjectionInfo> registry = {WORMSIM_INJECTION_PROCESSES(WORMSIM_LIST_INJECTION)};
#undef WORMSIM_LIST_INJECTION
  return registry;
}

const InjectionInfo* find_injection(const std::string& name) { return find_named(injection_registry(), name); }

std::vector<std::string> injection_names() { return names_of(injection_registry()); }

std::unique_ptr<InjectionProcess> make_injection(int endpoints, const BackgroundSpec& spec) {
  const InjectionInfo* info = find_injection(spec.injection);
  if (!info) throw std::invalid_argument("unknown injection process \"" + spec.injection + "\"");
  info->check(spec);
  return info->make(endpoints, spec);
}

}  // namespace wormsim
