// SPDX-License-Identifier: Apache-2.0
// A library with thread-local storage, loaded with dlopen by dtls_probe: each
// thread that touches `block` gets a dynamic TLS block, as each PoCL worker
// thread does for PoCL's and LLVM's thread-locals.
thread_local char block[40];

extern "C" char* portacl_dtls_touch() {
  block[0] = 1;
  return block;
}
