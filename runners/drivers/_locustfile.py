# The locustfile rtbench runs: the workload's own requests on FastHttpUser, every response checked as rtbench's
# engine checks it (status, content-type, exact body or the workload's pattern, a captured id carried from a create
# to the requests that use it), each worker keeping its own counts and latency histogram over the warm-up, the
# measured window and after it, printed as one JSON line when the master stops it. rtbench writes RTBENCH_CONFIG
# below for one run; the rest of this file is the same for every run.
import json
import math
import random
import re
import sys
import time

import gevent
import geventhttpclient.client
from locust import FastHttpUser, events, task

# A request whose connection closes unanswered is an error, as the engine counts it: geventhttpclient would otherwise
# send an idempotent request again on a fresh connection and hide the drop.
geventhttpclient.client._may_retry_after_send_error = lambda _method: False

CONFIG = json.loads(RTBENCH_CONFIG)
CAPTURE = "{{capture}}"
MARKER = "RTBENCH_LOCUST "


def compile_request(r):
    pattern = r.get("bodyPattern")
    templated = pattern is not None and CAPTURE in pattern
    return {
        **r,
        "templated": templated or CAPTURE in r["path"],
        "regex": None if pattern is None or templated else re.compile(pattern, re.ASCII),
        "captureRe": re.compile(r["capture"], re.ASCII) if r.get("capture") else None,
        "exact": r["body"].encode() if r.get("body") is not None else None,
        "data": r["requestBody"].encode() if r.get("requestBody") is not None else None,
    }


REQUESTS = [compile_request(r) for r in CONFIG["requests"]]
LABELS = CONFIG["labels"]
PHASES = CONFIG["phases"]  # null: closed model; else [[durationSec, fromRate, toRate], ...]


def bucket(us):
    """A latency in microseconds kept to three significant digits, as an HDR histogram keeps it."""
    us = max(1, int(us))
    if us < 1000:
        return us
    unit = 10 ** (int(math.log10(us)) - 2)
    return us // unit * unit


def counts():
    return {"responses": 0, "valid": 0, "non2xx": 0, "mismatches": 0, "errors": 0, "timeouts": 0, "bytes": 0}


class Worker:
    """What this worker saw: counts per part of the run, the window's latency histogram, its CPU."""

    def __init__(self):
        self.t0 = None
        self.sent = 0
        self.parts = {"warmup": counts(), "window": counts(), "late": counts()}
        self.histogram = {}
        self.endpoints = [{"responses": 0, "valid": 0, "warmupValid": 0, "histogram": {}} for _ in LABELS]
        self.phases = [
            {"responses": 0, "valid": 0, "missedConnections": 0, "missedClient": 0, "histogram": {}} for _ in PHASES or []
        ]
        self.first_mismatch = None
        self.cpu = [None, None]
        self.cpu_warning = None
        self.printed = False
        self.users = 0
        # Requests sent and not answered (nor failed) yet: those still out when the master stops this worker are
        # requests left unanswered, which Locust itself never reports.
        self.outstanding = 0

    def begin(self):
        if self.t0 is not None:
            return
        self.t0 = time.time()
        self.start = self.t0 + CONFIG["warmupSec"]
        load = sum(p[0] for p in PHASES) if PHASES else CONFIG["durationSec"]
        self.end = self.start + load
        gevent.spawn(self.watch_cpu)

    def watch_cpu(self):
        # CPU time of this worker over the measured window, as Locust's own CPU warning judges it (percent of a core).
        gevent.sleep(max(0, self.start - time.time()))
        self.cpu[0] = (time.process_time(), time.time())
        gevent.sleep(max(0, self.end - time.time()))
        self.cpu[1] = (time.process_time(), time.time())

    def part(self, at):
        return "warmup" if at < self.start else "window" if at < self.end else "late"

    def report(self):
        if self.printed:
            return
        self.printed = True
        cpu = None
        if self.cpu[0] is not None:
            end = self.cpu[1] or (time.process_time(), time.time())
            if end[1] > self.cpu[0][1]:
                cpu = round((end[0] - self.cpu[0][0]) / (end[1] - self.cpu[0][1]) * 100, 1)
        now = time.time()
        out = {
            "windowStartMs": round(self.start * 1000) if self.t0 else None,
            "durationMs": round((min(now, self.end) - self.start) * 1000) if self.t0 and now > self.start else 0,
            "sent": self.sent,
            "parts": self.parts,
            "histogram": sorted(self.histogram.items()),
            "endpoints": [{**e, "histogram": sorted(e["histogram"].items())} for e in self.endpoints],
            "phases": [{**p, "histogram": sorted(p["histogram"].items())} for p in self.phases],
            "firstMismatch": self.first_mismatch,
            "cpuPercent": cpu,
            "cpuWarning": self.cpu_warning,
            "users": self.users,
            "outstanding": self.outstanding,
        }
        sys.stdout.write(MARKER + json.dumps(out) + "\n")
        sys.stdout.flush()


