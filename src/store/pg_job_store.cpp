#include "store/pg_job_store.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <map>

#include "store/pg_session.hpp"
#include "store/store_common.hpp"

namespace zk::store {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using pg::Params;
using pg::Rows;
using pg::Session;
using pg::Tx;

constexpr int kSchemaVersion = 2;

/// The key of the advisory lock held while the schema is created or migrated: "zkpipe" in ASCII,
/// then 0x0001. Advisory locks are per database, so this only serializes daemons sharing one.
constexpr std::int64_t kMigrationLock = 0x7a6b'7069'7065'0001;

/// The largest input a bytea column holds: PostgreSQL's field limit is 1 GiB - 1 byte
/// (MaxAllocSize); 1 KiB less leaves room for the value's header and the protocol message.
constexpr std::size_t kMaxFieldBytes = (std::size_t{1} << 30) - 1024;

// Schema v1: SqliteJobStore's columns, with the server's timestamps (timestamptz, from
// clock_timestamp(): one clock for the whole fleet) and a sequence (BIGSERIAL) for the order of
// acceptance. An input is stored once per content hash; a job drops its reference (input_hash)
// when it finishes, and the input goes with its last reference. The partial indexes serve what a
// large queue asks often: a daemon's claims, an input's references, the outcomes past their TTL.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE zkpipe_meta (
  schema_version INTEGER NOT NULL
);
CREATE TABLE zkpipe_inputs (
  hash TEXT PRIMARY KEY,
  bytes BYTEA NOT NULL,
  size BIGINT NOT NULL
);
CREATE TABLE zkpipe_jobs (
  id BIGINT PRIMARY KEY,
  seq BIGSERIAL NOT NULL,
  request_id TEXT UNIQUE,
  digest TEXT NOT NULL,
  circuit TEXT NOT NULL,
  shape TEXT NOT NULL,
  priority INTEGER NOT NULL,
  partitions BIGINT NOT NULL,
  input_hash TEXT,
  input_size BIGINT NOT NULL,
  state TEXT NOT NULL,
  owner TEXT,
  lease_until TIMESTAMPTZ,
  attempts INTEGER NOT NULL DEFAULT 0,
  attempt_errors TEXT NOT NULL DEFAULT '[]',
  accepted_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ,
  proof BYTEA,
  error TEXT,
  curve TEXT,
  public_inputs TEXT,
  timings TEXT,
  total_ms DOUBLE PRECISION,
  finished_by TEXT
);
CREATE INDEX zkpipe_jobs_by_state ON zkpipe_jobs (state, priority DESC, seq);
CREATE INDEX zkpipe_jobs_by_owner ON zkpipe_jobs (owner) WHERE owner IS NOT NULL;
CREATE INDEX zkpipe_jobs_by_input ON zkpipe_jobs (input_hash) WHERE input_hash IS NOT NULL;
CREATE INDEX zkpipe_jobs_by_finish ON zkpipe_jobs (finished_at) WHERE finished_at IS NOT NULL;
CREATE TABLE zkpipe_machines (
  owner TEXT PRIMARY KEY,
  heartbeat_at TIMESTAMPTZ NOT NULL
);
INSERT INTO zkpipe_meta (schema_version) VALUES (1);
)sql";

// Schema v2 (issue 41): a request id names one *live* job per payload. Curio retries a failed task
// with the same request id, so a failed or cancelled job no longer holds its request id: the
// column's UNIQUE constraint becomes a unique index over (request_id, digest) of the jobs that are
// not failed or cancelled. A retry after a failure is a new job (the old one and its reason stay
// until their TTL); the same id with another payload is a new job too; two daemons accepting the
// same retry at once still make one (the second insert meets the index and reads the first's row).
constexpr const char* kSchemaV2 = R"sql(
ALTER TABLE zkpipe_jobs DROP CONSTRAINT IF EXISTS zkpipe_jobs_request_id_key;
CREATE UNIQUE INDEX zkpipe_jobs_live_request ON zkpipe_jobs (request_id, digest)
  WHERE request_id IS NOT NULL AND state NOT IN ('failed', 'cancelled');
CREATE INDEX zkpipe_jobs_by_request ON zkpipe_jobs (request_id) WHERE request_id IS NOT NULL;
UPDATE zkpipe_meta SET schema_version = 2;
)sql";

Status notify(Session& s, bool enabled) {
  if (!enabled) return {};
  // Delivered to the listeners when the transaction commits, once however many are sent.
  return s.exec("NOTIFY zkpipe_jobs", "notifying the other daemons").status();
}

