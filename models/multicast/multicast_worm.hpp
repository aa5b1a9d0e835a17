// A multidestination worm (hardware multicast, docs/multicast.md): one worm
// that delivers a copy of its message to each of several destinations. It
// takes a tree of links from its source's router; at a router it may leave on
// several links at once (tree replication: a flit moves only when every branch
// can take it) and may also eject a copy there (absorb-and-forward: the
// ejection channel is one more branch). A path-based worm is the tree without
// forks.
#pragma once

#include <vector>

namespace wormsim {

// One link of a worm's tree: output link port `port` of router `router`, in
// dateline VC class `vc_class` (0 off tori).
struct TreeEdge {
  int router = -1;
  int port = -1;
  int vc_class = 0;
  bool operator==(const TreeEdge& o) const { return router == o.router && port == o.port && vc_class == o.vc_class; }
};

struct MulticastWorm {
  int src = -1;           // source endpoint
  std::vector<int> dsts;  // destination endpoints, in the order the worm reaches them (ties: any order)
  // Its links, parents before children: the first leaves the source's router;
  // every other leaves a router an earlier edge entered. No router is entered
  // twice, and the source's router is never entered.
  std::vector<TreeEdge> edges;
};

}  // namespace wormsim
