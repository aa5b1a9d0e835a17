// Registry entries for the hypercube collectives: the one-port binomial-tree
// broadcast and the all-port ("MLA") algorithms of Bertsekas et al. (JPDC 1991)
// for multinode broadcast, single-node scatter and total exchange. Every
// message is one hop between neighbours; a packet that must travel further is
// relayed hop by hop in later steps (store and forward at step granularity).
// The constructions themselves are in hypercube_constructions.cpp.
#include <algorithm>
#include <string>

#include "models/limits.hpp"
#include "schedules/generators/generators.hpp"
#include "schedules/generators/hypercube_constructions.hpp"
#include "schedules/generators/hypercube_options.hpp"

namespace wormsim::detail {

namespace {

using hypercube::CubeTree;

void check_size(const std::string& algorithm, const Topology& topo, long long messages) {
  if (messages > kMaxGeneratedMessages)
    throw GeneratorError("topology: " + algorithm + " on the " + topo.spec().describe() + " needs " +
                         std::to_string(messages) + " messages, more than the " +
                         std::to_string(kMaxGeneratedMessages) + " a schedule may hold (expected a smaller d)");
}

// A single-hop message between neighbours; routing has no choice to make.
ScheduledMessage hop(int src, int dst, int packet) {
  ScheduledMessage m;
  m.src = src;
  m.dst = dst;
  m.packet = packet;
  return m;
}

Schedule empty_schedule(const std::string& algorithm, const Topology& topo, const GeneratorOptions& o,
                        int steps) {
  Schedule s;
  s.name = algorithm + " on " + topo.spec().describe();
  s.algorithm = algorithm;
  s.topology = topo.spec();
  s.flits = o.flits;
  s.steps.resize(steps);
  return s;
}

// ---- one-port binomial tree ------------------------------------------------

// In step j every node that already holds the packet (its label differs from
// the source only in bits below j) sends it across dimension j.
Schedule binomial(const Topology& topo, const GeneratorOptions& o) {
  const std::string name = "hypercube-binomial";
  require_hypercube(name, topo);
  check_collective_options(name, topo, o, SourceUse::Root);
  const int d = topo.num_dims();
  Schedule s = make_broadcast_schedule(topo.spec(), o.source, o.flits,
                                       name + " on " + topo.spec().describe() + " from " +
                                           std::to_string(o.source),
                                       name);
  s.steps.resize(d);
  for (int j = 0; j < d; ++j)
    for (int u = 0; u < (1 << j); ++u) s.steps[j].push_back(hop(u ^ o.source, (u | (1 << j)) ^ o.source, 0));
  return s;
}

// ---- multinode broadcast (Section 2) -----------------------------------------

// Node t's packet follows the tree of node 0 translated by XOR with t: in time
// unit i it crosses the links A_i(t) = {(t^x, t^y) : (x, y) in A_i}. Links of one
// A_i have distinct types, so the translates never share a directed link.
Schedule multinode_broadcast(const Topology& topo, const GeneratorOptions& o) {
  const std::string name = "multinode-broadcast";
  require_hypercube(name, topo);
  check_collective_options(name, topo, o, SourceUse::AllNodes);
  const int n = topo.num_nodes();
  check_size(name, topo, static_cast<long long>(n) * (n - 1));
  const CubeTree tree = hypercube::multinode_broadcast_tree(topo.num_dims());
  int steps = 0;
  for (int x = 1; x < n; ++x) steps = std::max(steps, tree.step[x]);
  Schedule s = empty_schedule(name, topo, o, steps);
  for (int t = 0; t < n; ++t) s.add_packet("from" + std::to_string(t), t);
  for (int x = 1; x < n; ++x) {
    auto& step = s.steps[tree.step[x] - 1];
    for (int t = 0; t < n; ++t) step.push_back(hop(t ^ tree.parent[x], t ^ x, t));
  }
  return s;
}

// ---- single node scatter (Section 3) -----------------------------------------

// The nodes of the subtree hanging below the root's neighbour over dimension j,
// in the order the root sends their packets: deepest first (the paper's rule),
// ties by label so that the schedule is deterministic.
std::vector<int> send_order(const CubeTree& tree, int j) {
  std::vector<int> nodes;
  for (int x = 1; x < static_cast<int>(tree.parent.size()); ++x)
    if (tree.m[x] == j) nodes.push_back(x);
  std::sort(nodes.begin(), nodes.end(), [&](int a, int b) {
    return tree.step[a] != tree.step[b] ? tree.step[a] > tree.step[b] : a < b;
  });
  return nodes;
}

// Root-to-x path in the tree, root first.
std::vector<int> tree_path(const CubeTree& tree, int x) {
  std::vector<int> path;
  for (int y = x; y >= 0; y = tree.parent[y]) path.push_back(y);
  std::reverse(path.begin(), path.end());
  return path;
}

// The root sends one packet per time unit into each subtree; a packet sent in
// step s crosses hop h of its path in step s + h. Packets of one subtree move in
// lockstep one step apart, so no directed link carries two packets in a step.
Schedule scatter(const Topology& topo, const GeneratorOptions& o) {
  const std::string name = "scatter";
  require_hypercube(name, topo);
  check_collective_options(name, topo, o, SourceUse::Root);
  const int d = topo.num_dims(), n = topo.num_nodes();
  const CubeTree tree = hypercube::balanced_spanning_tree(d);
  Schedule s = empty_schedule(name, topo, o, 0);
  s.name += " from " + std::to_string(o.source);
  // Packet "toX" (index x-1 relative to the root) is the one for node X.
  for (int x = 1; x < n; ++x) s.add_packet("to" + std::to_string(x ^ o.source), o.source);
  for (int j = 0; j < d; ++j) {
    const auto order = send_order(tree, j);
    for (size_t sent = 0; sent < order.size(); ++sent) {
      const auto path = tree_path(tree, order[sent]);
      for (size_t h = 0; h + 1 < path.size(); ++h) {
        const size_t step = sent + h;
        if (s.steps.size() <= step) s.steps.resize(step + 1);
        s.steps[step].push_back(hop(path[h] ^ o.source, path[h + 1] ^ o.source, order[sent] - 1));
      }
    }
  }
  return s;
}

// ---- total exchange (Section 4) --------------------------------------------

// Packet index of (origin, dest), declared in origin-major order.
int exchange_packet(int origin, int dest, int n) { return origin * (n - 1) + (dest < origin ? dest : dest - 1); }

// Node i sends, in every time unit and on every link, node 0's table entry
// translated by XOR with i: every directed link is busy in every step.
Schedule total_exchange(const Topology& topo, const GeneratorOptions& o) {
  const std::string name = "total-exchange";
  require_hypercube(name, topo);
  check_collective_options(name, topo, o, SourceUse::AllNodes);
  const int d = topo.num_dims(), n = topo.num_nodes();
  check_size(name, topo, static_cast<long long>(d) * n * n / 2);  // d 2^(2d-1)
  const auto table = hypercube::total_exchange_table(d);
  Schedule s = empty_schedule(name, topo, o, static_cast<int>(table.size()));
  for (int src = 0; src < n; ++src)
    for (int dst = 0; dst < n; ++dst)
      if (dst != src) s.add_packet(std::to_string(src) + "to" + std::to_string(dst), src);
  for (size_t t = 0; t < table.size(); ++t) {
    auto& step = s.steps[t];
    step.reserve(static_cast<size_t>(n) * d);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < d; ++k) {
        const auto& tr = table[t][k];
        step.push_back(hop(i, i ^ (1 << k), exchange_packet(tr.origin ^ i, tr.dest ^ i, n)));
      }
  }
  return s;
}

}  // namespace

void append_hypercube_generators(std::vector<GeneratorInfo>& out) {
  out.push_back({"hypercube-binomial",
                 "one-port binomial spanning tree broadcast on a hypercube from --source, d steps",
                 binomial});
  out.push_back({"multinode-broadcast",
                 "all-port hypercube multinode broadcast, ceil((2^d-1)/d) steps (Bertsekas et al. 1991, Sec. 2)",
                 multinode_broadcast, true});
  out.push_back({"scatter",
                 "all-port hypercube scatter from --source over the balanced spanning tree, ceil((2^d-1)/d) "
                 "steps (Bertsekas et al. 1991, Sec. 3)",
                 scatter});
  out.push_back({"total-exchange",
                 "all-port hypercube total exchange, 2^(d-1) steps, every link busy (Bertsekas et al. 1991, Sec. 4)",
                 total_exchange, true});
}

}  // namespace wormsim::detail
