#include "store/sqlite_job_store.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "store/store_common.hpp"

namespace zk::store {
namespace {

constexpr int kSchemaVersion = 2;

// Schema v1. Times are milliseconds since the Unix epoch. An input is stored once per content
// hash; a job drops its reference when it finishes, and expire() deletes inputs nobody references.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE inputs (
  hash TEXT PRIMARY KEY,
  bytes BLOB NOT NULL,
  size INTEGER NOT NULL
);
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  seq INTEGER NOT NULL,
  request_id TEXT UNIQUE,
  digest TEXT NOT NULL,
  circuit TEXT NOT NULL,
  shape TEXT NOT NULL,
  priority INTEGER NOT NULL,
  partitions INTEGER NOT NULL,
  input_hash TEXT,
  input_size INTEGER NOT NULL,
  state TEXT NOT NULL,
  owner TEXT,
  lease_until INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  attempt_errors TEXT NOT NULL DEFAULT '[]',
  accepted_at INTEGER NOT NULL,
  finished_at INTEGER,
  proof BLOB,
  error TEXT,
  curve TEXT,
  public_inputs TEXT,
  timings TEXT,
  total_ms REAL,
  finished_by TEXT
);
CREATE INDEX jobs_by_state ON jobs (state, priority DESC, seq);
CREATE TABLE machines (
  owner TEXT PRIMARY KEY,
  heartbeat_at INTEGER NOT NULL
);
)sql";

// Schema v2 (issue 41; PgJobStore's kSchemaV2 says why): request_id loses its UNIQUE constraint,
// which SQLite can only drop by rebuilding the table; a unique index over the live jobs' (request_id,
// digest) takes its place.
constexpr const char* kSchemaV2 = R"sql(
CREATE TABLE jobs_v2 (
  id INTEGER PRIMARY KEY,
  seq INTEGER NOT NULL,
  request_id TEXT,
  digest TEXT NOT NULL,
  circuit TEXT NOT NULL,
  shape TEXT NOT NULL,
  priority INTEGER NOT NULL,
  partitions INTEGER NOT NULL,
  input_hash TEXT,
  input_size INTEGER NOT NULL,
  state TEXT NOT NULL,
  owner TEXT,
  lease_until INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  attempt_errors TEXT NOT NULL DEFAULT '[]',
  accepted_at INTEGER NOT NULL,
  finished_at INTEGER,
  proof BLOB,
  error TEXT,
  curve TEXT,
  public_inputs TEXT,
  timings TEXT,
  total_ms REAL,
  finished_by TEXT
);
INSERT INTO jobs_v2 SELECT id, seq, request_id, digest, circuit, shape, priority, partitions, input_hash, input_size,
  state, owner, lease_until, attempts, attempt_errors, accepted_at, finished_at, proof, error, curve, public_inputs,
  timings, total_ms, finished_by FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_v2 RENAME TO jobs;
CREATE INDEX jobs_by_state ON jobs (state, priority DESC, seq);
CREATE UNIQUE INDEX jobs_live_request ON jobs (request_id, digest)
  WHERE request_id IS NOT NULL AND state NOT IN ('failed', 'cancelled');
