"""`paperscope ui`: serve the Gradio chat on 127.0.0.1 (offline, no share links).

Gradio is imported inside the command so `paperscope --help` stays fast. Basic auth comes
from PAPERSCOPE_UI_AUTH="user:password" and is never echoed or logged.
"""

from __future__ import annotations

import os
import sys

import click

EPILOG = """
\b
Examples:
  paperscope ui
  paperscope ui --port 8080 --data-dir ./data
  PAPERSCOPE_UI_AUTH=alice:s3cret paperscope ui --host 0.0.0.0
\b
Python clients call the "ask" endpoint:
  from gradio_client import Client
  Client("http://127.0.0.1:7860/").predict("Which papers address MoE latency?", api_name="/ask")
"""


def parse_auth(raw: str | None) -> tuple[str, str] | None:
    if not raw:
        return None
    user, sep, password = raw.partition(":")
    if not sep or not user or not password:
        # Say what is wrong without repeating the value (it may be a password).
        raise click.UsageError("PAPERSCOPE_UI_AUTH must look like user:password")
    return user, password


@click.command(name="ui", epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default="127.0.0.1", show_default=True, envvar="PAPERSCOPE_UI_HOST",
              help="Interface to bind. Anything but 127.0.0.1 exposes the UI to your network.")
@click.option("--port", type=int, default=7860, show_default=True, envvar="PAPERSCOPE_UI_PORT", help="Port to serve on.")
@click.option("--data-dir", envvar="PAPERSCOPE_DATA_DIR", default=None,
              help="Data directory (default: PAPERSCOPE_DATA_DIR or a per-user dir).")
@click.option("--concurrency", type=click.IntRange(1, 64), default=4, show_default=True,
              envvar="PAPERSCOPE_UI_CONCURRENCY", help="Questions answered at the same time (queue workers).")
def command(host: str, port: int, data_dir: str | None, concurrency: int) -> None:
    """Chat with the papers in a browser (cited answers, filters, uploads)."""
    auth = parse_auth(os.environ.get("PAPERSCOPE_UI_AUTH"))
    from paperscope import _env  # noqa: F401  (analytics off before gradio is imported)
    from paperscope.assistant import Assistant
    from paperscope.index.store import StoreError

    try:
        assistant = Assistant.open(data_dir=data_dir)
        # Open the store and load the embedder and BM25 now: a broken data dir fails here, and
        # the first visitor does not wait for model loading.
        if assistant.stats()["papers"]:
            assistant.search("warm up", k=1)
    except (StoreError, OSError, ValueError) as exc:
        from paperscope.secrets import redact

        click.echo(f"error: {redact(str(exc))}", err=True)
        sys.exit(2)

    from paperscope.ui.app import build_app, launch_kwargs

    demo = build_app(assistant)
    demo.queue(default_concurrency_limit=concurrency)
    if host not in ("127.0.0.1", "localhost", "::1") and auth is None:
        click.echo(f"warning: serving on {host} without PAPERSCOPE_UI_AUTH; anyone on the network can use it", err=True)
    try:
        demo.launch(server_name=host, server_port=port, auth=auth, prevent_thread_lock=True, quiet=True,
                    inbrowser=False, **launch_kwargs())
    except OSError as exc:
        click.echo(f"error: cannot serve on {host}:{port} ({exc}); choose another --port", err=True)
        sys.exit(2)
    click.echo(f"paperscope UI on http://{host}:{port}/  ({assistant.stats()['papers']} papers; Ctrl-C stops)",
               err=False)
    try:
        demo.block_thread()
    except KeyboardInterrupt:
        pass