W = Worker()


@events.test_start.add_listener
def on_test_start(environment, **_kwargs):
    W.begin()


@events.test_stop.add_listener
def on_test_stop(environment, **_kwargs):
    from locust.runners import WorkerRunner

    if isinstance(environment.runner, WorkerRunner):
        W.report()


@events.cpu_warning.add_listener
def on_cpu_warning(environment, cpu_usage=None, **_kwargs):
    # Locust's own warning (its worker above 90% of a core): the highest usage it reported.
    W.cpu_warning = max(W.cpu_warning or 0, cpu_usage or 0)


def header(response, name):
    try:
        return response.headers.get(name)
    except Exception:
        return None


def verdict(request, response, captured):
    """'valid', 'non2xx', 'mismatch' or 'error', and a description of a fault; the engine's rules exactly."""
    status = response.status_code
    # Locust's own status check marks a 4xx or 5xx answer with an error; it is an answer all the same.
    if status and (status < 200 or status > 299):
        return "non2xx", None
    if getattr(response, "error", None) is not None or not status:
        return "error", f"{type(response.error).__name__}: {response.error}"
    body = response.content or b""
    ctype = header(response, "content-type") or ""
    if status != request["status"] or ctype != request["contentType"]:
        return "mismatch", describe(status, ctype, body)
    if request["exact"] is not None and body != request["exact"]:
        return "mismatch", describe(status, ctype, body)
    pattern = request["regex"]
    if request["templated"] and request.get("bodyPattern") is not None:
        pattern = re.compile(request["bodyPattern"].replace(CAPTURE, re.escape(captured or "")), re.ASCII)
    if pattern is not None and pattern.fullmatch(body.decode("utf-8", "replace")) is None:
        return "mismatch", describe(status, ctype, body)
    return "valid", None


def describe(status, ctype, body):
    return f"status {status}, content-type {ctype or '(none)'}, body {body[:120].decode('utf-8', 'replace')}"


def size(response):
    try:
        head = sum(len(k) + len(v) + 4 for k, v in response.headers.items())
    except Exception:
        head = 0
    return 17 + head + 2 + len(response.content or b"")


def rate_at(at):
    """The open model's rate at time `at`: the first phase's starting rate over the warm-up, then the phases."""
    if at < W.start:
        return PHASES[0][1] or PHASES[0][2]
    t = at - W.start
    for duration, start, end in PHASES:
        if t < duration:
            return start + (end - start) * t / duration
        t -= duration
    return PHASES[-1][2]


def phase_index(at):
    t = at - W.start
    if t < 0:
        return None
    for i, (duration, _start, _end) in enumerate(PHASES):
        if t < duration:
            return i
        t -= duration
    return None