CREATE INDEX jobs_by_request ON jobs (request_id) WHERE request_id IS NOT NULL;
)sql";

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// One prepared statement; finalized when it goes.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) { rc_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  bool ok() const { return rc_ == SQLITE_OK; }
  Stmt& bind(int i, std::int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  Stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind_null(int i) {
    sqlite3_bind_null(s_, i);
    return *this;
  }
  Stmt& bind_double(int i, double v) {
    sqlite3_bind_double(s_, i, v);
    return *this;
  }
  Stmt& bind_blob(int i, std::span<const std::uint8_t> v) {
    // A zero-length blob, not NULL.
    sqlite3_bind_blob64(s_, i, v.empty() ? "" : static_cast<const void*>(v.data()), v.size(), SQLITE_TRANSIENT);
    return *this;
  }
  /// SQLITE_ROW, SQLITE_DONE, or an error code.
  int step() { return rc_ = sqlite3_step(s_); }
  std::int64_t i64(int c) const { return sqlite3_column_int64(s_, c); }
  double dbl(int c) const { return sqlite3_column_double(s_, c); }
  bool null(int c) const { return sqlite3_column_type(s_, c) == SQLITE_NULL; }
  std::string text(int c) const {
    const auto* p = sqlite3_column_text(s_, c);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(s_, c)))
             : std::string();
  }
  std::vector<std::uint8_t> blob(int c) const {
    const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(s_, c));
    const auto n = static_cast<std::size_t>(sqlite3_column_bytes(s_, c));
    return p ? std::vector<std::uint8_t>(p, p + n) : std::vector<std::uint8_t>();
  }
  Status error(const std::string& what) const {
    return Status::io_error("job store: " + what + ": " + sqlite3_errmsg(db_));
  }
  /// Runs a statement that returns no rows.
  Status run(const std::string& what) {
    if (!ok()) return error(what);
    const int rc = step();
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? Status{} : error(what);
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
  int rc_ = SQLITE_OK;
};

/// BEGIN IMMEDIATE ... COMMIT, rolled back if not committed.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) { ok_ = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK; }
  ~Transaction() {
    if (ok_ && !done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  bool ok() const { return ok_; }
  Status commit() {
    done_ = true;
    if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
      return Status::io_error(std::string("job store: commit: ") + sqlite3_errmsg(db_));
    }
    return {};
  }

 private:
  sqlite3* db_;
  bool ok_ = false, done_ = false;
};

Outcome read_outcome(const Stmt& s, int first, JobState state) {
  // Columns from `first`: proof, error, curve, public_inputs, timings, total_ms, finished_by.
  Outcome o;
  o.state = state;
  o.proof = s.blob(first);
  o.error = s.text(first + 1);
  o.curve = s.text(first + 2);
  o.public_inputs = detail::decode_public_inputs(s.text(first + 3));
  o.timings_json = s.text(first + 4);
  o.total_ms = s.dbl(first + 5);
  o.finished_by = s.text(first + 6);
  return o;
}

}  // namespace

Result<std::unique_ptr<SqliteJobStore>> SqliteJobStore::open(const std::string& path, StoreLimits limits) {
  std::unique_ptr<SqliteJobStore> s(new SqliteJobStore());
  s->path_ = path;
  s->limits_ = limits;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::exists(parent, ec)) {
    fs::create_directories(parent, ec);
    if (ec) return Status::io_error("cannot create the state directory " + parent.string() + ": " + ec.message());
  }
  // One daemon per store: the claims found at open are then certainly a dead process's.
  const std::string lock_path = path + ".lock";
  s->lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (s->lock_fd_ < 0) return Status::io_error("cannot open " + lock_path + ": " + std::strerror(errno));
  if (::flock(s->lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      return Status::already_exists("another zkpipe daemon uses the job store " + path +
                                    " (it holds " + lock_path + "); give each daemon its own state directory, or "
                                    "share one queue through PostgreSQL (--queue postgresql://...)");
    }
    return Status::io_error("cannot lock " + lock_path + ": " + std::strerror(errno));
  }
  if (sqlite3_open_v2(path.c_str(), &s->db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    return Status::io_error("cannot open the job store " + path + ": " +
                            (s->db_ ? sqlite3_errmsg(s->db_) : "out of memory"));
  }
  sqlite3_busy_timeout(s->db_, 10000);
  // WAL: readers never block the writer; FULL: a commit is on disk (fsync) before accept() returns.
  for (const char* pragma : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON"}) {
    if (Status st = s->exec(pragma); !st.ok()) return st;
  }
  if (Status st = s->migrate(); !st.ok()) return st;
  if (Status st = s->recover(); !st.ok()) return st;
  return s;
}

