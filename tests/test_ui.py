"""The Gradio UI: HTML rendering and upload checks (fast), then the real `paperscope ui` process
driven by a real browser (Debian chromium via playwright) and by gradio_client.

The browser tests assert what a user sees: the answer, a citation card with the paper's title
and its quote inside <mark> in the abstract, a follow-up answered from the earlier paper, the
no-paper message, an uploaded file searchable at once, a planted <script> shown as text, and
that every request the page makes stays on 127.0.0.1. Screenshot: artifacts/ui.png.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest
from click.testing import CliRunner

from conftest import ROOT, need
from paperscope.answer.base import Answerer, Draft
from paperscope.records import Answer, Citation
from paperscope.ui import render
from paperscope.ui.app import MAX_EXPANDED_MB, MAX_FILE_MB, MAX_FILES, check_uploads

ORACLE = ("Oracle-MoE: Locality-preserving Routing in the Oracle Space for Memory-constrained "
          "Large Language Model Inference")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAPERSCOPE = Path(sys.executable).with_name("paperscope")
ARTIFACTS = ROOT / "artifacts"
PLANTED = '<script>window.__ps_pwned = 1</script><img src="x" onerror="window.__ps_pwned = 2">'
ORIGAMI = [
    {"id": "qo-1", "title": "Quantum Origami Folding with Entangled Crease Patterns",
     "authors": ["Ada Foldwell", "Ben Crease"], "venue": "Imaginary Workshop", "year": 2031,
     "url": "https://example.org/qo-1",
     "abstract": "We study quantum origami folding, where entangled crease patterns fold paper cranes in "
                 "superposition. Our folding protocol reaches 99 percent crane fidelity on a simulated "
                 f"sheet of 12 qubits. {PLANTED} We release the crease-pattern compiler."},
    {"id": "qo-2", "title": "Zero-Knowledge Proofs for Sourdough Fermentation Schedules",
     "authors": ["Cy Levain"], "venue": "Imaginary Workshop", "year": 2031, "url": "",
     "abstract": "Bakers want to prove that a sourdough fermentation schedule was followed without "
                 "revealing the recipe. We give a zero-knowledge proof system for fermentation logs."},
]


# -- fast: rendering and upload rules --------------------------------------------------------
def _citation(**kw) -> Citation:
    base = dict(paper_id="p1", title="A <b>bold</b> title", authors=["Ann <x>", "Bo"], url="javascript:alert(1)",
                source="f.txt", position=1, quote="Second sentence has <script>x</script> inside.",
                score=0.9, marker=1, venue="ICML", year=2025)
    base.update(kw)
    return Citation(**base)


def test_answer_html_escapes_data_links_markers_and_marks_quote():
    abstract = "First sentence. Second sentence has <script>x</script> inside. Third."
    answer = Answer(text="Claim <img src=x> [1].\nMore [2].", citations=[_citation()], timings={"total_s": 0.5})
    out = render.answer_html(answer, 3, lambda pid: abstract)
    assert "<script>" not in out and "<img" not in out and "<b>" not in out
    assert "&lt;script&gt;x&lt;/script&gt;" in out and "A &lt;b&gt;bold&lt;/b&gt; title" in out
    assert '<a class="ps-ref" href="#ps-3-1">1</a>' in out and 'id="ps-3-1"' in out
    assert "[2]" in out and "#ps-3-2" not in out  # a marker without a card stays plain text
    assert "<mark>Second sentence has &lt;script&gt;x&lt;/script&gt; inside.</mark>" in out
    assert "javascript:" not in out  # a non-http link is not clickable
    assert "\n\n" not in out  # one HTML block for the markdown pass


def test_quote_found_across_whitespace_and_excerpt_is_trimmed():
    abstract = ("word " * 200) + "The  quoted\nsentence here." + (" tail" * 200)
    html = render.highlighted(abstract, "The quoted sentence here.", context=50)
    assert "<mark>The  quoted\nsentence here.</mark>" in html
    assert html.startswith("\u2026") and html.endswith("\u2026") and len(html) < 200


def test_abstention_lists_nearest_titles():
    answer = Answer(text="No paper in the corpus addresses this question.\nnearest...", abstained=True,
                    backend="abstain", nearest=[{"paper_id": "x:1", "title": "Near <i>one</i>", "url": "https://a.b/1"}])
    out = render.answer_html(answer, 1, lambda pid: "")
    assert "ps-abstain" in out and "No paper in the corpus" in out
    assert "Near &lt;i&gt;one&lt;/i&gt;" in out and 'href="https://a.b/1"' in out


def test_check_uploads_rejects_wrong_types_big_files_and_too_many(tmp_path):
    ok = tmp_path / "papers.jsonl"
    ok.write_text("{}\n")
    gz = tmp_path / "papers.csv.gz"
    gz.write_bytes(b"\x1f\x8b")
    exe = tmp_path / "tool.exe"
    exe.write_bytes(b"MZ")
    bare_gz = tmp_path / "blob.gz"
    bare_gz.write_bytes(b"\x1f\x8b")
    big = tmp_path / "big.txt"
    with big.open("wb") as f:
        f.truncate(MAX_FILE_MB * 1024 * 1024 + 1)
    keep, rejected = check_uploads([str(ok), str(gz), str(exe), str(bare_gz), str(big)])
    assert keep == [str(ok), str(gz)]
    assert any("tool.exe" in r for r in rejected) and any("blob.gz" in r for r in rejected)
    assert any("big.txt" in r and "20 MB" in r for r in rejected)
    keep, rejected = check_uploads([str(ok)] * (MAX_FILES + 2))
    assert len(keep) == MAX_FILES and "2 file(s) over the limit" in rejected[0]


def test_check_uploads_refuses_a_gz_that_expands_too_far(tmp_path):
    import gzip

    line = b'{"title": "T", "abstract": "' + b"a" * 1000 + b'"}\n'
    bomb, fine = tmp_path / "bomb.jsonl.gz", tmp_path / "fine.jsonl.gz"
    with gzip.open(bomb, "wb", compresslevel=1) as fh:  # ~1 MB on disk, > MAX_EXPANDED_MB inside
        for _ in range(MAX_EXPANDED_MB + 1):
            fh.write(line * 1024)
    with gzip.open(fine, "wb") as fh:
        fh.write(line * 1024)
    assert bomb.stat().st_size < MAX_FILE_MB * 1024 * 1024
    keep, rejected = check_uploads([str(bomb), str(fine)])
    assert keep == [str(fine)]
    assert len(rejected) == 1 and "bomb.jsonl.gz" in rejected[0] and f"{MAX_EXPANDED_MB} MB" in rejected[0]


def test_malformed_auth_is_refused_without_echoing_it():
    from paperscope.ui.cli import command

    result = CliRunner().invoke(command, [], env={"PAPERSCOPE_UI_AUTH": "hunter2-no-colon"})
    assert result.exit_code == 2
    assert "user:password" in result.output and "hunter2" not in result.output


class _Streamer(Answerer):
    """A deterministic streaming answerer: the best evidence sentence in three pieces, cited [1]."""

    name = "fake-stream"
    streams = True

    def draft(self, question, evidence):
        return Draft("".join(self._pieces(evidence)))

    @staticmethod
    def _pieces(evidence):
        sentence = evidence[0].best_sentence
        third = max(1, len(sentence) // 3)
        return [sentence[:third], sentence[third:2 * third], sentence[2 * third:] + " [1]"]

    def stream_draft(self, question, evidence):
        yield from self._pieces(evidence)
        return Draft("".join(self._pieces(evidence)))


def test_chat_turn_streams_pieces_then_the_verified_answer(fake_assistant):
    from paperscope.ui.app import backend_choices, chat_turn

    fake_assistant.answerer = _Streamer()
    assert backend_choices(fake_assistant) == ["fake-stream", "extractive"]
    turns = list(chat_turn(fake_assistant, "Which papers address MoE latency?", [], [], "", "", "", 3, "fake-stream"))
    contents = [t[0][-1]["content"] for t in turns]
    pending = [c for c in contents if "ps-pending" in c]
    assert len(pending) == 4 and "Searching the library" in pending[0]  # placeholder, then 3 pieces
    assert len(pending[1]) < len(pending[2]) < len(pending[3])
    messages, history, box = turns[-1]
    assert box == "" and [m["role"] for m in messages] == ["user", "assistant"]
    assert len(history) == 1 and history[0][1].citations and 'class="ps-card"' in messages[-1]["content"]
    assert history[0][1].backend == "fake-stream"  # the streamed draft itself was verified

    # The backend selector can switch a turn back to the extractive answerer: no partial pieces.
    turns = list(chat_turn(fake_assistant, "Which paper proposes test-time training layers?", messages, history,
                           "", "", "", 3, "extractive"))
    assert turns[-1][1][-1][1].backend == "extractive" and len(turns[-1][1]) == 2
    # Filters reach the assistant: nothing matches a year with no papers.
    turns = list(chat_turn(fake_assistant, "Which papers address MoE latency?", [], [], "", "1999", "", 3, "extractive"))
    assert "ps-abstain" in turns[-1][0][-1]["content"]


def test_enter_and_ask_button_are_one_event_that_ignores_a_second_question_while_streaming(fake_assistant):
    from paperscope.ui.app import build_app

    demo = build_app(fake_assistant)
    cfg = demo.get_config_file()
    ids = {c["id"]: c for c in cfg["components"]}
    by_elem = {c.get("props", {}).get("elem_id"): c["id"] for c in cfg["components"]}
    chat = [d for d in cfg["dependencies"]
            if {tuple(t) for t in d["targets"]} & {(by_elem["ps-question"], "submit"), (by_elem["ps-ask"], "click")}]
    assert len(chat) == 1, "Enter and the Ask button must share one event (one pending answer per page)"
    assert {tuple(t) for t in chat[0]["targets"]} == {(by_elem["ps-question"], "submit"), (by_elem["ps-ask"], "click")}
    assert chat[0]["trigger_mode"] == "once"
    assert by_elem["ps-chat"] in chat[0]["outputs"] and ids


# -- the real server ---------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("PAPERSCOPE_") and k not in ("PAPERSCOPE_REQUIRE_ALL", "PAPERSCOPE_DEBUG"))
           and k != "OPENAI_API_KEY"}
    env.update(extra)
    return env


class Server:
    def __init__(self, data_dir: Path, workdir: Path, **env):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = workdir / f"ui-{self.port}.log"
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [str(PAPERSCOPE), "ui", "--port", str(self.port), "--data-dir", str(data_dir), "--concurrency", "2"],
            cwd=workdir, env=_clean_env(**env), stdout=self.log.open("wb"), stderr=subprocess.STDOUT)
        self.ready_s = self._wait()

    def _wait(self, timeout: float = 120) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"paperscope ui exited {self.proc.returncode}:\n{self.output()}")
            try:
                if httpx.get(self.url, timeout=2).status_code == 200:
                    return time.perf_counter() - self.started
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self.stop()
        raise AssertionError(f"paperscope ui not up after {timeout} s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


USER, SECRET = "alice", "s3cret-Pa55-word"


@pytest.fixture(scope="module")
def server(seeded_data_dir, tmp_path_factory):
    """One `paperscope ui` for the module, with basic auth from PAPERSCOPE_UI_AUTH."""
    work = tmp_path_factory.mktemp("ui")
    data = work / "data"
    shutil.copytree(seeded_data_dir, data)
    srv = Server(data, work, PAPERSCOPE_UI_AUTH=f"{USER}:{SECRET}")
    yield srv
    srv.stop()


def _client(server):
    from gradio_client import Client

    return Client(server.url, auth=(USER, SECRET), verbose=False)


@pytest.fixture(scope="module")
def browser():
    need(shutil.which("chromium") is not None, "chromium not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1440, "height": 1100})
    pg = context.new_page()
    pg.requests = []
    pg.on("request", lambda r: pg.requests.append(r.url))
    assert context.request.post(server.url + "login", form={"username": USER, "password": SECRET}).ok
    pg.goto(server.url, wait_until="domcontentloaded")
    pg.locator("#ps-question textarea").wait_for(timeout=30_000)
    yield pg
    context.close()


def _ask(page, question: str, timeout_ms: int = 60_000):
    """Type a question, press Enter, wait for a new final answer; return that bot message."""
    done = ".ps-foot, .ps-error"
    before = page.locator(done).count()
    box = page.locator("#ps-question textarea")
    box.fill(question)
    box.press("Enter")
    page.wait_for_function(f"document.querySelectorAll({json.dumps(done)}).length > {before}", timeout=timeout_ms)
    return page.locator('[data-testid="bot"]').last


def _assert_local(requests: list[str]):
    hosts = {urlparse(u).hostname for u in requests if not u.startswith(("data:", "blob:", "about:"))}
    assert requests and hosts <= {"127.0.0.1", "localhost"}, f"requests left the machine: {sorted(hosts)}"


def _card(message, title: str):
    return message.locator(".ps-card").filter(has=message.page.locator(".ps-title", has_text=title))


@pytest.mark.slow
def test_browser_chat_cites_follows_up_and_abstains(page, server):
    t0 = time.perf_counter()
    msg = _ask(page, "Which papers address MoE latency?")
    first_answer_s, first_ask_s = time.perf_counter() - server.started, time.perf_counter() - t0
    assert msg.locator(".ps-text").inner_text().strip()
    card = _card(msg, ORACLE)
    assert card.count() == 1, msg.inner_html()[:2000]
    # The quote the server verified is the one highlighted inside the abstract.
    api = _client(server).predict("Which papers address MoE latency?", api_name="/ask")
    quote = next(c["quote"] for c in api["citations"] if c["title"] == ORACLE)
    assert quote in card.locator(".ps-excerpt mark").inner_text()
    assert card.locator(".ps-meta").inner_text().startswith("Jixian Zhou") and "ICML 2025" in card.inner_text()
    assert card.locator("a.ps-title").get_attribute("href").startswith("https://icml.cc/")
    # The [n] marker in the answer links to the card's anchor.
    card_id = card.get_attribute("id")
    msg.locator(f'.ps-text a.ps-ref[href="#{card_id}"]').first.click()
    assert page.evaluate("document.querySelector(':target')?.id") == card_id
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator('[data-testid="user"]').last.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "ui.png"))

    _ask(page, "Which paper proposes test-time training layers?")
    follow = _ask(page, "How large were the models evaluated?")
    assert "1.3B" in follow.locator(".ps-text").inner_text()
    assert follow.locator(".ps-card").count() >= 1

    none = _ask(page, "Are there papers about recommender systems?")
    assert none.locator(".ps-abstain").count() == 1 and "No paper" in none.inner_text()
    assert none.locator(".ps-near li").count() >= 1
    _assert_local(page.requests)
    timings = {"server_ready_s": round(server.ready_s, 1), "launch_to_first_answer_s": round(first_answer_s, 1),
               "first_question_s": round(first_ask_s, 1),
               "browser_session_s": round(time.perf_counter() - t0, 1)}
    (ARTIFACTS / "ui-timings.json").write_text(json.dumps(timings))
    print("ui timings:", timings)


@pytest.mark.slow
def test_browser_upload_is_searchable_at_once_and_escaped(page, tmp_path):
    upload = tmp_path / "origami_papers.jsonl"
    upload.write_text("\n".join(json.dumps(r) for r in ORIGAMI) + "\n", encoding="utf-8")
    bad = tmp_path / "notes.pdf"
    bad.write_bytes(b"%PDF-1.4")
    files = page.locator("#ps-files input[type=file]")
    files.set_input_files([str(bad)])
    page.get_by_text("Invalid file type: notes.pdf").first.wait_for(timeout=20_000)
    files.set_input_files([str(upload)])
    page.locator("#ps-files").get_by_text("origami_papers.jsonl").first.wait_for(timeout=20_000)
    page.locator("#ps-add").click()
    status = page.locator("#ps-ingest-status")
    status.get_by_text("2 added").wait_for(timeout=60_000)
    assert "searchable now" in status.inner_text()
    msg = _ask(page, "Which papers study quantum origami folding?")
    card = _card(msg, ORIGAMI[0]["title"])
    assert card.count() == 1, msg.inner_html()[:2000]
    card.locator("summary").click()
    full = card.locator(".ps-abstract").inner_text()
    assert "<script>window.__ps_pwned = 1</script>" in full  # shown as text, not run
    assert page.evaluate("window.__ps_pwned") is None
    assert _venue_listed(page)  # the venue filter lists the new venue without a restart
    _assert_local(page.requests)


def _venue_listed(page) -> bool:
    page.locator("#ps-venue input").click()
    found = page.get_by_role("option", name="Imaginary Workshop (2)").count() == 1
    page.keyboard.press("Escape")
    return found


@pytest.mark.slow
def test_gradio_client_ask_endpoint(server):
    client = _client(server)
    first = client.predict("Which paper proposes test-time training layers?", api_name="/ask")
    assert not first["abstained"] and first["citations"] and first["citations"][0]["quote"]
    follow = client.predict("How large were the models evaluated?",
                            history=[["Which paper proposes test-time training layers?", first]], api_name="/ask")
    assert "1.3B" in follow["answer"]
    assert follow["citations"][0]["paper_id"] == first["citations"][0]["paper_id"]
    filtered = client.predict("Which papers address MoE latency?", year=1999, api_name="/ask")
    assert filtered["abstained"] and not filtered["citations"]


@pytest.mark.slow
def test_basic_auth_from_env_and_never_logged(server):
    assert httpx.get(server.url + "config").status_code == 401
    with httpx.Client(base_url=server.url) as c:
        assert c.post("login", data={"username": USER, "password": "wrong"}).status_code >= 400
        assert c.post("login", data={"username": USER, "password": SECRET}).status_code == 200
        assert c.get("config").status_code == 200
    assert SECRET not in server.output() and "paperscope UI on http://127.0.0.1" in server.output()


@pytest.mark.slow
def test_20_concurrent_chat_sessions_match_sequential(server):
    """20 sessions at once against the named API (2 turns each, bounded, 127.0.0.1 only):
    no errors, and every session gets exactly the answers a lone session gets."""
    import concurrent.futures
    import statistics
    import time

    questions = ["Which papers address MoE latency?", "Which papers use Langevin dynamics?",
                 "Which paper proposes test-time training layers?", "Are there papers about recommender systems?"]
    follow_up = "How large were the models evaluated?"

    def session(i: int):
        client = _client(server)
        q = questions[i % len(questions)]
        t0 = time.perf_counter()
        first = client.predict(q, api_name="/ask")
        t1 = time.perf_counter()
        second = client.predict(follow_up, history=[[q, first]], api_name="/ask")
        t2 = time.perf_counter()
        key = lambda a: (a["answer"], [c["paper_id"] for c in a["citations"]], a["abstained"])  # noqa: E731
        return i, key(first), key(second), [t1 - t0, t2 - t1]

    expected = {i: session(i)[1:3] for i in range(len(questions))}  # sequential reference
    with concurrent.futures.ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(session, range(20)))
    latencies = sorted(t for *_, ts in results for t in ts)
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(f"\n20 concurrent UI sessions: 40 requests, 0 errors, p50 {statistics.median(latencies):.2f} s, p95 {p95:.2f} s")
    for i, first, second, _ in results:
        assert (first, second) == expected[i % len(questions)], f"session {i} differs from the sequential answer"
