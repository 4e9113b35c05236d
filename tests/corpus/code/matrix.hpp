// A small dense matrix.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <vector>

namespace linalg {

template <typename T>
class Matrix {
 public:
  Matrix(std::size_t rows, std::size_t cols) : rows_(rows), cols_(cols), data_(rows * cols) {}

  T& at(std::size_t r, std::size_t c) {
    if (r >= rows_ || c >= cols_) {
      throw std::out_of_range("Matrix::at");
    }
    return data_[r * cols_ + c];
  }

  Matrix operator*(const Matrix& other) const {
    if (cols_ != other.rows_) {
      throw std::invalid_argument("shapes do not match");
    }
    Matrix out(rows_, other.cols_);
    for (std::size_t i = 0; i < rows_; ++i) {
      for (std::size_t j = 0; j < other.cols_; ++j) {
        T sum{};
        for (std::size_t k = 0; k < cols_; ++k) {
          sum += data_[i * cols_ + k] * other.data_[k * other.cols_ + j];
        }
        out.data_[i * other.cols_ + j] = sum;
      }
    }
    return out;
  }

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }

 private:
  std::size_t rows_;
  std::size_t cols_;
  std::vector<T> data_;
};

// The identity matrix of size n.
template <typename T>
Matrix<T> identity(std::size_t n) {
  Matrix<T> m(n, n);
  for (std::size_t i = 0; i < n; ++i) {
    m.at(i, i) = T{1};
  }
  return m;
}

}  // namespace linalg
