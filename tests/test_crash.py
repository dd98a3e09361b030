"""Crash safety of ingest, and storage failures: `kill -9` in the middle of a large ingest
then the same command again; a read-only data directory; a full disk.

The large ingest is 3,000 records of the shared corpus with the fake embedder (the vectors do
not matter here, the write order does). It is killed once the progress bar on stderr shows
that at least one batch was stored, into a store that already holds the seeds, so the rerun
must both finish the cut-short papers and keep what was there.

Root can write through `chmod -w`, so the read-only case uses a read-only bind mount, and the
full disk a 3 MiB tmpfs; both need mount privileges (we run as root in a container that has
them). Where mounting is refused the test skips and says so; the `data dir under a regular
file` case needs no privilege and always runs.
"""

from __future__ import annotations

import gzip
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import time
from collections import defaultdict
from pathlib import Path

import pytest

from conftest import ROOT, SEEDS, SHARED, need
from paperscope import Assistant, Settings
from paperscope.settings import EmbedSettings

PAPERSCOPE = str(ROOT / ".venv" / "bin" / "paperscope")
CORPUS = SHARED / "corpora" / "conference_abstracts.jsonl.gz"
ORACLE = "000_a7ebabe1402f1cf3.txt:5"


def fake() -> Settings:
    return Settings(embed=EmbedSettings(model="fake"))


def env() -> dict:
    return dict(os.environ, PAPERSCOPE_EMBED_MODEL="fake")


def corpus_slice(path: Path, n: int) -> list[dict]:
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in itertools.islice(fh, n)]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return rows


def check_store(a: Assistant, expected_ids: set[str]) -> None:
    """Chroma holds exactly the expected papers, each complete and of one version, and the
    local catalog and BM25 agree with it."""
    got = a.store.collection.get(include=["metadatas"])
    chunks: dict[str, dict[int, dict]] = defaultdict(dict)
    for cid, meta in zip(got["ids"], got["metadatas"]):
        assert cid == f"{meta['paper_id']}#{meta['chunk']}"
        assert meta["chunk"] not in chunks[meta["paper_id"]], f"duplicate chunk {cid}"
        chunks[meta["paper_id"]][meta["chunk"]] = meta
    assert set(chunks) == expected_ids, (len(chunks), len(expected_ids))
    for pid, parts in chunks.items():
        n = parts[0]["n_chunks"]
        assert sorted(parts) == list(range(n)), f"half-written paper {pid}: {sorted(parts)} of {n}"
        assert {m["hash"] for m in parts.values()} == {parts[0]["hash"]}, f"mixed versions in {pid}"
    stats = a.stats()
    assert stats["papers"] == len(expected_ids) and stats["chunks"] == len(got["ids"])
    assert a.catalog.chunk_total() == a.store.count()


@pytest.mark.slow
def test_kill_9_mid_ingest_then_rerun(tmp_path):
    need(CORPUS.exists(), f"shared corpus missing at {CORPUS}")
    src = tmp_path / "corpus3000.jsonl"
    rows = corpus_slice(src, 3000)
    data = tmp_path / "data"
    Assistant.open(data, settings=fake()).ingest([SEEDS])
    seed_ids = set(Assistant.open(data, settings=fake()).catalog.papers(
        [f"000_a7ebabe1402f1cf3.txt:{i}" for i in range(1, 20)] + [f"004_1ed39a575c500c91.txt:{i}" for i in range(1, 20)]))
    assert len(seed_ids) == 38

    cmd = [PAPERSCOPE, "ingest", str(src), "--data-dir", str(data)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env())
    os.set_blocking(proc.stderr.fileno(), False)
    seen, stored, deadline = b"", 0, time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        chunk = proc.stderr.read() or b""
        seen += chunk
        counts = [int(m) for m in re.findall(rb"(\d+)/3000", seen)]
        stored = max(counts, default=0)
        if 0 < stored < 3000:
            break
        time.sleep(0.05)
    assert proc.poll() is None, f"ingest finished before it could be killed: {seen[-500:]!r}"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    print(f"killed after the progress bar showed {stored}/3000 papers")

    partial = Assistant.open(data, settings=fake())
    n_partial = len({m["paper_id"] for m in partial.store.collection.get(include=["metadatas"])["metadatas"]})
    print(f"papers in Chroma after the kill: {n_partial} (38 seeds + {n_partial - 38})")
    assert 38 + stored <= n_partial < 38 + 3000, "the kill landed mid-ingest"
    del partial

    again = subprocess.run(cmd + ["--json"], capture_output=True, text=True, env=env(), timeout=600)
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    print("rerun:", summary)
    expected = seed_ids | {r["id"] for r in rows}
    assert len(expected) == 38 + 3000
    assert summary["added"] + summary["unchanged"] + summary["updated"] == 3000
    # Papers stored before the kill are kept, not redone; the rest are written now.
    assert stored <= summary["unchanged"] <= n_partial - 38

    a = Assistant.open(data, settings=fake())
    check_store(a, expected)
    # BM25 and search see papers from before the kill, from the killed batch and after it.
    for row in (rows[0], rows[len(rows) // 2], rows[-1]):
        assert row["id"] in [pid for pid, _ in a.catalog.bm25_search(row["title"], 5)], row["title"]
    assert a.search("Oracle-MoE locality-preserving routing oracle space", k=1)[0].paper_id == ORACLE

    third = subprocess.run(cmd + ["--json"], capture_output=True, text=True, env=env(), timeout=600)
    assert json.loads(third.stdout)["added"] == 0 and json.loads(third.stdout)["unchanged"] == 3000


def test_crash_before_generation_bump_leaves_bm25_in_sync(tmp_path):
    """The narrowest crash window: every Chroma and catalog write done, the generation stamp
    not yet bumped. The stamp is what tells readers to rebuild BM25, so the rerun must notice."""
    data = tmp_path / "data"
    Assistant.open(data, settings=fake()).ingest([SEEDS])
    src = tmp_path / "new.jsonl"
    src.write_text(json.dumps({"id": "zz", "title": "Zebra crossings",
                               "abstract": "We study zebra crossing detection with quokka cameras."}) + "\n")
    b = Assistant.open(data, settings=fake())

    def killed():  # what kill -9 at that instant leaves behind: the call never happens
        raise KeyboardInterrupt("simulated kill -9 before bump_generation")

    b.store.bump_generation = killed
    with pytest.raises(KeyboardInterrupt):
        b.ingest([src])
    c = Assistant.open(data, settings=fake())
    c.ingest([src])  # the same command again
    assert c.stats()["papers"] == 39
    assert [pid for pid, _ in c.catalog.bm25_search("quokka zebra", 3)] == ["zz"]


def _can_mount() -> bool:
    probe = Path("/tmp") / f"paperscope-mount-probe-{os.getpid()}"
    probe.mkdir(exist_ok=True)
    try:
        ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(probe)],
                            capture_output=True).returncode == 0
        if ok:
            subprocess.run(["umount", str(probe)], check=True)
        return ok
    except (OSError, subprocess.CalledProcessError):
        return False
    finally:
        probe.rmdir()


