"""A doubted number weighed by its value: the probability of what was said, over every way Whisper writes it.

Whisper's probability of a number is that of its written form against every token, so a clear "six thirty" comes
out as "630" at 0.05-0.49, its mass shared with "6:30", "6 30" and "six thirty", and "twenty minutes" as "20" at
0.33-0.54 beside "Twenty". Those are one value, and the assistant reads them alike; a call resting on the number was
said back for a doubt that was only over the spelling. Here each number of the final that Whisper doubted (under
voice.stt.UNSURE_NUMBER, as said) is forced through the decoder on the same audio in each of its written forms, with
the final's prompt, and its value's probability is the sum of the forms' probabilities at that place (the product of
the form's tokens given the words before it, the same in every form). That sum becomes the number's said probability,
which every doubt of voice.stt.Heard reads: a value the audio holds in some spelling is no longer doubted, while a
value it does not hold ("30" for "ninety": "thirty" is no likelier) stays doubted and is asked about. Only a final
whose one doubt is its numbers is weighed (numbers_to_weigh): the question asked for a number reads the whole call
out, and guards every other word Whisper doubted as well.

A word that says which way a change goes ("lock", "off", "open", "up") is asked about when doubted because another of
its kind may have been said ("unlock", "on"): the same audio answers that, with each other action forced in its
place, alone and with the word beside it that may hold the other's sound ("And lock" for "unlock"); its share of
their probabilities becomes its said probability where higher (actions_to_weigh, _action_share).

A name of the home Whisper wrote in a spelling of its own ("louvers:0.19" for the louvres, "Punku" for the punkah:
voice.heard_names puts the name in silently) is said back when that spelling was doubted, though the doubt is
the number's again: the audio's probability shared between two ways of writing one sound, the name being a word
Whisper's language model hardly knows. So it is weighed like a number, the spelling and the name forced in its
place and summed (names_to_weigh), only where the home has no other name that sounds like it
(voice.heard_doubts.sounds_like_another) and no word but the spelling and a doubted action is doubted: a
different word said ("Code lighting" for the cove lighting) leaves the name's form no likelier, and stays doubted.

A word that opens a question ("Is", "What": assistant.vocabulary.QUESTION_WORDS) is read for a state only where it was
heard for sure (assistant.tools.asks), since a verb of a change misheard there ("Check:0.38 at the vellics window"
for "shut the velux window") would read a state for a request to change it. Yet Whisper doubts a clear "Is" at a
final's start (0.12-0.57) for words that make no other call ("It", "As", "The", "is"), and the read is refused
("Sorry, I didn't catch that."). The doubt matters only where a word of a change may have been said: so the same
audio answers it, the question word's forms against every verb of switching and change's action
(assistant.vocabulary.SWITCH_VERBS, assistant.skills.ACTIONS) at that place, from the decoder's one step there; its
share becomes its said probability where higher (questions_to_weigh, _question_share). Only where no other word is
doubted below a change's line: that doubt guards a change made of the words (questions_to_weigh).

A name the home has a rival for ("piano", "pond" and "panel" sound like the punkah: voice.heard_doubts.rivals) is
never weighed so: which of them was said is the question. The same audio answers it, as it answers which action was
said: the name as the home writes it, against each rival in place of its word, forced on the audio with the rivals'
names in the prompt too; the name's share of them all becomes its said probability where higher (rivals_to_weigh).
Whisper writes the prompted "punkah" at 0.02 for want of knowing the word, not for a pond heard. The weighing asks
which of the home's names was said there, so it lifts the doubt of the word a rival sounds like and no other: the
name's other words, its request word above all ("lock", "light"), tell a thing of the home from one it lacks ("the
tack room light" heard "the tack room lock:0.3"), and nothing asked whether they were said. It is weighed only where
that word itself was doubted.

In a module of its own, not in WhisperSTT.hear, so that the finals cached by the spoken bench need not be heard again:
it encodes the audio again (its cost is in docs/history/speech.md, round 31), and only for a final with a doubted
number, action, spelling of a name or question word.
"""
from __future__ import annotations

import logging
import math
import re
from dataclasses import replace

import numpy as np

from assistant.spoken_numbers import TENS, UNITS
from assistant.skills import ACTIONS
from assistant.vocabulary import QUESTION_WORDS, SWITCH_VERBS
from voice.heard_doubts import rivals, sounds_like_another
from voice.heard_names import REQUEST_WORDS, hear_names
from voice.stt import DOUBTED_WORD, UNSURE_NUMBER, Heard, WhisperSTT, log_mel

