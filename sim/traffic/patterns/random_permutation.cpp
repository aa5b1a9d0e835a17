// random-permutation: a permutation of the endpoints drawn once per run from
// run.seed (Fisher-Yates on a stream of its own, so the traffic's draws are
// those of the other patterns); every packet of src goes to perm[src]. Its
// fixed points stay silent.
#include "sim/background_traffic.hpp"
#include "sim/traffic/pattern.hpp"

#include <numeric>
#include <utility>

namespace wormsim {

class RandomPermutation final : public TrafficPattern {
 public:
  static void check(const Topology&, const BackgroundSpec&) {}
  RandomPermutation(const Topology& topo, const BackgroundSpec& spec) : perm_(topo.num_endpoints()) {
    std::iota(perm_.begin(), perm_.end(), 0);
    // The seed's two halves and a tag ("perm") through seed_seq, fully specified by the standard.
    std::seed_seq seq{static_cast<uint32_t>(spec.seed), static_cast<uint32_t>(spec.seed >> 32), 0x7065726du};
    TrafficRng rng(seq);
    for (size_t i = perm_.size() - 1; i > 0; --i)
      std::swap(perm_[i], perm_[static_cast<size_t>(uniform01(rng) * static_cast<double>(i + 1))]);
  }
  int destination(int src, TrafficRng&) const override { return perm_[static_cast<size_t>(src)]; }

 private:
  std::vector<int> perm_;
};

}  // namespace wormsim

WORMSIM_TRAFFIC_PATTERN(random_permutation, "random-permutation", RandomPermutation,
                        "a fixed random permutation of the endpoints, drawn from run.seed")