SqliteJobStore::~SqliteJobStore() {
  if (db_) sqlite3_close(db_);
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

Status SqliteJobStore::exec(const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string m = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    return Status::io_error("job store " + path_ + ": " + m);
  }
  return {};
}

Status SqliteJobStore::migrate() {
  std::lock_guard lock(m_);
  Transaction tx(db_);
  if (!tx.ok()) return Status::io_error("job store " + path_ + ": cannot begin: " + sqlite3_errmsg(db_));
  int version = 0;
  {
    Stmt q(db_, "PRAGMA user_version");
    if (q.step() == SQLITE_ROW) version = static_cast<int>(q.i64(0));
  }
  if (version > kSchemaVersion) {
    return Status::invalid_argument("the job store " + path_ + " has schema version " + std::to_string(version) +
                                    ", made by a newer zkpipe (this one knows up to " +
                                    std::to_string(kSchemaVersion) + ")");
  }
  if (version == 0) {
    if (Status st = exec(kSchemaV1); !st.ok()) return st;
    if (Status st = exec("PRAGMA user_version = 1"); !st.ok()) return st;
    version = 1;
  }
  // One step per later version, each in this transaction.
  if (version == 1) {
    if (Status st = exec(kSchemaV2); !st.ok()) return st;
    if (Status st = exec("PRAGMA user_version = 2"); !st.ok()) return st;
  }
  return tx.commit();
}

Status SqliteJobStore::end_claims(bool all, std::int64_t now, const std::string& why_prefix) {
  std::vector<std::tuple<std::int64_t, std::string, std::int64_t, std::string>> ended;  // id, owner, attempts, errors
  {
    Stmt q(db_, all ? "SELECT id, owner, attempts, attempt_errors FROM jobs WHERE state = 'running'"
                    : "SELECT id, owner, attempts, attempt_errors FROM jobs WHERE state = 'running' AND lease_until < ?1");
    if (!all) q.bind(1, now);
    while (q.step() == SQLITE_ROW) ended.emplace_back(q.i64(0), q.text(1), q.i64(2), q.text(3));
  }
  for (auto& [id, owner, attempts, errors_text] : ended) {
    auto errors = detail::decode_errors(errors_text);
    errors.push_back("attempt " + std::to_string(attempts) + ": " + why_prefix + " " + owner);
    const std::string enc = detail::encode_errors(errors);
    if (attempts >= static_cast<std::int64_t>(limits_.max_attempts)) {
      Stmt u(db_,
             "UPDATE jobs SET state = 'failed', owner = NULL, lease_until = NULL, attempt_errors = ?2, "
             "error = ?3, finished_at = ?4, finished_by = '', input_hash = NULL WHERE id = ?1");
      u.bind(1, id).bind(2, enc).bind(3, detail::attempts_exhausted(errors, static_cast<std::uint32_t>(attempts))).bind(4, now);
      if (Status st = u.run("failing a job"); !st.ok()) return st;
    } else {
      Stmt u(db_, "UPDATE jobs SET state = 'queued', owner = NULL, lease_until = NULL, attempt_errors = ?2 WHERE id = ?1");
      u.bind(1, id).bind(2, enc);
      if (Status st = u.run("queueing a job again"); !st.ok()) return st;
    }
  }
  return {};
}

Status SqliteJobStore::recover() {
  std::lock_guard lock(m_);
  Transaction tx(db_);
  if (!tx.ok()) return Status::io_error("job store " + path_ + ": cannot begin: " + sqlite3_errmsg(db_));
  {
    Stmt q(db_, "SELECT COUNT(*) FROM jobs WHERE state = 'running'");
    if (q.step() == SQLITE_ROW) recovered_ = static_cast<std::size_t>(q.i64(0));
  }
  if (Status st = end_claims(true, now_ms(), "the daemon stopped (crash, kill or power loss) while proving it on");
      !st.ok()) {
    return st;
  }
  return tx.commit();
}

void SqliteJobStore::changed() {
  {
    std::lock_guard lock(change_m_);
    ++version_;
  }
  change_cv_.notify_all();
}

