"""Words Whisper writes otherwise, put back as said before the assistant reads a heard request
(voice/heard_text.py)."""
import pytest

from assistant.generator import respond_sync
from assistant.tools import ToolRunner
from voice.heard_names import hear_names
from voice.heard_text import names_run_on, said_words


@pytest.mark.parametrize("heard, said", [
    ("Dim the piano light at touch.", "Dim the piano light a touch."),
    ("Dim the piano light to touch.", "Dim the piano light a touch."),
    ("Lower the mushroom lamp of touch.", "Lower the mushroom lamp a touch."),
    ("Dim the piano light touch.", "Dim the piano light a touch."),
    ("Dim the lamp to touch, please.", "Dim the lamp a touch, please."),
    ("Make the chandelier to bit brighter.", "Make the chandelier a bit brighter."),
    ("Turn it up at bit more", "Turn it up a bit more"),
])
def test_the_a_of_a_degree_word_is_put_back(heard, said):
    assert said_words(heard) == said


@pytest.mark.parametrize("heard", [
    "Make the chandelier a bit brighter.",
    "Turn the volume up a little bit.",
    "Turn on the little lamp.",
    "Set it to notch 3.",
    "Touch.",
    "turn it down a tad",
])
def test_degree_words_said_with_their_a_or_as_other_words_stay_as_heard(heard):
    assert said_words(heard) == heard


@pytest.mark.parametrize("heard, said", [
    ("Can seal the pasta timer.", "Cancel the pasta timer."),
    ("Can sew the cake timer, it's done early.", "Cancel the cake timer, it's done early."),
    ("Block the side gate.", "Lock the side gate."),
    ("Walk up the tack room lock.", "Lock up the tack room lock."),
    ("Witch of the porch light.", "Switch of the porch light."),
    ("Which on the cattle?", "Switch on the cattle?"),
    ("Which the arc lamp on?", "Switch the arc lamp on?"),
    ("Brays the pleated blind, please.", "Raise the pleated blind, please."),
    ("How arms the snug at the moment?", "How warm's the snug at the moment?"),
    ("How warms the snug at the moment.", "How warm's the snug at the moment."),
])
def test_the_verb_a_request_starts_with_is_put_back(heard, said):
    assert said_words(heard) == said


@pytest.mark.parametrize("heard", [
    "Lock the door.",
    "Can you turn on the light?",
    "Turn off the light by the block.",
    "Walking pad on.",
    "Which date is it today?",
    "Which lights are on?",
])
def test_those_words_elsewhere_stay_as_heard(heard):
    assert said_words(heard) == heard


@pytest.mark.parametrize("heard, said", [
    ("Good night. Good night.", "Good night."),
    ("Stop! stop.", "Stop!"),
    ("What time is it? What time is it", "What time is it?"),
    (" Turn off the fan. Turn off the fan.", "Turn off the fan."),
])
def test_a_sentence_written_twice_is_kept_once(heard, said):
    assert said_words(heard) == said


@pytest.mark.parametrize("heard", [
    "No, no.",
    "Thank you, thank you.",
    "Good night. Good morning.",
    "Good night.",
    "Lock the door. Lock the back door.",
    "...",
])
def test_sentences_not_the_same_twice_stay_as_heard(heard):
    assert said_words(heard) == heard


@pytest.mark.parametrize("heard, said", [
    ("Switch off the tele in the lounge. Nobody's watching.", "Switch off the telly in the lounge. Nobody's watching."),
    ("Tele off.", "Telly off."),
    ("The extractor in the larder, unplease, it smells of fish.", "The extractor in the larder, on please, it smells of fish."),
    ("Unpleas, the lamp in the snug.", "On please, the lamp in the snug."),
    ("The veranda lantern, half-rightness, please.", "The veranda lantern, half-brightness, please."),
    ("Lamping the lounge on, please.", "Lamp in the lounge on, please."),
    ("The lantern on the veranda could use, which it on.", "The lantern on the veranda could use, switch it on."),
    ("Put the score lamp on. We are starting a frame.", "Put the score lamp on. We're starting a frame."),
    ("Put the score lamp on, we are starting a frame.", "Put the score lamp on, we're starting a frame."),
    ("I do love the sound of the gramophone on a sun day.", "I do love the sound of the gramophone on a sunday."),
    ("The extractor in the larder, unpleased its meld of fish.",
     "The extractor in the larder, on please, its meld of fish."),
])
def test_a_word_whisper_spells_otherwise_is_put_back(heard, said):
    assert said_words(heard) == said


@pytest.mark.parametrize("heard, said", [
    ("This is the attic fan on.", "Is the attic fan on."),
    ("This is a carriage house door open, still, I heard it go up.",
     "Is a carriage house door open, still, I heard it go up."),
    ("As the coal hole door been shut properly.", "Has the coal hole door been shut properly."),
])
def test_a_question_heard_with_this_before_its_first_word_is_put_back(heard, said):
    assert said_words(heard) == said


@pytest.mark.parametrize("heard", ["This is too bright.", "Is this the hall light?", "Turn it off, this is the one.",
                                   "Turn it off as soon as the film ends.", "As soon as it's dark, lights on."])
def test_this_is_before_no_article_or_within_a_request_stays_as_heard(heard):
    assert said_words(heard) == heard


