// Which node holds which packet while an eager schedule runs (ScheduleExecutor):
// a node may send a packet once it holds it. A bit per (packet, node) pair when
// that table is no bigger than a set of the pairs could grow (every delivery
// adds a pair: broadcasts, gossip and total exchange fill most of the table),
// else a hash set of the pairs held (a schedule of many packets that each reach
// a few nodes: a permutation of a 2M-node network would need 512 GB of bits).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_set>
#include <vector>

namespace wormsim {

class HeldPackets {
 public:
  // A pair held in a hash set costs about 32 bytes (its node and its bucket): 256 bits.
  static constexpr uint64_t kBitsPerSetEntry = 256;

  // For `packets` packets on `nodes` nodes, of which at most `pairs` can ever be held.
  HeldPackets(uint64_t packets, uint64_t nodes, uint64_t pairs)
      : nodes_(nodes), dense_(nodes == 0 || packets <= kBitsPerSetEntry * pairs / nodes) {
    if (dense_) bits_.assign((packets * nodes + 63) / 64, 0);
  }
  bool dense() const { return dense_; }

  bool holds(int node, int packet) const {
    const uint64_t i = index(node, packet);
    return dense_ ? (bits_[i / 64] >> (i % 64) & 1) != 0 : set_.count(i) != 0;
  }
  // Starts loading holds(node, packet)'s word (dense tables only).
  void prefetch(int node, int packet) const {
    if (dense_) __builtin_prefetch(&bits_[index(node, packet) / 64]);
  }
  void give(int node, int packet) {
    const uint64_t i = index(node, packet);
    if (dense_) bits_[i / 64] |= uint64_t{1} << (i % 64);
    else set_.insert(i);
  }
  // Nobody holds anything.
  void clear() {
    if (dense_) std::fill(bits_.begin(), bits_.end(), 0);
    else set_.clear();
  }

 private:
  uint64_t index(int node, int packet) const {
    return static_cast<uint64_t>(packet) * nodes_ + static_cast<uint64_t>(node);
  }

  uint64_t nodes_;
  bool dense_;
  std::vector<uint64_t> bits_;
  std::unordered_set<uint64_t> set_;
};

}  // namespace wormsim
