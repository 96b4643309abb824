#pragma once
// A vector with inline, fixed capacity: decoded messages never allocate, and a count read off the wire
// can never ask for more than the capacity.
#include <algorithm>
#include <array>
#include <cstddef>
#include <span>

namespace netcube::protocol {

template <class T, std::size_t Capacity>
class FixedVector {
 public:
  static constexpr std::size_t kCapacity = Capacity;

  bool push_back(const T& value) noexcept {
    if (size_ == Capacity) return false;
    items_[size_++] = value;
    return true;
  }
  void clear() noexcept { size_ = 0; }
  // Puts `value` at `index`, the items from there one place on; false when full or past the end.
  bool insert(std::size_t index, const T& value) noexcept {
    if (size_ == Capacity || index > size_) return false;
    std::move_backward(items_.data() + index, items_.data() + size_, items_.data() + size_ + 1);
    items_[index] = value;
    ++size_;
    return true;
  }
  void erase(std::size_t index) noexcept {
    std::move(items_.data() + index + 1, items_.data() + size_, items_.data() + index);
    --size_;
  }
  // Grows with default values or shrinks; returns false beyond the capacity.
  bool resize(std::size_t n) noexcept {
    if (n > Capacity) return false;
    for (std::size_t i = size_; i < n; ++i) items_[i] = T{};
    size_ = n;
    return true;
  }

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](std::size_t i) noexcept { return items_[i]; }
  const T& operator[](std::size_t i) const noexcept { return items_[i]; }
  T* begin() noexcept { return items_.data(); }
  T* end() noexcept { return items_.data() + size_; }
  const T* begin() const noexcept { return items_.data(); }
  const T* end() const noexcept { return items_.data() + size_; }
  T& back() noexcept { return items_[size_ - 1]; }
  const T& back() const noexcept { return items_[size_ - 1]; }
  std::span<T> span() noexcept { return {items_.data(), size_}; }
  std::span<const T> span() const noexcept { return {items_.data(), size_}; }

  friend bool operator==(const FixedVector& a, const FixedVector& b) noexcept {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (!(a.items_[i] == b.items_[i])) return false;
    }
    return true;
  }

 private:
  std::array<T, Capacity> items_{};
  std::size_t size_ = 0;
};

}  // namespace netcube::protocol
