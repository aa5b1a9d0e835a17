// The combinatorial constructions of Bertsekas, Özveren, Stamoulis, Tseng and
// Tsitsiklis, "Optimal Communication Algorithms for Hypercubes" (JPDC 1991),
// all built for root/originator node 0 of the d-cube. Every construction is
// invariant under XOR with a node label (links keep their dimension), so the
// generators in hypercube.cpp obtain any other root by XOR.
//
// Bit conventions: the paper's "position j from the right" (1-based) is bit
// j-1 here, and its link/type j is port/dimension j-1 of models/topology.hpp.
#pragma once

#include <vector>

namespace wormsim::hypercube {

// A spanning tree of the d-cube rooted at node 0.
struct CubeTree {
  int d = 0;
  std::vector<int> parent;  // parent[0] = -1; parent[x] differs from x in one bit
  // Multinode-broadcast tree: the 1-based time unit i with x in E_i (0 for the root).
  // Balanced scatter tree: depth of x (its Hamming weight).
  std::vector<int> step;
  std::vector<int> m;       // m(x) - 1 of the paper, a dimension 0..d-1 (-1 for the root)
  std::vector<int> number;  // n(x) of the paper: x's place in the order (00..0) R_11 ... (11..1)
};

// Section 2: the single node broadcast A_1..A_q whose links in every A_i have
// distinct types, so that its XOR-translates run simultaneously as an optimal
// multinode broadcast. x receives in time unit step[x] from parent[x] over dimension m[x].
CubeTree multinode_broadcast_tree(int d);

// Section 3: the perfectly balanced shortest-path spanning tree. Node x lies in
// the subtree of the root's neighbour 2^m[x]; subtree sizes are floor or ceil of (2^d-1)/d.
CubeTree balanced_spanning_tree(int d);

// Section 4: what node 0 transmits in the optimal total exchange. Node i sends,
// on the same link in the same time unit, the packet (origin ^ i, dest ^ i).
struct Transmission {
  int origin = -1;  // the node the packet started at
  int dest = -1;    // its final destination
};
// table[t][k]: the packet node 0 sends over dimension k in time unit t+1
// (2^(d-1) rows, d columns, every entry filled: 100% link use).
using ExchangeTable = std::vector<std::vector<Transmission>>;
ExchangeTable total_exchange_table(int d);

// The paper's Fig. 6 view of a table: column k lists, in time order, the
// destinations of node 0's own packets sent over dimension k; row t is time t+1
// and holds -1 where the link carries no own packet (it relays instead).
std::vector<std::vector<int>> own_packet_table(const ExchangeTable& table);

}  // namespace wormsim::hypercube