/// Creates the schema, or checks it is one this zkpipe knows. Under an advisory lock that the
/// transaction's end releases: daemons starting together wait for the first to create it.
Status migrate_schema(Session& s, const std::string& where, bool lock) {
  Tx tx(s);
  if (Status st = tx.begin(); !st.ok()) return st;
  if (lock) {
    auto r = s.exec("SELECT pg_advisory_xact_lock($1)", Params().i64(kMigrationLock), "taking the migration lock");
    if (!r.ok()) return r.status();
  }
  // Asked before CREATE TABLE IF NOT EXISTS would be: that needs the CREATE privilege even when
  // the tables exist, and a daemon's role may only have been granted the tables.
  auto exists = s.exec("SELECT to_regclass('zkpipe_meta') IS NOT NULL", "looking for the schema");
  if (!exists.ok()) return exists.status();
  std::int64_t version = 0;
  if (exists->boolean(0, 0)) {
    auto v = s.exec("SELECT COALESCE(MAX(schema_version), 0) FROM zkpipe_meta", "reading the schema version");
    if (!v.ok()) return v.status();
    version = v->i64(0, 0);
  }
  if (version > kSchemaVersion) {
    return Status::invalid_argument("the job store " + where + " has schema version " + std::to_string(version) +
                                    ", made by a newer zkpipe (this one knows up to " + std::to_string(kSchemaVersion) +
                                    "); upgrade this daemon");
  }
  if (version == 0) {
    if (Status st = s.script(kSchemaV1, "creating the schema"); !st.ok()) return st;
    version = 1;
  }
  // One step per later version, each in this transaction.
  if (version == 1) {
    if (Status st = s.script(kSchemaV2, "migrating the schema to version 2 (retries under a request id)"); !st.ok()) {
      return st;
    }
  }
  return tx.commit();
}

/// Ends the claims whose lease ran out (by the server's clock): queued again with the reason, or
/// failed past max_attempts — SqliteJobStore::end_claims. FOR UPDATE SKIP LOCKED: two daemons
/// claiming at once never end the same claim twice (the second skips the row, or, once the first
/// committed, finds it no longer expired). Returns how many ended. Inside a transaction.
Result<std::size_t> end_expired_claims(Session& s, const StoreLimits& limits) {
  auto q = s.exec(
      "SELECT id, owner, attempts, attempt_errors FROM zkpipe_jobs "
      "WHERE state = 'running' AND lease_until < clock_timestamp() FOR UPDATE SKIP LOCKED",
      "finding expired claims");
  if (!q.ok()) return q.status();
  for (int r = 0; r < q->size(); ++r) {
    const std::int64_t id = q->i64(r, 0), attempts = q->i64(r, 2);
    auto errors = detail::decode_errors(q->text(r, 3));
    errors.push_back("attempt " + std::to_string(attempts) + ": the lease ran out on " + q->text(r, 1));
    std::string enc = detail::encode_errors(errors);
    if (attempts >= static_cast<std::int64_t>(limits.max_attempts)) {
      std::string why = detail::attempts_exhausted(errors, static_cast<std::uint32_t>(attempts));
      auto u = s.exec(
          "UPDATE zkpipe_jobs SET state = 'failed', owner = NULL, lease_until = NULL, attempt_errors = $2, "
          "error = $3, finished_at = clock_timestamp(), finished_by = '', input_hash = NULL WHERE id = $1",
          Params().i64(id).text(std::move(enc)).text(std::move(why)), "failing a job");
      if (!u.ok()) return u.status();
    } else {
      auto u = s.exec(
          "UPDATE zkpipe_jobs SET state = 'queued', owner = NULL, lease_until = NULL, attempt_errors = $2 "
          "WHERE id = $1",
          Params().i64(id).text(std::move(enc)), "queueing a job again");
      if (!u.ok()) return u.status();
    }
  }
  return static_cast<std::size_t>(q->size());
}

/// Deletes the input `hash` if no job refers to it any more. Its row is locked first, in a
/// statement of its own: an accept that is about to refer to this input holds the row (FOR SHARE,
/// or its INSERT) until it commits, so the lock waits for it, and the DELETE, a later statement
/// with a fresh snapshot, then sees its job. (A single DELETE ... WHERE NOT EXISTS would judge by
/// the snapshot it started with and could drop an input a just-committed job needs.)
Status drop_input_if_unused(Session& s, const std::string& hash) {
  auto lock =
      s.exec("SELECT 1 FROM zkpipe_inputs WHERE hash = $1 FOR UPDATE", Params().text(hash), "locking the input");
  if (!lock.ok()) return lock.status();
  if (lock->size() == 0) return {};
  return s
      .exec(
          "DELETE FROM zkpipe_inputs WHERE hash = $1 AND NOT EXISTS (SELECT 1 FROM zkpipe_jobs WHERE input_hash = $1)",
          Params().text(hash), "dropping the input")
      .status();
}

