// SPDX-License-Identifier: Apache-2.0
// Runs LeakSanitizer's check while 300 threads hold dynamic TLS blocks of a
// dlopen'ed library (argv[1]). Under the suite's ASAN_OPTIONS it must
// survive. With Debian 12's runtime and the __tls_get_addr interceptor on,
// each such block, which glibc puts 16 bytes into a page, is taken for a
// pre-2.25 glibc block with a header: the check reads a garbage range and
// its tracer dies ("Tracer caught signal 11"), as it did in the unit tests.
#include <dlfcn.h>
#include <sanitizer/lsan_interface.h>

#include <cstdint>
#include <cstdio>
#include <pthread.h>
#include <thread>
#include <vector>

namespace {

char* (*touch)() = nullptr;
pthread_barrier_t ready, done;

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: dtls_probe LIBRARY\n");
    return 2;
  }
  void* library = dlopen(argv[1], RTLD_NOW);
  if (!library) {
    std::fprintf(stderr, "dtls_probe: %s\n", dlerror());
    return 2;
  }
  touch = reinterpret_cast<char* (*)()>(dlsym(library, "portacl_dtls_touch"));
  constexpr unsigned threads = 300;
  pthread_barrier_init(&ready, nullptr, threads + 1);
  pthread_barrier_init(&done, nullptr, threads + 1);
  std::vector<std::thread> pool;
  std::vector<int> on_page_offset_16(threads, 0);
  for (unsigned i = 0; i < threads; ++i)
    pool.emplace_back([i, &on_page_offset_16] {
      on_page_offset_16[i] = reinterpret_cast<std::uintptr_t>(touch()) % 4096 == 16;
      pthread_barrier_wait(&ready);
      pthread_barrier_wait(&done);
    });
  pthread_barrier_wait(&ready);
  int hits = 0;
  for (int h : on_page_offset_16) hits += h;
  std::printf("dtls_probe: %d of %u dynamic TLS blocks 16 bytes into a page\n", hits, threads);
  std::fflush(stdout);
  __lsan_do_leak_check();  // the tracer stops every thread and scans their TLS
  pthread_barrier_wait(&done);
  for (auto& t : pool) t.join();
  std::printf("dtls_probe: the leak check survived\n");
  return 0;
}
