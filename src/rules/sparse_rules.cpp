// SPDX-License-Identifier: Apache-2.0
#include "rules/sparse_rules.hpp"

#include <algorithm>
#include <cstdio>

#include "portacl/error.hpp"

namespace portacl {
namespace {

bool simd_class(DeviceClass c) { return c == DeviceClass::cpu; }

std::string fixed(double v, int digits = 1) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

// Padded slots per stored entry if every row were as long as the longest.
double ell_padding(const SparseShape& s) {
  return s.nnz ? double(s.longest_row) * double(s.rows) / double(s.nnz) : 1.0;
}

}  // namespace

std::string SpmvMethod::name() const {
  switch (format) {
    case SparseFormat::csr:
      switch (variant) {
        case CsrVariant::scalar: return "csr-scalar";
        case CsrVariant::vector: return "csr-vector";
        case CsrVariant::block: return "csr-block";
        case CsrVariant::adaptive: return "csr-adaptive";
        case CsrVariant::cpu: return "csr-cpu";
        case CsrVariant::merge: return "csr-merge";
      }
      break;
    case SparseFormat::coo: return "coo";
    case SparseFormat::ell: return "ell";
    case SparseFormat::ell_r: return "ell-r";
    case SparseFormat::hyb: return "hyb";
    case SparseFormat::dia: return "dia";
  }
  return "?";
}

namespace {

// Every method with its METHOD knob value. The values are the positions the
// methods had in this list when records stored numbers (2026-11); records
// store names now, and these stay fixed so that those older records keep
// their meaning. A new method takes the next free number.
struct CodedMethod {
  SpmvMethod method;
  long code;
};
const std::vector<CodedMethod>& coded_methods() {
  static const std::vector<CodedMethod> all = {
      {{SparseFormat::csr, CsrVariant::scalar}, 0}, {{SparseFormat::csr, CsrVariant::vector}, 1},
      {{SparseFormat::csr, CsrVariant::block}, 2},  {{SparseFormat::csr, CsrVariant::adaptive}, 3},
      {{SparseFormat::csr, CsrVariant::cpu}, 4},    {{SparseFormat::coo, CsrVariant::scalar}, 5},
      {{SparseFormat::ell, CsrVariant::scalar}, 6}, {{SparseFormat::ell_r, CsrVariant::scalar}, 7},
      {{SparseFormat::hyb, CsrVariant::scalar}, 8}, {{SparseFormat::dia, CsrVariant::scalar}, 9},
      {{SparseFormat::csr, CsrVariant::merge}, 10}};
  return all;
}

}  // namespace

const std::vector<SpmvMethod>& spmv_methods() {
  static const std::vector<SpmvMethod> all = [] {
    std::vector<SpmvMethod> v;
    for (const CodedMethod& c : coded_methods()) v.push_back(c.method);
    return v;
  }();
  return all;
}

SpmvMethod spmv_method_of_value(long value) {
  for (const CodedMethod& c : coded_methods())
    if (c.code == value) return c.method;
  throw Error("spmv: METHOD " + std::to_string(value) + " is no method's value");
}

SpmvMethod spmv_method_from_string(const std::string& name) {
  std::string names;
  for (const SpmvMethod& m : spmv_methods()) {
    if (m.name() == name) return m;
    names += (names.empty() ? "" : ", ") + m.name();
  }
  throw Error("unknown SpMV method '" + name + "' (known: " + names + ")");
}

std::size_t hyb_ell_width(const SparseShape& s) {
  // Bell and Garland: the widest K such that at least a third of the rows
  // (and at least 4096 of them, so a small matrix does not pad for a few
  // rows) have K entries or more: ELL slots are then mostly full, and the
  // coordinate part holds only what the longer rows add.
  const std::size_t enough = std::max<std::size_t>(4096, s.rows / 3);
  std::size_t k = 0;
  for (std::size_t w = 1; w < s.rows_with_at_least.size(); ++w)
    if (s.rows_with_at_least[w] >= enough) k = w;
  return k;
}

namespace {
bool banded(const SparseShape& s) {
  return s.diagonals <= 128 && double(s.diagonals) * double(s.rows) <= 1.5 * double(s.nnz);
}
}  // namespace

std::string spmv_statistics_class(const SparseShape& s) {
  if (s.nnz && banded(s)) return "banded";
  return std::string(s.mean_row <= 16 ? "short" : "long") + (s.row_stddev > s.mean_row / 2 ? "-irregular" : "-regular");
}

KernelTraits spmv_method_traits(const SparseShape& shape, ElementType element) {
  KernelTraits t;
  t.name = "spmv_method." + spmv_statistics_class(shape);
  t.element = element;
  t.vectorizable = false;
  t.bytes_per_item = 2.0 * static_cast<double>(size_of(element));  // per entry: value and column index
  t.flops_per_item = 2;
  t.tunables = &spmv_method_tunables();
  return t;
}

const TuningSpace& spmv_method_tunables() {
  static const TuningSpace space = [] {
    Tunable method{"METHOD", {}, std::nullopt, "the SpMV method, stored by name"};
    for (const CodedMethod& c : coded_methods()) {
      method.values.push_back(c.code);
      method.names.push_back(c.method.name());
    }
    return TuningSpace{{method}, nullptr};
  }();
  return space;
}

bool ell_column_major(DeviceClass device_class) { return !simd_class(device_class); }

std::size_t vector_team(double mean_row, std::size_t sub_group) {
  std::size_t team = 2;
  while (team < sub_group && double(team) < mean_row) team *= 2;
  return team;
}

SpmvChoice choose_spmv_method(const SparseShape& s, DeviceClass c) {
  SpmvChoice choice;
  auto pick = [&](SparseFormat f, CsrVariant v, const char* rule, std::string why) {
    choice.method = {f, v};
    choice.decisions.push_back({"spmv_method", choice.method.name(), rule, std::move(why)});
    return choice;
  };
  const std::string stats = std::to_string(s.rows) + " rows, mean " + fixed(s.mean_row) + " entries per row (sd " +
                            fixed(s.row_stddev) + "), longest " + std::to_string(s.longest_row);
  if (s.nnz == 0) return pick(SparseFormat::csr, CsrVariant::scalar, "sparse.csr-default", "no entries: y = beta y");
  const double dia_slots = double(s.diagonals) * double(s.rows);
  if (!simd_class(c) && banded(s))
    return pick(SparseFormat::dia, CsrVariant::scalar, "sparse.dia-banded",
                std::to_string(s.diagonals) + " diagonals hold the entries at " +
                    fixed(100.0 * double(s.nnz) / dia_slots, 0) + "% fill: no column indices to read");
  const double padding = ell_padding(s);
  if (padding <= 1.25)
    return pick(s.shortest_row == s.longest_row ? SparseFormat::ell : SparseFormat::ell_r, CsrVariant::scalar,
                "sparse.ell-regular",
                stats + ": padding to the longest row adds " + fixed(100.0 * (padding - 1), 0) + "% slots" +
                    (s.shortest_row == s.longest_row ? "" : "; row lengths skip them"));
  if (simd_class(c))
    return pick(SparseFormat::csr, CsrVariant::cpu, "sparse.csr-cpu-chunks",
                stats + ": each core walks a chunk of rows of equal entries in SIMD vectors");
  if (s.mean_row <= 16)
    return pick(SparseFormat::csr, CsrVariant::block, "sparse.csr-block-short-rows",
                stats + ": a work-group reads a block of short rows' entries in one coalesced pass");
  if (s.longest_row > kRowLengthBinTops.back() && s.row_stddev > s.mean_row)
    return pick(SparseFormat::csr, CsrVariant::adaptive, "sparse.csr-adaptive-irregular",
                stats + ": lengths vary more than their mean, so rows are binned by length");
  return pick(SparseFormat::csr, CsrVariant::vector, "sparse.vector-team",
              stats + ": a team reads each row's consecutive entries together");
}

bool cg_fuses_product_dot(LaunchPlan& plan, const SpmvMethod& m) {
  const bool fused = m.format == SparseFormat::dia || m.format == SparseFormat::ell || m.format == SparseFormat::ell_r;
  if (fused)
    plan.decide("product", "fused with p . A p", "solver.fused-product-dot",
                m.name() + " gives a work-item a row: it also sums p . A p, and the last group computes alpha");
  return fused;
}

bool cg_single_reduction(LaunchPlan& plan, bool fused) {
  if (fused)
    plan.decide("cg_form", "single reduction (Chronopoulos-Gear), 2 launches an iteration",
                "solver.single-reduction-cg",
                "the fused product also gives z . A z, from which alpha follows without p . A p: the vector updates "
                "and the next rho take one pass");
  return fused;
}

RuleChoice solver_check_interval(DeviceClass device_class) {
  if (simd_class(device_class))
    return {1, "solver.check-interval",
            "reading the residual on a CPU device costs little: checked every iteration (each check taken while "
            "the next iteration runs)"};
  return {8, "solver.check-interval",
          "each check is read while the next window runs, so the queue never drains: checked every 8 "
          "iterations, at most 15 after convergence run as no-ops"};
}

}  // namespace portacl
