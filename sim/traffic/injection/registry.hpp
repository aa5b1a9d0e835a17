// The list of injection processes: one line each, in the order docs and errors
// list them; the first is the default. A new process adds X(its_id) here (its
// file holds WORMSIM_INJECTION_PROCESS).
#pragma once

#define WORMSIM_INJECTION_PROCESSES(X) \
  X(bernoulli)                         \
  X(on_off)                            \
  X(periodic)
