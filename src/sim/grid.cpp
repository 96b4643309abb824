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
    const std::uint16_t column = ColumnOf(*cubes[i]);
    const std::uint16_t row = RowOf(*cubes[i]);
    if (column == column_[i] && row == row_[i]) continue;
    if (!listed_ || !MoveListed(i, column, row)) {
      Build(cubes);
      return;
    }
  }
}

void Grid::Update(std::span<CubeState* const> cubes) noexcept {
  IndexSet crossed;
  std::size_t count = 0;
  for (std::size_t i = 0; i < cubes.size(); ++i) {
    if (column_[i] != ColumnOf(*cubes[i]) || row_[i] != RowOf(*cubes[i])) {
      crossed.Add(i);
      ++count;
    }
  }
  // A cube moved in the lists costs some six cubes filed afresh.
  if (count > cubes.size() / 8) {
    Build(cubes);
  } else if (count > 0) {
    Refile(cubes, crossed);
  }
}

void Grid::MoveBetweenBuckets(std::uint16_t cube, std::size_t from, std::size_t to) noexcept {
  // Each bucket between passes one slot along, so that every bucket's cubes stay one run of items_.
  std::size_t hole = static_cast<std::size_t>(
      std::find(items_.begin() + first_[from], items_.begin() + first_[from + 1], cube) - items_.begin());
  for (std::size_t b = from; b < to; ++b) {  // toward the end: the hole moves to the end of each bucket
    if (b > from) --first_[b];
    items_[hole] = items_[first_[b + 1] - 1u];
    hole = first_[b + 1] - 1u;
  }
  for (std::size_t b = from; b > to; --b) {  // toward the start: the hole moves to the start of each
    if (b < from) ++first_[b + 1];
    items_[hole] = items_[first_[b]];
    hole = first_[b];
  }
  if (to > from) --first_[to];
  if (to < from) ++first_[to + 1];
  items_[hole] = cube;
}

bool Grid::MoveListed(std::size_t k, std::uint16_t column, std::uint16_t row) noexcept {
  const auto cube = static_cast<std::uint16_t>(k);
  // Off its neighbours' lists: a later list closes up to keep its order; an earlier one takes its last.
  for (std::size_t n = 0; n < earlier_count_[k]; ++n) {
    const std::uint16_t m = earlier_[k][n];
    const auto first = later_[m].begin();
    const auto end = first + later_count_[m]--;
    const auto at = std::lower_bound(first, end, cube);
    std::copy(at + 1, end, at);
  }
  for (std::size_t n = 0; n < later_count_[k]; ++n) {
    const std::uint16_t m = later_[k][n];
    const auto first = earlier_[m].begin();
    *std::find(first, first + earlier_count_[m], cube) = earlier_[m][earlier_count_[m] - 1u];
    --earlier_count_[m];
  }
  MoveBetweenBuckets(cube, Bucket(column_[k], row_[k]), Bucket(column, row));
  column_[k] = column;
  row_[k] = row;
  // Onto its new neighbours' lists, each later list kept in increasing order.
  std::size_t earlier = 0;
  std::size_t later = 0;
  bool fits = true;
  WalkCells(k, [&](std::size_t j) {
    const std::size_t own = j < k ? earlier : later;
    const std::size_t theirs = j < k ? later_count_[j] : earlier_count_[j];
    if (own == kMaxListed || theirs == kMaxListed) {
      fits = false;
      return;
    }
    if (j < k) {
      earlier_[k][earlier++] = static_cast<std::uint16_t>(j);
      const auto first = later_[j].begin();
      const auto end = first + later_count_[j]++;
      const auto at = std::upper_bound(first, end, cube);
      std::copy_backward(at, end, end + 1);
      *at = cube;
    } else {
      later_[k][later++] = static_cast<std::uint16_t>(j);
      earlier_[j][earlier_count_[j]++] = cube;
    }
  });
  earlier_count_[k] = static_cast<std::uint8_t>(earlier);
  later_count_[k] = static_cast<std::uint8_t>(later);
  std::sort(later_[k].begin(), later_[k].begin() + static_cast<std::ptrdiff_t>(later));
  return fits;
}

void Grid::ListNeighbours(std::size_t count) noexcept {
  // Cube i lists each neighbour j before it, and is appended to j's later ones: cubes are taken in
  // increasing order, so every later list is in increasing order without a sort.
  listed_ = false;
  std::fill_n(later_count_.begin(), count, std::uint8_t{0});
  for (std::size_t i = 0; i < count; ++i) {
    std::size_t earlier = 0;
    bool fits = true;
    WalkCells(i, [&](std::size_t j) {
      if (j > i) return;
      if (earlier == kMaxListed || later_count_[j] == kMaxListed) {
        fits = false;
        return;
      }
      earlier_[i][earlier++] = static_cast<std::uint16_t>(j);
      later_[j][later_count_[j]++] = static_cast<std::uint16_t>(i);
    });
    if (!fits) return;
    earlier_count_[i] = static_cast<std::uint8_t>(earlier);
  }
  listed_ = true;
}

}  // namespace netcube::sim
