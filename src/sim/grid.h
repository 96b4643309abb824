#pragma once
// ResolveOverlaps' broad phase: which cubes are near enough to overlap, found once per filing and then read
// from a list by every relaxation pass and the settle, instead of walking the cells each time.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "netcube/sim/world.h"

namespace netcube::sim {

inline constexpr int kIdCount = kMaxPlayerIds;

// A set of indexes into the cubes in id order, walked in increasing order.
class IndexSet {
 public:
  void Add(std::size_t i) noexcept { words_[i / 64] |= std::uint64_t{1} << (i % 64); }
  void AddIf(std::size_t i, bool add) noexcept { words_[i / 64] |= std::uint64_t{add} << (i % 64); }
  bool Has(std::size_t i) const noexcept { return ((words_[i / 64] >> (i % 64)) & 1u) != 0; }
  bool HasEither(std::size_t i, std::size_t j) const noexcept {
    return (((words_[i / 64] >> (i % 64)) | (words_[j / 64] >> (j % 64))) & 1u) != 0;
  }
  void AddFirst(std::size_t count) noexcept {
    for (std::size_t i = 0; i < count; ++i) Add(i);
  }
  bool Empty() const noexcept {
    return std::all_of(words_.begin(), words_.end(), [](std::uint64_t word) { return word == 0; });
  }
  // The smallest member not below `from`, or kIdCount when there is none.
  std::size_t NextFrom(std::size_t from) const noexcept {
    for (std::size_t w = from / 64; w < words_.size(); ++w) {
      std::uint64_t word = words_[w];
      if (w == from / 64) word &= ~std::uint64_t{0} << (from % 64);
      if (word != 0) return w * 64 + static_cast<std::size_t>(std::countr_zero(word));
    }
    return kIdCount;
  }

 private:
  std::array<std::uint64_t, kIdCount / 64> words_{};
};

// Cube-sized cells over the arena. Two cubes overlap only when their centres are less than a cube apart on
// both axes, so only cubes in the same or neighbouring cells can: a cube's neighbours. Cells are numbered row
// by row and filed in buckets, cell number modulo the bucket count: one bucket a cell in an arena of up to
// kMaxBuckets cells (the standard arena has 627), so that a row's three cells are one run of buckets; in a
// larger arena several cells share a bucket, and a cube is taken only from its own cell. The grid costs the
// cubes and the buckets, never the arena's size.
//
// Build lists every cube's neighbours, those before it and those after it apart, so that the many passes
// over the same filing read them; a filing with more neighbours than a list holds (a pile of cubes on one
// spot) walks the cells instead, with the same result. A cube that crosses into another cell is moved in
// the buckets and the lists, not filed afresh with everything else.
class Grid {
 public:
  explicit Grid(const Arena& arena) noexcept;

  // Files every cube (by its index in `cubes`) under the cell of its centre, and lists the neighbours.
  void Build(std::span<CubeState* const> cubes) noexcept;

  // Files the cubes again wherever they are now, having been filed before (by Build, then Refile): the few
  // that crossed into another cell one by one, or all afresh when many did.
  void Update(std::span<CubeState* const> cubes) noexcept;

  // Files the cubes again after only `moved` have moved: a push rarely crosses into another cell, and the
  // filing depends on nothing else. The same as Build, at the cost of the cubes that crossed.
  void Refile(std::span<CubeState* const> cubes, const IndexSet& moved) noexcept;

  // Calls visit(j) for every neighbour j of cube `i` with j < i, in no particular order.
  template <class Visit>
  void ForEachEarlierNearby(std::size_t i, Visit&& visit) const noexcept {
    if (listed_) {
      for (std::size_t k = 0; k < earlier_count_[i]; ++k) visit(earlier_[i][k]);
    } else {
      WalkCells(i, [&](std::size_t j) {
        if (j < i) visit(j);
      });
    }
  }

