// The list of traffic patterns: one line each, in the order docs and errors
// list them. A new pattern adds X(its_id) here (its file holds WORMSIM_TRAFFIC_PATTERN).
#pragma once

#define WORMSIM_TRAFFIC_PATTERNS(X) \
  X(uniform)                        \
  X(transpose)                      \
  X(bit_complement)                 \
  X(bit_reverse)                    \
  X(shuffle)                        \
  X(tornado)                        \
  X(neighbor)                       \
  X(random_permutation)             \
  X(hotspot)                        \
  X(diagonal)
