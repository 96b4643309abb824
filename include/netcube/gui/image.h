#pragma once
// A rendered frame as RGBA bytes, and its PNG encoding (stb_image_write) for the caller to write.
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

// The image as a PNG file's bytes (RGB: frames are opaque). Empty with `error` set when there is no image
// (the frame could not be read back) or it cannot be encoded.
std::string EncodePng(const Image& image, std::string* error);

}  // namespace netcube::gui
