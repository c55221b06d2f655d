// Debian's rocSPARSE (librocsparse0) on the GPU: its own kernels, from the code objects it ships
// for the agent's processor, loaded by Debian's libamdhip64. A CSR matrix with empty, short and
// very long rows: y = alpha*A*x + beta*y in double and float, without analysis (rocSPARSE's
// vector kernel) and after rocsparse_?csrmv_analysis (its adaptive kernels), then the CSR->CSC
// transpose (rocPRIM's radix sort inside). Inputs are small integers, so every sum is exact and
// the results equal the host's whatever order the GPU adds in.
#include <rocsparse/rocsparse.h>
#include <algorithm>
#include <vector>
#include "hip_check.h"

#define SPARSE_CHECK(call)                                                         \
  do {                                                                             \
    rocsparse_status s_ = (call);                                                  \
    if (s_ != rocsparse_status_success) {                                          \
      fprintf(stderr, "%s:%d: %s failed: status %d\n", __FILE__, __LINE__, #call, \
              (int)s_);                                                            \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

struct Csr {
  int m, n;
  std::vector<int> row_ptr, col;
  std::vector<double> val;
};

// Row i has (i * 37) % 29 entries, except every 250th row (600 + i % 7 entries) and every 17th
// (none); columns spread by a stride coprime with n (n not a multiple of 7).
static Csr make_matrix(int m, int n) {
  Csr a{m, n, {0}, {}, {}};
  for (int i = 0; i < m; i++) {
    int len = i % 17 == 5 ? 0 : i % 250 == 3 ? 600 + i % 7 : (i * 37) % 29;
    for (int e = 0; e < len; e++) {
      a.col.push_back((i * 13 + e * 7) % n);
      a.val.push_back((double)((i + 3 * e) % 9 - 4));
    }
    // Columns ascending within a row, as CSR requires (distinct: 7 is coprime with n and a
    // row has fewer than n entries).
    std::vector<std::pair<int, double>> row;
    for (size_t k = a.row_ptr.back(); k < a.col.size(); k++)
      row.push_back(std::make_pair(a.col[k], a.val[k]));
    std::sort(row.begin(), row.end());
    for (size_t e = 0; e < row.size(); e++) {
      a.col[a.row_ptr.back() + e] = row[e].first;
      a.val[a.row_ptr.back() + e] = row[e].second;
    }
    a.row_ptr.push_back((int)a.col.size());
  }
  return a;
}

template <typename T>
static T* upload(const std::vector<T>& v) {
  T* d;
  HIP_CHECK(hipMalloc(&d, v.size() * sizeof(T) + 4));
  HIP_CHECK(hipMemcpy(d, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice));
  return d;
}

template <typename T>
static std::vector<T> download(const T* d, size_t n) {
  std::vector<T> v(n);
  HIP_CHECK(hipMemcpy(v.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
  return v;
}

// y = alpha*A*x + beta*y for one precision, with and without analysis.
template <typename T, typename Mv, typename Analysis>
static void spmv(rocsparse_handle h, const Csr& a, const char* what, Mv mv, Analysis analysis) {
  std::vector<T> val(a.val.begin(), a.val.end()), x(a.n), y0(a.m), want(a.m);
  for (int j = 0; j < a.n; j++) x[j] = (T)(j % 11 - 5);
  for (int i = 0; i < a.m; i++) y0[i] = (T)(i % 5 - 2);
  const T alpha = 2, beta = -1;
  for (int i = 0; i < a.m; i++) {
    T sum = 0;
    for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; k++) sum += val[k] * x[a.col[k]];
    want[i] = alpha * sum + beta * y0[i];
  }
  int nnz = a.row_ptr.back();
  T *d_val = upload(val), *d_x = upload(x), *d_y = upload(y0);
  int *d_ptr = upload(a.row_ptr), *d_col = upload(a.col);
  rocsparse_mat_descr descr;
  rocsparse_mat_info info;
  SPARSE_CHECK(rocsparse_create_mat_descr(&descr));
  SPARSE_CHECK(rocsparse_create_mat_info(&info));
  auto op = rocsparse_operation_none;
  for (int adaptive = 0; adaptive < 2; adaptive++) {
    if (adaptive)
      SPARSE_CHECK(analysis(h, op, a.m, a.n, nnz, descr, d_val, d_ptr, d_col, info));
    HIP_CHECK(hipMemcpy(d_y, y0.data(), a.m * sizeof(T), hipMemcpyHostToDevice));
    SPARSE_CHECK(mv(h, op, a.m, a.n, nnz, &alpha, descr, d_val, d_ptr, d_col,
                    adaptive ? info : nullptr, d_x, &beta, d_y));
    char name[96];
    snprintf(name, sizeof name, "%s csrmv%s", what, adaptive ? " (adaptive, after analysis)" : "");
    expect_equal(name, download(d_y, a.m).data(), want.data(), a.m);
  }
  SPARSE_CHECK(rocsparse_destroy_mat_info(info));
  SPARSE_CHECK(rocsparse_destroy_mat_descr(descr));
  for (void* p : {(void*)d_val, (void*)d_x, (void*)d_y, (void*)d_ptr, (void*)d_col})
    HIP_CHECK(hipFree(p));
}

// CSR -> CSC: column pointers, row indices ascending within each column, values moved along.
static void transpose(rocsparse_handle h, const Csr& a) {
  int nnz = a.row_ptr.back();
  std::vector<int> want_ptr(a.n + 1, 0), want_row(nnz);
  std::vector<double> want_val(nnz);
  for (int k = 0; k < nnz; k++) want_ptr[a.col[k] + 1]++;
  for (int j = 0; j < a.n; j++) want_ptr[j + 1] += want_ptr[j];
  std::vector<int> fill(want_ptr.begin(), want_ptr.end() - 1);
  for (int i = 0; i < a.m; i++)
    for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; k++) {
      want_row[fill[a.col[k]]] = i;
      want_val[fill[a.col[k]]++] = a.val[k];
    }
  double* d_val = upload(a.val);
  int *d_ptr = upload(a.row_ptr), *d_col = upload(a.col);
  double* d_cval = upload(std::vector<double>(nnz));
  int* d_crow = upload(std::vector<int>(nnz));
  int* d_cptr = upload(std::vector<int>(a.n + 1));
  size_t size = 0;
  SPARSE_CHECK(rocsparse_csr2csc_buffer_size(h, a.m, a.n, nnz, d_ptr, d_col,
                                             rocsparse_action_numeric, &size));
  void* buffer;
  HIP_CHECK(hipMalloc(&buffer, size + 4));
  SPARSE_CHECK(rocsparse_dcsr2csc(h, a.m, a.n, nnz, d_val, d_ptr, d_col, d_cval, d_crow, d_cptr,
                                  rocsparse_action_numeric, rocsparse_index_base_zero, buffer));
  expect_equal("csr2csc column pointers", download(d_cptr, a.n + 1).data(), want_ptr.data(),
               a.n + 1);
  expect_equal("csr2csc row indices", download(d_crow, nnz).data(), want_row.data(), nnz);
  expect_equal("csr2csc values", download(d_cval, nnz).data(), want_val.data(), nnz);
  for (void* p : {(void*)d_val, (void*)d_ptr, (void*)d_col, (void*)d_cval, (void*)d_crow,
                  (void*)d_cptr, buffer})
    HIP_CHECK(hipFree(p));
}

int main() {
  Csr a = make_matrix(3000, 2200);
  rocsparse_handle h;
  SPARSE_CHECK(rocsparse_create_handle(&h));
  spmv<double>(h, a, "double", rocsparse_dcsrmv, rocsparse_dcsrmv_analysis);
  spmv<float>(h, a, "float", rocsparse_scsrmv, rocsparse_scsrmv_analysis);
  transpose(h, a);
  SPARSE_CHECK(rocsparse_destroy_handle(h));
  return finish("rocsparse_spmv");
}
