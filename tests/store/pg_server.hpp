#pragma once

// A throwaway PostgreSQL server for the job store's tests: initdb in a temporary directory, then a
// postgres that listens on a unix socket in that directory only (no TCP port, so servers of
// parallel test processes never meet), stopped and removed with the object. stop() and start()
// again restart it on the same data and socket, as a database restarted under a running daemon.
//
// PostgreSQL refuses to run as root, and the tests run as root here and in CI: the server then runs
// as `nobody` (the directory is handed over to it). Without the server binaries (Debian's
// postgresql package, scripts/install-deps.sh), unavailable() says so and the tests skip.
// ZKPIPE_PG_BIN names another directory holding initdb and postgres.

#include <fcntl.h>
#include <grp.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/status.hpp"

namespace zk::store {

class PgServer {
 public:
  PgServer() {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (const char* env = std::getenv("ZKPIPE_PG_BIN"); env && *env) {
      bin_ = env;
    } else {
      // Debian and Ubuntu: /usr/lib/postgresql/<major>/bin, the newest first.
      for (int major = 30; major >= 10 && bin_.empty(); --major) {
        const std::string d = "/usr/lib/postgresql/" + std::to_string(major) + "/bin";
        if (fs::exists(d + "/postgres", ec)) bin_ = d;
      }
    }
    if (bin_.empty() || !fs::exists(bin_ + "/initdb", ec) || !fs::exists(bin_ + "/postgres", ec)) {
      why_ =
          "PostgreSQL's server binaries (initdb, postgres) are not installed (Debian: apt-get install postgresql, "
          "or scripts/install-deps.sh; elsewhere set ZKPIPE_PG_BIN)";
      return;
    }
    if (::geteuid() == 0) {
      const passwd* pw = ::getpwnam("nobody");
      if (!pw) {
        why_ = "running as root, and there is no user 'nobody' to run PostgreSQL as (it refuses root)";
        return;
      }
      uid_ = pw->pw_uid;
      gid_ = pw->pw_gid;
      drop_privileges_ = true;
    }
    // Under /tmp rather than $TMPDIR: a unix socket's path is at most 107 bytes.
    char tmpl[] = "/tmp/zkpipe-pg-XXXXXX";
    if (!::mkdtemp(tmpl)) {
      why_ = "cannot make a temporary directory under /tmp";
      return;
    }
    dir_ = tmpl;
    if (drop_privileges_ && ::chown(dir_.c_str(), uid_, gid_) != 0) {
      why_ = "cannot hand " + dir_ + " over to user nobody";
    }
  }

  ~PgServer() {
    if (pid_ > 0) {
      // Immediate shutdown: the postmaster stops its backends and exits at once (the data is thrown away).
      ::kill(pid_, SIGQUIT);
      if (!reap(std::chrono::seconds(10))) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
      }
    }
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  PgServer(const PgServer&) = delete;
  PgServer& operator=(const PgServer&) = delete;

  /// Why no server can run here ("" when one can).
  std::string unavailable() const { return why_; }
  bool running() const { return pid_ > 0; }
  /// The directory of the server's unix socket.
  const std::string& socket_dir() const { return dir_; }
  static constexpr const char* kPort = "5432";

  /// A libpq URI for database `db` on this server (as user zkpipe, trusted without a password).
  std::string conninfo(const std::string& db = "postgres") const {
    return "postgresql:///" + db + "?host=" + dir_ + "&port=" + kPort + "&user=zkpipe";
  }

