"""Settings: a PAPERSCOPE_* name no setting reads is an error that names it and lists the valid
names (environment and .env alike), and every PAPERSCOPE_* name the repository mentions is one
of those valid names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

EXE = str(Path(sys.executable).with_name("paperscope"))
TYPOS = {"PAPERSCOPE_EMBED_MODLE", "PAPERSCOPE_RETRIEVE_CANDIDATE", "PAPERSCOPE_ANSWER_MAX_CITATION"}  # used below


def test_unknown_variable_in_the_environment_is_an_error(monkeypatch):
    from paperscope.settings import Settings, UnknownSettingError

    monkeypatch.setenv("PAPERSCOPE_EMBED_MODLE", "minilm")
    with pytest.raises(UnknownSettingError) as err:
        Settings()
    msg = str(err.value)
    assert "PAPERSCOPE_EMBED_MODLE" in msg and "in the environment" in msg
    assert "did you mean PAPERSCOPE_EMBED_MODEL?" in msg
    assert "PAPERSCOPE_DATA_DIR" in msg and "PAPERSCOPE_LLM_BASE_URL" in msg  # the valid names are listed


def test_unknown_entry_in_dotenv_is_an_error(tmp_path, monkeypatch):
    from paperscope.settings import EmbedSettings, UnknownSettingError

    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("PAPERSCOPE_DATA_DIR=./data\nPAPERSCOPE_RETRIEVE_CANDIDATE=50\nOTHER_TOOL_X=1\n")
    with pytest.raises(UnknownSettingError, match=r"PAPERSCOPE_RETRIEVE_CANDIDATE in \.env.*PAPERSCOPE_RETRIEVE_CANDIDATES"):
        EmbedSettings()  # every section checks
    (tmp_path / ".env").write_text("PAPERSCOPE_DATA_DIR=./data\nOTHER_TOOL_X=1\n")
    assert EmbedSettings().model == "minilm-int8"


def test_names_read_outside_the_settings_stay_valid(monkeypatch):
    from paperscope.settings import Settings

    for name in ("PAPERSCOPE_REQUIRE_ALL", "PAPERSCOPE_DEBUG", "PAPERSCOPE_BENCH_CORPUS", "PAPERSCOPE_UI_AUTH",
                 "PAPERSCOPE_UI_HOST", "PAPERSCOPE_UI_PORT", "PAPERSCOPE_UI_CONCURRENCY", "PAPERSCOPE_CACHE_DIR",
                 "PAPERSCOPE_LLM", "PAPERSCOPE_LOCAL_MODEL", "PAPERSCOPE_LLM_API_KEY", "paperscope_retrieve_k"):
        monkeypatch.setenv(name, "1" if name.upper().endswith(("PORT", "CONCURRENCY", "_K")) else "x")
    monkeypatch.setenv("PAPERSCOPE_DATA_DIR", "/tmp/x")
    Settings()


def test_every_name_the_repository_mentions_is_valid():
    from paperscope.settings import env_names

    valid = set(env_names())
    mentioned: dict[str, str] = {}
    files = [p for folder in ("src", "ingest", "ui", "tests", "scripts", ".ci", "docs") for p in (ROOT / folder).rglob("*")
             if p.is_file() and p.suffix in (".py", ".sh", ".md", ".toml", "") and "__pycache__" not in p.parts]
    files += [ROOT / "README.md", ROOT / ".env.example", ROOT / "SECURITY.md"]
    for path in files:
        for name in re.findall(r"PAPERSCOPE_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8", errors="replace")):
            if name not in TYPOS:
                mentioned.setdefault(name, str(path.relative_to(ROOT)))
    unknown = {n: where for n, where in mentioned.items() if n not in valid}
    assert not unknown, f"names used but not accepted by Settings: {unknown}"
    assert len(mentioned) >= 25


def test_cli_reports_an_unknown_variable_in_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERSCOPE_")}
    env.update(PAPERSCOPE_DATA_DIR=str(tmp_path / "data"), PAPERSCOPE_ANSWER_MAX_CITATION="3")
    r = subprocess.run([EXE, "stats"], capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith("error: unknown setting PAPERSCOPE_ANSWER_MAX_CITATION in the environment; "
                               "did you mean PAPERSCOPE_ANSWER_MAX_CITATIONS?")
