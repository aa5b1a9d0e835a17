#include "schedules/schedule.hpp"

#include <algorithm>

namespace wormsim {

int Schedule::add_packet(std::string packet_name, int origin) {
  packets.push_back(Packet{std::move(packet_name), origin});
  return static_cast<int>(packets.size()) - 1;
}

int Schedule::find_packet(const std::string& packet_name) const {
  for (size_t i = 0; i < packets.size(); ++i)
    if (packets[i].name == packet_name) return static_cast<int>(i);
  return -1;
}

bool Schedule::has_multicast() const {
  for (const auto& step : steps)
    for (const auto& m : step)
      if (m.is_multicast()) return true;
  return false;
}

uint64_t Schedule::flit_span() const {
  uint64_t span = 0;
  for (const auto& step : steps) {
    int longest = 0;
    for (const auto& m : step) longest = std::max(longest, message_flits(m));
    span += static_cast<uint64_t>(longest);
  }
  return span;
}

size_t Schedule::num_messages() const {
  size_t n = 0;
  for (const auto& s : steps) n += s.size();
  return n;
}

Schedule make_broadcast_schedule(const TopologySpec& topo, int source, int flits, std::string name,
                                 std::string algorithm) {
  Schedule s;
  s.name = std::move(name);
  s.algorithm = std::move(algorithm);
  s.topology = topo;
  s.flits = flits;
  s.broadcast = true;
  s.source = source;
  s.add_packet("0", source);
  return s;
}

}  // namespace wormsim
