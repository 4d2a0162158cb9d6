/**
 * The spawn timer rtbench runs with `python3 -I -c`: Deno cannot read the
 * resource usage of its children, Python's `os.wait4` can. It times each run
 * the way hyperfine does (a monotonic clock read just before spawn and just
 * after the child is reaped), and reads user and system CPU time (µs) and
 * peak RSS of that child from `wait4`. The timer stays up between runs, so
 * starting it is never near a timed span, and runs of several records can be
 * interleaved, each record with a timer of its own.
 *
 * Input on stdin, one JSON object per line: first the session, `argv`, `env`
 * (every variable of each run, exactly: not Python's own environment, which
 * Python may have added to), `cpus` (list or null), `outDir`, `keepBytes`,
 * `timeoutSec` (0: none; a run taking longer is killed and reported with
 * `timedOut`); then one line per
 * run, `{"index": n, "warmup": bool}`. Output: one JSON line per run. End of
 * input ends the timer.
 *
 * @module
 */

/** Python 3.8+ source of the timer. */
export const WAIT4_TIMER_PY = `
import json, os, signal, sys, time
p = json.loads(sys.stdin.readline())
argv = p["argv"]
if p.get("cpus"):
    os.sched_setaffinity(0, p["cpus"])
keep = p["keepBytes"]
out_path = os.path.join(p["outDir"], ".rtbench-stdout")
err_path = os.path.join(p["outDir"], ".rtbench-stderr")
env = p["env"] if p.get("env") is not None else dict(os.environ)
timeout = p.get("timeoutSec") or 0
state = {"pid": 0, "fired": False}

def on_alarm(signum, frame):
    if state["pid"]:
        state["fired"] = True
        os.kill(state["pid"], signal.SIGKILL)

signal.signal(signal.SIGALRM, on_alarm)

def once(index, warmup):
    with open(out_path, "wb") as o, open(err_path, "wb") as e, open(os.devnull, "rb") as n:
        actions = [(os.POSIX_SPAWN_DUP2, n.fileno(), 0), (os.POSIX_SPAWN_DUP2, o.fileno(), 1),
                   (os.POSIX_SPAWN_DUP2, e.fileno(), 2)]
        t0 = time.perf_counter_ns()
        pid = os.posix_spawnp(argv[0], argv, env, file_actions=actions)
        state["pid"], state["fired"] = pid, False
        if timeout:
            signal.setitimer(signal.ITIMER_REAL, timeout)
        _, status, ru = os.wait4(pid, 0)
        t1 = time.perf_counter_ns()
        signal.setitimer(signal.ITIMER_REAL, 0)
        state["pid"] = 0
    with open(out_path, "rb") as o:
        out = o.read(keep)
    with open(err_path, "rb") as e:
        e.seek(0, 2)
        e.seek(max(0, e.tell() - 4096))
        err = e.read()
    run = {
        "index": index, "warmup": warmup, "wallNs": t1 - t0,
        "userUs": round(ru.ru_utime * 1e6), "systemUs": round(ru.ru_stime * 1e6),
        "maxRssKiB": ru.ru_maxrss,
        "exitCode": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "timedOut": state["fired"],
        "stdout": out.decode("utf-8", "replace"), "stderr": err.decode("utf-8", "replace"),
    }
    sys.stdout.write(json.dumps(run) + "\\n")
    sys.stdout.flush()

for line in sys.stdin:
    if line.strip():
        req = json.loads(line)
        once(req["index"], req["warmup"])
`;

/** Checks that this Python has what the timer uses. */
export const WAIT4_PROBE_PY = "import json, os, signal, sys, time; os.posix_spawnp; os.wait4; os.sched_setaffinity; " +
  "sys.exit(0 if sys.version_info >= (3, 8) else 1)";
