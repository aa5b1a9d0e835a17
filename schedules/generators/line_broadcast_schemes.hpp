// Line broadcast schemes of Kane, "Line Broadcasting" (M.Sc. thesis, SFU 1993).
// A call is a line: the sender informs the receiver over a whole path of links,
// one call per informed node per phase, and the calls of one phase use
// edge-disjoint paths (the thesis's networks are undirected graphs).
#pragma once

#include <vector>

namespace wormsim::line {

// One call on the 2^k-cycle, as positions 0..2^k-1 around the cycle.
struct CycleCall {
  int from = -1;
  int to = -1;
};

// Section 2.4.2: the node at position p carries the binary reflected Gray code
// label of Fig. 2.9, G(p) = ~(p ^ (p >> 1)) restricted to k bits (Eq. 2.5).
int gray_label(int position, int k);
int gray_position(int label, int k);  // inverse of gray_label

// The optimal scheme of Section 2.4.2 from the originator labelled 0...0 at
// gray_position(0, k): in phase j (1-based) every informed node, in the order the
// nodes were informed, calls the node whose label differs in bit k-j (0-based).
// Returns k phases; phase j-1 holds 2^(j-1) calls.
std::vector<std::vector<CycleCall>> gray_cycle_scheme(int k);

// Positions passed by a call on the cycle, sender first: the call runs straight
// along the segment between the two positions, never across the link that joins
// positions 2^k-1 and 0 (the scheme's unused link, Section 2.2).
std::vector<int> cycle_call_path(const CycleCall& call);

}  // namespace wormsim::line
