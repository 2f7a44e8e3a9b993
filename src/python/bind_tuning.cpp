// SPDX-License-Identifier: Apache-2.0
// Tuning from Python: portacl::tune, writing the database plans read. The
// progress callback takes the GIL for each call; the search runs without it.
#include "bindings.hpp"

namespace portacl::python {

void bind_tuning(py::module_& m) {
  m.def("tunable_operations", &tunable_operations, R"doc(The operations portacl.tune takes, by name.

Returns
-------
list of str

Raises
------
Error
    Never in practice: the list is the library's own.

Examples
--------
>>> import portacl
>>> "axpy" in portacl.tunable_operations()
True
)doc");
  m.def("tune", [](Context& ctx, const std::string& operation, std::size_t n, unsigned budget, double seconds,
                   const std::string& database, bool dry_run, bool accept_noisy, const py::object& progress) {
    // In the order TuneRequest declares its fields; the seed stays the default.
    const TuneRequest defaults;
    TuneRequest request{operation, n, budget, seconds, database, dry_run, accept_noisy, defaults.seed, nullptr};
    if (!progress.is_none())
      request.progress = [progress](const TuneProgress& p) {
        py::gil_scoped_acquire hold;
        progress(p.operation, p.done, p.total, p.best_ms, p.rules_ms);
      };
    TuneReport r;
    {
      py::gil_scoped_release release;
      r = tune(ctx, request);
    }
    const py::dict out("operation"_a = r.operation, "kernel"_a = r.kernel, "n"_a = r.n, "rules_ms"_a = r.rules_ms,
                       "best_ms"_a = r.best_ms, "speedup"_a = r.speedup, "configuration"_a = r.configuration,
                       "tried"_a = r.tried, "valid"_a = r.valid, "rejected"_a = r.rejected, "stored"_a = r.stored,
                       "database"_a = r.database, "not_stored"_a = r.not_stored);
    return out;
  });
}

}  // namespace portacl::python