void SqliteJobStore::wait_for_change(std::chrono::milliseconds timeout) {
  std::unique_lock lock(change_m_);
  const auto seen = version_;
  change_cv_.wait_for(lock, timeout, [&] { return version_ != seen; });
}

Result<Accepted> SqliteJobStore::accept(const NewJob& job) {
  const std::string hash = detail::content_hash(job.input);
  const std::string digest = detail::payload_digest(job, hash);
  std::lock_guard lock(m_);
  Transaction tx(db_);
  if (!tx.ok()) return Status::io_error("job store " + path_ + ": cannot begin: " + sqlite3_errmsg(db_));
  const std::int64_t now = now_ms();
  if (!job.request_id.empty()) {
    // The same request id and payload name the job queued, running or proved (a retry after a
    // failure or a cancel finds none of those: a new attempt); another payload is another job.
    Stmt q(db_,
           "SELECT id, finished_at FROM jobs WHERE request_id = ?1 AND digest = ?2 "
           "AND state NOT IN ('failed', 'cancelled')");
    q.bind(1, job.request_id).bind(2, digest);
    if (q.step() == SQLITE_ROW) {
      const bool expired = !q.null(1) && q.i64(1) + std::int64_t{limits_.result_ttl.count()} * 1000 < now;
      if (!expired) return Accepted{static_cast<std::uint64_t>(q.i64(0)), true};
      // Its result is past the TTL: forgotten, the request id is free again.
      Stmt d(db_, "DELETE FROM jobs WHERE id = ?1");
      d.bind(1, q.i64(0));
      if (Status st = d.run("forgetting an expired job"); !st.ok()) return st;
    }
  }
  {
    Stmt q(db_, "SELECT COUNT(*) FROM jobs WHERE state IN ('queued', 'running')");
    if (q.step() != SQLITE_ROW) return q.error("counting jobs");
    if (static_cast<std::uint64_t>(q.i64(0)) >= limits_.max_unfinished_jobs) {
      return Status::resource_exhausted("the job store holds " + std::to_string(q.i64(0)) +
                                        " unfinished jobs (store.max_unfinished_jobs); retry later");
    }
  }
  bool have_input = false;
  {
    Stmt q(db_, "SELECT 1 FROM inputs WHERE hash = ?1");
    q.bind(1, hash);
    have_input = q.step() == SQLITE_ROW;
  }
  if (!have_input) {
    Stmt q(db_, "SELECT COALESCE(SUM(size), 0) FROM inputs");
    if (q.step() != SQLITE_ROW) return q.error("summing inputs");
    const auto held = static_cast<std::uint64_t>(q.i64(0));
    if (held + job.input.size() > limits_.max_input_bytes) {
      return Status::resource_exhausted("the job store holds " + std::to_string(held) + " bytes of inputs; this " +
                                        std::to_string(job.input.size()) + "-byte input would pass " +
                                        "store.max_input_bytes = " + std::to_string(limits_.max_input_bytes) +
                                        "; retry later");
    }
    Stmt ins(db_, "INSERT INTO inputs (hash, bytes, size) VALUES (?1, ?2, ?3)");
    ins.bind(1, hash).bind_blob(2, job.input).bind(3, static_cast<std::int64_t>(job.input.size()));
    if (Status st = ins.run("storing the input"); !st.ok()) return st;
  }
  std::int64_t seq = 1;
  {
    Stmt q(db_, "SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs");
    if (q.step() == SQLITE_ROW) seq = q.i64(0);
  }
  std::uint64_t id = 0;
  for (int tries = 0;; ++tries) {
    id = detail::new_job_id();
    Stmt ins(db_,
             "INSERT INTO jobs (id, seq, request_id, digest, circuit, shape, priority, partitions, input_hash, "
             "input_size, state, accepted_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'queued', ?11)");
    ins.bind(1, static_cast<std::int64_t>(id)).bind(2, seq);
    if (job.request_id.empty()) {
      ins.bind_null(3);
    } else {
      ins.bind(3, job.request_id);
    }
    ins.bind(4, digest).bind(5, job.circuit).bind(6, job.shape).bind(7, std::int64_t{job.priority});
    ins.bind(8, std::int64_t{job.partitions}).bind(9, hash).bind(10, static_cast<std::int64_t>(job.input.size()));
    ins.bind(11, now);
    const int rc = ins.step();
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_CONSTRAINT || tries > 8) return ins.error("recording the job");
  }
  if (Status st = tx.commit(); !st.ok()) return st;
  changed();
  return Accepted{id, false};
}

