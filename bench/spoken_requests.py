"""What users get when they speak: held-out requests, spoken, heard by the server's recogniser, answered.

Every self-contained request of the held-out files is spoken in each voice of bench/voices.py, heard as
wideband 16 kHz audio and through the phone band (8 kHz μ-law and back), by the server's own Whisper as the
server calls it: a final transcript, with the home's names in the prompt (ToolRunner.spoken_names). The
transcript goes to the assistant in a fresh conversation, in the request's home:
- default: the vocabulary's home (tests/data/heldout.jsonl and the default rows of heldout_home.jsonl);
- made up: tests/made_up_home.py, 40 entities (the made-up rows of heldout_home.jsonl);
- discovered: tests/discovered_home.py, 25 entities in Zigbee2MQTT / Tasmota / ESPHome discovery shapes
  (tests/data/heldout_discovered.jsonl, written before any result on it was seen);
- players and slats: the made-up home with tests/media_home.py's players, tests/covered_home.py's blinds, curtains
  and valves and tests/tilted_home.py's slats (tests/data/spoken_new_skills.jsonl, written before any was heard).
Outcomes are judged as bench/asr_slips.py judges them: right, no action (nothing changed and every tool said
why), wrong action; a request that changes the home is right only where the home changed (a heard "the dock light
on please" answered with the light's state, nothing switched, is no action: changes_a_fresh_home); and, where the recogniser only guessed a name, asked ("Did you mean the samovar?"),
split by whether the yes would run the right call. A timer is judged by the timers left running: "timer
unnamed" is a named timer asked for that runs without its name (one the recogniser was unsure of). Rows tagged
slip are typed input only (typed_only).

Ears compared on the same recordings:
- greedy: Whisper's greedy final as it was before the home's names were heard (final_hypotheses=1);
- greedy, names heard: voice.heard_names puts the home's names in for words that sound like them, silently
  where it is only a spelling, and asks first where it is a guess (the default home's names too, which are not
  in the prompt: ToolRunner.home_names);
- N-best rescored, names heard (`--nbest N`; the server's ear with N = FINAL_HYPOTHESES): a beam of N
  hypotheses, the one most made of the home's names kept (heard_names.best_hypothesis), then names heard;
- `--larger base`: the same ear with Whisper base (the `parley serve --whisper base` option);
- `--grammar`: the N-best ear with a second opinion from PocketSphinx and a grammar of the home
  (bench/second_ear.py), asked only where the final names none of the home's names or only guesses one.

Recordings and transcripts are cached under bench/out/spoken/ (`--cache DIR` for another folder; a transcript is
keyed by all that makes it, Transcripts); `--fresh` hears every recording again, so the recogniser's compute is
measured in the run. Every voice renders the same samples on every run (bench/voices.py: Piper without
its sampling noise), so a run from an empty cache gives the figures again; the recordings live in renderings/,
apart from the sampled Piper recordings that rounds 21 to 28 kept in recordings/. `--window S` hears finals in an
S-second encoder window instead of the server's (voice.stt.FINAL_WINDOW_S), to compare windows on the same
recordings.
`--requests FILE` speaks the self-contained rows of any paraphrase or held-out jsonl file instead of the
held-out files (a new blind set, heard once). `--sample N` takes N requests per home (seeded) instead of all;
`--skip M` leaves out those `--sample M` takes, `--skip M:N` those `--skip M --sample N` takes, `--skip M:N:K`
those `--skip M --skip M:N --sample K` takes.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/spoken_requests.py --sample 40
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from assistant.chat_template import NoAction  # noqa: E402
from assistant.home import InMemoryHome  # noqa: E402
from assistant.inventory import Inventory  # noqa: E402
from assistant.skills import TIMER_SKILLS, TIMER_STARTS  # noqa: E402
from assistant.tools import ToolRunner  # noqa: E402
from assistant_eval import answered_nothing, ask, made_up_inventory, score, snapshot  # noqa: E402
from assistant.spoken_numbers import normalize_request  # noqa: E402
from voice.heard_doubts import names_heard_in  # noqa: E402
from voice.heard_names import hear_names, named_words  # noqa: E402
from voice.heard_text import said_words  # noqa: E402
from voice.heard_values import to_weigh, weighed  # noqa: E402
from voice.stt import Heard  # noqa: E402
from second_ear import GrammarEar, home_phrasings, second_opinion  # noqa: E402
from voice_speed import normalised_words  # noqa: E402
from voices import VOICES, phone_band, speak  # noqa: E402

DATA = ROOT / "tests" / "data"
FILES = [DATA / "heldout.jsonl", DATA / "heldout_home.jsonl", DATA / "heldout_discovered.jsonl"]
OUT = ROOT / "bench" / "out"
CACHE = OUT / "spoken"
HOMES = ("default", "made_up", "discovered")
OUTCOMES = ("right", "asked, yes right", "asked, yes wrong", "timer unnamed", "no action", "wrong action")


def requests(sample: int | None, skip: list[str] = (), files: list[Path] = FILES) -> list[dict]:
    """The self-contained rows of files (the held-out ones by default), each with its home; sample: that many
    per home, seeded (all a home has when it has fewer); skip: not the rows an earlier run took, each "N" for
    `--sample N` (the tuning set), "M:N" for `--skip M --sample N` (a held-back set), "M:N:K" for `--skip M
    --skip M:N --sample K` and so on."""
    rows = []
    for path in files:
        for line in path.read_text().splitlines():
            row = json.loads(line) if line.strip() else None
            if row and len(row["history"]) == 1:
                rows.append({**row, "file": path.stem, "home": row.get("home", "default")})
    for taken in skip:
        *before, size = taken.split(":")
        earlier = [":".join(before[:end]) for end in range(1, len(before) + 1)]
        seen = {(r["file"], r["id"]) for r in requests(int(size), earlier, files)}
        rows = [r for r in rows if (r["file"], r["id"]) not in seen]
    if sample:
        rng = random.Random(22)
        rows = [r for home in HOMES for r in rng.sample([r for r in rows if r["home"] == home],
                                                        min(sample, sum(r["home"] == home for r in rows)))]
    return rows


def typed_only(row: dict) -> bool:
    """A row tagged "slip" spells a slip of typed or recognised text ("turn of the kiln", "his the kiln on"): it
    tests what the assistant makes of text as written. Spoken, the slip would be the bench's own, not one the
    recogniser made, so the spoken bench leaves these rows out (after sampling: samples stay as they were)."""
    return "slip" in row.get("tags", ())


def discovered_inventory() -> Inventory:
    from discovered_home import discovery_messages
    inventory = Inventory()
    for topic, payload in discovery_messages():
        inventory.receive_discovery(topic, payload)
    return inventory


def new_home(kind: str) -> InMemoryHome:
    if kind == "made_up":
        return InMemoryHome(inventory=made_up_inventory())
    if kind == "discovered":
        return InMemoryHome(inventory=discovered_inventory())
    if kind == "players_and_slats":        # the made-up home with media players, blinds, curtains, valves and slats
        from covered_home import COVERED
        from media_home import PLAYERS
        from test_assistant_modes import home_with
        from tilted_home import TILTED
        return home_with(*PLAYERS, *COVERED, *TILTED)
    return InMemoryHome()


def recording(voice: str, text: str, cache: Path = CACHE) -> np.ndarray:
    """The wideband recording of text in voice, as cached (PCM16), spoken first if it is not: the run that speaks it
    hears the same samples as every later run that reads it (a resampled voice's floats are not PCM16 steps)."""
    path = cache / "renderings" / voice.replace(" ", "_") / (hashlib.sha1(text.encode()).hexdigest()[:16] + ".npy")
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, np.clip(np.rint(speak(voice, text) * 32768), -32768, 32767).astype(np.int16))
    return np.load(path).astype(np.float32) / 32768


