"""The "threaded" fixture's server process (started by threaded-server.ts): a strict
sliding-window limiter in Python's standard library server, at its defaults, as anyone would
write one. ThreadingHTTPServer gives each connection its own thread; each thread parses the whole
request, then stamps it under one global lock (and the interpreter's own lock, the GIL). Its
defaults are kept on purpose: a listen backlog of 5 (request_queue_size), so of a burst of new
connections the kernel drops the SYNs past the backlog and the client's TCP sends them again a
second later, and HTTP/1.0, one connection per request. Nothing here models a delay.

Env: PER_SECOND (20), WINDOW_MS (1000), BACKWARD_MAX_MS and BACKWARD_MIN_MS (a uniform random
delay in [min, max) after the stamp, before the answer; 0 and 0), BACKLOG_FULL_MS (0): for this
long after it listens, its backlog is kept full by connections of its own, so every SYN sent
then is dropped and the client's TCP sends it again a second later.

stdout, one JSON line each: {"ready": url} once listening, {"arrival": {...}} for each stamp
(printed before the answer is sent), {"flushed": id} for each line "flush <id>" read on stdin,
after every arrival stamped before it. The process exits when stdin closes (the parent died or
closed it) or on SIGTERM.
"""

import hashlib
import json
import os
import random
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PER_SECOND = int(os.environ.get("PER_SECOND", "20"))
WINDOW_S = float(os.environ.get("WINDOW_MS", "1000")) / 1000
BACKWARD_MAX_S = float(os.environ.get("BACKWARD_MAX_MS", "0")) / 1000
BACKWARD_MIN_S = float(os.environ.get("BACKWARD_MIN_MS", "0")) / 1000
BACKLOG_FULL_S = float(os.environ.get("BACKLOG_FULL_MS", "0")) / 1000
RATE_MESSAGE = "Maximum request rate exceeded. Wait {}secs before issuing a new request"

lock = threading.Lock()
recent = {}
per_route = {}


def emit(message):
    # One writer at a time, so lines never interleave; flushed at once for the parent.
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def handle_any(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length).decode("utf-8") if length else ""
        authorization = self.headers.get("authorization") or ""
        key = hashlib.sha256(authorization.encode()).hexdigest()[:16]
        with lock:
            now = time.monotonic()  # CLOCK_MONOTONIC: the clock the Node processes stamp with
            route = f"{self.command} {self.path.split('?')[0]}"
            n = per_route.get(route, 0) + 1
            per_route[route] = n
            times = [t for t in recent.get(key, []) if t > now - WINDOW_S]
            times.append(now)
            recent[key] = times
            over = len(times) > PER_SECOND
            status = 429 if over else 200
            arrival = {"at": now * 1000, "key": key, "method": self.command}
            arrival.update({"url": self.path, "n": n, "status": status})
            emit({"arrival": arrival})
        if BACKWARD_MAX_S > 0:
            time.sleep(random.uniform(BACKWARD_MIN_S, BACKWARD_MAX_S))
        if over:
            seconds = max(0, int(-(-(times[0] + WINDOW_S - now) // 1)))
            payload = {"message": RATE_MESSAGE.format(seconds)}
        else:
            payload = {"method": self.command, "url": self.path, "n": n, "body": body}
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        if over:
            self.send_header("retry-after", str(seconds))
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = handle_any


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # Linux drops a SYN once more than `backlog` connections wait to be accepted.
    fillers = [
        socket.create_connection(server.server_address)
        for _ in range(server.request_queue_size + 1 if BACKLOG_FULL_S > 0 else 0)
    ]

    def serve():
        if fillers:
            time.sleep(BACKLOG_FULL_S)
            for filler in fillers:
                server.socket.accept()[0].close()
                filler.close()
        server.serve_forever()

    threading.Thread(target=serve, daemon=True).start()
    emit({"ready": f"http://127.0.0.1:{server.server_address[1]}"})
    for line in sys.stdin:
        if line.startswith("flush "):
            with lock:
                emit({"flushed": int(line.split()[1])})
    os._exit(0)


main()
