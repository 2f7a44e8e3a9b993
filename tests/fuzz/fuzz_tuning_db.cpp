// SPDX-License-Identifier: Apache-2.0
// libFuzzer harness: tuning-database files. Any input gives a database (bad
// records skipped) or portacl::Error; what is read writes back to JSON that
// reads as the same records, and lookups never fail.
#include <cstddef>
#include <cstdint>
#include <string>

#include "portacl/error.hpp"
#include "rules/tuning_database.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    std::vector<std::string> skipped;
    const portacl::TuningDatabase db = portacl::TuningDatabase::from_json(portacl::Json::parse(text), &skipped);
    const std::string once = db.to_json().dump();
    const portacl::TuningDatabase again = portacl::TuningDatabase::from_json(portacl::Json::parse(once));
    if (again.records().size() != db.records().size() || again.to_json().dump() != once) __builtin_trap();
    for (const auto& r : db.records())
      for (auto tier :
           {portacl::MatchTier::exact, portacl::MatchTier::same_device, portacl::MatchTier::same_architecture})
        db.find(r.device, r.kernel, r.element, r.n, tier);
  } catch (const portacl::Error&) {
  }
  return 0;
}
