#include "grid.h"

namespace netcube::sim {

Grid::Grid(const Arena& arena) noexcept
    : columns_(arena.width / kCubeSize + 1),
      rows_(arena.height / kCubeSize + 1),
      buckets_(std::min(kMaxBuckets, static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_))),
      shared_(buckets_ < static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_)) {}

void Grid::Build(std::span<CubeState* const> cubes) noexcept {
  std::fill_n(first_.begin(), buckets_ + 1, std::uint16_t{0});
  for (std::size_t i = 0; i < cubes.size(); ++i) {
    column_[i] = ColumnOf(*cubes[i]);
    row_[i] = RowOf(*cubes[i]);
    ++first_[Bucket(column_[i], row_[i]) + 1];
  }
  for (std::size_t b = 1; b <= buckets_; ++b)
    first_[b] = static_cast<std::uint16_t>(first_[b] + first_[b - 1]);
  std::array<std::uint16_t, kMaxBuckets> next;
  std::copy_n(first_.begin(), buckets_, next.begin());
  for (std::size_t i = 0; i < cubes.size(); ++i)
    items_[next[Bucket(column_[i], row_[i])]++] = static_cast<std::uint16_t>(i);
  ListNeighbours(cubes.size());
}

void Grid::Refile(std::span<CubeState* const> cubes, const IndexSet& moved) noexcept {
  for (std::size_t i = moved.NextFrom(0); i < cubes.size(); i = moved.NextFrom(i + 1)) {
    if (column_[i] != ColumnOf(*cubes[i]) || row_[i] != RowOf(*cubes[i])) {
      Build(cubes);
      return;
    }
  }
}

void Grid::ListNeighbours(std::size_t count) noexcept {
  listed_ = false;
  std::uint32_t end = 0;
  for (std::size_t i = 0; i < count; ++i) {
    first_listed_[i] = end;
    bool fits = true;
    WalkCells(i, [&](std::size_t j) {
      if (end == kMaxListed) {
        fits = false;
      } else {
        listed_items_[end++] = static_cast<std::uint16_t>(j);
      }
    });
    if (!fits) return;
    const auto first = listed_items_.begin() + first_listed_[i];
    std::sort(first, listed_items_.begin() + end);
    first_later_[i] = static_cast<std::uint32_t>(std::upper_bound(first, listed_items_.begin() + end, i) -
                                                 listed_items_.begin());
  }
  first_listed_[count] = end;
  listed_ = true;
}

}  // namespace netcube::sim