VALUES_CODE = (ROOT / "voice" / "heard_values.py", ROOT / "voice" / "heard_doubts.py",
               ROOT / "assistant" / "spoken_numbers.py", ROOT / "assistant" / "skills.py")
RECOGNISER_CODE = (ROOT / "voice" / "stt.py", ROOT / "voice" / "heard_names.py", ROOT / "voice" / "heard_words.py",
                   ROOT / "voice" / "data" / "phrasing_words.txt", ROOT / "voice" / "data" / "request_words.txt")


class Transcripts:
    """Final transcripts keyed by everything that makes them: the recording as heard (its samples), the model,
    its prompt (with the home's names), the finals' window, the number of hypotheses and the recogniser's code
    (RECOGNISER_CODE), kept in a JSON-lines file, so that no run reuses a final another ear made; the seconds
    (wall clock, and the process's CPU time) each one heard in this run took, by model and number of hypotheses."""

    def __init__(self, path: Path):
        self.path, self.seconds, self.stts = path, {}, {}
        self.code = hashlib.sha1(b"".join(p.read_bytes() for p in RECOGNISER_CODE)).hexdigest()
        self.values_code = hashlib.sha1(b"".join(p.read_bytes() for p in VALUES_CODE)).hexdigest()[:16]
        self.values_seconds: list[tuple[float, float]] = []
        self.known = {}
        if path.exists():
            for line in path.read_text().splitlines():
                entry = json.loads(line)
                self.known[tuple(entry["key"])] = entry["heard"]

    def _ear(self, stt, names: tuple[str, ...], sound: np.ndarray) -> str:
        """A digest of what, besides the words asked for, the transcript of sound depends on."""
        made = f"{stt.model}|{stt.prompt_text(names)}|{stt.final_window_s}|{self.code}|"
        return hashlib.sha1(made.encode() + np.ascontiguousarray(sound, np.float32).tobytes()).hexdigest()[:16]

    def heard(self, stt, voice: str, band: str, text: str, names: tuple[str, ...], audio, count: int = 1):
        """The final's count best hypotheses as [text, score] pairs (count 1: greedy decoding)."""
        sound = audio()
        key = (voice, band, text, self._ear(stt, names, sound), count)
        if key not in self.known:
            started, cpu = time.perf_counter(), time.process_time()
            self.known[key] = stt.hypotheses(sound, names, count)
            self.seconds.setdefault((stt.model, count), []).append((time.perf_counter() - started,
                                                                    time.process_time() - cpu))
            with self.path.open("a") as out:
                out.write(json.dumps({"key": key, "heard": self.known[key]}) + "\n")
        return self.known[key]

    def evidence(self, stt, voice: str, band: str, text: str, names: tuple[str, ...], audio) -> dict:
        """The server's final as stt.hear makes it: {"text", "words": [[word, probability], ...], "said": the same
        without the signs Whisper wrote (Heard.said_probabilities), "put_in": the names put in where the audio
        preferred them (Heard.put_in), "guessed": {name: words heard in its place} for those only guessed} (no
        words: a doubted word of it cannot be said back, so the run counts such finals)."""
        sound = audio()
        key = (voice, band, text, self._ear(stt, names, sound), f"hear {stt.final_hypotheses}")
        if key not in self.known:
            started, cpu = time.perf_counter(), time.process_time()
            heard = stt.hear(sound, names)
            self.seconds.setdefault((stt.model, stt.final_hypotheses), []).append(
                (time.perf_counter() - started, time.process_time() - cpu))
            self.known[key] = {"text": heard.text, "words": [list(w) for w in heard.word_probabilities],
                               "said": [list(w) for w in heard.said_probabilities], "put_in": list(heard.put_in),
                               "guessed": dict(heard.guessed)}
            with self.path.open("a") as out:
                out.write(json.dumps({"key": key, "heard": self.known[key]}) + "\n")
        return self.known[key]

    def weighed(self, stt, voice: str, band: str, text: str, names: tuple[str, ...], audio, heard: Heard) -> Heard:
        """heard with each doubted number given its value's probability and each doubted action its share against
        the others of its kind (voice.heard_values), as the server weighs its finals; cached beside the finals under
        a key of its own (the final's and VALUES_CODE), so that a change to the weighing hears no final again. Only
        a final with a doubted number or action is weighed; the seconds each weighing took in this run are kept
        (values_seconds)."""
        if not to_weigh(heard, names):
            return heard
        sound = audio()
        key = (voice, band, text, self._ear(stt, names, sound), f"values {self.values_code}")
        if key not in self.known:
            started, cpu = time.perf_counter(), time.process_time()
            self.known[key] = [list(w) for w in weighed(stt, sound, heard, names).said_probabilities]
            self.values_seconds.append((time.perf_counter() - started, time.process_time() - cpu))
            with self.path.open("a") as out:
                out.write(json.dumps({"key": key, "heard": self.known[key]}) + "\n")
        return replace(heard, said_probabilities=tuple(map(tuple, self.known[key])))