class RtbenchUser(FastHttpUser):
    network_timeout = CONFIG["timeoutSec"]
    connection_timeout = CONFIG["timeoutSec"]
    max_retries = 0
    concurrency = 1
    # rtbench sends only the workload's headers; Locust adds Accept-Encoding unless one is given.
    default_headers = {"Accept-Encoding": "identity"}

    def wait_time(self):
        return 0

    def on_start(self):
        W.begin()
        index = W.users
        W.users += 1
        # Users start at different places of the rotation, as the engine's connections do.
        runner = self.environment.runner
        worker, workers = getattr(runner, "worker_index", 0), CONFIG["workers"]
        self.next = (worker + index * workers) % len(REQUESTS)
        self.captured = None
        self.due = None
        self.answered_at = 0.0

    def pick(self):
        for _ in range(len(REQUESTS)):
            r = REQUESTS[self.next]
            if not (r["templated"] and self.captured is None):
                return r
            self.next = (self.next + 1) % len(REQUESTS)
        return REQUESTS[self.next]

    def pace(self):
        """Open model: waits for this user's next due time; returns it, and whether the send is late and why."""
        users = CONFIG["users"]
        if self.due is None:
            rate = rate_at(time.time())
            self.due = time.time() + random.random() * users / rate
        now = time.time()
        if self.due > now:
            gevent.sleep(self.due - now)
        due = self.due
        interval = users / max(rate_at(due), 1e-9)
        self.due = due + (random.expovariate(1 / interval) if CONFIG["arrival"] == "poisson" else interval)
        # Late as the engine counts it: more than 10 ms after it was due.
        late = time.time() - due > 0.010
        return due, late, late and self.answered_at > due

    @task
    def send(self):
        if time.time() >= W.end:
            gevent.sleep(0.5)  # the window is over: no new requests, the ones in flight are answered
            return
        due, late, busy = self.pace() if PHASES else (None, False, False)
        if time.time() >= W.end:
            return
        r = self.pick()
        self.next = (self.next + 1) % len(REQUESTS)
        path = r["path"].replace(CAPTURE, self.captured) if r["templated"] and CAPTURE in r["path"] else r["path"]
        W.sent += 1
        W.outstanding += 1
        with self.client.request(
            r["method"], path, data=r["data"], headers=r["headers"], name=r["endpointName"], catch_response=True
        ) as response:
            W.outstanding -= 1
            self.answered_at = time.time()
            kind, why = verdict(r, response, self.captured)
            if kind == "valid":
                response.success()
            else:
                response.failure(f"rtbench {kind}: {why or response.status_code}")
            self.count(r, response, kind, why, due, late, busy)
            if r["captureRe"] is not None:
                found = r["captureRe"].search(response.content.decode("utf-8", "replace")) if kind == "valid" else None
                self.captured = found.group(1) if found else None

    def count(self, r, response, kind, why, due, late, busy):
        at = self.answered_at
        part = W.parts[W.part(at)]
        if kind == "error":
            part["errors"] += 1
            if "timeout" in (why or "").lower():
                part["timeouts"] += 1
            return
        part["responses"] += 1
        part["bytes"] += size(response)
        if kind == "non2xx":
            part["non2xx"] += 1
        elif kind == "mismatch":
            part["mismatches"] += 1
        else:
            part["valid"] += 1
        if kind != "valid" and W.first_mismatch is None and why:
            W.first_mismatch = why
        # Open model: from when the request was due (a late send counts against the server, as in the engine).
        us = bucket((at - due) * 1e6 if due is not None else response.request_meta["response_time"] * 1000)
        where = W.part(at)
        endpoint = W.endpoints[r["endpoint"]] if r["endpoint"] is not None else None
        if where == "window":
            if endpoint is not None:
                endpoint["responses"] += 1
            if kind == "valid":
                W.histogram[us] = W.histogram.get(us, 0) + 1
                if endpoint is not None:
                    endpoint["valid"] += 1
                    endpoint["histogram"][us] = endpoint["histogram"].get(us, 0) + 1
        elif where == "warmup" and kind == "valid" and endpoint is not None:
            endpoint["warmupValid"] += 1
        if due is not None:
            i = phase_index(due)
            if i is not None:
                phase = W.phases[i]
                phase["responses"] += 1
                if late:
                    phase["missedConnections" if busy else "missedClient"] += 1
                if kind == "valid":
                    phase["valid"] += 1
                    phase["histogram"][us] = phase["histogram"].get(us, 0) + 1
