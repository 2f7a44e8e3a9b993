// SPDX-License-Identifier: Apache-2.0
// A stored format read back into CSR on the host: how tests show that the
// device conversions lose nothing.
#include "portacl/error.hpp"
#include "device_arrays.hpp"
#include "sparse_storage.hpp"

namespace portacl {
namespace {

template <class T>
struct RowBuilder {
  HostCsr<T> csr;
  RowBuilder(std::size_t rows, std::size_t cols) {
    csr.rows = rows;
    csr.cols = cols;
    csr.row_ptr.push_back(0);
  }
  void add(std::uint32_t c, T v) {
    csr.col.push_back(c);
    csr.value.push_back(v);
  }
  void end_row() { csr.row_ptr.push_back(csr.col.size()); }
};

template <class T>
struct EllRead {
  std::vector<std::uint32_t> col, length;  // length: ELL-R only
  std::vector<T> val;
};

// Row i's stored entries: up to its length (ELL-R) or the first padding
// slot (column -1).
template <class T>
void append_ell_row(const EllArrays& e, const EllRead<T>& r, std::size_t i, RowBuilder<T>& out) {
  const std::size_t stop = r.length.empty() ? e.width : r.length[i];
  for (std::size_t k = 0; k < stop; ++k) {
    const std::size_t slot = e.column_major ? k * e.pitch + i : i * e.width + k;
    if (r.length.empty() && r.col[slot] == 0xffffffffu) break;
    out.add(r.col[slot], r.val[slot]);
  }
}

template <class T>
EllRead<T> read_ell(Context& ctx, const EllArrays& e, std::size_t rows, bool with_lengths) {
  EllRead<T> r;
  const std::size_t slots = e.pitch * e.width;
  r.col = device_arrays::read<std::uint32_t>(ctx, e.col, slots, "ELL column indices");
  r.val = device_arrays::read<T>(ctx, e.val, slots, "ELL values");
  if (with_lengths) r.length = device_arrays::read<std::uint32_t>(ctx, e.row_length, rows, "ELL row lengths");
  return r;
}

}  // namespace

template <class T>
HostCsr<T> SparseMatrix<T>::download(SparseFormat format) const {
  Context& ctx = *ctx_;
  SparseStorage<T>& s = storage();
  RowBuilder<T> out(rows_, cols_);
  switch (format) {
    case SparseFormat::csr: return download();
    case SparseFormat::coo: {
      const CooArrays& c = coo_of(*this, s);
      const auto row = device_arrays::read<std::uint32_t>(ctx, c.row, c.entries, "COO rows");
      const auto col = device_arrays::read<std::uint32_t>(ctx, c.col, c.entries, "COO columns");
      const auto val = device_arrays::read<T>(ctx, c.val, c.entries, "COO values");
      std::size_t k = 0;
      for (std::size_t i = 0; i < rows_; ++i) {
        for (; k < c.entries && row[k] == i; ++k) out.add(col[k], val[k]);
        out.end_row();
      }
      if (k != c.entries) throw Error("COO download: row numbers are not sorted at entry " + std::to_string(k));
      return out.csr;
    }
    case SparseFormat::ell:
    case SparseFormat::ell_r: {
      const bool lengths = format == SparseFormat::ell_r;
      for (bool column_major : {true, false}) {
        // Both layouts must hold the same matrix.
        const EllArrays& e = ell_of(*this, s, lengths, column_major);
        const EllRead<T> r = read_ell<T>(ctx, e, rows_, lengths);
        RowBuilder<T> layout(rows_, cols_);
        for (std::size_t i = 0; i < rows_; ++i) {
          append_ell_row(e, r, i, layout);
          layout.end_row();
        }
        if (column_major)
          out = layout;
        else if (layout.csr.col != out.csr.col || layout.csr.value != out.csr.value)
          throw Error("ELL download: the row-major and column-major layouts differ");
      }
      return out.csr;
    }
    case SparseFormat::hyb: {
      const auto [e, c] = hyb_of(*this, s, true);
      const EllRead<T> r = read_ell<T>(ctx, *e, rows_, false);
      const auto row = device_arrays::read<std::uint32_t>(ctx, c->row, c->entries, "HYB rows");
      const auto col = device_arrays::read<std::uint32_t>(ctx, c->col, c->entries, "HYB columns");
      const auto val = device_arrays::read<T>(ctx, c->val, c->entries, "HYB values");
      std::size_t k = 0;
      for (std::size_t i = 0; i < rows_; ++i) {
        append_ell_row(*e, r, i, out);
        for (; k < c->entries && row[k] == i; ++k) out.add(col[k], val[k]);
        out.end_row();
      }
      return out.csr;
    }
    case SparseFormat::dia: {
      const DiaArrays& d = dia_of(*this, s);
      const auto data = device_arrays::read<T>(ctx, d.data, d.offsets.size() * d.pitch, "DIA data");
      for (std::size_t i = 0; i < rows_; ++i) {
        for (std::size_t k = 0; k < d.offsets.size(); ++k) {
          const std::int64_t j = static_cast<std::int64_t>(i) + d.offsets[k];
          const T v = data[k * d.pitch + i];
          if (j >= 0 && j < static_cast<std::int64_t>(cols_) && v != T(0)) out.add(static_cast<std::uint32_t>(j), v);
        }
        out.end_row();
      }
      return out.csr;
    }
  }
  throw Error("sparse matrix download: unknown format");
}

template HostCsr<float> SparseMatrix<float>::download(SparseFormat) const;
template HostCsr<double> SparseMatrix<double>::download(SparseFormat) const;

}  // namespace portacl