def outcome(assistant, row: dict, text: str, guessed: dict[str, str], unsure: frozenset[str],
            unsure_numbers: frozenset[str], spoken: bool = True,
            doubted: frozenset[str] = frozenset(), doubted_change: frozenset[str] = frozenset()) -> tuple[str, str]:
    """(one of OUTCOMES, what the assistant did) for text heard and asked in a fresh conversation in row's
    home, with the words and the numbers the server's recogniser was unsure of, and the words it doubted (a
    change's below its own line: doubted_change; spoken False: the text as typed). A timer is judged by the timers
    left running: "timer unnamed" is the named timer asked for, running at the right length without the name
    (ToolRunner drops a label the recogniser was unsure of or no word heard holds). The call as written is right
    only where the user got what it asks: a read the tool declined (NoAction) is no action."""
    tools = ToolRunner(new_home(row["home"]))
    tools.guessed_names, tools.unsure_words, tools.unsure_numbers = guessed, unsure, unsure_numbers
    tools.doubted_words, tools.doubted_change_words = doubted, doubted_change
    tools.spoken = spoken
    expected = row["expected"] or {}
    if expected.get("name") in TIMER_SKILLS - TIMER_STARTS:
        # "how long has the pasta got" presumes the pasta timer running: start it, so the answer can be judged
        asyncio.run(tools.timer_book.add(600, expected["arguments"].get("name")))
    reply, acted, results = ask(assistant, [{"role": "user", "content": text}], tools)
    did = f"{[(c.name, c.arguments) for c in reply.tool_calls]} / {reply.text!r}"
    asked = any(isinstance(r, NoAction) and str(r).startswith("Did you mean") for r in results)
    if asked:
        # the yes runs the held call as if its name had been heard: judge that call
        tools.guessed_names = {}
        return ("asked, yes right" if score(row, reply, False, tools.home.inventory, []) and row["expected"] is not None
                else "asked, yes wrong"), did
    if expected.get("name") in ("set_timer", "start_timer") and not acted:
        # a timer is judged by the timers it leaves running, as a call to the home by its effect
        running = [(t.name, t.seconds) for t in asyncio.run(tools.timer_book.pending())]
        if running == [(expected["arguments"].get("name"), expected["arguments"]["seconds"])]:
            return "right", did
        if running == [(None, expected["arguments"]["seconds"])]:
            return "timer unnamed", did
    elif score(row, reply, acted, tools.home.inventory, results) and (acted or answered_unchanged(row, results)):
        return "right", did
    return ("no action" if answered_nothing(acted, results) else "wrong action"), did