@pytest.mark.parametrize("heard, said", [
    ("The dock light on clean.", "The dock light on please."),
    ("The lounge lights to 75% clean.", "The lounge lights to 75% please."),
    ("A gate in the orangery, and lock it clean.", "A gate in the orangery, and lock it please."),
    ("The lamp in the sewing room, aren't clean.", "The lamp in the sewing room, on please."),
    ("The lamp in the sewing room, aren't please.", "The lamp in the sewing room, on please."),
    ("Pendant of clean, the crystal one.", "Pendant off please, the crystal one."),
])
def test_please_heard_as_clean_after_a_state_or_a_pronoun_is_put_back(heard, said):
    assert said_words(heard) == said


@pytest.mark.parametrize("heard", ["Keep the kitchen clean.", "Is the oven clean?", "Turn it on, clean the filter first.",
                                   "Turn on the cleaner.", "A cup of clean water."])
def test_clean_said_as_a_word_stays_as_heard(heard):
    assert said_words(heard) == heard


def test_a_word_holding_such_a_spelling_stays_as_heard():
    assert said_words("Turn on the telescope light.") == "Turn on the telescope light."


@pytest.mark.parametrize("heard", ["Turn on the fan we are in the kitchen.", "The hall light, where we are."])
def test_a_subject_and_its_verb_within_a_clause_stay_as_heard(heard):
    assert said_words(heard) == heard


@pytest.mark.parametrize("heard, said", [
    ("Fairy lights on please it's nearly christmas.", "Fairy lights on please, it's nearly christmas."),
    ("Sewing machine off please I'm finished.", "Sewing machine off please, I'm finished."),
    ("Switch the lantern on we're expecting someone.", "Switch the lantern on, we're expecting someone."),
    ("Bilge pump on there's water in the boat", "Bilge pump on, there's water in the boat"),
    ("Set an alarm for nine pm i need to take my pills.", "Set an alarm for nine pm, i need to take my pills."),
    ("Dim the lamp a touch it's late", "Dim the lamp a touch, it's late"),
    ("The bunting lights on the veranda switch them off.", "The bunting lights on the veranda, switch them off."),
    ("Don't need the bath timer any more turn it off.", "Don't need the bath timer any more, turn it off."),
    ("The coffee maker in the office is it still on.", "The coffee maker in the office, is it still on."),
    ("Okay. The still room heater what's it set to?", "Okay. The still room heater, what's it set to?"),
    ("The extractor in the larder, on please it smells of fish.",
     "The extractor in the larder, on please, it smells of fish."),
    ("The extractor in the larder, on please its melt of fish.",
     "The extractor in the larder, on please, its melt of fish."),
    ("Lights on please we have guests.", "Lights on please, we have guests."),
])
def test_a_clause_run_on_gets_its_break_back(heard, said):
    assert said_words(heard) == said


@pytest.mark.parametrize("heard", [
    "Please turn on the light.", "Could you please switch on the fan?", "Set the timer please for ten minutes.",
    "Lights on please and the fan too.", "Is it on please?",
])
def test_please_that_leads_on_keeps_its_words(heard):
    assert said_words(heard) == heard


@pytest.mark.parametrize("heard", [
    "Turn on the light, it's dark.",
    "It's cold in here.",
    "Turn the heater on so it's warm when we're back.",
    "Can I have the lights on?",
    "What do I need to set?",
    "Before I head out, how late is it?",
    "I know it's late but turn the lamp on.",
    "Is it on? I can't hear it.",
    "Could you turn it off?",
    "Please switch it on.",
    "I want to lock it.",
    "Let me turn it down.",
    "What time is it?",
    "Sorry, how late is it?",
    "Is the pond pump on?",
])
def test_a_clause_joined_or_already_broken_stays_as_heard(heard):
    assert said_words(heard) == heard


@pytest.mark.parametrize("heard, call", [
    ("Hall light on please I can't find my shoes.",
     ("set_device", {"device": "light", "room": "hallway", "state": "on"})),
    ("Turn on the bedroom radiator it's freezing.",
     ("set_device", {"device": "heater", "room": "bedroom", "state": "on"})),
])
def test_a_request_heard_with_a_remark_run_on_is_answered_as_typed(assistant, heard, call):
    """Run on, the assistant refused these (bench/spoken_causes.py: heard right, written form); with the break put
    back it takes the request's clause, as it does for the typed "hall light on please, i can't find my shoes"."""
    if assistant is None:
        pytest.skip("no assistant checkpoint")
    reply = respond_sync(assistant, [{"role": "user", "content": said_words(heard)}], ToolRunner())
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [call], reply


NAMES = ("scullery", "snug", "roman blind", "salt lamp", "arc lamp", "study")


@pytest.mark.parametrize("heard, said", [
    ("Is it humid in this gallery?", "Is it humid in the scullery?"),
    ("The roman in this nug, down please.", "The roman in the snug, down please."),
    ("This nug is cold, is the stove on?", "The snug is cold, is the stove on?"),
    ("This old lamp, switch it off please.", "The salt lamp, switch it off please."),
])
def test_a_names_first_sound_run_into_the_article_is_given_back(heard, said):
    """flite slt and Festival slt HTS wrote "the scullery" and "the snug" so (bench/spoken_causes.py: nearly
    right; flite slt's "This old lamp" for "the salt lamp"); the name then stands as said, put in as a spelling, not
    guessed."""
    hearing = hear_names(names_run_on(heard, NAMES), NAMES)
    assert hearing.text == said and not hearing.guessed


@pytest.mark.parametrize("heard", [
    "Turn this lamp on.",
    "Is this nice?",
    "It's glaring in this body.",                # "sbody" spells no name of the home
    "Is it humid in the scullery?",
])
def test_this_said_or_giving_no_name_stays_as_heard(heard):
    assert names_run_on(heard, NAMES) == heard
