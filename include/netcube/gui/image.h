#pragma once
// A rendered frame as RGBA bytes, and writing it as a PNG (stb_image_write).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "netcube/gui/theme.h"

namespace netcube::gui {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  // row-major, 4 bytes per pixel, no padding

  // The pixel at (x, y); (x, y) must lie inside the image.
  Rgb At(int x, int y) const noexcept {
    const std::size_t i =
        (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
    return {rgba[i], rgba[i + 1], rgba[i + 2]};
  }
};

// False with `error` set when the file cannot be written.
bool WritePng(const Image& image, const std::string& path, std::string* error);

}  // namespace netcube::gui