def answered_unchanged(row: dict, results: list) -> bool:
    """Whether a reply that changed nothing gave row's user what they asked: a request that must do nothing (an
    unknown name) is answered even by a tool's refusal; a read the tool declined ("Sorry, I didn't catch that.",
    "which one?") gave nothing; a change is never answered by nothing."""
    if row["expected"] is None:
        return True
    return not changes_a_fresh_home(row) and not any(isinstance(r, NoAction) for r in results)


def changes_a_fresh_home(row: dict) -> bool:
    """Whether the call row expects changes a fresh copy of its home: then a call that left the home as it was
    is not right, whatever it was written as (a heard "the dock light on please" answered with the light's state
    instead, ToolRunner's states_without_a_switch, switches nothing)."""
    expected = row["expected"]
    if not expected:
        return False
    tools = ToolRunner(new_home(row["home"]))
    before = snapshot(tools.home)
    asyncio.run(tools.run(expected["name"], dict(expected["arguments"])))
    return snapshot(tools.home) != before


def said_with_doubts(words: list) -> str:
    """The server's final, each word below 0.9 probability followed by it ("Stop the end:0.41 please."): what a
    wrong action rests on, read beside it."""
    return " ".join(word.strip() + (f":{p:.2f}" if p < 0.9 else "") for word, p in words)


def grammar_ears() -> dict[str, GrammarEar]:
    """The grammar ear of each home that has names of its own."""
    ears = {}
    for kind in HOMES[1:]:
        inventory = new_home(kind).inventory
        ears[kind] = GrammarEar(home_phrasings(inventory.entities()), tuple(e.name for e in inventory.entities()),
                                tuple(sorted(inventory.lexicon()[1])))
    return ears


def cached_heard(final: dict):
    """The Heard a cached final (Transcripts.evidence) stands for, before any number is weighed."""
    return Heard(final["text"], tuple(map(tuple, final["words"])), said_probabilities=tuple(map(tuple, final["said"])),
                 put_in=tuple(final.get("put_in", ())))


