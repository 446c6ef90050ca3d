#!/usr/bin/env python3
"""A page server for the remote-page tests: serves the files of ROOT over HTTP on 127.0.0.1 (an ephemeral
port, printed as the first line of stdout), and misbehaves on request, as real servers do.

    python3 page_server.py ROOT [--tls CERT KEY] [--timing FILE] [--exit-with-stdin]

With --tls, it serves HTTPS with the certificate chain CERT and its key KEY (PEM files), for the https tests;
a client that refuses the certificate is a closed connection, nothing more. Without it, a client that starts
a TLS handshake on the plain port is answered 400 Bad Request at once, as nginx does (http.server itself would
wait for a line end that a ClientHello may never contain).

Behaviour is scripted per path by ROOT/_script.json, read at every request: {"/page-1.json": [step, ...]}.
Each request to the path takes the next step (the last one is kept once the list runs out); a path with no
script is served from ROOT. Steps:
    {"status": 503, "headers": {"Retry-After": "2"}}    answer with that status (and headers), a short body
    {"redirect": "/b.json", "status": 302}              redirect there
    {"hold": "name"}                                    answer only once /_release/name was requested
                                                        (at most 60 s), then serve the file
    {"silent": true}                                    read the request and never answer (until 60 s)
    {"stall_after": 100}                                send the headers (full Content-Length) and 100 bytes
                                                        of the file, then nothing more (until 60 s)
    {"reset": true}                                     close the connection with a TCP reset, no answer
    {"reset_after": 100}                                send the headers and 100 bytes, then reset
    {"close_after": 100}                                send the headers and 100 bytes, then close the
                                                        connection in order (FIN, no reset)
    {"body": "text", "status": 200}                     answer with this body
    {"unannounced": true}                               serve the file without a Content-Length: the body
                                                        ends when the connection closes
    {"serve": true}                                     serve the file

With --timing, the server's own time for each page request (from the request parsed to the last byte
written, in milliseconds) is appended to FILE, one a line: Scripts/bench takes it off the client's time.

Each connection an HTTP request arrived on is appended to ROOT/_connections.log (one line a connection), which
tells whether a client kept a connection alive for its next request.

GET /_log answers the paths requested so far (one a line, scripted or not, /_ paths left out), which are
also appended to ROOT/_requests.log as they come. The server stops on SIGTERM, with --exit-with-stdin when
its stdin closes (the tests hold it: when a test process ends, however it ends, so does its server), or by
itself after 300 s, so that no test leaves it running.
"""
import json
import os
import select
import signal
import socket
import ssl
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.abspath(sys.argv[1])
TIMING = sys.argv[sys.argv.index("--timing") + 1] if "--timing" in sys.argv else None
TLS = sys.argv[sys.argv.index("--tls") + 1:sys.argv.index("--tls") + 3] if "--tls" in sys.argv else None
TLS_CONTEXT = None
if TLS:
    TLS_CONTEXT = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    TLS_CONTEXT.load_cert_chain(TLS[0], TLS[1])
LOG = []
TAKEN = {}
RELEASED = {}
LOCK = threading.Lock()
CHANGED = threading.Condition(LOCK)


