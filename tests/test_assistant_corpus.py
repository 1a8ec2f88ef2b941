"""The corpus generator: seeded, covers every skill, and sounds like speech recognition output."""
import hashlib
import json
import os
import re
import subprocess
import sys

from assistant.corpus import generate_corpus, number_words, say_duration
from assistant.spoken_numbers import normalize_request
from assistant.skills import MODEL_SKILLS, SKILLS, valid_call
from assistant.vocabulary import OTHER_REQUEST_VERBS, SWITCH_VERBS, VERB_OBJECTS

CORPUS = generate_corpus(3000, seed=7)


def test_same_seed_same_corpus_other_seed_other_corpus():
    again = generate_corpus(200, seed=7)
    assert [(e.history, e.call, e.text) for e in again] == [(e.history, e.call, e.text) for e in CORPUS[:200]]
    other = generate_corpus(200, seed=8)
    assert [e.history for e in other] != [e.history for e in again]


def test_without_client_tools_the_corpus_is_the_shipped_checkpoints_row_for_row():
    """What the model reads and writes for the first 2,000 rows of the embedded preset's corpus (seed 0): the
    tools preset's generators must not change a row of it. The prompt's rules (assistant.rephrase,
    chat_template) change what the model reads too; pinned after the clause rules of 17e46d0, and again after
    "could you timer", "will you timer" (2 rows) no longer read "you" as a timer's name, and again after names
    were matched one or many alike (round 18: "let the light in open gate" slots "light" as the home's "lights",
    so the row is kept, and 20 of the 2,000 rows shift; no kept row reads otherwise), and again after a word of
    a name that is a request's verb was read as the verb before what it acts on (round 20: "lock the <e0>", not
    "<e0> the <e1>", where the home has a "gate lock"; 5 rows shift), and again after words said between an area and
    part of a name were read as more of the name (round 21: "the parlour standard lamp" is no lamp of the parlour;
    a slip row "the <a0> bold <e0>" is no longer drawn, and 1 row shifts)."""
    rows = generate_corpus(2000, seed=0)
    digest = hashlib.sha256(json.dumps([e.texts() for e in rows]).encode()).hexdigest()
    assert digest == "01a09c7ee4044974c307115a01bcca38d73262c097b31be231fd27a59e033488"


