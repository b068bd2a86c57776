#pragma once

// libpq glue for PgJobStore, internal to src/store: statement parameters sent in binary (a value is
// never spliced into SQL), results read in binary, one run of a call on a connection (telling a
// lost connection from an error in the statement), transactions. The store's SQL is in
// pg_job_store.cpp.

#include <libpq-fe.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/status.hpp"

namespace zk::store::pg {

// Type OIDs, fixed in PostgreSQL's catalog (pg_type.dat) since 7.x; the server headers that name
// them (catalog/pg_type_d.h) are not part of libpq-dev.
constexpr Oid kBoolOid = 16, kByteaOid = 17, kInt8Oid = 20, kInt2Oid = 21, kInt4Oid = 23, kTextOid = 25,
              kFloat8Oid = 701, kTextArrayOid = 1009, kInt8ArrayOid = 1016;

/// libpq's messages end in a newline and continue on indented lines; a Status is one line.
std::string one_line(const char* m);

/// "postgresql://user@host:port/db", or "postgresql://user@/db?host=/socket/dir&port=5432": what
/// the connection string names, without its password (nor any other option).
std::string describe_conninfo(const PQconninfoOption* opts);

/// libpq prints what the server says outside a query (a NOTICE, the FATAL of a connection the
/// server ends) on stderr; the store reports what matters through its Status instead.
void quiet_notices(PGconn* c);

/// Waits until `fd` is ready for `events` or `deadline` passes; false on a timeout or an error.
bool wait_socket(int fd, short events, std::chrono::steady_clock::time_point deadline);

/// The connection's keywords: ours first, as defaults, then the user's connection string (libpq's
/// expand_dbname), whose keywords override them.
class ConnParams {
 public:
  explicit ConnParams(const std::string& conninfo) {
    // connect_timeout: a call on a lost connection reconnects; it must not hang on a dead host.
    // keepalives: a server that vanished (a cut, a power loss) shows in a minute, not 2 hours.
    add("connect_timeout", "10");
    add("keepalives_idle", "30");
    add("keepalives_interval", "10");
    add("keepalives_count", "3");
    add("client_encoding", "UTF8");
    add("fallback_application_name", "zkpipe");
    add("dbname", conninfo.c_str());
    keys_.push_back(nullptr);
    vals_.push_back(nullptr);
  }
  const char* const* keys() const { return keys_.data(); }
  const char* const* vals() const { return vals_.data(); }

 private:
  void add(const char* k, const char* v) {
    keys_.push_back(k);
    vals_.push_back(v);
  }
  std::vector<const char*> keys_, vals_;
};

/// Statement parameters, sent in binary. Arrays go in text form ("{1,2}"), which the server parses
/// as the declared array type.
class Params {
 public:
  Params& i64(std::int64_t v);
  Params& f64(double v);
  Params& text(std::string v) { return own(std::move(v), kTextOid, 1); }
  Params& null_text() { return add(nullptr, 0, kTextOid, 1); }
  /// Not copied: `v` must outlive the statement (an input may be a gigabyte).
  Params& bytes_ref(std::span<const std::uint8_t> v);
  Params& bytes(const std::vector<std::uint8_t>& v) { return own(std::string(v.begin(), v.end()), kByteaOid, 1); }
  Params& ids(const std::vector<std::uint64_t>& v);
  Params& texts(const std::vector<std::string>& v);

  int size() const { return static_cast<int>(values_.size()); }
  const Oid* types() const { return types_.data(); }
  const char* const* values() const { return values_.data(); }
  const int* lengths() const { return lengths_.data(); }
  const int* formats() const { return formats_.data(); }

 private:
  Params& own(std::string v, Oid type, int format) {
    owned_.push_back(std::move(v));  // a deque: earlier strings do not move
    return add(owned_.back().data(), static_cast<int>(owned_.back().size()), type, format);
  }
  Params& add(const char* p, int n, Oid type, int format) {
    values_.push_back(p);
    lengths_.push_back(n);
    types_.push_back(type);
    formats_.push_back(format);
    return *this;
  }
  std::deque<std::string> owned_;
  std::vector<const char*> values_;
  std::vector<int> lengths_, formats_;
  std::vector<Oid> types_;
};

/// A statement's result, in binary format; SQL NULL reads as 0, false or empty. A column read as
/// the wrong type is a bug in the store's SQL: it throws, and the store's call() turns that into
/// INTERNAL.
class Rows {
 public:
  explicit Rows(PGresult* r) : r_(r, &PQclear) {}
  int size() const { return PQntuples(r_.get()); }
  /// Rows an INSERT, UPDATE or DELETE changed.
  std::uint64_t affected() const;
  bool null(int row, int col) const { return PQgetisnull(r_.get(), row, col) != 0; }
  std::int64_t i64(int row, int col) const;  // int2, int4 or int8
  double f64(int row, int col) const;        // float8 (or an integer)
  bool boolean(int row, int col) const;
  std::string text(int row, int col) const;
  std::vector<std::uint8_t> bytes(int row, int col) const;
  const PGresult* get() const { return r_.get(); }

 private:
  std::string wrong_type(int col, const char* want) const;
  std::unique_ptr<PGresult, void (*)(PGresult*)> r_;
};

/// One run of a call on the connection: runs statements, and remembers whether a failure was the
/// connection's (the store then reconnects and runs the call again) or a transient conflict.
class Session {
 public:
  /// `where`: the store's describe(), for messages.
  Session(PGconn* conn, const std::string& where) : conn_(conn), where_(where) {}
  PGconn* conn() const { return conn_; }
  bool lost() const { return lost_; }
  bool retryable() const { return retryable_; }
  const std::string& sqlstate() const { return sqlstate_; }

  Result<Rows> exec(const char* sql, const Params& p, const char* what);
  Result<Rows> exec(const char* sql, const char* what) { return exec(sql, Params(), what); }
  /// Several statements in one string (the schema), without parameters.
  Status script(const char* sql, const char* what);

 private:
  Result<Rows> check(Rows r, const char* what);

  PGconn* conn_;
  const std::string& where_;
  bool lost_ = false, retryable_ = false;
  std::string sqlstate_;
};

/// BEGIN ... COMMIT, rolled back if not committed. READ COMMITTED, deliberately: each statement sees
/// what committed before it, FOR UPDATE re-checks a row another transaction changed meanwhile, and
/// SKIP LOCKED passes over rows another claimer holds. (YugabyteDB does not support SKIP LOCKED
/// under SERIALIZABLE; no statement here needs more than READ COMMITTED's guarantees.)
class Tx {
 public:
  explicit Tx(Session& s) : s_(s) {}
  ~Tx() {
    if (open_ && !done_ && PQstatus(s_.conn()) == CONNECTION_OK) PQclear(PQexec(s_.conn(), "ROLLBACK"));
  }
  Tx(const Tx&) = delete;
  Tx& operator=(const Tx&) = delete;
  Status begin() {
    auto r = s_.exec("BEGIN ISOLATION LEVEL READ COMMITTED", "beginning a transaction");
    open_ = r.ok();
    return r.status();
  }
  Status commit() {
    done_ = true;
    return s_.exec("COMMIT", "committing").status();
  }

 private:
  Session& s_;
  bool open_ = false, done_ = false;
};

}  // namespace zk::store::pg
