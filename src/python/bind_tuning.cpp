// SPDX-License-Identifier: Apache-2.0
// Tuning from Python: portacl::tune, writing the database plans read. The
// progress callback takes the GIL for each call; the search runs without it.
#include "bindings.hpp"

namespace portacl::python {

void bind_tuning(py::module_& m) {
  m.def("tunable_operations", &tunable_operations);
  m.def("tune", [](Context& ctx, const std::string& operation, std::size_t n, unsigned budget, double seconds,
                   const std::string& database, bool dry_run, bool accept_noisy, const py::object& progress) {
    TuneRequest request;
    request.operation = operation;
    request.n = n;
    request.budget = budget;
    request.seconds = seconds;
    request.database = database;
    request.dry_run = dry_run;
    request.accept_noisy = accept_noisy;
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
    py::dict out;
    out["operation"] = r.operation;
    out["kernel"] = r.kernel;
    out["n"] = r.n;
    out["rules_ms"] = r.rules_ms;
    out["best_ms"] = r.best_ms;
    out["speedup"] = r.speedup;
    out["configuration"] = r.configuration;
    out["tried"] = r.tried;
    out["valid"] = r.valid;
    out["rejected"] = r.rejected;
    out["stored"] = r.stored;
    out["database"] = r.database;
    out["not_stored"] = r.not_stored;
    return out;
  });
}

}  // namespace portacl::python
