"""A small BPE tokenizer (Hugging Face `tokenizers`) trained on the assistant corpus, saved as tokenizer.json.

BPE rather than whole words so that a word the corpus never used still has pieces the model has seen;
digits are split one per token (numbers in prompts reach the model as slots <n0>.. anyway, see
chat_template.hide_numbers). Role markers, the {result} slot and the number, name and area slots are single tokens.
"""
from pathlib import Path

from tokenizers import AddedToken, Regex, decoders, models, pre_tokenizers, trainers
from tokenizers import Tokenizer as HFTokenizer

from assistant.client_tools import TOOL_TOKENS
from assistant.chat_template import AREA_SLOTS, EOS, MASK, NAME_SLOTS, NUMBER_SLOTS, PAD, RESULT_SLOT, SPECIAL_TOKENS, UNK

SLOT_TOKENS = [RESULT_SLOT, *NUMBER_SLOTS, *NAME_SLOTS, *AREA_SLOTS]     # one token each, never split
ALPHABET = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,?!'*+-/()_=▁")


class Tokenizer:
    """Wraps a `tokenizers` tokenizer with the ids the diffusion decoder needs."""

    def __init__(self, hf: HFTokenizer):
        self.hf = hf
        self.mask_id = hf.token_to_id(MASK)
        self.eos_id = hf.token_to_id(EOS)
        self.pad_id = hf.token_to_id(PAD)

    @classmethod
    def train(cls, texts, vocab_size: int = 1024, tools: bool = False) -> "Tokenizer":
        """tools: the corpus declares client tools, whose slots (client_tools.TOOL_TOKENS) join the vocabulary."""
        hf = HFTokenizer(models.BPE(unk_token=UNK))
        # prepend_scheme="first": text right after a special token starts a word only if a space says so.
        hf.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Metaspace(prepend_scheme="first"),
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.Split(Regex(r"[.,!?]"), behavior="isolated"),
        ])
        hf.decoder = decoders.Metaspace(prepend_scheme="first")
        trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS,
                                      initial_alphabet=ALPHABET, show_progress=False)
        hf.train_from_iterator(texts, trainer)
        hf.add_tokens([AddedToken(t, normalized=False) for t in SLOT_TOKENS + (TOOL_TOKENS if tools else [])])
        return cls(hf)

    def add_slot_tokens(self, tools: bool = False) -> None:
        """Give a tokenizer trained before a slot family existed its missing slot tokens (new ids at the end)."""
        missing = [t for t in SLOT_TOKENS + (TOOL_TOKENS if tools else []) if self.hf.token_to_id(t) is None]
        self.hf.add_tokens([AddedToken(t, normalized=False) for t in missing])

    @classmethod
    def load(cls, checkpoint_dir) -> "Tokenizer":
        return cls(HFTokenizer.from_file(str(Path(checkpoint_dir) / "tokenizer.json")))

    def save(self, checkpoint_dir) -> None:
        Path(checkpoint_dir).mkdir(parents=True, exist_ok=True)
        self.hf.save(str(Path(checkpoint_dir) / "tokenizer.json"))

    def __len__(self) -> int:
        return self.hf.get_vocab_size()

    def token_id(self, token: str) -> int:
        return self.hf.token_to_id(token)

    def encode(self, text: str) -> list[int]:
        return self.hf.encode(text, add_special_tokens=False).ids

    def decode(self, ids: list[int], skip_special_tokens: bool = True) -> str:
        return self.hf.decode(list(ids), skip_special_tokens=skip_special_tokens).strip()
