#include "models/helper_thread.hpp"

#include <utility>

namespace wormsim {

HelperThread::~HelperThread() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  job_ready_.notify_one();
  thread_.join();
}

bool HelperThread::available() {
  if (thread_.joinable()) return true;
  if (failed_ || (need_second_cpu_ && std::thread::hardware_concurrency() < 2)) return false;
  try {
    thread_ = std::thread([this] { serve(); });
  } catch (const std::exception&) {
    failed_ = true;  // no thread to be had (std::system_error, or memory): the caller does it all
  }
  return !failed_;
}

void HelperThread::run_beside(const std::function<void()>& theirs, const std::function<void()>& mine) {
  {
    const std::lock_guard<std::mutex> lock(mu_);
    job_ = &theirs;
    ++posted_;
  }
  job_ready_.notify_one();
  // `theirs` must be done before this returns, whatever `mine` does: it reads the caller's frame.
  std::exception_ptr own_error;
  try {
    mine();
  } catch (...) {
    own_error = std::current_exception();
  }
  std::unique_lock<std::mutex> lock(mu_);
  job_done_.wait(lock, [this] { return finished_ == posted_; });
  job_ = nullptr;
  if (own_error) std::rethrow_exception(own_error);
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void HelperThread::serve() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    job_ready_.wait(lock, [this] { return stop_ || posted_ != finished_; });
    if (stop_) return;
    const std::function<void()>* job = job_;
    lock.unlock();
    std::exception_ptr error;
    try {
      (*job)();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    error_ = error;
    finished_ = posted_;
    job_done_.notify_one();
  }
}

}  // namespace wormsim
