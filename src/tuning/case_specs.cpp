// SPDX-License-Identifier: Apache-2.0
#include "case_specs.hpp"

#include <algorithm>
#include <stdexcept>

#include "util/checked.hpp"

namespace portacl {

namespace {

std::vector<std::string> fields(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t colon; (colon = text.find(':', start)) != std::string::npos; start = colon + 1)
    out.push_back(text.substr(start, colon - start));
  out.push_back(text.substr(start));
  return out;
}

}  // namespace

std::string CaseForm::usage() const {
  std::string u = kind;
  for (const CaseParameter& p : parameters) u += ":" + p.name;
  return u;
}

std::string forms_text(const std::vector<CaseForm>& forms, std::size_t indent) {
  std::size_t width = 0;
  for (const CaseForm& f : forms) width = std::max(width, f.usage().size());
  std::string text;
  for (const CaseForm& f : forms)
    text += std::string(indent, ' ') + f.usage() + std::string(width + 2 - f.usage().size(), ' ') + f.meaning + "\n";
  return text;
}

CaseSpec parse_case(const CaseForms& forms, const std::string& text) {
  const std::string where = forms.option + " '" + text + "'";
  const std::vector<std::string> f = fields(text);
  const CaseForm* form = nullptr;
  for (const CaseForm& c : forms.forms)
    if (c.kind == f[0] && c.parameters.size() + 1 == f.size()) form = &c;
  if (!form) {
    std::string expected;
    for (std::size_t i = 0; i < forms.forms.size(); ++i)
      expected += (i == 0 ? "" : i + 1 == forms.forms.size() ? " or " : ", ") + forms.forms[i].usage();
    throw std::invalid_argument(where + ": expected " + expected);
  }
  CaseSpec s{text, form->kind, {}};
  for (std::size_t k = 0; k < form->parameters.size(); ++k) {
    const CaseParameter& p = form->parameters[k];
    const auto v = parse_unsigned(f[k + 1], false, UINT64_MAX);
    if (!v || *v == 0) throw std::invalid_argument(where + ": '" + f[k + 1] + "' is not a positive whole number");
    if (*v < p.min) throw std::invalid_argument(where + ": " + p.name + " is at least " + std::to_string(p.min));
    if (p.max && *v > p.max)
      throw std::invalid_argument(
          where + ": " + (p.too_large.empty() ? p.name + " is at most " + std::to_string(p.max) : p.too_large));
    s.values.push_back(static_cast<std::size_t>(*v));
  }
  return s;
}

}  // namespace portacl
