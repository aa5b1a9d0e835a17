// The list of multicast schemes: one line each, in the order docs and errors list
// them. A new scheme adds X(its_id) here (its file holds WORMSIM_MULTICAST_SCHEME).
#pragma once

#define WORMSIM_MULTICAST_SCHEMES(X) \
  X(dual_path)                       \
  X(multi_path)                      \
  X(column_path)                     \
  X(tree)