Outcome read_outcome(const Rows& q, int row, int first, JobState state) {
  // Columns from `first`: proof, error, curve, public_inputs, timings, total_ms, finished_by.
  Outcome o;
  o.state = state;
  o.proof = q.bytes(row, first);
  o.error = q.text(row, first + 1);
  o.curve = q.text(row, first + 2);
  o.public_inputs = detail::decode_public_inputs(q.text(row, first + 3));
  o.timings_json = q.text(row, first + 4);
  o.total_ms = q.f64(row, first + 5);
  o.finished_by = q.text(row, first + 6);
  return o;
}

}  // namespace

Result<std::unique_ptr<PgJobStore>> PgJobStore::open(const std::string& conninfo, StoreLimits limits) {
  std::unique_ptr<PgJobStore> s(new PgJobStore());
  s->conninfo_ = conninfo;
  s->limits_ = limits;
  {
    char* err = nullptr;
    PQconninfoOption* opts = PQconninfoParse(conninfo.c_str(), &err);
    if (!opts) {
      // libpq's parse errors quote the offending keyword, never a value.
      std::string m = err ? pg::one_line(err) : "out of memory";
      if (err) PQfreemem(err);
      return Status::invalid_argument("job store: cannot read the PostgreSQL connection string: " + m +
                                      " (expected postgresql://user@host:port/dbname or host=... dbname=...)");
    }
    s->describe_ = pg::describe_conninfo(opts);
    PQconninfoFree(opts);
  }
  const pg::ConnParams params(conninfo);
  s->conn_ = PQconnectdbParams(params.keys(), params.vals(), 1);
  if (!s->conn_) return Status::resource_exhausted("job store " + s->describe_ + ": libpq is out of memory");
  if (PQstatus(s->conn_) != CONNECTION_OK) {
    return Status::unavailable("job store " + s->describe_ + ": " + pg::one_line(PQerrorMessage(s->conn_)));
  }
  pg::quiet_notices(s->conn_);  // kept across PQreset
  if (Status st = s->migrate(); !st.ok()) return st;
  // Whether the server takes NOTIFY: YugabyteDB refuses it (0A000) unless ysql_yb_enable_listen_notify
  // is set; the daemons then rely on polling alone. A spurious wake-up of the others costs a claim.
  Status probe = s->call<Status>("job store NOTIFY", [&](Session& db) -> Status {
    auto r = db.exec("NOTIFY zkpipe_jobs", "notifying the other daemons");
    if (!r.ok() && !db.lost()) {
      s->notify_ = false;
      return {};
    }
    return r.status();
  });
  if (!probe.ok()) return probe;
  s->wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);  // without it (-1) the poller wakes on NOTIFY only
  return s;
}

