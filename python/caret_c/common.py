"""What every part of the API shares with the original: Summary (a dict
printed as YAML), the look-ups that raise ItemNotFoundError with the
original's texts (a near name suggested through difflib's ratio, as the
original's find_similar_one), and path arguments with ~ and $VARS
expanded."""
import difflib
import os
import statistics
from collections import UserDict

import yaml

from .exceptions import ItemNotFoundError, MultipleItemFoundError

NOT_FOUND = 'Failed find item.'
# a name this similar or more (difflib's ratio) is suggested
SIMILARITY = 0.6


class Summary(UserDict):
    """An overview of an object: a dict, printed as YAML by pprint();
    never part of the object's equality."""

    def pprint(self):
        print(self)

    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0

    def __str__(self):
        return yaml.dump(_plain(self.data))


def _plain(obj):
    if isinstance(obj, (list, tuple)):
        return [_plain(x) for x in obj]
    if isinstance(obj, (dict, UserDict)):
        return {_plain(k): _plain(v) for k, v in obj.items()}
    return obj


def expand(path):
    """A path argument as the shell would give it: ~ and $VARS expanded."""
    return os.path.expandvars(os.path.expanduser(os.fspath(path)))


def find_one(condition, items):
    """The one item that matches: ItemNotFoundError or
    MultipleItemFoundError with the original's texts otherwise."""
    found = [x for x in items or () if condition(x)]
    if not found:
        raise ItemNotFoundError(NOT_FOUND)
    if len(found) > 1:
        raise MultipleItemFoundError('Failed to identify item.')
    return found[0]


def find_similar_one(name, items, key=lambda x: x):
    """The item whose key is name; else ItemNotFoundError suggesting the
    most similar key when it is similar enough."""
    best, best_ratio = None, 0.0
    for item in items:
        ratio = difflib.SequenceMatcher(None, key(item), name).ratio()
        if ratio > best_ratio:
            best, best_ratio = item, ratio
    if best_ratio == 1.0:
        return best
    if best_ratio > SIMILARITY:
        raise ItemNotFoundError(f"Arguments may be wrong. Isn't it '{key(best)}'?")
    raise ItemNotFoundError(NOT_FOUND)


def find_similar_one_multi_keys(targets, items, keys):
    """find_similar_one over several keys (a dict of name: value), the
    similarity their mean; other than strings, equal or not."""
    best, best_ratio = None, 0.0
    for item in items:
        values = keys(item)
        ratios = []
        for k, want in targets.items():
            have = values[k]
            if have is None:
                ratios.append(0.0)
            elif not isinstance(have, str):
                ratios.append(1.0 if have == want else 0.0)
            else:
                ratios.append(difflib.SequenceMatcher(None, have, str(want)).ratio())
        ratio = statistics.mean(ratios)
        if ratio > best_ratio:
            best, best_ratio = item, ratio
    if best_ratio == 1.0:
        return best
    if best_ratio > SIMILARITY:
        lines = ''.join(f"{k}='{v}'\n" for k, v in keys(best).items())
        raise ItemNotFoundError("Arguments may be wrong. Aren't they bellow?\n" + lines)
    raise ItemNotFoundError(NOT_FOUND)


def flatten(lists):
    return [x for sub in lists for x in sub]
