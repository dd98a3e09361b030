"""Chroma server mode against a real `chroma run` on 127.0.0.1 (started and stopped here):
ingest + ask through PAPERSCOPE_CHROMA_HOST/PORT, a server that is down at start, a server
killed mid-session, recovery when it returns on the same data dir, and a second machine (a
different local data dir) that rebuilds its catalog and BM25 from Chroma alone."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from conftest import ROOT, SEEDS, need
from paperscope import Assistant, Settings, StoreError
from paperscope.settings import EmbedSettings, StoreSettings

pytestmark = pytest.mark.slow

CHROMA = ROOT / ".venv" / "bin" / "chroma"
ORACLE = "000_a7ebabe1402f1cf3.txt:5"
QUESTION = "Which paper proposes locality-preserving routing in an oracle space for MoE inference?"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ChromaServer:
    def __init__(self, path: Path, port: int):
        self.path, self.port, self.proc = path, port, None
        self.log = path.parent / f"chroma-{port}.log"

    def start(self, timeout: float = 90) -> None:
        self.proc = subprocess.Popen(
            [str(CHROMA), "run", "--path", str(self.path), "--port", str(self.port), "--host", "127.0.0.1"],
            stdout=self.log.open("ab"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"chroma exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/api/v2/heartbeat", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"chroma did not answer within {timeout} s")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)


@pytest.fixture
def server(tmp_path):
    need(CHROMA.exists(), f"the chroma CLI is missing at {CHROMA}")
    srv = ChromaServer(tmp_path / "chroma-server-data", free_port())
    srv.start()
    yield srv
    srv.kill()


def server_settings(port: int, data_dir: Path) -> Settings:
    return Settings(embed=EmbedSettings(model="fake"),
                    store=StoreSettings(chroma_host="127.0.0.1", chroma_port=port, data_dir=data_dir))


def test_ingest_ask_restart_and_second_machine(server, tmp_path):
    a = Assistant.open(settings=server_settings(server.port, tmp_path / "machine-a"))
    s = a.ingest([SEEDS])
    assert s.added == 38 and s.ok
    assert not (tmp_path / "machine-a" / "chroma").exists(), "server mode must not write a local Chroma"
    stats = a.stats()
    assert stats["papers"] == 38 and stats["chroma"] == f"http://127.0.0.1:{server.port}"
    ans = a.ask(QUESTION)
    assert ans.citations and ans.citations[0].paper_id == ORACLE
    assert ans.citations[0].title.startswith("Oracle-MoE:")
    chunks = stats["chunks"]

    # A second machine: its own empty local dir, the same server. Catalog + BM25 rebuild
    # from Chroma, so it answers the same without ingesting anything.
    b = Assistant.open(settings=server_settings(server.port, tmp_path / "machine-b"))
    assert b.stats()["papers"] == 38 and b.stats()["chunks"] == chunks
    assert [pid for pid, _ in b.catalog.bm25_search("Oracle-MoE locality-preserving routing", 1)] == [ORACLE]
    assert b.ask(QUESTION).citations[0].paper_id == ORACLE

    # Server killed mid-session: the next call is a clear StoreError naming host:port.
    server.kill()
    for call in (lambda: a.ask(QUESTION), lambda: a.search("mixture of experts"), a.stats):
        with pytest.raises(StoreError) as err:
            call()
        msg = str(err.value)
        assert f"127.0.0.1:{server.port}" in msg and "Connection refused" in msg, msg

    # The server returns on the same data dir: the data is there, and the same Assistant
    # object works again without being reopened.
    server.start()
    assert a.stats()["papers"] == 38 and a.stats()["chunks"] == chunks
    assert a.ask(QUESTION).citations[0].paper_id == ORACLE
    again = a.ingest([SEEDS])
    assert (again.added, again.unchanged) == (0, 38)


def test_cli_through_environment(server, tmp_path, monkeypatch):
    from paperscope.cli import main

    monkeypatch.setenv("PAPERSCOPE_EMBED_MODEL", "fake")
    monkeypatch.setenv("PAPERSCOPE_CHROMA_HOST", "127.0.0.1")
    monkeypatch.setenv("PAPERSCOPE_CHROMA_PORT", str(server.port))
    monkeypatch.setenv("PAPERSCOPE_DATA_DIR", str(tmp_path / "local"))
    r = CliRunner().invoke(main, ["ingest", str(SEEDS), "--quiet"])
    assert r.exit_code == 0 and "38 added" in r.stdout, r.output
    r = CliRunner().invoke(main, ["ask", QUESTION, "--json"])
    assert r.exit_code == 0 and f'"paper_id": "{ORACLE}"' in r.stdout


def test_server_down_at_start(tmp_path):
    port = free_port()  # nothing listens there
    with pytest.raises(StoreError) as err:
        Assistant.open(settings=server_settings(port, tmp_path / "local"))
    msg = str(err.value)
    assert f"cannot reach the Chroma server at 127.0.0.1:{port}" in msg
    assert "chroma run --path DIR --port PORT" in msg and "PAPERSCOPE_CHROMA_HOST" in msg

    env = dict(os.environ, PAPERSCOPE_EMBED_MODEL="fake", PAPERSCOPE_CHROMA_HOST="127.0.0.1",
               PAPERSCOPE_CHROMA_PORT=str(port), PAPERSCOPE_DATA_DIR=str(tmp_path / "local"))
    r = subprocess.run([str(ROOT / ".venv" / "bin" / "paperscope"), "ask", QUESTION], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 2
    assert f"error: cannot reach the Chroma server at 127.0.0.1:{port}" in r.stderr
    assert "chroma run" in r.stderr and "Traceback" not in r.stderr
