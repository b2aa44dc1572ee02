"""tcgtrig play: a person answers every decision — numbers or labels,
undo, outcomes, the choices block that replays the session, Ctrl-C, and
a real terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
import tcgtrig
from click.testing import CliRunner
from tcgtrig.tools.cli import main
from test_cli import T1, order_line


def play(answers: str):
    return CliRunner().invoke(main, ["play", str(T1)], input=answers)


def replay_block(output: str) -> list[str]:
    line = next(line for line in output.splitlines() if line.startswith("choices: ["))
    inside = line.removeprefix("choices: [").removesuffix("]")
    return [label.strip() for label in inside.split(",") if label.strip()]


def test_the_session_ends_with_a_choices_block_that_replays_it():
    result = play("upamon.draw\n2\n\n")
    assert result.exit_code == 0, result.output
    labels = replay_block(result.stdout)
    assert labels == ["upamon.draw", "zudomon.memory", "metalgarurumon.play"]
    replayed = tcgtrig.resolve(tcgtrig.load_scenario(T1), "digimon", choices=labels)
    assert replayed.keys("resolved") == order_line(result.stdout)


def test_undo_takes_back_the_last_answer():
    result = play("upamon.draw\nundo\ngabumon.trash\n\n\n\n")
    assert result.exit_code == 0, result.output
    assert "undone: upamon.draw" in result.stdout
    assert replay_block(result.stdout)[0] == "gabumon.trash"
    assert order_line(result.stdout)[0] == "gabumon.trash"


Q4285 = "tests/scenarios/digimon/qa-13-bt20-068-q4285.yaml"


def test_undo_rebuilds_the_position_and_the_new_answer_decides_the_resolution():
    # kept, Ghostmon first gains A a memory; taken back for DemiMeramon's return, Ghostmon's effect is lost
    kept = CliRunner().invoke(main, ["play", Q4285], input="ghostmon.memory\nuse\nbakemon\n")
    assert order_line(kept.stdout) == ["ghostmon.memory", "demimeramon.return"]
    assert "Counters: memory 1 on A's side" in kept.stdout
    result = CliRunner().invoke(
        main, ["play", Q4285], input="ghostmon.memory\nundo\ndemimeramon.return\nuse\nbakemon\n"
    )
    assert result.exit_code == 0, result.output
    assert "  undone: ghostmon.memory" in result.stdout
    assert order_line(result.stdout) == ["demimeramon.return"]
    assert "Counters: memory 0" in result.stdout
    assert replay_block(result.stdout) == ["demimeramon.return", "use", "bakemon"]


def test_undo_keeps_the_answers_before_the_one_taken_back():
    result = play("upamon.draw\nzudomon.memory\nundo\ngabumon.trash\n\n\n")
    assert result.exit_code == 0, result.output
    assert "  undone: zudomon.memory" in result.stdout
    assert replay_block(result.stdout) == ["upamon.draw", "gabumon.trash", "metalgarurumon.play"]
    assert order_line(result.stdout)[:3] == ["upamon.draw", "gabumon.trash", "metalgarurumon.play"]


def test_undo_twice_goes_back_two_decisions():
    result = play("upamon.draw\nzudomon.memory\nundo\nundo\ngabumon.trash\n\n\n")
    assert result.exit_code == 0, result.output
    undone = [line for line in result.stdout.splitlines() if line.startswith("  undone: ")]
    assert undone == ["  undone: zudomon.memory", "  undone: upamon.draw"]
    assert replay_block(result.stdout) == ["gabumon.trash", "metalgarurumon.play", "zudomon.memory"]
    assert order_line(result.stdout)[0] == "gabumon.trash"


def test_undo_with_nothing_to_undo_says_so():
    result = play("undo\n3\n\n\n")
    assert result.exit_code == 0, result.output
    assert "  nothing to undo: you have not answered a decision yet" in result.stdout
    assert "undone:" not in result.stdout
    assert order_line(result.stdout)[0] == "gabumon.trash"  # the next answer still answers the first decision


def test_the_prompt_and_the_help_offer_undo():
    result = play("\n\n\n")
    assert "choice (a number or label; undo, outcomes): " in result.stdout
    help_text = CliRunner().invoke(main, ["play", "--help"]).stdout
    assert "undo" in help_text


def test_outcomes_shows_where_each_option_leads():
    result = play("outcomes\n\n\n\n")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if " → " in line and re.match(r"  \d\. ", line)]
    assert len(lines) == 4 and all("outcome" in line for line in lines)


def test_an_illegal_answer_names_the_legal_ones():
    result = play("bogus\n\n\n\n")
    assert (
        "not a legal choice: 'bogus' (legal: metalgarurumon.play, zudomon.memory, gabumon.trash, "
        "upamon.draw, undo, outcomes)" in result.stdout
    )


def test_ctrl_c_ends_with_exit_130(monkeypatch):
    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("tcgtrig.tools.cli._read_answer", interrupted)
    result = CliRunner().invoke(main, ["play", str(T1)])
    assert result.exit_code == 130 and "Traceback" not in result.output


def test_play_under_a_real_terminal():
    pid, fd = pty.fork()
    if pid == 0:  # the child: tcgtrig play on the terminal
        os.execvp(sys.executable, [sys.executable, "-m", "tcgtrig", "play", str(T1)])
    output = b""
    answers = [b"upamon.draw\n", b"2\n", b"\n"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
            if output.count(b"choice (a number") > 3 - len(answers) and answers:
                os.write(fd, answers.pop(0))
    _, status = os.waitpid(pid, 0)
    text = output.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 0, text[-2000:]
    assert "choices: [upamon.draw, zudomon.memory, metalgarurumon.play]" in text
    assert subprocess.run([sys.executable, "-m", "tcgtrig", "--version"], capture_output=True).returncode == 0


def test_play_shows_what_is_pending_in_the_games_structure():
    result = play("\n\n\n")
    assert (
        "pending, as the game ranks them: metalgarurumon.play (A, priority 1); zudomon.memory (A, priority 1)"
        in result.stdout
    )
    chain = CliRunner().invoke(
        main, ["play", "tests/scenarios/digimon/triggered-04.yaml", "--game", "yugioh"], input="\n" * 20
    )
    assert chain.exit_code == 0, chain.output
    assert "Chain: CL1 " in chain.stdout or "pending, as the game ranks them" in chain.stdout  # the game's words


def test_play_need_not_ask_what_cannot_change_the_outcome():
    result = CliRunner().invoke(main, ["play", str(T1), "--skip-irrelevant"], input="")
    assert result.exit_code == 0, result.output
    assert "decides (order): which" not in result.stdout  # nothing was asked
    assert result.stdout.count("every answer leads to the same outcome (explored)") == 3
    labels = replay_block(result.stdout)
    replayed = tcgtrig.resolve(tcgtrig.load_scenario(T1), "digimon", choices=labels)
    assert replayed.keys("resolved") == order_line(result.stdout)


def test_play_still_asks_when_the_answer_matters():
    q4285 = "tests/scenarios/digimon/qa-13-bt20-068-q4285.yaml"
    result = CliRunner().invoke(main, ["play", q4285, "--skip-irrelevant"], input="\n\n\n\n")
    assert result.exit_code == 0, result.output
    assert "decides (order): which pending effect activates next" in result.stdout


# -- issue 22, item 4: exploring for a question has a budget and shows its progress -------------------------

TWENTY = Path(__file__).parent / "hostile" / "play-20-independent-triggers.yaml"


@pytest.mark.slow
def test_skip_irrelevant_explores_within_its_budget_then_asks():
    # every order ends alike, but showing it takes 2^19 positions: silent for 55 s and 525 MB before
    result = CliRunner().invoke(main, ["play", str(TWENTY), "--skip-irrelevant", "--max-states", "6000"], input="\n")
    assert (
        "could not tell whether the answer changes the outcome (the work budget ran out at 6,000 positions "
        "reached (--max-states raises it)): asking" in result.stdout
    )
    assert "A decides (order): which pending effect activates next" in result.stdout  # then it asks
    progress = re.findall(r"^exploring whether the answer matters… ([\d,]+) positions$", result.stderr, re.M)
    assert progress and all(5_000 <= int(n.replace(",", "")) <= 6_000 for n in progress)


def test_outcomes_explores_each_option_within_a_share_of_the_budget():
    # 100 s an option before
    result = CliRunner().invoke(main, ["play", str(TWENTY), "--max-states", "2000"], input="outcomes\n")
    lines = [line for line in result.stdout.splitlines() if " → " in line]
    assert len(lines) == 20
    assert all(
        "→ 1 outcome (not all explored: the work budget ran out at 100 positions reached (--max-states "
        "raises it)): complete" in line
        for line in lines
    ), lines[0]


def test_play_exits_3_when_the_resolution_ended_early():
    # issue 22: every command ends a cut-off resolution with exit 3, as run does (play exited 0)
    fan = Path(__file__).parent / "hostile" / "fan-out-2.yaml"
    result = CliRunner().invoke(main, ["play", str(fan)], input="1\n" * 20)
    assert result.exit_code == 3, result.output
    assert "kept recurring while the pending effects only piled up" in result.stdout
    assert "Traceback" not in result.output


def test_play_shows_an_option_standing_for_copies():
    # B holds 25 D.D. Crows: one option, said to stand for them all; another copy's key is taken too
    crows = str(Path(__file__).resolve().parents[1] / "benchmarks" / "positions" / "responses-50.yaml")
    result = CliRunner().invoke(main, ["play", crows], input="crow_4.banish\n" + "pass\n" * 6)
    assert result.exit_code == 0, result.output
    assert "1. crow_0.banish  (stands for 25 copies)" in result.stdout
    assert "1. crow_0.banish  (stands for 24 copies)" in result.stdout  # crow_4 is on the chain
    assert replay_block(result.stdout)[:3] == ["crow_4.banish", "pass", "pass"]