PgJobStore::~PgJobStore() {
  if (conn_) PQfinish(conn_);
  if (listener_) PQfinish(listener_);
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

template <class R, class F>
R PgJobStore::call(const char* what, F&& body) {
  return guarded(what, [&]() -> R {
    std::lock_guard lock(m_);
    // One reconnection per call: at its start if the connection is known broken, or once a
    // statement finds it lost (the server restarted, a network cut). A transaction cut short by a
    // lost connection was rolled back by the server, unless its COMMIT was what got lost: then the
    // run again finds its effect (an accept returns the job as existing; a finish returns false,
    // its outcome stored).
    bool reconnected = false;
    if (PQstatus(conn_) != CONNECTION_OK) {
      reconnected = true;
      if (Status st = reconnect(); !st.ok()) return st;
    }
    // A call cut short by an exception left its transaction to Tx's destructor; make sure.
    if (PQtransactionStatus(conn_) != PQTRANS_IDLE) PQclear(PQexec(conn_, "ROLLBACK"));
    for (int run = 0;; ++run) {
      Session s(conn_, describe_);
      R r = body(s);
      if (r.ok() || run > 0) return r;
      if (s.lost()) {
        if (reconnected) return r;
        reconnected = true;
        if (Status st = reconnect(); !st.ok()) return st;
      } else if (!s.retryable()) {
        return r;
      }
    }
  });
}

Status PgJobStore::reconnect() {
  PQreset(conn_);
  if (PQstatus(conn_) != CONNECTION_OK) {
    return Status::unavailable("job store " + describe_ + ": " + pg::one_line(PQerrorMessage(conn_)));
  }
  return {};
}

Status PgJobStore::migrate() {
  return call<Status>("job store schema", [&](Session& s) -> Status {
    bool lock = true;
    for (int round = 0;; ++round) {
      Status st = migrate_schema(s, describe_, lock);
      if (st.ok() || s.lost() || round >= 3) return st;
      if (lock && (s.sqlstate() == "0A000" || s.sqlstate() == "42883")) {
        // No advisory locks here (YugabyteDB without ysql_yb_enable_advisory_locks): a daemon that
        // loses the race to create the tables fails below and reads them on its next round.
        lock = false;
      } else if (s.sqlstate() != "42P07" && s.sqlstate() != "23505") {  // duplicate table; unique violation
        return st;
      }
    }
  });
}

void PgJobStore::changed() {
  {
    std::lock_guard lock(change_m_);
    ++version_;
  }
  change_cv_.notify_all();
  if (wake_fd_ >= 0) {
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = ::write(wake_fd_, &one, sizeof one);  // full (2^64 - 2): already awake
  }
}

Result<Accepted> PgJobStore::accept(const NewJob& job) {
  if (job.input.size() > kMaxFieldBytes) {
    return Status::resource_exhausted("this " + std::to_string(job.input.size()) +
                                      "-byte input is larger than a PostgreSQL job store holds (1 GiB per value, "
                                      "less 1 KiB)");
  }
  const std::string hash = detail::content_hash(job.input);
  const std::string digest = detail::payload_digest(job, hash);
  const std::int64_t ttl_s = limits_.result_ttl.count();
  auto accepted = call<Result<Accepted>>("job store accept", [&](Session& s) -> Result<Accepted> {
    // A round ends without a job when another daemon inserted the same request id first (or, once in
    // 2^63, the same random id): the next round reads its row.
    for (int round = 0; round < 4; ++round) {
      Tx tx(s);
      if (Status st = tx.begin(); !st.ok()) return st;
      if (!job.request_id.empty()) {
        // The same request id and payload name the job queued, running or proved (a retry after a
        // failure or a cancel finds none of those: a new attempt); another payload is another job.
        auto q = s.exec(
            "SELECT id, finished_at IS NOT NULL AND finished_at < clock_timestamp() - $3 * interval '1 second' "
            "FROM zkpipe_jobs WHERE request_id = $1 AND digest = $2 AND state NOT IN ('failed', 'cancelled')",
            Params().text(job.request_id).text(digest).f64(static_cast<double>(ttl_s)), "looking up the request id");
        if (!q.ok()) return q.status();
        if (q->size() == 1) {
          const std::int64_t id = q->i64(0, 0);
          if (!q->boolean(0, 1)) return Accepted{static_cast<std::uint64_t>(id), true};
          // Its result is past the TTL: forgotten, the request id is free again.
          auto d = s.exec("DELETE FROM zkpipe_jobs WHERE id = $1", Params().i64(id), "forgetting an expired job");
          if (!d.ok()) return d.status();
        }
      }
      // The limits are checked, not enforced under concurrency: daemons accepting at the same moment
      // each count the others' uncommitted jobs out, and may pass a limit by a few jobs between them.
      auto n = s.exec("SELECT COUNT(*) FROM zkpipe_jobs WHERE state IN ('queued', 'running')", "counting jobs");
      if (!n.ok()) return n.status();
      if (static_cast<std::uint64_t>(n->i64(0, 0)) >= limits_.max_unfinished_jobs) {
        return Status::resource_exhausted("the job store holds " + std::to_string(n->i64(0, 0)) +
                                          " unfinished jobs (store.max_unfinished_jobs); retry later");
      }
      // An input already stored is locked FOR SHARE until commit, so that no finishing job drops it
      // between this check and this job's insert (drop_input_if_unused).
      auto have =
          s.exec("SELECT 1 FROM zkpipe_inputs WHERE hash = $1 FOR SHARE", Params().text(hash), "looking up the input");
      if (!have.ok()) return have.status();
      if (have->size() == 0) {
        auto sum = s.exec("SELECT COALESCE(SUM(size), 0)::int8 FROM zkpipe_inputs", "summing inputs");
        if (!sum.ok()) return sum.status();
        const auto held = static_cast<std::uint64_t>(sum->i64(0, 0));
        if (held + job.input.size() > limits_.max_input_bytes) {
          return Status::resource_exhausted("the job store holds " + std::to_string(held) + " bytes of inputs; this " +
                                            std::to_string(job.input.size()) + "-byte input would pass " +
                                            "store.max_input_bytes = " + std::to_string(limits_.max_input_bytes) +
                                            "; retry later");
        }
        // Another daemon storing the same input meanwhile: its row is taken (and locked) instead.
        auto ins = s.exec(
            "INSERT INTO zkpipe_inputs (hash, bytes, size) VALUES ($1, $2, $3) "
            "ON CONFLICT (hash) DO UPDATE SET size = EXCLUDED.size",
            Params().text(hash).bytes_ref(job.input).i64(static_cast<std::int64_t>(job.input.size())),
            "storing the input");
        if (!ins.ok()) return ins.status();
      }
      const std::uint64_t id = detail::new_job_id();
      Params p;
      p.i64(static_cast<std::int64_t>(id));
      if (job.request_id.empty()) {
        p.null_text();  // NULLs never conflict: every accept without a request id is a new job
      } else {
        p.text(job.request_id);
      }
      p.text(digest).text(job.circuit).text(job.shape).i64(job.priority).i64(job.partitions).text(hash);
      p.i64(static_cast<std::int64_t>(job.input.size()));
      // ON CONFLICT: a concurrent accept of the same request id holds the unique index entry; this
      // insert waits for its commit and then does nothing (a rolled-back one leaves the way free).
      auto ins = s.exec(
          "INSERT INTO zkpipe_jobs (id, request_id, digest, circuit, shape, priority, partitions, input_hash, "
          "input_size, state, accepted_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'queued', clock_timestamp()) "
          "ON CONFLICT DO NOTHING RETURNING id",
          p, "recording the job");
      if (!ins.ok()) return ins.status();
      if (ins->size() == 0) continue;  // rolled back (Tx); the next round finds the winner's row
      if (Status st = notify(s, notify_); !st.ok()) return st;
      if (Status st = tx.commit(); !st.ok()) return st;
      return Accepted{id, false};
    }
    return Status::unavailable("job store " + describe_ + ": request id '" + job.request_id +
                               "' kept being taken and forgotten by other daemons; retry");
  });
  if (accepted.ok() && !accepted->existed) changed();
  return accepted;
}

Status PgJobStore::heartbeat(const std::string& owner, std::chrono::milliseconds lease) {
  return call<Status>("job store heartbeat", [&](Session& s) -> Status {
    Tx tx(s);
    if (Status st = tx.begin(); !st.ok()) return st;
    auto m = s.exec(
        "INSERT INTO zkpipe_machines (owner, heartbeat_at) VALUES ($1, clock_timestamp()) "
        "ON CONFLICT (owner) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at",
        Params().text(owner), "recording the heartbeat");
    if (!m.ok()) return m.status();
    auto u = s.exec(
        "UPDATE zkpipe_jobs SET lease_until = clock_timestamp() + $2 * interval '1 millisecond' "
        "WHERE owner = $1 AND state = 'running'",
        Params().text(owner).f64(static_cast<double>(lease.count())), "renewing leases");
    if (!u.ok()) return u.status();
    return tx.commit();
  });
}

Result<std::vector<ClaimedJob>> PgJobStore::claim(const std::string& owner, std::size_t max_jobs,
                                                  std::chrono::milliseconds lease,
                                                  const std::vector<std::uint64_t>& skip) {
  if (max_jobs == 0) return std::vector<ClaimedJob>();
  return call<Result<std::vector<ClaimedJob>>>("job store claim", [&](Session& s) -> Result<std::vector<ClaimedJob>> {
    Tx tx(s);
    if (Status st = tx.begin(); !st.ok()) return st;
    auto ended = end_expired_claims(s, limits_);
    if (!ended.ok()) return ended.status();
    // SKIP LOCKED: rows another daemon is claiming right now are passed over, not waited for; the
    // jobs queued again just above are visible to this transaction and may be claimed here.
    auto q = s.exec(
        "WITH picked AS ("
        "  SELECT id FROM zkpipe_jobs WHERE state = 'queued' AND id <> ALL($2)"
        "  ORDER BY priority DESC, seq LIMIT $1 FOR UPDATE SKIP LOCKED),"
        " claimed AS ("
        "  UPDATE zkpipe_jobs j SET state = 'running', owner = $3, attempts = j.attempts + 1,"
        "    lease_until = clock_timestamp() + $4 * interval '1 millisecond'"
        "  FROM picked WHERE j.id = picked.id"
        "  RETURNING j.id, j.circuit, j.shape, j.priority, j.partitions, j.attempts, j.input_hash, j.seq)"
        " SELECT c.id, c.circuit, c.shape, c.priority, c.partitions, c.attempts, i.bytes"
        " FROM claimed c LEFT JOIN zkpipe_inputs i ON i.hash = c.input_hash ORDER BY c.priority DESC, c.seq",
        Params()
            .i64(static_cast<std::int64_t>(std::min<std::size_t>(max_jobs, INT64_MAX)))
            .ids(skip)
            .text(owner)
            .f64(static_cast<double>(lease.count())),
        "claiming jobs");
    if (!q.ok()) return q.status();
    std::vector<ClaimedJob> out;
    for (int r = 0; r < q->size(); ++r) {
      if (q->null(r, 6)) {
        return Status::internal("job store " + describe_ + ": job " + std::to_string(q->i64(r, 0)) + " lost its input");
      }
      ClaimedJob c;
      c.id = static_cast<std::uint64_t>(q->i64(r, 0));
      c.circuit = q->text(r, 1);
      c.shape = q->text(r, 2);
      c.priority = static_cast<int>(q->i64(r, 3));
      c.partitions = static_cast<std::uint32_t>(q->i64(r, 4));
      c.attempt = static_cast<std::uint32_t>(q->i64(r, 5));
      c.input = q->bytes(r, 6);
      out.push_back(std::move(c));
    }
    // Claims that ended here put jobs back in the queue: the other daemons may take what this one did not.
    if (*ended > 0) {
      if (Status st = notify(s, notify_); !st.ok()) return st;
    }
    if (Status st = tx.commit(); !st.ok()) return st;
    return out;
  });
}

Status PgJobStore::release(std::uint64_t id, const std::string& owner) {
  Status st = call<Status>("job store release", [&](Session& s) -> Status {
    Tx tx(s);
    if (Status b = tx.begin(); !b.ok()) return b;
    auto u = s.exec(
        "UPDATE zkpipe_jobs SET state = 'queued', owner = NULL, lease_until = NULL, attempts = attempts - 1 "
        "WHERE id = $1 AND owner = $2 AND state = 'running'",
        Params().i64(static_cast<std::int64_t>(id)).text(owner), "releasing a job");
    if (!u.ok()) return u.status();
    if (u->affected() > 0) {
      if (Status n = notify(s, notify_); !n.ok()) return n;
    }
    return tx.commit();
  });
  if (st.ok()) changed();
  return st;
}

Result<bool> PgJobStore::finish(std::uint64_t id, const std::string& owner, const Outcome& o) {
  if (!is_finished(o.state)) return Status::invalid_argument("an outcome is done, failed or cancelled");
  auto won = call<Result<bool>>("job store finish", [&](Session& s) -> Result<bool> {
    Tx tx(s);
    if (Status st = tx.begin(); !st.ok()) return st;
    // The first writer wins: a second finish waits for the first's row lock, then finds the job no
    // longer queued or running (READ COMMITTED re-checks the row) and changes nothing.
    Params p;
    p.i64(static_cast<std::int64_t>(id)).text(job_state_name(o.state)).bytes(o.proof).text(o.error).text(o.curve);
    p.text(detail::encode_public_inputs(o.public_inputs)).text(o.timings_json).f64(o.total_ms).text(owner);
    auto u = s.exec(
        "WITH old AS (SELECT id, input_hash FROM zkpipe_jobs WHERE id = $1 AND state IN ('queued', 'running') "
        "FOR UPDATE) "
        "UPDATE zkpipe_jobs j SET state = $2, owner = NULL, lease_until = NULL, finished_at = clock_timestamp(), "
        "proof = $3, error = $4, curve = $5, public_inputs = $6, timings = $7, total_ms = $8, finished_by = $9, "
        "input_hash = NULL FROM old WHERE j.id = old.id RETURNING old.input_hash",
        p, "recording the outcome");
    if (!u.ok()) return u.status();
    if (u->size() == 0) return false;  // unknown, or finished already: the first write won
    if (!u->null(0, 0)) {
      if (Status st = drop_input_if_unused(s, u->text(0, 0)); !st.ok()) return st;
    }
    if (Status st = notify(s, notify_); !st.ok()) return st;
    if (Status st = tx.commit(); !st.ok()) return st;
    return true;
  });
  if (won.ok() && *won) changed();
  return won;
}

Result<bool> PgJobStore::cancel(std::uint64_t id, const std::string& reason) {
  Outcome o;
  o.state = JobState::kCancelled;
  o.error = reason;
  return finish(id, "", o);
}

Result<std::optional<JobView>> PgJobStore::lookup(std::uint64_t id) {
  const std::int64_t ttl_s = limits_.result_ttl.count();
  return call<Result<std::optional<JobView>>>("job store lookup", [&](Session& s) -> Result<std::optional<JobView>> {
    auto q = s.exec(
        "SELECT state, circuit, shape, partitions, owner, attempts, attempt_errors, "
        "finished_at IS NOT NULL AND finished_at < clock_timestamp() - $2 * interval '1 second', "
        "proof, error, curve, public_inputs, timings, total_ms, finished_by FROM zkpipe_jobs WHERE id = $1",
        Params().i64(static_cast<std::int64_t>(id)).f64(static_cast<double>(ttl_s)), "looking up a job");
    if (!q.ok()) return q.status();
    if (q->size() == 0) return std::optional<JobView>();
    auto state = detail::parse_state(q->text(0, 0));
    if (!state) {
      return Status::internal("job store " + describe_ + ": job " + std::to_string(id) + " has state '" +
                              q->text(0, 0) + "'");
    }
    if (is_finished(*state) && q->boolean(0, 7)) return std::optional<JobView>();  // past its TTL: forgotten
    JobView v;
    v.id = id;
    v.state = *state;
    v.circuit = q->text(0, 1);
    v.shape = q->text(0, 2);
    v.partitions = static_cast<std::uint32_t>(q->i64(0, 3));
    v.owner = q->text(0, 4);
    v.attempts = static_cast<std::uint32_t>(q->i64(0, 5));
    v.attempt_errors = detail::decode_errors(q->text(0, 6));
    if (is_finished(*state)) v.outcome = read_outcome(*q, 0, 8, *state);
    return std::optional<JobView>(std::move(v));
  });
}

Result<std::vector<std::uint64_t>> PgJobStore::lost_claims(const std::string& owner,
                                                           const std::vector<std::uint64_t>& ids) {
  if (ids.empty()) return std::vector<std::uint64_t>();
  return call<Result<std::vector<std::uint64_t>>>(
      "job store lost_claims", [&](Session& s) -> Result<std::vector<std::uint64_t>> {
        auto q = s.exec("SELECT id, state = 'running' AND owner = $2 FROM zkpipe_jobs WHERE id = ANY($1)",
                        Params().ids(ids).text(owner), "checking claims");
        if (!q.ok()) return q.status();
        std::map<std::uint64_t, bool> held;
        for (int r = 0; r < q->size(); ++r) held[static_cast<std::uint64_t>(q->i64(r, 0))] = q->boolean(r, 1);
        std::vector<std::uint64_t> lost;
        for (const std::uint64_t id : ids) {
          auto it = held.find(id);
          if (it == held.end() || !it->second) lost.push_back(id);
        }
        return lost;
      });
}

Status PgJobStore::expire() {
  const std::int64_t ttl_s = limits_.result_ttl.count();
  return call<Status>("job store expire", [&](Session& s) -> Status {
    Tx tx(s);
    if (Status st = tx.begin(); !st.ok()) return st;
    auto d = s.exec(
        "DELETE FROM zkpipe_jobs WHERE finished_at IS NOT NULL AND finished_at < clock_timestamp() - $1 * interval '1 "
        "second'",
        Params().f64(static_cast<double>(ttl_s)), "forgetting expired jobs");
    if (!d.ok()) return d.status();
    auto k = s.exec(
        "DELETE FROM zkpipe_jobs WHERE id IN (SELECT id FROM zkpipe_jobs WHERE finished_at IS NOT NULL "
        "ORDER BY finished_at DESC OFFSET $1)",
        Params().i64(static_cast<std::int64_t>(limits_.max_kept_results)), "forgetting the oldest results");
    if (!k.ok()) return k.status();
    // As drop_input_if_unused, for every unreferenced input: lock first (skipping those an accept
    // holds), then delete in a later statement that sees every job committed meanwhile.
    auto unused = s.exec(
        "SELECT hash FROM zkpipe_inputs i WHERE NOT EXISTS (SELECT 1 FROM zkpipe_jobs j WHERE j.input_hash = i.hash) "
        "FOR UPDATE SKIP LOCKED",
        "finding unused inputs");
    if (!unused.ok()) return unused.status();
    if (unused->size() > 0) {
      std::vector<std::string> hashes;
      for (int r = 0; r < unused->size(); ++r) hashes.push_back(unused->text(r, 0));
      auto i = s.exec(
          "DELETE FROM zkpipe_inputs i WHERE hash = ANY($1) "
          "AND NOT EXISTS (SELECT 1 FROM zkpipe_jobs j WHERE j.input_hash = i.hash)",
          Params().texts(hashes), "dropping unused inputs");
      if (!i.ok()) return i.status();
    }
    auto m = s.exec("DELETE FROM zkpipe_machines WHERE heartbeat_at < clock_timestamp() - interval '1 day'",
                    "dropping silent machines");
    if (!m.ok()) return m.status();
    return tx.commit();
  });
}

Result<QueueStatus> PgJobStore::status() {
  return call<Result<QueueStatus>>("job store status", [&](Session& s) -> Result<QueueStatus> {
    QueueStatus out;
    auto q = s.exec("SELECT state, COUNT(*) FROM zkpipe_jobs GROUP BY state", "counting jobs");
    if (!q.ok()) return q.status();
    for (int r = 0; r < q->size(); ++r) {
      const auto st = detail::parse_state(q->text(r, 0));
      const auto n = static_cast<std::uint64_t>(q->i64(r, 1));
      if (!st) continue;
      out.count(*st) = n;
    }
    auto b = s.exec("SELECT COALESCE(SUM(size), 0)::int8 FROM zkpipe_inputs", "summing inputs");
    if (!b.ok()) return b.status();
    out.input_bytes = static_cast<std::uint64_t>(b->i64(0, 0));
    // COLLATE "C": owners in byte order, as SQLite sorts them, whatever the database's locale.
    auto m = s.exec(
        "SELECT m.owner, EXTRACT(EPOCH FROM clock_timestamp() - m.heartbeat_at)::float8, "
        "(SELECT COUNT(*) FROM zkpipe_jobs j WHERE j.owner = m.owner AND j.state = 'running') "
        "FROM zkpipe_machines m ORDER BY m.owner COLLATE \"C\"",
        "listing machines");
    if (!m.ok()) return m.status();
    for (int r = 0; r < m->size(); ++r) {
      out.machines.push_back({m->text(r, 0), m->f64(r, 1), static_cast<std::uint64_t>(m->i64(r, 2))});
    }
    return out;
  });
}

bool PgJobStore::start_listening(Clock::time_point deadline) {
  // Connected without blocking (PQconnectStartParams, PQconnectPoll), so that a wait never runs
  // past its timeout on a slow or unreachable server.
  const pg::ConnParams params(conninfo_);
  PGconn* c = PQconnectStartParams(params.keys(), params.vals(), 1);
  // Any failure: poll without LISTEN for a while. Asked again after a second (the server was
  // restarting, or the wait too short to connect), or after 30 s when the server refused LISTEN
  // (YugabyteDB's default; it also asks to retry while it prepares the feature).
  auto fail = [&](std::chrono::milliseconds retry_after) {
    if (c) PQfinish(c);
    listen_retry_ = Clock::now() + retry_after;
    return false;
  };
  if (!c || PQstatus(c) == CONNECTION_BAD) return fail(1s);
  pg::quiet_notices(c);
  for (PostgresPollingStatusType st = PGRES_POLLING_WRITING; st != PGRES_POLLING_OK; st = PQconnectPoll(c)) {
    if (st == PGRES_POLLING_FAILED) return fail(1s);
    if (!pg::wait_socket(PQsocket(c), st == PGRES_POLLING_READING ? POLLIN : POLLOUT, deadline)) return fail(1s);
  }
  if (PQsetnonblocking(c, 1) != 0 || !PQsendQuery(c, "LISTEN zkpipe_jobs")) return fail(1s);
  for (int f; (f = PQflush(c)) != 0;) {
    if (f < 0 || !pg::wait_socket(PQsocket(c), POLLIN | POLLOUT, deadline) || !PQconsumeInput(c)) return fail(1s);
  }
  bool listening = false, refused = false;
  for (;;) {
    while (PQisBusy(c)) {
      if (!pg::wait_socket(PQsocket(c), POLLIN, deadline) || !PQconsumeInput(c)) return fail(1s);
    }
    PGresult* r = PQgetResult(c);
    if (!r) break;
    (PQresultStatus(r) == PGRES_COMMAND_OK ? listening : refused) = true;
    PQclear(r);
  }
  if (!listening || refused) return fail(PQstatus(c) == CONNECTION_OK ? 30s : 1s);
  listener_ = c;
  return true;
}

void PgJobStore::drop_listener(std::chrono::milliseconds retry_after) {
  PQfinish(listener_);
  listener_ = nullptr;
  listen_retry_ = Clock::now() + retry_after;
}

void PgJobStore::wait_for_change(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::unique_lock changes(change_m_);
  const std::uint64_t seen = version_;
  changes.unlock();
  auto changed_since = [&] {
    std::lock_guard lock(change_m_);
    return version_ != seen;
  };
  auto sleep_until = [&](Clock::time_point t) {
    std::unique_lock lock(change_m_);
    change_cv_.wait_until(lock, t, [&] { return version_ != seen; });
  };
  // One caller polls the LISTEN connection; another waiting meanwhile sleeps until the poller (or
  // this process) signals a change.
  std::unique_lock poller(listen_m_, std::try_to_lock);
  if (!poller.owns_lock()) return sleep_until(deadline);
  while (!changed_since() && Clock::now() < deadline) {
    if (!listener_ && Clock::now() >= listen_retry_) start_listening(deadline);
    if (!listener_) {
      sleep_until(std::min(deadline, listen_retry_));
      continue;
    }
    pollfd fds[2] = {{PQsocket(listener_), POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    const int n = ::poll(fds, wake_fd_ >= 0 ? 2 : 1, static_cast<int>(std::clamp<std::int64_t>(left, 0, INT_MAX)));
    if (n < 0) {
      if (errno != EINTR) drop_listener(1s);
      continue;
    }
    if (n > 0 && (fds[1].revents & POLLIN)) {
      std::uint64_t count;
      [[maybe_unused]] const ssize_t r = ::read(wake_fd_, &count, sizeof count);  // changed_since() tells
    }
    if (n > 0 && fds[0].revents) {
      if (!PQconsumeInput(listener_) || PQstatus(listener_) != CONNECTION_OK) {
        drop_listener(1s);  // the server went away: poll, and LISTEN again once it is back
        continue;
      }
      bool notified = false;
      while (PGnotify* note = PQnotifies(listener_)) {
        notified = true;
        PQfreemem(note);
      }
      if (notified) {
        // Notifications that arrived between two waits wake this one at once: a change since the
        // caller's last claim is worth another look.
        changed();
        return;
      }
    }
  }
}

}  // namespace zk::store
