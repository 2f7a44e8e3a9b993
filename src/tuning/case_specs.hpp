// SPDX-License-Identifier: Apache-2.0
// The cases a family's benchmark section takes on the command line
// ("heat2d:N:STEPS", "powerlaw:ROWS:MEAN"), declared once, in the family's
// operations file, beside its operations. portacl-bench parses, checks and
// explains every family's specs from here: no section keeps a parser of
// its own. A family registers its list with its cases (bench_cases.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace portacl {

struct CaseParameter {
  std::string name;            ///< "N", "STEPS"
  std::size_t max = 0;         ///< the largest value allowed; 0: any (every value is a positive whole number)
  std::string too_large = "";  ///< what the refusal of a larger value says ("the radius is 1 to 4")
  std::size_t min = 1;         ///< the smallest value allowed
};

struct CaseForm {
  std::string kind;                       ///< "heat2d"
  std::vector<CaseParameter> parameters;  ///< in the order the spec gives them
  std::string meaning;                    ///< "the 2D heat equation on N^2, float and double"
  std::string usage() const;              ///< "heat2d:N:STEPS"
};

/// The forms for a usage text: a line each, "<indent><usage> <meaning>",
/// the meanings aligned.
std::string forms_text(const std::vector<CaseForm>& forms, std::size_t indent);

/// A family's case list: the command-line option that takes its specs and
/// the forms a spec may have.
struct CaseForms {
  std::string option;  ///< "--stencils"
  std::vector<CaseForm> forms;
};

/// One parsed spec: its text, its form's kind and the values in order.
struct CaseSpec {
  std::string text, kind;
  std::vector<std::size_t> values;
};

/// Throws std::invalid_argument naming the option, the spec and what is
/// wrong: an unknown kind (with every form), a missing or extra field, a
/// value that is not a positive whole number or is past its maximum.
CaseSpec parse_case(const CaseForms& forms, const std::string& text);

}  // namespace portacl
