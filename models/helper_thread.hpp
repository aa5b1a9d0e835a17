// A second thread that runs one part of a job while the calling thread runs
// another, for a loop whose iterations are independent (the express loop's
// flit moves on a big network, models/express_worms.hpp).
//
// The thread starts at the first job, not before: a process that forks (a
// batch's points, sim/batch_command.hpp) has none to lose in the child. It
// sleeps between jobs, so that it costs no CPU while the rest of a cycle runs.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace wormsim {

class HelperThread {
 public:
  // `need_second_cpu`: on a machine with one CPU, never available (a second
  // thread would only take turns with the first).
  explicit HelperThread(bool need_second_cpu = true) : need_second_cpu_(need_second_cpu) {}
  HelperThread(const HelperThread&) = delete;
  HelperThread& operator=(const HelperThread&) = delete;
  ~HelperThread();

  // Whether jobs can be shared: the machine has a second CPU and the thread
  // runs (started now if it does not yet). False for good once it cannot be
  // started; the caller then does the whole job itself.
  bool available();
  // Runs `theirs` on the helper thread and `mine` on the calling thread, and
  // returns once both are done. An exception thrown by `theirs` is thrown here
  // once `mine` is done. Only after available() returned true.
  void run_beside(const std::function<void()>& theirs, const std::function<void()>& mine);

 private:
  void serve();

  const bool need_second_cpu_;
  std::thread thread_;
  bool failed_ = false;
  std::mutex mu_;
  std::condition_variable job_ready_, job_done_;
  const std::function<void()>* job_ = nullptr;
  uint64_t posted_ = 0, finished_ = 0;  // jobs given to the thread, and those it has done
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace wormsim