def _cli(*args, timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run([PAPERSCOPE, *map(str, args)], capture_output=True, text=True, env=env(), timeout=timeout)


@pytest.fixture
def seeded_fake(tmp_path) -> Path:
    data = tmp_path / "rw"
    Assistant.open(data, settings=fake()).ingest([SEEDS])
    return data


@pytest.mark.slow
def test_read_only_data_dir(seeded_fake, tmp_path):
    if not _can_mount():
        pytest.skip("mount not permitted here: read-only bind mount cannot be made (root ignores chmod)")
    ro = tmp_path / "ro"
    ro.mkdir()
    subprocess.run(["mount", "--bind", str(seeded_fake), str(ro)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(ro)], check=True)
        for args in (["ingest", SEEDS, "--quiet"], ["ask", "Which papers address MoE latency?"], ["stats"]):
            r = _cli(*args, "--data-dir", ro)
            assert r.returncode == 2, (args, r.stdout, r.stderr)
            assert "Traceback" not in r.stderr
            assert f"cannot open the Chroma database in {ro / 'chroma'}" in r.stderr
            assert "writable" in r.stderr and "PAPERSCOPE_DATA_DIR" in r.stderr
        r = _cli("stats", "--data-dir", ro / "fresh")
        assert r.returncode == 2 and "Read-only file system" in r.stderr and "writable" in r.stderr
    finally:
        subprocess.run(["umount", str(ro)], check=True)
    # Nothing was harmed: the same directory, writable again, still answers.
    a = Assistant.open(seeded_fake, settings=fake())
    assert a.stats()["papers"] == 38
    assert a.search("Oracle-MoE locality-preserving routing oracle space", k=1)[0].paper_id == ORACLE


def test_data_dir_under_a_regular_file(tmp_path):
    """Needs no privilege: the data dir cannot be created at all."""
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    from click.testing import CliRunner

    from paperscope.cli import main

    r = CliRunner().invoke(main, ["ingest", str(SEEDS), "--quiet", "--data-dir", str(blocker / "data")])
    assert r.exit_code == 2
    assert f"cannot open the Chroma database in {blocker / 'data' / 'chroma'}" in r.stderr
    assert "Not a directory" in r.stderr and "PAPERSCOPE_DATA_DIR" in r.stderr


@pytest.mark.slow
def test_disk_full_mid_ingest_then_recover(seeded_fake, tmp_path):
    need(CORPUS.exists(), f"shared corpus missing at {CORPUS}")
    if not _can_mount():
        pytest.skip("mount not permitted here: cannot make a small tmpfs to fill")
    src = tmp_path / "corpus.jsonl"
    rows = corpus_slice(src, 1500)
    mnt = tmp_path / "small"
    mnt.mkdir()
    used = sum(f.stat().st_size for f in seeded_fake.rglob("*") if f.is_file())
    size_kib = used // 1024 + 3 * 1024  # the seeds plus ~3 MiB: far less than 1,500 papers need
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(mnt)], check=True)
    try:
        data = mnt / "data"
        shutil.copytree(seeded_fake, data)
        r = _cli("ingest", src, "--quiet", "--data-dir", data)
        print("disk full:", r.returncode, r.stderr.strip())
        assert r.returncode == 2, r.stdout + r.stderr
        assert "Traceback" not in r.stderr and r.stderr.startswith("error: ")
        assert str(data) in r.stderr  # names where it failed
        says_full = "disk is full" in r.stderr or "No space left on device" in r.stderr
        # Grow the disk (what "free space" means here) and run the same command again.
        subprocess.run(["mount", "-o", f"remount,size={size_kib + 256 * 1024}k", str(mnt)], check=True)
        r = _cli("ingest", src, "--quiet", "--json", "--data-dir", data)
        assert r.returncode == 0, r.stderr
        a = Assistant.open(data, settings=fake())
        expected = {r["id"] for r in rows}
        expected |= set(a.catalog.papers([f"000_a7ebabe1402f1cf3.txt:{i}" for i in range(1, 20)]
                                         + [f"004_1ed39a575c500c91.txt:{i}" for i in range(1, 20)]))
        check_store(a, expected)
        assert a.search("Oracle-MoE locality-preserving routing oracle space", k=1)[0].paper_id == ORACLE
        del a
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)
    assert says_full, "the disk-full error must say the disk is full"