def server_ear(transcripts: Transcripts, stt, voice: str, band: str, said: str, names: tuple[str, ...],
               home_names: tuple[str, ...], audio) -> tuple:
    """The server's ear on one recording, as streaming.session hands a final on: stt.hear's final (cached), a
    doubted number weighed by its value, words put back as said, the home's names heard in. (final as cached, the
    Heard before weighing, the Heard the doubts read, the names heard, (text, guessed, unsure, numbers, doubted,
    doubted change))."""
    final = transcripts.evidence(stt, voice, band, said, names, audio)
    evidence_heard = cached_heard(final)
    evidence = transcripts.weighed(stt, voice, band, said, names, audio, evidence_heard)
    rescored, guessed, doubted, changes = names_heard_in(said_words(final["text"]), home_names,
                                                         evidence.doubted_words(), evidence.doubted_change_words(),
                                                         final.get("guessed", {}))
    return final, evidence_heard, evidence, rescored, (rescored.text, guessed, evidence.unsure_words(),
                                                       evidence.unsure_numbers(), doubted, changes)


def run(rows: list[dict], voices: list[str], fresh: bool, errors: bool, nbest: int, larger: str | None,
        grammar: bool, window: int | None, cache: Path = CACHE) -> str:
    from assistant.embedded import EmbeddedGenerator
    from voice.stt import FINAL_WINDOW_S, WhisperSTT

    cache.mkdir(parents=True, exist_ok=True)
    if fresh:
        (cache / "transcripts.jsonl").unlink(missing_ok=True)
    window = window or FINAL_WINDOW_S
    stt = WhisperSTT(final_hypotheses=max(nbest, 1), final_window_s=window)
    assistant = EmbeddedGenerator.load(None)
    other = WhisperSTT(larger, final_hypotheses=max(nbest, 1), final_window_s=window) if larger else None
    second_ears = grammar_ears() if grammar else {}
    transcripts = Transcripts(cache / "transcripts.jsonl")
    homes = {*HOMES, *(row["home"] for row in rows)}
    names = {kind: ToolRunner(new_home(kind)).spoken_names() for kind in homes}
    home_names = {kind: ToolRunner(new_home(kind)).home_names() for kind in homes}     # the default home's too
    answers: dict[tuple, tuple[str, str]] = {}          # (home, request id, text, guesses) -> outcome
    counts: dict[tuple, dict[str, int]] = {}
    differ, hear_ms, total, done, ears = [], [], len(rows) * len(voices) * 2, 0, {}
    grammar_cpu, grammar_taken, without_words, finals = [], 0, 0, 0
    started = time.perf_counter()
    for row in rows:
        said = row["history"][0]["content"]
        for voice in voices:
            for band in ("wideband", "phone"):
                def audio(voice=voice, band=band):
                    wide = recording(voice, said, cache)
                    return wide if band == "wideband" else phone_band(wide)
                greedy = transcripts.heard(stt, voice, band, said, names[row["home"]], audio)
                heard = greedy[0][0] if greedy else ""
                t0 = time.perf_counter()
                hearing = hear_names(heard, home_names[row["home"]])
                hear_ms.append(1000 * (time.perf_counter() - t0))
                by_ear = {"greedy": (heard, {}, *(frozenset(),) * 4),
                          "greedy, names heard": (hearing.text, hearing.guessed, *(frozenset(),) * 4)}
                if nbest > 1:       # the server's ear: stt.hear, with the words it was unsure of
                    final, evidence_heard, evidence, rescored, server = server_ear(
                        transcripts, stt, voice, band, said, names[row["home"]], home_names[row["home"]], audio)
                    finals += bool(final["text"])
                    without_words += bool(final["text"]) and not final["words"]
                    unsure, numbers, doubted, changes = server[2:]
                    by_ear[f"{nbest}-best rescored, names heard"] = server
                    if row["home"] in second_ears:
                        if named_words(rescored, names[row["home"]]) and not rescored.guessed:
                            grammar_heard = ""
                        else:
                            sound, cpu = audio(), time.process_time()
                            grammar_heard = second_ears[row["home"]].hear(sound)
                            grammar_cpu.append(time.process_time() - cpu)
                        opinion = second_opinion(final["text"], rescored, grammar_heard, names[row["home"]],
                                                 normalize_request)
                        grammar_taken += opinion is not rescored
                        doubts = (unsure, numbers, doubted, changes) if opinion is rescored else (frozenset(),) * 4
                        by_ear[f"{nbest}-best, names heard, grammar ear"] = (opinion.text, opinion.guessed, *doubts)
                    elif second_ears:
                        by_ear[f"{nbest}-best, names heard, grammar ear"] = (rescored.text, rescored.guessed, unsure,
                                                                              numbers, doubted, changes)
                if other is not None:       # the server's ear with the larger model, as `parley serve --whisper`
                    larger_final = server_ear(transcripts, other, voice, band, said, names[row["home"]],
                                              home_names[row["home"]], audio)
                    by_ear[f"{other.model} {other.final_hypotheses}-best rescored, names heard"] = larger_final[4]
                results = {}
                ears.update(dict.fromkeys(by_ear))
                for ear, (text, guessed, unsure, numbers, doubted, changes) in by_ear.items():
                    key = (row["home"], row["file"], row["id"], text, tuple(sorted(guessed.items())),
                           *(tuple(sorted(words)) for words in (unsure, numbers, doubted, changes)))
                    if key not in answers:
                        answers[key] = outcome(assistant, row, text, guessed, unsure, numbers, doubted=doubted,
                                               doubted_change=changes)
                    results[ear] = answers[key]
                    exact = normalised_words(heard) == normalised_words(said)
                    unknown = row.get("category") == "unknown_name"
                    for group in (("all", ear, band), (voice, ear, band), (row["home"], ear, band),
                                  *([("unknown names", ear, band)] if unknown else []),
                                  *([("no call", ear, band)] if row["expected"] is None else []),
                                  *([("misheard", ear, band)] if not exact else [])):
                        bucket = counts.setdefault(group, dict.fromkeys(("n",) + OUTCOMES, 0))
                        bucket["n"] += 1
                        bucket[results[ear][0]] += 1
                if errors and any(r[0] != "right" for r in results.values()):
                    differ.append(f"{row['home']:<10} {voice:<18} {band:<8} {said!r} heard {heard!r}"
                                  + (f" -> {hearing.text!r} {hearing.guessed}" if hearing.text != heard else "")
                                  + (f"\n    final: {said_with_doubts(final['words'])}" if nbest > 1 else "")
                                  + (f"\n    said, weighed: {said_with_doubts(evidence.said_probabilities)}"
                                     if nbest > 1 and to_weigh(evidence_heard, names[row["home"]]) else "")
                                  + (f"\n    {other.model} final, said: "
                                     f"{said_with_doubts(larger_final[2].said_probabilities)}"
                                     if other is not None else "")
                                  + "".join(f"\n    {ear}: {r[0]}: {r[1]}" for ear, r in results.items()))
                done += 1
                if done % 20 == 0 or done == total:
                    print(f"\r{done}/{total} recordings, {time.perf_counter() - started:.0f} s", end="",
                          file=sys.stderr, flush=True)
    print(file=sys.stderr)
    table = f"Finals heard in a {window} s window.\n" + report(rows, voices, list(ears), counts, transcripts.seconds,
                                                                hear_ms)
    if transcripts.values_seconds:
        taken = transcripts.values_seconds
        table += (f"\nDoubted numbers and actions weighed (voice/heard_values.py) in {len(taken)} finals heard in this "
                  f"run: median {1000 * statistics.median(t[0] for t in taken):.0f} ms wall clock, "
                  f"{1000 * statistics.median(t[1] for t in taken):.0f} ms CPU, {1000 * sum(t[1] for t in taken):.0f} "
                  f"ms CPU in all.")
    if finals:
        table += (f"\nFinals without word probabilities (nothing of them can be said back): {without_words} of "
                  f"{finals} ({100 * without_words / finals:.1f}%).")
    if second_ears:
        table += (f"\nGrammar ear: asked for {len(grammar_cpu)} of {total} finals, its name taken in {grammar_taken}; "
                  f"{1000 * statistics.median(grammar_cpu or [0]):.0f} ms CPU median where asked, "
                  f"{1000 * sum(grammar_cpu) / total:.0f} ms CPU per final on average.")
    return table + ("\n\n" + "\n".join(differ) if errors else "")