Status SqliteJobStore::heartbeat(const std::string& owner, std::chrono::milliseconds lease) {
  std::lock_guard lock(m_);
  Transaction tx(db_);
  if (!tx.ok()) return Status::io_error("job store " + path_ + ": cannot begin: " + sqlite3_errmsg(db_));
  const std::int64_t now = now_ms();
  Stmt m(db_, "INSERT INTO machines (owner, heartbeat_at) VALUES (?1, ?2) "
              "ON CONFLICT (owner) DO UPDATE SET heartbeat_at = excluded.heartbeat_at");
  m.bind(1, owner).bind(2, now);
  if (Status st = m.run("recording the heartbeat"); !st.ok()) return st;
  Stmt u(db_, "UPDATE jobs SET lease_until = ?2 WHERE owner = ?1 AND state = 'running'");
  u.bind(1, owner).bind(2, now + lease.count());
  if (Status st = u.run("renewing leases"); !st.ok()) return st;
  return tx.commit();
}

Result<std::vector<ClaimedJob>> SqliteJobStore::claim(const std::string& owner, std::size_t max_jobs,
                                                      std::chrono::milliseconds lease,
                                                      const std::vector<std::uint64_t>& skip) {
  std::vector<ClaimedJob> out;
  if (max_jobs == 0) return out;
  const std::set<std::uint64_t> skipped(skip.begin(), skip.end());
  std::lock_guard lock(m_);
  Transaction tx(db_);
  if (!tx.ok()) return Status::io_error("job store " + path_ + ": cannot begin: " + sqlite3_errmsg(db_));
  const std::int64_t now = now_ms();
  if (Status st = end_claims(false, now, "the lease ran out on"); !st.ok()) return st;
  std::vector<std::int64_t> ids;
  {
    Stmt q(db_, "SELECT id FROM jobs WHERE state = 'queued' ORDER BY priority DESC, seq LIMIT ?1");
    q.bind(1, static_cast<std::int64_t>(max_jobs + skipped.size()));
    while (q.step() == SQLITE_ROW && ids.size() < max_jobs) {
      if (!skipped.count(static_cast<std::uint64_t>(q.i64(0)))) ids.push_back(q.i64(0));
    }
  }
  for (const std::int64_t id : ids) {
    Stmt u(db_, "UPDATE jobs SET state = 'running', owner = ?2, lease_until = ?3, attempts = attempts + 1 WHERE id = ?1");
    u.bind(1, id).bind(2, owner).bind(3, now + lease.count());
    if (Status st = u.run("claiming a job"); !st.ok()) return st;
    Stmt q(db_,
           "SELECT j.circuit, j.shape, j.priority, j.partitions, j.attempts, i.bytes FROM jobs j "
           "JOIN inputs i ON i.hash = j.input_hash WHERE j.id = ?1");
    q.bind(1, id);
    if (q.step() != SQLITE_ROW) return Status::internal("job store: job " + std::to_string(id) + " lost its input");
    ClaimedJob c;
    c.id = static_cast<std::uint64_t>(id);
    c.circuit = q.text(0);
    c.shape = q.text(1);
    c.priority = static_cast<int>(q.i64(2));
    c.partitions = static_cast<std::uint32_t>(q.i64(3));
    c.attempt = static_cast<std::uint32_t>(q.i64(4));
    c.input = q.blob(5);
    out.push_back(std::move(c));
  }
  if (Status st = tx.commit(); !st.ok()) return st;
  return out;
}

