// A topology's links as a Boost.Graph adjacency list (Topology::graph()), for
// graph algorithms: built on first use, and declared apart from topology.hpp so
// that only the files that walk the graph compile Boost.Graph.
#pragma once

#include <boost/graph/adjacency_list.hpp>

namespace wormsim {

// Properties of one directed link, kept on the Boost.Graph edge.
struct LinkProps {
  int id = -1;    // directed link id
  int port = -1;  // output port at the source router
  int dim = -1;   // dimension it moves along
  int dir = 0;    // +1 or -1 (hypercube: +1 when it sets the bit, -1 when it clears it)
  bool wrap = false;  // wrap-around link (crosses the dateline)
};

// Out-edge lists only (directedS): every query walks out-edges, and keeping no
// in-edge lists or global edge list saves about 250 bytes per router. A class,
// not an alias, so that topology.hpp can declare it without Boost.
struct TopologyGraph
    : boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property, LinkProps> {
  using adjacency_list::adjacency_list;
};

}  // namespace wormsim