def report(rows, voices, ears, counts, seconds, hear_ms) -> str:
    def line(label, group, ear, band):
        c = counts.get((group, ear, band))
        if not c:
            return None
        share = lambda k: f"{100 * c[k] / c['n']:.1f}%"  # noqa: E731
        at_yes = f"{100 * (c['right'] + c['asked, yes right']) / c['n']:.1f}%"
        return (f"| {label} | {band} | {ear} | {c['n']} | {share('right')} | {at_yes} | {share('asked, yes wrong')} | "
                f"{share('timer unnamed')} | {share('no action')} | {share('wrong action')} |")
    header = ("| requests | band | ear | recordings | right | right, or asked and yes is right | asked, yes wrong | "
              "timer unnamed | no action | wrong action |\n|---|---|---|---|---|---|---|---|---|---|")
    per_home = {h: sum(r["home"] == h for r in rows) for h in HOMES}
    out = [f"{len(rows)} requests ({', '.join(f'{h} {n}' for h, n in per_home.items())}), "
           f"{len(voices)} voices, wideband and phone band: {len(rows) * len(voices) * 2} recordings.", ""]
    for title, groups in (("All recordings, by home, misheard ones, unknown names and requests that must make no call",
                           ["all", *HOMES, "misheard", "unknown names", "no call"]), ("By voice", voices)):
        out += [f"{title}:", "", header]
        for group in groups:
            for band in ("wideband", "phone"):
                for ear in ears:
                    cells = line(group.replace("_", " "), group, ear, band)
                    if cells:
                        out.append(cells)
        out.append("")
    def median(ear, which):
        return statistics.median(taken[which] for taken in seconds[ear])
    for model, count in sorted(seconds):
        what = "greedy finals" if count == 1 else f"finals with {count} hypotheses"
        out.append(f"Recogniser {model}: {len(seconds[model, count])} {what} heard in this run, median "
                   f"{1000 * median((model, count), 0):.0f} ms wall clock, "
                   f"{1000 * median((model, count), 1):.0f} ms CPU.")
    greedy = ("tiny.en", 1)
    for ear in sorted(seconds):
        if ear != greedy and seconds.get(greedy):
            out.append(f"{ear[0]}, {ear[1]}-best final against tiny.en's greedy one (medians, same run): "
                       f"{median(ear, 0) / median(greedy, 0):.2f}x wall clock, "
                       f"{median(ear, 1) / median(greedy, 1):.2f}x CPU.")
    out.append(f"Names heard: median {statistics.median(hear_ms):.2f} ms, p99 "
               f"{sorted(hear_ms)[int(0.99 * (len(hear_ms) - 1))]:.2f} ms per final.")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, help="requests per home, seeded (default: all)")
    parser.add_argument("--skip", action="append", default=[], help="leave out the requests an earlier run took: "
                        "N for --sample N, M:N for --skip M --sample N, M:N:K for --skip M --skip M:N --sample K; "
                        "may be given again")
    parser.add_argument("--requests", type=Path, action="append", help="speak the self-contained rows of this "
                        "jsonl file (a paraphrase or held-out set; may be given again) instead of the held-out files")
    parser.add_argument("--voices", default=",".join(VOICES), help="comma-separated, from: " + ", ".join(VOICES))
    parser.add_argument("--cache", type=Path, default=CACHE, help="keep recordings and transcripts in this folder "
                        "(default: bench/out/spoken; an empty one makes every recording and final again)")
    parser.add_argument("--fresh", action="store_true", help="hear every recording again (recordings are kept)")
    parser.add_argument("--errors", action="store_true", help="also list every recording not answered right")
    parser.add_argument("--nbest", type=int, default=1, help="also hear each recording with this many beam "
                        "hypotheses, rescored by the home's names (an ear of its own)")
    parser.add_argument("--grammar", action="store_true", help="also the N-best ear with the second opinion of "
                        "PocketSphinx and a grammar of the home (an ear of its own)")
    parser.add_argument("--larger", choices=("base",), help="also hear each recording with this shipped Whisper "
                        "model, as the server's ear does with tiny.en (an ear of its own)")
    parser.add_argument("--window", type=int, help="the finals' encoder window in seconds (default: the server's)")
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    sampled = requests(args.sample, args.skip, args.requests or FILES)
    rows = [row for row in sampled if not typed_only(row)]
    table = run(rows, args.voices.split(","), args.fresh, args.errors, args.nbest, args.larger, args.grammar,
                args.window, args.cache)
    table = f"Rows tagged slip left out (typed input only): {len(sampled) - len(rows)} of {len(sampled)}.\n" + table
    print(table)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "spoken_requests.md").write_text(table + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