log = logging.getLogger("parley.heard_values")

# Words one final may weigh: each decodes the final again, on a recogniser worker every session shares (40 doubted
# "off" in 12 s of speech took 25 s of one at 07e6cce). Beyond it nothing is weighed: the doubts stay, and the call
# resting on them is said back, as before weighing.
MAX_WEIGHED = 6

# A clock time as Whisper writes it: "6:30", "6.30", "6-30", "6 30", or run together, "630". One value, the time.
CLOCK_SEPARATORS = (":", ".", "-", " ", "")
CLOCK = re.compile(r"(?<![\d.,:-])(\d{1,2})(?:([:.\- ])(\d{2})|(\d{2}))(?![\d%°]|[.,:-]\d)")
# A whole number on its own (not part of a decimal, a thousands group or a time).
WHOLE = re.compile(r"(?<![\d.,:-])(\d{1,2})(?![\d%°]|[.,:-]\d)")


# Each number's word, the first of assistant.spoken_numbers' words for it.
UNIT_WORDS = {value: word for word, value in reversed(UNITS.items())}
TEN_WORDS = {value: word for word, value in reversed(TENS.items())}


def _in_letters(number: int) -> str | None:
    """The number as Whisper spells it in words, 0-99 ("ninety", "twenty two"); None above."""
    if number in UNIT_WORDS:
        return UNIT_WORDS[number]
    if number < 100 and number // 10 * 10 in TEN_WORDS:
        return TEN_WORDS[number // 10 * 10] + (f" {UNIT_WORDS[number % 10]}" if number % 10 else "")
    return None


def written_forms(text: str) -> list[tuple[int, int, list[str]]]:
    """Each number of text that Whisper may write otherwise for the same words said: (start, end, its forms, as
    written first). A clock time ("630", "6:30", "6-30", "6 30", "6.30": "six thirty", hours to 24 and minutes
    from 01 to 59) in each of CLOCK_SEPARATORS and in words (minutes from 10); a whole number to 99 in digits and in
    words; the first letter as the sentence has it. On the hour a time and a number are said apart ("six o'clock",
    "six hundred"), so "600" is weighed only as itself (its token runs, _paths)."""
    found, taken = [], []
    for match in CLOCK.finditer(text):
        hour, minutes = int(match[1]), match[3] or match[4]
        if hour > 24 or int(minutes) > 59 or (minutes == "00" and not match[4]):
            continue
        separators = CLOCK_SEPARATORS if minutes != "00" else ("",)
        forms = [f"{hour}{separator}{minutes}" for separator in separators]
        words = (_in_letters(hour), _in_letters(int(minutes)) if minutes != "00" and int(minutes) >= 10 else None)
        if all(words):
            forms.append(" ".join(words))
        found.append((match.start(), match.end(), forms))
        taken.append(range(match.start(), match.end()))
    for match in WHOLE.finditer(text):
        if any(match.start() in span for span in taken) or text[match.end():match.end() + 1].isalpha():
            continue
        words = _in_letters(int(match[1]))
        if words:
            found.append((match.start(), match.end(), [match[1], words]))
    capital = [(start, end, [_as_written(text, start, form) for form in forms]) for start, end, forms in found]
    return sorted((start, end, [text[start:end], *(f for f in dict.fromkeys(forms) if f != text[start:end])])
                  for start, end, forms in capital)


def _as_written(text: str, start: int, form: str) -> str:
    """A form in words capitalised where the sentence starts."""
    before = text[:start].rstrip()
    return form[:1].upper() + form[1:] if not before or before[-1] in ".?!" else form


def _said_spans(heard: Heard) -> list[tuple[int, int, float]]:
    """(start, end, probability) in heard.text of each word of its said probabilities ((-1, -1, p) for a word not
    found there)."""
    spans, at = [], 0
    for word, probability in heard.said_probabilities or heard.word_probabilities:
        start = heard.text.find(word, at) if word else -1
        if start < 0:
            spans.append((-1, -1, probability))
            continue
        at = start + len(word)
        spans.append((start, at, probability))
    return spans


def numbers_to_weigh(heard: Heard) -> list[tuple[int, int, list[str]]]:
    """The numbers of written_forms a word of which, a number, Whisper wrote with less than UNSURE_NUMBER
    probability, said (Heard.unsure_numbers; a doubted mark between two numbers is none); none where it doubted a
    word that is no number (Heard.doubted_words: marks and the words of a name put in aside). A doubt elsewhere says
    the audio was hard there, and the call said back for its number is read out whole, so the question guards those
    words too: "Call the:0.37 timer ends and give it 6:0.54 minutes." for "call a timer eggs" is still asked, as a
    name heard right keeps its doubt beside a doubted remark (voice.heard_doubts)."""
    if any(not any(c.isdigit() for c in word) for word in heard.doubted_words()):
        return []
    words = [(s, e, p) for (s, e, p) in _said_spans(heard) if s >= 0 and any(c.isdigit() for c in heard.text[s:e])]
    return [(start, end, forms) for start, end, forms in written_forms(heard.text)
            if any(s < end and start < e and p < UNSURE_NUMBER for s, e, p in words)]


def actions_to_weigh(heard: Heard) -> list[tuple[int, int, list[str]]]:
    """Each word of heard that says a change's action (assistant.skills.ACTIONS: "lock", "off") which Whisper wrote
    with less than DOUBTED_WORD probability, said (the widest line a change's doubts read, Heard.doubted_words), as
    (start, end of its said word, the other actions of its kind); none where Whisper doubted another word below a
    change's own line (Heard.doubted_change_words: marks and the words of a name put in aside). The question
    asked for the action reads the whole call out, and so guards that word too: "switch the heater:0.44 there:0.17
    off:0.16" for "the heated airer" is still asked, as a number beside a doubted word is (numbers_to_weigh)."""
    found = [(start, end, plain) for start, end, probability in _said_spans(heard)
             if start >= 0 and probability < DOUBTED_WORD
             and (plain := re.sub(r"[^a-z]", "", heard.text[start:end].lower())) in ACTIONS]
    if heard.doubted_change_words() - {plain for _, _, plain in found}:
        return []
    return [(start, end, list(ACTIONS[plain])) for start, end, plain in found]


def names_to_weigh(heard: Heard, names: tuple[str, ...]) -> list[tuple[int, int, list[str]]]:
    """Each of the home's names (names) that voice.heard_names puts in as a spelling of words of heard, a word of
    which Whisper wrote with less than DOUBTED_WORD probability, said, and which no other name of the home, nor a
    word of one, sounds like: (start, end of the words in heard.text, [those words, the name, each in the other
    case]). None where Whisper doubted a word that is neither such a spelling nor a change's action (a remark
    misheard, "the gramophone:0.20" in "I do a lot of the sound of the gramophone on a Sunday", keeps the question
    that reads the call out)."""
    spans = [(s + m.start(), s + m.end(), p) for s, e, p in _said_spans(heard) if s >= 0
             for m in re.finditer(r"\S+", heard.text[s:e]) if re.search(r"[A-Za-z0-9]", m[0])]
    plain = [re.sub(r"[^a-z0-9']", "", heard.text[s:e].lower()) for s, e, _ in spans]
    found = []
    for name, words in hear_names(heard.text, names).spelled.items():
        heard_words = words.split()
        at = next((i for i in range(len(plain) - len(heard_words) + 1)
                   if plain[i:i + len(heard_words)] == heard_words), None)
        rare = [word for word in name.split() if word not in REQUEST_WORDS]
        if (at is None or not rare or sounds_like_another(tuple(name.split()), rare, names)
                or min(p for _, _, p in spans[at:at + len(heard_words)]) >= DOUBTED_WORD):
            continue
        start, end = spans[at][0], spans[at + len(heard_words) - 1][1]
        end = start + len(heard.text[start:end].rstrip(".,?!;: "))
        start = end - len(heard.text[start:end].lstrip())
        written = heard.text[start:end]
        found.append((start, end, list(dict.fromkeys([written, _as_written(heard.text, start, name),
                                                      *(_other_case(form) for form in (written, name))]))))
    spelt = {re.sub(r"[^a-z0-9']", "", word.lower()) for start, end, _ in found for word in heard.text[start:end].split()}
    if heard.doubted_words() - spelt - set(ACTIONS):
        return []
    return found


def questions_to_weigh(heard: Heard) -> list[tuple[int, int, list[str]]]:
    """Each word of heard that opens a question (QUESTION_WORDS: "is", "what") which Whisper wrote with less than
    DOUBTED_WORD probability, said, as (start, end of its said word, its forms: as written and in the other case);
    none where Whisper doubted another word below a change's own line (Heard.doubted_change_words: marks aside), as
    actions_to_weigh: such a doubt beside another keeps a change's question (voice.heard_doubts.undoubted_names),
    and a change the model made of a question ("Is:0.34 the kiln:0.26 still on, I want to open it." called as
    opening the kiln) is said back for it."""
    found = [(start, end, [heard.text[start:end], _other_case(heard.text[start:end])])
             for start, end, probability in _said_spans(heard)
             if start >= 0 and probability < DOUBTED_WORD and heard.text[start:end].lower() in QUESTION_WORDS]
    if heard.doubted_change_words() - {heard.text[start:end].lower() for start, end, _ in found}:
        return []
    return found


def rivals_to_weigh(heard: Heard, names: tuple[str, ...]
                    ) -> list[tuple[int, int, list[str], list[str], set[str], list[tuple[int, int]]]]:
    """Each of the home's names (names) written whole in heard, or put in by voice.heard_names as a spelling of its
    words, with a word that another name of the home, or a word of one, sounds like (voice.heard_doubts.rivals) and
    that Whisper wrote with less than DOUBTED_WORD probability, said: (start, end of its words in heard.text, [the
    name as the home writes it, in both cases], [the name with a rival in place of its word, each in both cases],
    the rivals, the spans of the words a rival sounds like: those the weighing puts in question). Not the words
    Whisper wrote where they are a spelling of the name: they are evidence for themselves ("punk:0.10 fan" for "the
    pond fan", a thing the home lacks, is no punkah heard). None where Whisper doubted a word that is neither of
    such a name nor a change's action, as for names_to_weigh."""
    spans = [(s + m.start(), s + m.end(), p) for s, e, p in _said_spans(heard) if s >= 0
             for m in re.finditer(r"\S+", heard.text[s:e]) if re.search(r"[A-Za-z0-9]", m[0])]
    plain = [re.sub(r"[^a-z0-9']", "", heard.text[s:e].lower()) for s, e, _ in spans]
    written_as = {name: name for name in dict.fromkeys(n.lower() for n in names)
                  if any(plain[i:i + len(name.split())] == name.split() for i in range(len(plain)))}
    written_as.update(hear_names(heard.text, names).spelled)
    found, taken = [], set()
    for name, words in written_as.items():
        heard_words = words.split()
        at = next((i for i in range(len(plain) - len(heard_words) + 1)
                   if plain[i:i + len(heard_words)] == heard_words), None)
        alike = {word: rivals(tuple(name.split()), word, names) for word in name.split() if word not in REQUEST_WORDS}
        if at is None or not any(alike.values()):
            continue
        # the words a rival sounds like, in their places; a spelling with words run together or apart: all of them
        questioned = ([spans[at + i] for i, word in enumerate(name.split()) if alike.get(word)]
                      if len(heard_words) == len(name.split()) else spans[at:at + len(heard_words)])
        if min(p for _, _, p in questioned) >= DOUBTED_WORD:
            continue
        start, end = spans[at][0], spans[at + len(heard_words) - 1][1]
        end = start + len(heard.text[start:end].rstrip(".,?!;: "))
        start = end - len(heard.text[start:end].lstrip())
        instead = [_as_written(heard.text, start, " ".join(rival if w == word else w for w in name.split()))
                   for word, others in alike.items() for rival in others]
        own = _as_written(heard.text, start, name)
        found.append((start, end, list(dict.fromkeys([own, _other_case(own)])),
                      list(dict.fromkeys([*instead, *map(_other_case, instead)])),
                      {rival for others in alike.values() for rival in others},
                      [(s, s + len(heard.text[s:e].rstrip(".,?!;: "))) for s, e, _ in questioned]))
        taken.update(heard_words + name.split())
    if heard.doubted_words() - taken - set(ACTIONS):
        return []
    return found


def _other_case(form: str) -> str:
    """form with its first letter in the other case: Whisper writes a name it hardly knows as a proper noun or not
    ("Velux", "vellics"), one sound either way."""
    return (form[:1].lower() if form[:1].isupper() else form[:1].upper()) + form[1:]


def to_weigh(heard: Heard, names: tuple[str, ...] = ()) -> bool:
    """Whether weighed has a doubted number, action, spelling of one of the home's names (names), name with a
    rival or question word to weigh (at most MAX_WEIGHED of them)."""
    return 0 < sum(map(len, _weighable(heard, names))) <= MAX_WEIGHED


def _weighable(heard: Heard, names: tuple[str, ...]) -> tuple[list, list, list, list, list]:
    """(the doubted numbers, spellings of names, actions, question words, names with a rival) of heard that weighed
    would weigh."""
    return (numbers_to_weigh(heard), names_to_weigh(heard, names), actions_to_weigh(heard), questions_to_weigh(heard),
            rivals_to_weigh(heard, names))


def weighed(stt: WhisperSTT, audio: np.ndarray, heard: Heard, names: tuple[str, ...] = ()) -> Heard:
    """heard with each doubted number's words given its value's probability (said), each doubted spelling of a
    name the probability of it and the name together, each doubted action its share against the other actions
    of its kind (_action_share), each doubted name with a rival its share against its rivals (_rival_shares) and
    each doubted question word its share against the words of a change (_question_share), where that is the higher,
    from the decoder on the same audio; heard itself where nothing is to be weighed (numbers_to_weigh,
    names_to_weigh, actions_to_weigh, rivals_to_weigh, questions_to_weigh). Weighing
    never adds a doubt: of "6 30" ("6" at 0.64, "30" at 0.19) the value is the pair's, and the "6" keeps its own.
    The written probabilities, which the turn judges read, stay."""
    numbers, spellings, actions, questions, contested = weighable = _weighable(heard, names)
    count = sum(map(len, weighable))
    if not count:
        return heard
    if count > MAX_WEIGHED:
        log.info("a final with %d doubted words to weigh, over %d: none weighed", count, MAX_WEIGHED)
        return heard
    doubted = numbers + spellings
    window = _encoded(stt, audio)
    spelt = tuple(forms[1].lower() for _, _, forms in spellings)
    prompt = stt._forced_prompt(heard.text, names, heard.put_in + spelt)
    values = [(start, end, sum(_form_probability(stt, window, prompt, heard.text, start, end, form) for form in forms))
              for start, end, forms in doubted]
    values += [(start, end, _action_share(stt, window, prompt, heard, start, end, others))
               for start, end, others in actions]
    values += [(start, end, _question_share(stt, window, prompt, heard.text, start, forms))
               for start, end, forms in questions]
    if contested:
        values += _rival_shares(stt, window, heard, names, contested)
    said = []
    for (word, probability), (start, end, _) in zip(heard.said_probabilities or heard.word_probabilities,
                                                     _said_spans(heard)):
        value = next((v for s, e, v in values if 0 <= start and s <= start and end <= e), None)
        said.append((word, probability if value is None else max(probability, value)))
    return replace(heard, said_probabilities=tuple(said))


def _action_share(stt: WhisperSTT, window, prompt: list[int], heard: Heard, start: int, end: int,
                  others: list[str]) -> float:
    """How much likelier the audio makes the action as written than the other actions of its kind, as a share of
    them all: the written words' probability against the others' in the same place, the least over three places,
    the word alone and with the word before or after it, where the other action's sound may have gone ("And lock
    the front door." for "unlock": "Unlock" in place of "And lock")."""
    text = heard.text
    words = [(s + len(text[s:e]) - len(text[s:e].lstrip()), e) for s, e, _ in _said_spans(heard)
             if s >= 0 and re.search(r"[A-Za-z0-9]", text[s:e])]
    at = next(index for index, (s, e) in enumerate(words) if start <= s < end)
    places = [words[at], *([(words[at - 1][0], words[at][1])] if at else []),
              *([(words[at][0], words[at + 1][1])] if at + 1 < len(words) else [])]
    shares = []
    for s, e in places:
        written = _form_probability(stt, window, prompt, text, s, e, text[s:e])
        rivals = sum(_form_probability(stt, window, prompt, text, s, e, _as_written(text, s, other))
                     for other in others)
        shares.append(written / (written + rivals) if written + rivals > 0 else 0.0)
    return min(shares)


def _question_share(stt: WhisperSTT, window, prompt: list[int], text: str, start: int, forms: list[str]) -> float:
    """The question word's share, in its forms, of the decoder's next-token probability where text has it, against
    every verb of switching and change's action (SWITCH_VERBS, ACTIONS) in either case: one decoder step after the
    words before it. A word's first token stands for it (a rival's first token is shared by other words too, so a
    rival is counted no lower)."""
    sequence = [*prompt, stt._tokenizer.no_timestamps, *_tokens_before(stt, text, start)]
    encoded, _ = window
    step = stt.whisper.model.generate(encoded, [sequence], beam_size=1, max_length=len(sequence) + 1,
                                      return_logits_vocab=True, suppress_blank=False, suppress_tokens=[])[0]
    logits = np.asarray(step.logits[0][0], dtype=np.float64)
    probabilities = np.exp(logits - logits.max())
    probabilities /= probabilities.sum()
    first = lambda word: stt._tokenizer.encode(" " + word)[0]  # noqa: E731
    asking = {first(form) for form in forms}
    rivals = {first(form) for word in sorted(SWITCH_VERBS | set(ACTIONS))
              for form in (_as_written(text, start, word), _other_case(_as_written(text, start, word)))} - asking
    held = sum(probabilities[token] for token in asking)
    against = sum(probabilities[token] for token in rivals)
    return float(held / (held + against)) if held + against > 0 else 0.0


def _rival_shares(stt: WhisperSTT, window, heard: Heard, names: tuple[str, ...],
                  contested: list[tuple[int, int, list[str], list[str], set[str], list[tuple[int, int]]]]
                  ) -> list[tuple[int, int, float]]:
    """(start, end, share) of each word a rival sounds like in each contested name (rivals_to_weigh): the
    probability of the name's forms against its rivals' in the same place, forced with a prompt that holds the
    rivals' names beside the final's, so the prompt favours none of them. Only those words: the weighing asks which
    of the home's names was said, not whether the name's other words were ("Lock up the tack room:0.49 lock" weighs
    the tack against the dock; the room and the lock, which tell one thing of the home from another it lacks, keep
    their doubts)."""
    alike = {rival for _, _, _, _, others, _ in contested for rival in others}
    also = tuple(n.lower() for n in names if n.lower() in alike or set(n.lower().split()) & alike)
    spelt = tuple(forms[0].lower() for _, _, forms, _, _, _ in contested)
    prompt = stt._forced_prompt(heard.text, names, heard.put_in + spelt + also)
    shares = []
    for start, end, forms, instead, _, questioned in contested:
        own = sum(_form_probability(stt, window, prompt, heard.text, start, end, form) for form in forms)
        other = sum(_form_probability(stt, window, prompt, heard.text, start, end, form) for form in instead)
        shares += [(s, e, own / (own + other) if own + other > 0 else 0.0) for s, e in questioned]
    return shares


def _tokens_before(stt: WhisperSTT, text: str, start: int) -> list[int]:
    """The tokens of text's words before start, as the decoder writes them after its prompt."""
    before = text[:start].rstrip()
    return stt._tokenizer.encode(" " + before) if before else []


def _encoded(stt: WhisperSTT, audio: np.ndarray):
    """The final's window as WhisperSTT encodes it (its length, the phone band filled): (encoded, frames)."""
    import ctranslate2

    audio = np.asarray(audio, dtype=np.float32).reshape(-1)
    extractor = stt.whisper.feature_extractor
    seconds = max(stt.final_window_s, math.ceil(audio.size / stt.sample_rate))
    features = log_mel(extractor, audio, min(seconds, 30) * stt.sample_rate)
    if stt._band.narrow(audio):
        features = stt._band.filled(features)
    encoded = stt.whisper.model.encode(ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None])))
    return encoded, audio.size // extractor.hop_length


def _paths(stt: WhisperSTT, form: str) -> list[list[int]]:
    """The token runs in which the decoder may write form after a space: the tokenizer's own, and for a clock
    time run together ("630") the hour and the minutes as tokens of their own (" 6", "30"), as Whisper writes it."""
    encode = stt._tokenizer.encode
    runs = [encode(" " + form)]
    if form.isdigit() and len(form) in (3, 4):
        runs.append(encode(" " + form[:-2]) + encode(form[-2:]))
    return [run for index, run in enumerate(runs) if run not in runs[:index]]


def _form_probability(stt: WhisperSTT, window, prompt: list[int], text: str, start: int, end: int, form: str) -> float:
    """The probability that the decoder writes form where text has its number, given the words before it: over the
    token runs that write it (_paths), the sum of the products of their tokens' probabilities."""
    head = _tokens_before(stt, text, start)
    tail = stt._tokenizer.encode(text[end:]) if text[end:] else []
    encoded, frames = window
    total = 0.0
    for run in _paths(stt, form):
        probabilities = stt.whisper.model.align(encoded, prompt, [head + run + tail], frames)[0].text_token_probs
        total += math.prod(probabilities[len(head):len(head) + len(run)])
    return total
