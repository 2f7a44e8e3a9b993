// Everything a user of portacl needs, in one include.
#pragma once

#include "portacl/cl.hpp"
#include "portacl/device/clinfo.hpp"
#include "portacl/device/device_class.hpp"
#include "portacl/device/device_info.hpp"
#include "portacl/error.hpp"
#include "portacl/kernels/axpy.hpp"
#include "portacl/programs/kernel_library.hpp"
#include "portacl/programs/program_cache.hpp"
#include "portacl/rules/kernel_traits.hpp"
#include "portacl/rules/launch_plan.hpp"
#include "portacl/rules/mapping_rules.hpp"
#include "portacl/rules/rule_book.hpp"
#include "portacl/runtime/buffer.hpp"
#include "portacl/runtime/context.hpp"
#include "portacl/runtime/device.hpp"
#include "portacl/version.hpp"