def test_the_corpus_does_not_depend_on_pythons_string_hashing():
    """The text turn judge trains on the requests as said (not only on what the model reads), so a row may not
    depend on a set's order, which changes with PYTHONHASHSEED from one process to the next."""
    script = ("import hashlib, json; from assistant.corpus import generate_corpus; "
              "rows = generate_corpus(3000, seed=0); "
              "print(hashlib.sha256(json.dumps([e.history for e in rows], default=str).encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(digests) == 1 and len(next(iter(digests))) == 65


def test_every_skill_and_tool_is_covered():
    skills = {e.skill for e in CORPUS}
    assert {"get_time", "get_date", "set_timer", "cancel_timer", "set_device", "set_brightness", "set_thermostat",
            "read_sensor", "calculate", "convert", "chit_chat", "out_of_domain", "follow_up", "which_room",
            "unknown_name", "set_alarm", "named_timer", "default_state"} <= skills
    tools = {e.call["name"] for e in CORPUS if e.call}
    assert tools == MODEL_SKILLS and MODEL_SKILLS < set(SKILLS)      # the others are read by code


def test_names_in_the_users_home_reach_the_model_only_as_slots():
    """Each name or area said, but a request's verb said before what it acts on ("lock the <e0>" where the home
    has a gate lock)."""
    homes = [e for e in CORPUS if e.lexicon is not None]
    assert len(homes) > 600
    verbs = "|".join(sorted({*SWITCH_VERBS, *OTHER_REQUEST_VERBS}))
    before = "|".join(sorted(VERB_OBJECTS))
    for e in homes:
        prompt, reply = e.texts()
        names, areas = e.lexicon
        request = prompt.rsplit("<|user|>", 1)[1]
        said = re.sub(rf" (?:{verbs}) (?=(?:{before}) )", " ", f" {request.split('<|assistant|>')[0]} ")
        assert not any(f" {n} " in said for n in names | areas), prompt
        assert all(slot in prompt for slot in re.findall(r"<[nea]\d>", reply)), (prompt, reply)


def test_asr_slips_keep_the_call():
    import random
    from assistant.corpus import slip
    rng = random.Random(3)
    assert slip(rng, "what is 7 times 6") in ("what in 7 times 6", "what his 7 times 6")
    assert slip(rng, "turn off the light") in ("turn of the light", "turn off a light")
    assert slip(rng, "set a timer for a hundred seconds").split()[-3:] == ["a", "hundred", "seconds"]


def test_every_call_is_valid_and_every_tool_reply_has_the_slot():
    for e in CORPUS:
        if e.call:
            assert valid_call(e.call), e.call
            assert "{result}" in e.text
        else:
            assert "{result}" not in e.text


def test_requests_look_like_speech_recognition_output():
    requests = [e.history[-1]["content"] for e in CORPUS]
    assert all(r == r.lower() and not re.search(r"[?!,;]", r) for r in requests)
    joined = " ".join(requests)
    for words in ["twenty", "hundred", "and a half", "hey parley", "um", "please", "could you"]:
        assert words in joined
    spoken = sum(bool(re.search(r"\b(one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty)\b", r))
                 for r, e in zip(requests, CORPUS) if e.call and e.call["name"] in ("set_timer", "calculate"))
    assert spoken > 0.5 * sum(1 for e in CORPUS if e.call and e.call["name"] in ("set_timer", "calculate"))


def test_spoken_numbers_normalise_to_the_call_arguments():
    """What the corpus says, once normalised, contains the digits the call needs (the model only copies)."""
    for e in CORPUS:
        if e.call and e.call["name"] == "set_timer" and e.skill == "set_timer":
            assert str(e.call["arguments"]["seconds"]) in normalize_request(e.history[-1]["content"]).split()


def test_follow_ups_change_one_argument_of_the_previous_call():
    follow_ups = [e for e in CORPUS if e.skill == "follow_up" and e.history[1].get("tool_calls")
                  and e.lexicon is None and e.call["name"] != "start_timer"]
    assert len(follow_ups) > 200
    for e in follow_ups:
        before, after = e.history[1]["tool_calls"][0], e.call
        if after["name"] == "change_brightness":       # "make it brighter": the same room's lights, a step
            assert before["name"] in ("set_device", "set_brightness")
            assert before["arguments"]["room"] == after["arguments"]["room"]
            continue
        assert before["name"] == after["name"]
        changed = [k for k in after["arguments"] if after["arguments"][k] != before["arguments"][k]]
        assert len(changed) == 1 or after["name"] == "set_timer"
    assert any(e.history[-1]["content"].startswith("and in the") for e in follow_ups)


def test_number_and_duration_words():
    assert number_words(105) == "one hundred five"
    assert number_words(3200) == "three thousand two hundred"
    import random
    rng = random.Random(0)
    for seconds in (90, 1800, 5400, 420, 45, 3725):
        for _ in range(5):
            spoken = say_duration(rng, seconds)
            assert normalize_request(spoken) == f"{seconds} seconds", spoken


def test_every_corpus_call_is_asked_for_by_its_words():
    """The reply checks that refuse a call no word asks for (Slots.acts_unasked), a switch on against a said
    "off" (Slots.switches_on_against_off), a whole-home switch that drops a place said
    (Slots.drops_a_said_place), a change asked as what someone did (Slots.acts_on_a_question), a level said in
    the other unit (Slots.sets_a_level_said_in_another_unit) and the thermostat for another device said
    (Slots.heats_for_another_device) never refuse the corpus."""
    from assistant.chat_template import model_prompt
    refused = []
    for example in CORPUS:
        if example.call:
            slots = model_prompt(example.history)[1]
            if slots.acts_unasked(example.call) or slots.switches_on_against_off(example.call) \
                    or slots.drops_a_said_place(example.call) or slots.acts_on_a_question(example.call) \
                    or slots.sets_a_level_said_in_another_unit(example.call) \
                    or slots.heats_for_another_device(example.call):
                refused.append(example.history)
    assert refused == []
