// SPDX-License-Identifier: Apache-2.0
// Where ELL and ELLPACK-R keep slot k of row i, shared by the conversions,
// the products and the solvers' fused product. The host defines
// ELL_COLUMN_MAJOR (1: slot k of every row together, at k * pitch + i, on
// GPUs and MIC; 0: a row's slots together, at i * width + k, on CPUs) and
// ELL_R (row lengths given: padding is never read). Padding slots hold
// column -1.
#ifndef PORTACL_SPARSE_ELL_LAYOUT_CL
#define PORTACL_SPARSE_ELL_LAYOUT_CL

#ifndef ELL_COLUMN_MAJOR
#define ELL_COLUMN_MAJOR 1
#endif
#ifndef ELL_R
#define ELL_R 0
#endif
#if ELL_COLUMN_MAJOR
#define ELL_SLOT(i, k) ((size_t)(k) * pitch + (i))
#else
#define ELL_SLOT(i, k) ((i) * (size_t)width + (k))
#endif
#define ELL_PADDING 0xffffffffu

#endif  // PORTACL_SPARSE_ELL_LAYOUT_CL