  // Calls visit(j) for every neighbour j of cube `i` with j > i, in increasing order.
  template <class Visit>
  void ForEachLaterNearby(std::size_t i, Visit&& visit) const noexcept {
    if (listed_) {
      for (std::size_t k = 0; k < later_count_[i]; ++k) visit(later_[i][k]);
      return;
    }
    std::array<std::uint16_t, kIdCount> later;  // written before it is read
    std::size_t count = 0;
    WalkCells(i, [&](std::size_t j) {
      if (j > i) later[count++] = static_cast<std::uint16_t>(j);
    });
    std::sort(later.begin(), later.begin() + static_cast<std::ptrdiff_t>(count));
    for (std::size_t k = 0; k < count; ++k) visit(later[k]);
  }

 private:
  static constexpr std::size_t kMaxBuckets = 4 * kIdCount;  // four for every cube at most
  // Room for 16 neighbours before a cube and 16 after it: an arena full of separated cubes has at most 8
  // around each.
  static constexpr std::size_t kMaxListed = 16;

  std::uint16_t ColumnOf(const CubeState& cube) const noexcept {
    return static_cast<std::uint16_t>(std::clamp(cube.x / kCubeSize, 0, columns_ - 1));
  }
  std::uint16_t RowOf(const CubeState& cube) const noexcept {
    return static_cast<std::uint16_t>(std::clamp(cube.y / kCubeSize, 0, rows_ - 1));
  }
  std::size_t Bucket(int column, int row) const noexcept {
    const std::size_t cell = static_cast<std::size_t>(row * columns_ + column);
    return cell < buckets_ ? cell : cell % buckets_;  // no division while each cell has its own bucket
  }
  void ListNeighbours(std::size_t count) noexcept;
  // Files listed cube k under the cell (column, row) and updates every list it is on or gains; false, with
  // the lists left broken, if one overflows.
  bool MoveListed(std::size_t k, std::uint16_t column, std::uint16_t row) noexcept;
  // Takes `cube` out of bucket `from` and files it in bucket `to`.
  void MoveBetweenBuckets(std::uint16_t cube, std::size_t from, std::size_t to) noexcept;

  // Calls visit(j) once for every cube j other than `i` in i's cell and the cells around it. A row's three
  // cells are three buckets in a row (wrapping round the last), whose cubes are one run of `items_`, or two.
  template <class Visit>
  void WalkCells(std::size_t i, Visit&& visit) const noexcept {
    const int column = column_[i];
    const int first_column = std::max(0, column - 1);
    const int last_column = std::min(columns_ - 1, column + 1);
    const auto take = [&](int row, std::size_t from_bucket, std::size_t to_bucket) {
      for (std::size_t k = first_[from_bucket]; k < first_[to_bucket + 1]; ++k) {
        const std::size_t j = items_[k];
        if (j != i && (!shared_ || (row_[j] == row && std::abs(column_[j] - column) <= 1))) visit(j);
      }
    };
    for (int row = std::max(0, row_[i] - 1); row <= std::min(rows_ - 1, row_[i] + 1); ++row) {
      const std::size_t from = Bucket(first_column, row);
      const std::size_t to = Bucket(last_column, row);
      if (from <= to) {
        take(row, from, to);
      } else {
        take(row, from, buckets_ - 1);
        take(row, 0, to);
      }
    }
  }

  int columns_;
  int rows_;
  std::size_t buckets_;
  bool shared_;  // cells share buckets: a bucket's cubes are checked for their cell
  bool listed_ = false;
  // Bucket b's cubes: items_[first_[b]] .. items_[first_[b + 1] - 1]. Every array is written before it is
  // read, for the buckets and cubes of the filing.
  std::array<std::uint16_t, kMaxBuckets + 1> first_;
  std::array<std::uint16_t, kIdCount> items_;
  std::array<std::uint16_t, kIdCount> column_;
  std::array<std::uint16_t, kIdCount> row_;
  // Cube i's neighbours before it, earlier_[i][0] .. earlier_[i][earlier_count_[i] - 1], and after it, in
  // increasing order, likewise.
  std::array<std::uint8_t, kIdCount> earlier_count_;
  std::array<std::uint8_t, kIdCount> later_count_;
  std::array<std::array<std::uint16_t, kMaxListed>, kIdCount> earlier_;
  std::array<std::array<std::uint16_t, kMaxListed>, kIdCount> later_;
};

}  // namespace netcube::sim