Status SqliteJobStore::release(std::uint64_t id, const std::string& owner) {
  {
    std::lock_guard lock(m_);
    Stmt u(db_,
           "UPDATE jobs SET state = 'queued', owner = NULL, lease_until = NULL, attempts = attempts - 1 "
           "WHERE id = ?1 AND owner = ?2 AND state = 'running'");
    u.bind(1, static_cast<std::int64_t>(id)).bind(2, owner);
    if (Status st = u.run("releasing a job"); !st.ok()) return st;
  }
  changed();
  return {};
}

Result<bool> SqliteJobStore::write_outcome(std::uint64_t id, const std::string& owner, const Outcome& o) {
  std::lock_guard lock(m_);
  Transaction tx(db_);
  if (!tx.ok()) return Status::io_error("job store " + path_ + ": cannot begin: " + sqlite3_errmsg(db_));
  std::string hash;
  {
    Stmt q(db_, "SELECT input_hash FROM jobs WHERE id = ?1 AND state IN ('queued', 'running')");
    q.bind(1, static_cast<std::int64_t>(id));
    if (q.step() != SQLITE_ROW) return false;  // unknown, or finished already: the first write won
    hash = q.text(0);
  }
  Stmt u(db_,
         "UPDATE jobs SET state = ?2, owner = NULL, lease_until = NULL, finished_at = ?3, proof = ?4, error = ?5, "
         "curve = ?6, public_inputs = ?7, timings = ?8, total_ms = ?9, finished_by = ?10, input_hash = NULL "
         "WHERE id = ?1");
  u.bind(1, static_cast<std::int64_t>(id)).bind(2, std::string(job_state_name(o.state))).bind(3, now_ms());
  u.bind_blob(4, o.proof).bind(5, o.error).bind(6, o.curve).bind(7, detail::encode_public_inputs(o.public_inputs));
  u.bind(8, o.timings_json).bind_double(9, o.total_ms).bind(10, owner);
  if (Status st = u.run("recording the outcome"); !st.ok()) return st;
  // The input goes with its last unfinished job.
  Stmt d(db_, "DELETE FROM inputs WHERE hash = ?1 AND NOT EXISTS (SELECT 1 FROM jobs WHERE input_hash = ?1)");
  d.bind(1, hash);
  if (Status st = d.run("dropping the input"); !st.ok()) return st;
  if (Status st = tx.commit(); !st.ok()) return st;
  return true;
}

Result<bool> SqliteJobStore::finish(std::uint64_t id, const std::string& owner, const Outcome& outcome) {
  if (!is_finished(outcome.state)) return Status::invalid_argument("an outcome is done, failed or cancelled");
  auto won = write_outcome(id, owner, outcome);
  if (won.ok() && *won) changed();
  return won;
}

Result<bool> SqliteJobStore::cancel(std::uint64_t id, const std::string& reason) {
  Outcome o;
  o.state = JobState::kCancelled;
  o.error = reason;
  return finish(id, "", o);
}

Result<std::optional<JobView>> SqliteJobStore::lookup(std::uint64_t id) {
  std::lock_guard lock(m_);
  Stmt q(db_,
         "SELECT state, circuit, shape, partitions, owner, attempts, attempt_errors, finished_at, "
         "proof, error, curve, public_inputs, timings, total_ms, finished_by FROM jobs WHERE id = ?1");
  q.bind(1, static_cast<std::int64_t>(id));
  const int rc = q.step();
  if (rc == SQLITE_DONE) return std::optional<JobView>();
  if (rc != SQLITE_ROW) return q.error("looking up a job");
  auto state = detail::parse_state(q.text(0));
  if (!state) return Status::internal("job store: job " + std::to_string(id) + " has state '" + q.text(0) + "'");
  if (is_finished(*state) && q.i64(7) + std::int64_t{limits_.result_ttl.count()} * 1000 < now_ms()) {
    return std::optional<JobView>();  // past its TTL: forgotten (expire() deletes it)
  }
  JobView v;
  v.id = id;
  v.state = *state;
  v.circuit = q.text(1);
  v.shape = q.text(2);
  v.partitions = static_cast<std::uint32_t>(q.i64(3));
  v.owner = q.text(4);
  v.attempts = static_cast<std::uint32_t>(q.i64(5));
  v.attempt_errors = detail::decode_errors(q.text(6));
  if (is_finished(*state)) v.outcome = read_outcome(q, 8, *state);
  return std::optional<JobView>(std::move(v));
}

