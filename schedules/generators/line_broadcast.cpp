// Registry entries for Kane's line broadcasting (M.Sc. thesis, SFU 1993): the
// optimal Gray-code scheme on a 2^k ring (Section 2.4.2) and the product method
// on a 2^k x 2^k torus (Section 3.2). Each call is one worm whose explicit route
// (ScheduledMessage::route) is the call's path; one phase is one step. Both
// networks are vertex-transitive, so a scheme built for the originator labelled
// 0...0 is moved to any source by translation.
#include <string>

#include "schedules/generators/generators.hpp"
#include "schedules/generators/hypercube_options.hpp"
#include "schedules/generators/line_broadcast_schemes.hpp"

namespace wormsim::detail {

namespace {

// log2 of a power of two >= 2, or -1.
int exact_log2(int n) {
  if (n < 2 || (n & (n - 1))) return -1;
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

// k with a torus of the given number of dimensions, each of radix 2^k, or throws.
int torus_order(const std::string& algorithm, const Topology& topo, size_t dims, const std::string& expected) {
  const auto& spec = topo.spec();
  bool ok = spec.kind == "torus" && spec.dims.size() == dims;
  for (size_t i = 0; ok && i < dims; ++i) ok = spec.dims[i] == spec.dims[0];
  const int k = ok ? exact_log2(spec.dims[0]) : -1;
  if (k < 1) throw GeneratorError("topology: " + algorithm + " expects " + expected + ", got " + spec.describe());
  return k;
}

// Maps a cycle position of the scheme built from gray_position(0, k) to the
// ring coordinate that puts the originator on `source_coord`.
struct Translation {
  int n, origin, source_coord;
  int operator()(int position) const { return ((position - origin + source_coord) % n + n) % n; }
};

Schedule line_schedule(const std::string& algorithm, const Topology& topo, const GeneratorOptions& o) {
  return make_broadcast_schedule(topo.spec(), o.source, o.flits,
                                 algorithm + " on " + topo.spec().describe() + " from " + std::to_string(o.source),
                                 algorithm);
}

// ---- 2^k ring ------------------------------------------------------------

Schedule line_cycle(const Topology& topo, const GeneratorOptions& o) {
  const std::string name = "line-cycle";
  const int k = torus_order(name, topo, 1, "a ring of 2^k nodes, k >= 1 (torus with one dimension)");
  check_collective_options(name, topo, o, SourceUse::Root);
  const Translation at{topo.num_nodes(), line::gray_position(0, k), o.source};
  Schedule s = line_schedule(name, topo, o);
  for (const auto& phase : line::gray_cycle_scheme(k)) {
    s.steps.emplace_back();
    for (const auto& call : phase) {
      ScheduledMessage m{at(call.from), at(call.to), 0, 0, {}};
      std::vector<int> route;
      for (int p : line::cycle_call_path(call)) route.push_back(at(p));
      m.set_route(std::move(route));
      s.steps.back().push_back(std::move(m));
    }
  }
  return s;
}

// ---- 2^k x 2^k torus: the product method ---------------------------------------

// A torus node by its Gray labels in the two factor cycles.
struct LabelPair {
  int x, y;
};

// Phases alternate between the factor cycles, x first (the thesis's first call
// 0000 -> 0001 changes the x label): in torus phase 2j-1 every informed node
// makes the call it would make in phase j of the x-cycle scheme, in phase 2j the
// one of the y-cycle scheme. Calls of a phase lie in distinct rows (columns) or
// are link-disjoint calls of one cycle scheme, so the phase stays edge-disjoint.
Schedule line_torus(const Topology& topo, const GeneratorOptions& o) {
  const std::string name = "line-torus";
  const int k = torus_order(name, topo, 2, "a square 2^k x 2^k torus, k >= 1");
  check_collective_options(name, topo, o, SourceUse::Root);
  const int origin = line::gray_position(0, k);
  const Translation tx{topo.radix(0), origin, topo.coord(o.source, 0)};
  const Translation ty{topo.radix(1), origin, topo.coord(o.source, 1)};
  auto node = [&](int px, int py) { return topo.node_at({tx(px), ty(py)}); };
  Schedule s = line_schedule(name, topo, o);
  std::vector<LabelPair> informed{{0, 0}};
  for (int phase = 0; phase < 2 * k; ++phase) {
    const bool along_x = phase % 2 == 0;
    const int bit = 1 << (k - 1 - phase / 2);  // the cycle scheme's phase phase/2 + 1
    s.steps.emplace_back();
    const size_t senders = informed.size();
    for (size_t i = 0; i < senders; ++i) {
      const LabelPair from = informed[i];
      const LabelPair to = along_x ? LabelPair{from.x | bit, from.y} : LabelPair{from.x, from.y | bit};
      const int fixed = line::gray_position(along_x ? from.y : from.x, k);
      const line::CycleCall call{line::gray_position(along_x ? from.x : from.y, k),
                                 line::gray_position(along_x ? to.x : to.y, k)};
      ScheduledMessage m;
      std::vector<int> route;
      for (int p : line::cycle_call_path(call)) route.push_back(along_x ? node(p, fixed) : node(fixed, p));
      m.src = route.front();
      m.dst = route.back();
      m.set_route(std::move(route));
      m.packet = 0;
      s.steps.back().push_back(std::move(m));
      informed.push_back(to);
    }
  }
  return s;
}

}  // namespace

void append_line_broadcast_generators(std::vector<GeneratorInfo>& out) {
  out.push_back({"line-cycle",
                 "optimal line broadcast on a 2^k ring, k phases, calls as explicit routes (Kane 1993, Sec. 2.4.2)",
                 line_cycle});
  out.push_back({"line-torus",
                 "product-method line broadcast on a 2^k x 2^k torus, 2k phases (Kane 1993, Sec. 3.2)",
                 line_torus});
}

}  // namespace wormsim::detail
