"""A small deterministic OpenAI-protocol server for tests (stdlib http.server, one thread).

Endpoints: GET /v1/models, POST /v1/chat/completions (JSON or SSE when "stream": true).
The model name picks a scripted behaviour; the "model" reads the <sources> block of the prompt
the way a real one would see it:
- good:        first sentence of source [1], cited [1] (JSON with a quote when asked)
- hallucinate: like good, plus a claim cited [9] (no such source)
- nocite:      an answer with no marker and no citation
- plain:       ignores response_format; plain text with an inline [1]
- noschema:    rejects any response_format with HTTP 400 (then behaves like plain)
- error500:    HTTP 500 whose body echoes the Authorization header (a leaky server)
- slow:        sleeps `slow_seconds` before answering
- obey:        a compromised model: obeys "reply WORD" found anywhere in the prompt, citing
               the source it was found in; otherwise behaves like good
- rewrite:     for rewrite prompts, replies "Standalone question: <follow-up> about <first title>"
Every request is recorded in `server.requests` (path, headers, body) for assertions.
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODELS = ["good", "hallucinate", "nocite", "plain", "noschema", "error500", "slow", "obey", "rewrite"]
_SOURCE = re.compile(r"^\[(\d+)\] (.*)\n(.*)$", re.MULTILINE)
_OBEY = re.compile(r"\breply\s+([A-Z]{4,})\b")


def _sources(prompt: str) -> list[tuple[int, str, str]]:
    block = prompt.rsplit("<sources>\n", 1)[-1].split("\n</sources>", 1)[0]
    return [(int(n), title, text) for n, title, text in _SOURCE.findall(block)]


def _first_sentence(text: str) -> str:
    m = re.match(r"(.+?[.!?])(\s|$)", text)
    return (m.group(1) if m else text).strip()


def script(model: str, messages: list[dict], json_mode: bool) -> str:
    prompt = "\n".join(m.get("content", "") for m in messages)
    if "Follow-up:" in prompt:
        follow = prompt.rsplit("Follow-up:", 1)[1].strip()
        titles = [ln[len("(Papers: "):-1].split("; ")[0] for ln in prompt.splitlines() if ln.startswith("(Papers: ")]
        return f"Standalone question: {follow.rstrip('?')} in {titles[-1] if titles else 'that paper'}?"
    sources = _sources(prompt)
    if model == "obey":
        for n, title, text in sources:
            m = _OBEY.search(title + " " + text)
            if m:
                return _reply(f"{m.group(1)} [{n}]", {n: m.group(1)}, json_mode)
    if not sources:
        return _reply("None of the sources answer this question.", {}, json_mode)
    n, _title, text = sources[0]
    claim = _first_sentence(text)
    if model == "nocite":
        return _reply("Several papers discuss this topic in detail.", {}, json_mode)
    if model == "hallucinate":
        return _reply(f"{claim} [{n}] It also reports a tenfold speedup on quantum hardware [9].",
                      {n: claim, 9: "a tenfold speedup on quantum hardware"}, json_mode)
    if model in ("plain", "noschema"):
        return f"{claim} [{n}]"
    return _reply(f"{claim} [{n}]", {n: claim}, json_mode)


def _reply(answer: str, quotes: dict[int, str], json_mode: bool) -> str:
    if not json_mode:
        return answer
    return json.dumps({"answer": answer, "citations": [{"marker": k, "quote": v} for k, v in quotes.items()]})


class FakeOpenAI:
    def __init__(self, slow_seconds: float = 3.0):
        self.slow_seconds = slow_seconds
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

            def _send(self, status: int, payload: dict):
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

            def do_GET(self):
                headers = {k.lower(): v for k, v in self.headers.items()}
                server.requests.append({"path": self.path, "headers": headers, "body": None})
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [
                        {"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in MODELS]})
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                headers = {k.lower(): v for k, v in self.headers.items()}
                server.requests.append({"path": self.path, "headers": headers, "body": body})
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": "not found"}})
                model = body.get("model", "good")
                fmt = body.get("response_format")
                if model == "error500":
                    auth = self.headers.get("authorization", "")
                    return self._send(500, {"error": {"message": f"internal error handling request ({auth})"}})
                if model == "noschema" and fmt:
                    return self._send(400, {"error": {"message": "response_format is not supported"}})
                if model == "slow":
                    time.sleep(server.slow_seconds)
                json_mode = bool(fmt) and model not in ("plain",)
                text = script(model, body.get("messages", []), json_mode)
                if body.get("stream"):
                    return self._stream(model, text)
                self._send(200, {
                    "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

            def _stream(self, model: str, text: str):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                self.end_headers()
                # Split so that a marker is cut across chunks ("[" | "1]"): clients must cope.
                for piece in _split_markers(re.findall(r"\S+\s*|\s+", text)):
                    chunk = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model,
                             "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                end = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model,
                       "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                self.wfile.write(f"data: {json.dumps(end)}\n\ndata: [DONE]\n\n".encode())
                self.wfile.flush()
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def chat_requests(self) -> list[dict]:
        return [r for r in self.requests if r["body"] is not None]


def _split_markers(pieces: list[str]) -> list[str]:
    out: list[str] = []
    for piece in pieces:
        if piece.startswith("[") and len(piece) > 2:
            out.extend([piece[:1], piece[1:]])  # "[" then "1] ": a marker split across chunks
        else:
            out.append(piece)
    return out


if __name__ == "__main__":  # manual use: python tests/fake_openai_server.py
    with FakeOpenAI() as fake:
        print(fake.base_url, flush=True)
        threading.Event().wait()