Result<std::vector<std::uint64_t>> SqliteJobStore::lost_claims(const std::string& owner,
                                                               const std::vector<std::uint64_t>& ids) {
  std::vector<std::uint64_t> lost;
  std::lock_guard lock(m_);
  for (const std::uint64_t id : ids) {
    Stmt q(db_, "SELECT state, owner FROM jobs WHERE id = ?1");
    q.bind(1, static_cast<std::int64_t>(id));
    const int rc = q.step();
    if (rc == SQLITE_ROW) {
      if (q.text(0) != "running" || q.text(1) != owner) lost.push_back(id);
    } else if (rc == SQLITE_DONE) {
      lost.push_back(id);
    } else {
      return q.error("checking claims");
    }
  }
  return lost;
}

Status SqliteJobStore::expire() {
  std::lock_guard lock(m_);
  Transaction tx(db_);
  if (!tx.ok()) return Status::io_error("job store " + path_ + ": cannot begin: " + sqlite3_errmsg(db_));
  const std::int64_t now = now_ms();
  Stmt d(db_, "DELETE FROM jobs WHERE finished_at IS NOT NULL AND finished_at < ?1");
  d.bind(1, now - std::int64_t{limits_.result_ttl.count()} * 1000);
  if (Status st = d.run("forgetting expired jobs"); !st.ok()) return st;
  Stmt k(db_,
         "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE finished_at IS NOT NULL "
         "ORDER BY finished_at DESC LIMIT -1 OFFSET ?1)");
  k.bind(1, static_cast<std::int64_t>(limits_.max_kept_results));
  if (Status st = k.run("forgetting the oldest results"); !st.ok()) return st;
  Stmt i(db_, "DELETE FROM inputs WHERE NOT EXISTS (SELECT 1 FROM jobs WHERE input_hash = inputs.hash)");
  if (Status st = i.run("dropping unused inputs"); !st.ok()) return st;
  Stmt m(db_, "DELETE FROM machines WHERE heartbeat_at < ?1");
  m.bind(1, now - 24 * 3600 * 1000);
  if (Status st = m.run("dropping silent machines"); !st.ok()) return st;
  return tx.commit();
}

Result<QueueStatus> SqliteJobStore::status() {
  std::lock_guard lock(m_);
  QueueStatus s;
  {
    Stmt q(db_, "SELECT state, COUNT(*) FROM jobs GROUP BY state");
    while (q.step() == SQLITE_ROW) {
      const auto st = detail::parse_state(q.text(0));
      const auto n = static_cast<std::uint64_t>(q.i64(1));
      if (!st) continue;
      s.count(*st) = n;
    }
  }
  {
    Stmt q(db_, "SELECT COALESCE(SUM(size), 0) FROM inputs");
    if (q.step() == SQLITE_ROW) s.input_bytes = static_cast<std::uint64_t>(q.i64(0));
  }
  const std::int64_t now = now_ms();
  Stmt q(db_,
         "SELECT m.owner, m.heartbeat_at, (SELECT COUNT(*) FROM jobs j WHERE j.owner = m.owner AND j.state = 'running') "
         "FROM machines m ORDER BY m.owner");
  while (q.step() == SQLITE_ROW) {
    s.machines.push_back({q.text(0), static_cast<double>(now - q.i64(1)) / 1000.0, static_cast<std::uint64_t>(q.i64(2))});
  }
  return s;
}

}  // namespace zk::store
