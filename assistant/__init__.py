"""The brain: the Generator interface and its backends, the skill registry, the tools and the home, the chat
template, spoken numbers, tokenizer, corpus and training."""
