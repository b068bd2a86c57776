#include "store/pg_session.hpp"

#include <poll.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <unordered_map>

namespace zk::store::pg {
namespace {

std::uint64_t big_endian(const char* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

}  // namespace

std::string one_line(const char* m) {
  std::string out;
  bool space = false;
  for (const char* p = m ? m : ""; *p; ++p) {
    if (*p == '\n' || *p == '\r' || *p == '\t' || *p == ' ') {
      space = !out.empty();
    } else {
      if (space) out += ' ';
      space = false;
      out += *p;
    }
  }
  return out.empty() ? "no message from libpq" : out;
}

std::string describe_conninfo(const PQconninfoOption* opts) {
  std::unordered_map<std::string, std::string> v;
  for (const PQconninfoOption* o = opts; o && o->keyword; ++o) {
    if (o->val && *o->val) v[o->keyword] = o->val;
  }
  std::string host = v.count("host") ? v["host"] : v["hostaddr"];
  const bool socket_dir = !host.empty() && (host[0] == '/' || host[0] == '@');
  std::string d = "postgresql://";
  if (v.count("user")) d += v["user"] + "@";
  if (!socket_dir) {
    d += host;
    if (v.count("port")) d += ":" + v["port"];
  }
  d += "/" + v["dbname"];
  if (socket_dir) {
    d += "?host=" + host;
    if (v.count("port")) d += "&port=" + v["port"];
  }
  return d;
}

void quiet_notices(PGconn* c) {
  PQsetNoticeProcessor(
      c, [](void*, const char*) {}, nullptr);
}

bool wait_socket(int fd, short events, std::chrono::steady_clock::time_point deadline) {
  if (fd < 0) return false;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left, INT_MAX)));
    if (n > 0) return true;
    if (n == 0 || errno != EINTR) return false;
  }
}

Params& Params::i64(std::int64_t v) {
  std::string b(8, '\0');
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(static_cast<std::uint64_t>(v) >> (56 - 8 * i));
  return own(std::move(b), kInt8Oid, 1);
}

Params& Params::f64(double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  std::string b(8, '\0');
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>(bits >> (56 - 8 * i));
  return own(std::move(b), kFloat8Oid, 1);
}

Params& Params::bytes_ref(std::span<const std::uint8_t> v) {
  // A null pointer is SQL NULL; an empty bytea is a zero-length value.
  static const char kEmpty = 0;
  const char* p = v.empty() ? &kEmpty : reinterpret_cast<const char*>(v.data());
  return add(p, static_cast<int>(v.size()), kByteaOid, 1);
}

Params& Params::ids(const std::vector<std::uint64_t>& v) {
  std::string t = "{";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) t += ',';
    t += std::to_string(static_cast<std::int64_t>(v[i]));  // ids are 63-bit (detail::new_job_id)
  }
  t += '}';
  return own(std::move(t), kInt8ArrayOid, 0);
}

Params& Params::texts(const std::vector<std::string>& v) {
  std::string t = "{";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) t += ',';
    t += '"';
    for (char c : v[i]) {
      if (c == '"' || c == '\\') t += '\\';
      t += c;
    }
    t += '"';
  }
  t += '}';
  return own(std::move(t), kTextArrayOid, 0);
}

std::uint64_t Rows::affected() const { return std::strtoull(PQcmdTuples(r_.get()), nullptr, 10); }

std::int64_t Rows::i64(int row, int col) const {
  if (null(row, col)) return 0;
  const char* p = PQgetvalue(r_.get(), row, col);
  switch (PQftype(r_.get(), col)) {
    case kInt8Oid:
      return static_cast<std::int64_t>(big_endian(p, 8));
    case kInt4Oid:
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(big_endian(p, 4)));
    case kInt2Oid:
      return static_cast<std::int16_t>(static_cast<std::uint16_t>(big_endian(p, 2)));
    default:
      throw std::logic_error(wrong_type(col, "an integer"));
  }
}

double Rows::f64(int row, int col) const {
  if (null(row, col)) return 0;
  if (PQftype(r_.get(), col) != kFloat8Oid) return static_cast<double>(i64(row, col));
  return std::bit_cast<double>(big_endian(PQgetvalue(r_.get(), row, col), 8));
}

bool Rows::boolean(int row, int col) const {
  if (null(row, col)) return false;
  if (PQftype(r_.get(), col) != kBoolOid) throw std::logic_error(wrong_type(col, "a boolean"));
  return PQgetvalue(r_.get(), row, col)[0] != 0;
}

std::string Rows::text(int row, int col) const {
  if (null(row, col)) return {};
  return std::string(PQgetvalue(r_.get(), row, col), static_cast<std::size_t>(PQgetlength(r_.get(), row, col)));
}

std::vector<std::uint8_t> Rows::bytes(int row, int col) const {
  if (null(row, col)) return {};
  const auto* p = reinterpret_cast<const std::uint8_t*>(PQgetvalue(r_.get(), row, col));
  return std::vector<std::uint8_t>(p, p + PQgetlength(r_.get(), row, col));
}

std::string Rows::wrong_type(int col, const char* want) const {
  return std::string("job store: column '") + PQfname(r_.get(), col) + "' has type OID " +
         std::to_string(PQftype(r_.get(), col)) + ", read as " + want;
}

Result<Rows> Session::exec(const char* sql, const Params& p, const char* what) {
  return check(Rows(PQexecParams(conn_, sql, p.size(), p.types(), p.values(), p.lengths(), p.formats(), 1)), what);
}

Status Session::script(const char* sql, const char* what) { return check(Rows(PQexec(conn_, sql)), what).status(); }

Result<Rows> Session::check(Rows r, const char* what) {
  const ExecStatusType st = PQresultStatus(r.get());  // a null result (out of memory) reads as a fatal error
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return r;
  const char* code = r.get() ? PQresultErrorField(r.get(), PG_DIAG_SQLSTATE) : nullptr;
  sqlstate_ = code ? code : "";
  const char* primary = r.get() ? PQresultErrorField(r.get(), PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  const std::string message = one_line(primary ? primary : PQerrorMessage(conn_));
  // Class 08: connection exceptions; 57P01-57P03: the server shut down, crashed or is starting.
  lost_ = PQstatus(conn_) != CONNECTION_OK || sqlstate_.rfind("08", 0) == 0 || sqlstate_ == "57P01" ||
          sqlstate_ == "57P02" || sqlstate_ == "57P03";
  // 40001 serialization failure, 40P01 deadlock: the transaction was rolled back; running it again is safe.
  retryable_ = sqlstate_ == "40001" || sqlstate_ == "40P01";
  const std::string m = "job store " + where_ + ": " + what + ": " + message;
  if (lost_ || retryable_) return Status::unavailable(m);
  // Class 22: a value the server will not store (e.g. a NUL byte or invalid UTF-8 in a name).
  if (sqlstate_.rfind("22", 0) == 0) return Status::invalid_argument(m);
  return Status::io_error(m);
}

}  // namespace zk::store::pg