  /// Starts the server (initializing its data directory the first time) and waits, at most 30 s,
  /// until it accepts connections.
  Status start() {
    if (!why_.empty()) return Status::unavailable(why_);
    if (pid_ > 0) return {};
    const std::string data = dir_ + "/data";
    if (!initialized_) {
      // Trust: the socket is only reachable through this private directory. No sync: throwaway data.
      const pid_t init =
          spawn({bin_ + "/initdb", "-D", data, "-A", "trust", "-U", "zkpipe", "--no-sync", "--locale=C", "-E", "UTF8"},
                dir_ + "/initdb.log");
      int status = 0;
      if (init < 0 || ::waitpid(init, &status, 0) != init || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        return Status::unavailable("initdb failed: " + tail(dir_ + "/initdb.log"));
      }
      initialized_ = true;
    }
    // -F, fsync=off: throwaway data, faster commits. Small shared memory: several servers may run at
    // once (ctest runs test processes in parallel).
    pid_ = spawn({bin_ + "/postgres", "-D", data, "-k", dir_, "-p", kPort, "-c", "listen_addresses=", "-F", "-c",
                  "fsync=off", "-c", "shared_buffers=16MB", "-c", "max_connections=50"},
                 dir_ + "/postgres.log");
    if (pid_ < 0) return Status::unavailable("cannot start postgres: " + tail(dir_ + "/postgres.log"));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    const std::string ping = conninfo();
    while (PQping(ping.c_str()) != PQPING_OK) {
      if (reap(std::chrono::milliseconds(0))) {
        return Status::unavailable("postgres exited at start: " + tail(dir_ + "/postgres.log"));
      }
      if (std::chrono::steady_clock::now() > deadline) {
        return Status::unavailable("postgres did not accept connections within 30 s: " + tail(dir_ + "/postgres.log"));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return {};
  }

  /// Stops the server (fast shutdown: clients are disconnected, the data kept) and waits for it.
  Status stop() {
    if (pid_ <= 0) return {};
    ::kill(pid_, SIGINT);
    if (!reap(std::chrono::seconds(30))) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
      pid_ = -1;
      return Status::unavailable("postgres did not stop within 30 s; killed");
    }
    return {};
  }

  /// Runs one SQL statement (or several, without parameters) on database `db`.
  Status sql(const std::string& db, const std::string& statement) const {
    PGconn* c = PQconnectdb(conninfo(db).c_str());
    Status st;
    if (PQstatus(c) != CONNECTION_OK) {
      st = Status::unavailable(std::string("cannot connect: ") + PQerrorMessage(c));
    } else {
      PGresult* r = PQexec(c, statement.c_str());
      const auto rs = PQresultStatus(r);
      if (rs != PGRES_COMMAND_OK && rs != PGRES_TUPLES_OK) {
        st = Status::io_error(statement + ": " + PQerrorMessage(c));
      }
      PQclear(r);
    }
    PQfinish(c);
    return st;
  }

 private:
  /// fork + exec, as `nobody` when running as root, output to `log`; the child's pid or -1.
  pid_t spawn(const std::vector<std::string>& args, const std::string& log) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (out < 0) return -1;
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
      // The child of a threaded process: system calls only until exec.
      ::dup2(out, 1);
      ::dup2(out, 2);
      const int null_in = ::open("/dev/null", O_RDONLY);
      if (null_in >= 0) ::dup2(null_in, 0);
      if (::chdir(dir_.c_str()) != 0) ::_exit(126);
      if (drop_privileges_ && (::setgroups(0, nullptr) != 0 || ::setgid(gid_) != 0 || ::setuid(uid_) != 0)) {
        ::_exit(126);
      }
      // Gone with the test process, even if it is killed (set after setuid, which clears it).
      // Tests start the server from gtest's main thread, whose end is the process's.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(126);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(out);
    return pid;
  }

  /// Waits up to `limit` for the server to exit; true when it did (or was never started).
  bool reap(std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
      if (pid_ <= 0) return true;
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return true;
      }
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  static std::string tail(const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    std::string s = ss.str();
    if (s.size() > 2000) s = "..." + s.substr(s.size() - 2000);
    return s.empty() ? "(no output in " + path + ")" : s;
  }

  std::string bin_, dir_, why_;
  bool drop_privileges_ = false, initialized_ = false;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  pid_t pid_ = -1;
};

}  // namespace zk::store
