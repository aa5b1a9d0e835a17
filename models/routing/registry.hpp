// The list of routing functions: one line each, in the order docs and errors list
// them. A new function adds X(its_id) here (its file holds WORMSIM_ROUTING_FUNCTION).
#pragma once

#define WORMSIM_ROUTING_FUNCTIONS(X) \
  X(dimension_order)                 \
  X(west_first)                      \
  X(north_last)                      \
  X(negative_first)                  \
  X(odd_even)                        \
  X(minimal_adaptive)
