#include "netcube/gui/image.h"

#include <stb_image_write.h>

namespace netcube::gui {

std::string EncodePng(const Image& image, std::string* error) {
  const auto pixels = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height);
  if (image.width <= 0 || image.height <= 0 || image.rgba.size() != pixels * 4) {
    *error = "no image to encode (the frame could not be read back)";
    return {};
  }
  // The frame is opaque: RGB makes a smaller file than RGBA.
  std::vector<std::uint8_t> rgb(pixels * 3);
  for (std::size_t i = 0; i < pixels; ++i) {
    rgb[i * 3] = image.rgba[i * 4];
    rgb[i * 3 + 1] = image.rgba[i * 4 + 1];
    rgb[i * 3 + 2] = image.rgba[i * 4 + 2];
  }
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  if (stbi_write_png_to_func(append, &png, image.width, image.height, 3, rgb.data(), image.width * 3) == 0) {
    *error = "cannot encode the frame as PNG";
    return {};
  }
  return png;
}

}  // namespace netcube::gui
