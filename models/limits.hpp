// The largest sizes wormsim accepts, named once: the config reader, the schedule
// loader, the command-line options and the topologies check against these.
#pragma once

namespace wormsim {

// Nodes (and routers) in one network, and the radix of one dimension: node ids
// and per-node tables are ints, and beyond this the per-node state alone would
// not fit the machines this runs on (docs/reliability.md, "Memory").
constexpr long long kMaxNodes = 1LL << 24;
constexpr long long kMaxRadix = kMaxNodes;
// Flits in one message: a worm's flit counter and a schedule's lengths.
constexpr long long kMaxMessageFlits = 1LL << 24;
// Flits in one background packet (traffic.flits).
constexpr long long kMaxPacketFlits = 1LL << 20;
// A node written as an integer id in a config (ids past kMaxNodes are refused
// later with the network's own size in the message, not here).
constexpr long long kMaxNodeIdLiteral = 1LL << 30;
// The background traffic's injection window (traffic.cycles).
constexpr long long kMaxTrafficCycles = 1LL << 40;
// Messages a generated schedule may hold (total exchange on a hypercube reaches
// it at d = 12, multinode broadcast at d = 13).
constexpr long long kMaxGeneratedMessages = 1LL << 25;
// A schedule's messages, and its steps, over all its repetitions in one run:
// message ids and step numbers are 32-bit.
constexpr long long kMaxRunMessages = (1LL << 31) - 1;
// Seeds and cycle counts: far beyond any run, below the 64-bit overflow of sums of them.
constexpr long long kMaxCycleCount = 1LL << 62;

}  // namespace wormsim
