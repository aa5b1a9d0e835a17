#include "schedules/generators/mesh_baselines.hpp"

namespace wormsim::mesh_broadcast {

namespace {

int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

}  // namespace

BroadcastPlan umesh_plan(const Topology& topo, int source) {
  struct Interval {
    int holder, lo, hi;  // chain positions; node-id order is the chain
  };
  BroadcastPlan plan;
  std::vector<Interval> work{{source, 0, topo.num_nodes() - 1}};
  while (true) {
    std::vector<PlanMessage> step;
    std::vector<Interval> next;
    for (const Interval& iv : work) {
      if (iv.lo == iv.hi) continue;  // a single node: nothing left to send
      const int center = iv.lo + (iv.hi - iv.lo) / 2;  // lower half [lo, center]
      // The source sends to the far end of the other half, everyone else (always
      // at an end of its interval) to the near end. Then every interval right of
      // the source's is served from its right end and every one left of it from
      // its left end: concurrent messages all point toward the source's interval.
      const bool far = iv.holder == source;
      if (iv.holder <= center) {
        const int dst = far ? iv.hi : center + 1;
        step.push_back({iv.holder, dst});
        next.push_back({iv.holder, iv.lo, center});
        next.push_back({dst, center + 1, iv.hi});
      } else {
        const int dst = far ? iv.lo : center;
        step.push_back({iv.holder, dst});
        next.push_back({iv.holder, center + 1, iv.hi});
        next.push_back({dst, iv.lo, center});
      }
    }
    if (step.empty()) break;
    plan.push_back(std::move(step));
    work = std::move(next);
  }
  return plan;
}

BroadcastPlan corner_plan(const Topology& topo, int source) {
  const int d = topo.num_dims();
  std::vector<int> box(d);  // side of the current box in each dimension
  for (int i = 0; i < d; ++i) box[i] = topo.radix(i);
  BroadcastPlan plan;
  std::vector<int> holders{source};
  while (true) {
    bool split = false;
    for (int i = 0; i < d; ++i) {
      if (box[i] == 1) continue;
      split = true;
      const int half = box[i] / 2;
      std::vector<PlanMessage> step;
      const size_t n = holders.size();
      for (size_t h = 0; h < n; ++h) {
        std::vector<int> c = topo.coords(holders[h]);
        // Same offset in the facing half of the box along dimension i.
        c[i] += (c[i] % box[i]) < half ? half : -half;
        const int dst = topo.node_at(c);
        step.push_back({holders[h], dst});
        holders.push_back(dst);
      }
      plan.push_back(std::move(step));
    }
    if (!split) break;
    for (int i = 0; i < d; ++i) box[i] = box[i] > 1 ? box[i] / 2 : 1;
  }
  return plan;
}

BroadcastPlan binomial_plan(const Topology& topo, int source) {
  const int n = topo.num_endpoints();  // node ids are endpoints: any topology, concentrated ones included
  const int steps = ceil_log2(n);
  BroadcastPlan plan(steps);
  for (int s = 0; s < steps; ++s) {
    const int mask = 1 << (steps - 1 - s);
    for (int r = 0; r + mask < n; r += 2 * mask)
      plan[s].push_back({(source + r) % n, (source + r + mask) % n});
  }
  return plan;
}

}  // namespace wormsim::mesh_broadcast
