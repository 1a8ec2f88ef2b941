"""Text a client sent, checked before it reaches a conversation: JSON's \\u escapes can spell half of a
UTF-16 pair (a lone surrogate), which no UTF-8 encoder, tokeniser, store or voice can take."""
import json


def holds_lone_surrogate(value: object) -> bool:
    """True if any string in value (a JSON value: dicts, lists, strings) holds a lone surrogate."""
    try:
        json.dumps(value, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return True
    return False
