#include "r1cs/shape.hpp"

#include <openssl/evp.h>

#include "field/fields.hpp"

namespace zk::r1cs {

template <class F>
std::array<std::uint8_t, 32> shape_hash(const R1csShape<F>& shape) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  auto put_u64 = [&](std::uint64_t v) {
    std::uint8_t b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * i));
    EVP_DigestUpdate(ctx, b, 8);
  };
  put_u64(shape.num_inputs);
  put_u64(shape.num_aux);
  put_u64(shape.num_constraints());
  for (const SparseMatrix<F>* m : {&shape.a, &shape.b, &shape.c}) {
    for (auto p : m->row_ptr) put_u64(p);
    for (std::size_t i = 0; i < m->entries(); ++i) {
      put_u64(m->cols[i].key());
      const auto bytes = m->vals[i].to_bytes(field::Endian::kLittle);
      EVP_DigestUpdate(ctx, bytes.data(), bytes.size());
    }
  }
  std::array<std::uint8_t, 32> out{};
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx, out.data(), &len);
  EVP_MD_CTX_free(ctx);
  return out;
}

template std::array<std::uint8_t, 32> shape_hash(const R1csShape<field::Bls12_381Fr>&);
template std::array<std::uint8_t, 32> shape_hash(const R1csShape<field::Bn254Fr>&);

}  // namespace zk::r1cs