def step_for(path):
    try:
        with open(os.path.join(ROOT, "_script.json")) as f:
            script = json.load(f)
    except (OSError, ValueError):
        return None
    steps = script.get(path)
    if not steps:
        return None
    with LOCK:
        n = TAKEN.get(path, 0)
        TAKEN[path] = n + 1
    return steps[min(n, len(steps) - 1)]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as two writes: with Nagle's algorithm on, the body waits for the client's
    # delayed ACK of the headers (40 ms on Linux), a stall of this server's, not of the client's.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def setup(self):
        if TLS:
            # The handshake runs here, on this connection's thread, so that a client that stalls or refuses the
            # certificate holds up no other connection; a failed one ends the connection (Server.handle_error).
            self.request.settimeout(60)
            self.request.do_handshake()
            self.request.settimeout(None)
        elif self.request.recv(1, socket.MSG_PEEK) == b"\x16":
            # A TLS handshake record on the plain port: an https URL aimed at this http server. The ClientHello
            # is read first (one record, one segment from a loopback client): closing with it unread would
            # send a reset, which may reach the client before the answer does.
            self.request.recv(65536)
            self.request.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            self.request.shutdown(socket.SHUT_WR)
            raise NotHTTP()
        super().setup()
        with LOCK:
            with open(os.path.join(ROOT, "_connections.log"), "a") as f:
                f.write("%s:%d\n" % self.client_address[:2])

    def file_bytes(self, path):
        full = os.path.realpath(os.path.join(ROOT, path.lstrip("/")))
        if not full.startswith(ROOT + os.sep) or not os.path.isfile(full):
            return None
        with open(full, "rb") as f:
            return f.read()

    def answer(self, status, body, headers=None, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def serve_file(self, path):
        body = self.file_bytes(path)
        if body is None:
            self.answer(404, b'{"error":"no such page"}')
        else:
            self.answer(200, body)

    def reset(self):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def do_GET(self):
        started = time.perf_counter()
        self.answer_request()
        if TIMING and not self.path.startswith("/_"):
            with LOCK:
                with open(TIMING, "a") as f:
                    f.write("%.4f\n" % ((time.perf_counter() - started) * 1000))

    def answer_request(self):
        path = self.path.split("?")[0]
        if path == "/_log":
            with LOCK:
                body = "".join(p + "\n" for p in LOG).encode()
            return self.answer(200, body, content_type="text/plain")
        if path.startswith("/_release/"):
            with CHANGED:
                RELEASED[path[len("/_release/"):]] = True
                CHANGED.notify_all()
            return self.answer(200, b"released", content_type="text/plain")
        with LOCK:
            LOG.append(path)
            with open(os.path.join(ROOT, "_requests.log"), "a") as f:
                f.write(path + "\n")
        step = step_for(path)
        if step is None or step.get("serve"):
            return self.serve_file(path)
        if "hold" in step:
            with CHANGED:
                CHANGED.wait_for(lambda: RELEASED.get(step["hold"]), timeout=60)
            return self.serve_file(path)
        if step.get("silent"):
            self.hold_until_client_leaves()
            return self.reset()
        if "redirect" in step:
            return self.answer(step.get("status", 302), b"", {"Location": step["redirect"]})
        if step.get("reset"):
            return self.reset()
        if "stall_after" in step or "reset_after" in step or "close_after" in step:
            body = self.file_bytes(path) or b"{}" * 1000
            n = step.get("stall_after", step.get("reset_after", step.get("close_after")))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:n])
            self.wfile.flush()
            if "reset_after" in step:
                return self.reset()
            if "close_after" in step:
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            self.hold_until_client_leaves()
            return self.reset()
        if step.get("unannounced"):
            body = self.file_bytes(path) or b""
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.close_connection = True
            return
        if "body" in step:
            return self.answer(step.get("status", 200), step["body"].encode(), step.get("headers"))
        status = step.get("status", 200)
        return self.answer(status, ('{"error":"%d"}' % status).encode(), step.get("headers"))


    def hold_until_client_leaves(self, seconds=60):
        """Says nothing more until the client closes the connection (it gave up: its socket turns readable
        at end of file), or `seconds` pass."""
        select.select([self.connection], [], [], seconds)


class NotHTTP(Exception):
    """The connection did not start with HTTP; it was answered, and is closed."""


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def get_request(self):
        connection, address = super().get_request()
        if TLS:
            # Wrapped without the handshake: it runs on the connection's thread (Handler.setup).
            connection = TLS_CONTEXT.wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
        return connection, address

    def handle_error(self, request, client_address):
        # A client that refused the certificate, or spoke TLS to the plain port, is what the tests are about.
        if isinstance(sys.exc_info()[1], (ssl.SSLError, NotHTTP, ConnectionError, socket.timeout)):
            return
        super().handle_error(request, client_address)


def exit_when_stdin_closes():
    # The test that started the server holds its stdin: when that process ends, however it ends, so does this.
    while sys.stdin.buffer.read(4096):
        pass
    os._exit(0)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    # A parent may have started this with SIGTERM blocked (a thread of libdispatch's): unblock it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    if "--exit-with-stdin" in sys.argv:
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    threading.Timer(300, lambda: os._exit(0)).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
