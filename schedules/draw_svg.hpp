// Drawing a schedule as a standalone SVG picture, like the figures of the
// broadcast papers: the network faintly (nodes and links), and one arrow per
// message along its route, coloured and numbered by step. docs/schedule-drawing.md
// explains how to read the picture.
//
// Layouts: 2-D meshes/tori as a grid (x to the right, y downward, (0,0) top
// left); 3-D as a row of z-slices; 1-D lines as a row and rings as a circle with
// the calls as arcs; hypercubes up to kSvgMaxHypercubeDim as a Gray-coded grid.
// The output is deterministic: the same schedule and options give the same bytes.
#pragma once

#include <string>

#include "models/routing/routing_function.hpp"
#include "models/topology.hpp"
#include "schedules/schedule.hpp"

namespace wormsim {

// Hypercubes above this dimension are refused: the picture would be a hairball.
inline constexpr int kSvgMaxHypercubeDim = 6;

struct SvgOptions {
  double cell = 56.0;        // pixels between neighbouring nodes (grids, hypercubes, lines, rings)
  double node_radius = 6.0;  // lines and rings draw at least 9 so the node number fits inside
  bool label_steps = true;   // write the step number on each arrow
  bool label_nodes = true;   // coordinate ticks (grids), numbers (lines, rings), binary labels (hypercubes)
  bool legend = true;        // step -> colour key below the drawing
  std::string title;         // empty: the schedule's name
  int slices_per_row = 0;    // 3-D: z-slices per row of the picture; 0 puts them all in one row
  int max_nodes = 4096;      // larger networks are refused: the picture would be unreadable
  // Messages without an explicit route follow it (a deterministic function);
  // null: dimension order.
  const RoutingFunction* routing = nullptr;
};

// The picture as SVG 1.1 text (starts with "<svg", ends with "</svg>\n").
// Throws std::invalid_argument, with the reason, when the schedule cannot be drawn:
// a topology other than the schedule's, one its shape cannot picture
// (TopologyShape::check_drawable: a concentrated mesh), meshes/tori of 4 or
// more dimensions, hypercubes above kSvgMaxHypercubeDim, networks above
// opt.max_nodes, bad options,
// or a message that is not drawable (node out of range, src == dst, a route that
// does not join src to dst through neighbours).
std::string schedule_to_svg(const Schedule& s, const Topology& topo, const SvgOptions& opt = {});

// The topology checks of schedule_to_svg alone, on the spec (nothing built):
// throws std::invalid_argument for shapes and sizes that cannot be drawn.
void check_drawable_topology(const TopologySpec& spec, const SvgOptions& opt = {});

}  // namespace wormsim
