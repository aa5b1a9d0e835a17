// The statistics of a run's output files, declared once (decl/stat.hpp): the
// blocks of summary.json and the columns of the CSV files, listed below.
// sim/outputs.cpp and the writers beside it (repetition_outputs.cpp,
// warmup_outputs.cpp, router_stats.cpp) write them; docs/metrics.md explains them.
#pragma once

#include "decl/stat.hpp"

namespace wormsim {

const StatTable& metrics_stats();      // summary.json "metrics"
const StatTable& background_stats();   // summary.json "background"
const StatTable& load_stats();         // summary.json "load"
const StatTable& class_stats();        // summary.json "classes": one entry per class
const StatTable& class_load_stats();   // summary.json "classes" entries' "load"
const StatTable& class_latency_columns();  // latency.csv
const StatTable& warmup_stats();       // summary.json "warmup"
const StatTable& warmup_columns();     // warmup.csv
const StatTable& repetition_stats();   // summary.json "repetitions"
const StatTable& invariant_stats();    // summary.json "invariants"
const StatTable& host_stats();         // summary.json "host"
const StatTable& message_columns();    // messages.csv
const StatTable& link_columns();       // links.csv
const StatTable& step_columns();       // steps.csv
const StatTable& repetition_columns(); // repetitions.csv
const StatTable& router_summary_stats(); // summary.json "router_stats"
const StatTable& router_columns();     // routers.csv
const StatTable& vc_columns();         // vcs.csv
const StatTable& hop_columns();        // hops.csv

}  // namespace wormsim
