"""The library used from several threads at once (issue 37 item 27: "the
library must be safe to use from several threads").  Loading games for
the first time from several threads is in tests/core/test_plugin_isolation.py;
here, resolutions run side by side give the traces they give one by one."""

from __future__ import annotations

import threading
from pathlib import Path

import tcgtrig

ROOT = Path(__file__).resolve().parent
FILES = [
    ROOT / "scenarios" / "digimon" / "triggered-01.yaml",
    ROOT / "scenarios" / "digimon" / "interrupt-05.yaml",
    ROOT / "scenarios" / "digimon" / "triggered-04.yaml",
]
GAMES = ("digimon", "duelmasters", "yugioh")


def _trace(path: Path, game: str) -> str:
    return tcgtrig.resolve(tcgtrig.load_scenario(path, check_game=False), game).json_text()


def test_resolutions_in_several_threads_give_the_traces_they_give_alone():
    jobs = [(path, game) for path in FILES for game in GAMES]
    alone = {job: _trace(*job) for job in jobs}
    together: dict[tuple[Path, str], str] = {}
    start = threading.Barrier(3)

    def work(part: list[tuple[Path, str]]) -> None:
        start.wait()
        for job in part:
            together[job] = _trace(*job)

    threads = [threading.Thread(target=work, args=(jobs[n::3],)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert together == alone
