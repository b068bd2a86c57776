#pragma once

// Circuits for the Groth16 and r1cs tests.

#include <vector>

#include "base/rng.hpp"
#include "r1cs/constraint_system.hpp"

namespace zk::test {

/// out = (a b) c + k with public k and out: the worked example of docs/formats.md section 4.6.
template <class F>
struct ToyCircuit {
  F a, b, c, k;
  F out() const { return a * b * c + k; }

  template <class CS>
  Status synthesize(CS& cs) const {
    using LC = r1cs::LinearCombination<F>;
    const auto v_out = cs.alloc_input([] { return "out"; }, [&] { return out(); });
    const auto v_k = cs.alloc_input([] { return "k"; }, [&] { return k; });
    const auto v_a = cs.alloc([] { return "a"; }, [&] { return a; });
    const auto v_b = cs.alloc([] { return "b"; }, [&] { return b; });
    const auto v_c = cs.alloc([] { return "c"; }, [&] { return c; });
    const auto v_ab = cs.alloc([] { return "ab"; }, [&] { return a * b; });
    cs.enforce([] { return "ab = a * b"; }, LC(v_a), LC(v_b), LC(v_ab));
    // ab * c = out - k
    cs.enforce([] { return "out = ab * c + k"; }, LC(v_ab), LC(v_c), LC(v_out) - v_k);
    return {};
  }
};

/// A random satisfiable R1CS: each constraint multiplies two random linear combinations of earlier
/// variables and defines a new variable from the product (C also carries random extra terms, which
/// the new variable compensates). `break_at` >= 0 perturbs that constraint's output: unsatisfiable.
template <class F>
struct RandomCircuit {
  struct Term {
    std::size_t var;  // index into the value list: [ONE, inputs..., aux...] in creation order
    F coeff;
  };
  struct Row {
    std::vector<Term> a, b, c_extra;
  };
  std::size_t num_public = 0;
  std::vector<F> seeds;  // the first values (after ONE): public inputs then free aux
  std::vector<Row> rows;
  long break_at = -1;

  static RandomCircuit make(Rng& rng, std::size_t num_public, std::size_t free_aux, std::size_t constraints) {
    RandomCircuit c;
    c.num_public = num_public;
    for (std::size_t i = 0; i < num_public + free_aux; ++i) c.seeds.push_back(F::random(rng));
    std::size_t vars = 1 + num_public + free_aux;
    auto rand_lc = [&](std::size_t max_terms, std::size_t nvars) {
      std::vector<Term> t;
      const std::size_t k = 1 + rng.next() % max_terms;
      for (std::size_t i = 0; i < k; ++i) {
        // Mostly unit coefficients (like real circuits), sometimes random, sometimes repeated vars.
        const F coeff = rng.next() % 3 == 0 ? F::random(rng) : F::one();
        t.push_back({static_cast<std::size_t>(rng.next() % nvars), coeff});
      }
      return t;
    };
    for (std::size_t r = 0; r < constraints; ++r) {
      Row row{rand_lc(3, vars), rand_lc(2, vars), rng.next() % 2 ? rand_lc(2, vars) : std::vector<Term>{}};
      // Every seed variable appears in some constraint (an unconstrained one has no L-query point).
      if (r < c.seeds.size()) row.a.push_back({1 + r, F::one()});
      c.rows.push_back(std::move(row));
      ++vars;
    }
    return c;
  }

  /// Values of every variable in creation order.
  std::vector<F> values() const {
    std::vector<F> v{F::one()};
    v.insert(v.end(), seeds.begin(), seeds.end());
    auto eval = [&](const std::vector<Term>& t) {
      F acc = F::zero();
      for (const auto& x : t) acc = acc + x.coeff * v[x.var];
      return acc;
    };
    for (std::size_t r = 0; r < rows.size(); ++r) {
      F out = eval(rows[r].a) * eval(rows[r].b) - eval(rows[r].c_extra);
      if (static_cast<long>(r) == break_at) out = out + F::one();
      v.push_back(out);
    }
    return v;
  }
  std::vector<F> public_inputs() const { return std::vector<F>(seeds.begin(), seeds.begin() + num_public); }

  template <class CS>
  Status synthesize(CS& cs) const {
    const auto vals = values();
    std::vector<r1cs::Variable> vars{r1cs::Variable::one()};
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      if (i < num_public) {
        vars.push_back(cs.alloc_input([] { return "public"; }, [&] { return vals[1 + i]; }));
      } else {
        vars.push_back(cs.alloc([] { return "free"; }, [&] { return vals[1 + i]; }));
      }
    }
    auto lc = [&](const std::vector<Term>& t) {
      r1cs::LinearCombination<F> out;
      for (const auto& x : t) out.add(x.coeff, vars[x.var]);
      return out;
    };
    for (std::size_t r = 0; r < rows.size(); ++r) {
      r1cs::Namespace ns(cs, [r] { return "row " + std::to_string(r); });
      const std::size_t id = vars.size();
      vars.push_back(cs.alloc([] { return "out"; }, [&] { return vals[id]; }));
      cs.enforce([] { return "product"; }, lc(rows[r].a), lc(rows[r].b), lc(rows[r].c_extra) + vars[id]);
    }
    return {};
  }
};

}  // namespace zk::test
