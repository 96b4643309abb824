#include "netcube/client/units.h"

#include <cmath>

namespace netcube::client {

double Length(Vec2 v) noexcept { return std::hypot(v.x, v.y); }

}  // namespace netcube::client
