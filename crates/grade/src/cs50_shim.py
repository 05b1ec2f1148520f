"""tictactoe grade --cs50: calls the functions of a CS50 AI tic-tac-toe module.

Run as `python3 -B cs50_shim.py path/to/tictactoe.py`. It imports the module
from its path (the file is only read: no bytecode is written beside it),
says {"ready": true}, then answers one request per line:

    FUNCTION BOARD [ROW COL]

with FUNCTION one of player, actions, result, winner, terminal, utility,
minimax and BOARD in the game's notation (x.o/.x./..o). The answer is one
line of JSON: {"value": ..., "repr": ...} with marks written x, o and . and
boards in the notation, and the value as Python writes it (its repr, but for
actions and result), or {"error": "ValueError: ..."} when the function raised; with
"modified": true beside either when the function changed the board it was
given. Whatever the module prints goes to standard error.
"""

import copy
import importlib.util
import json
import os
import sys

sys.dont_write_bytecode = True
answers = sys.stdout
sys.stdout = sys.stderr


def say(reply):
    answers.write(json.dumps(reply, default=repr) + "\n")
    answers.flush()


def load(path):
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location("tictactoe", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["tictactoe"] = module
    spec.loader.exec_module(module)
    return module


try:
    ttt = load(sys.argv[1])
except BaseException as error:
    print(f"could not import {sys.argv[1]}: {type(error).__name__}: {error}", file=sys.stderr)
    sys.exit(3)

X = getattr(ttt, "X", "X")
O = getattr(ttt, "O", "O")
EMPTY = getattr(ttt, "EMPTY", None)


def board_of(text):
    marks = {"x": X, "o": O}
    return [[marks.get(cell, EMPTY) for cell in row] for row in text.split("/")]


def mark(cell):
    if cell is None and EMPTY is not None:
        return None
    if cell == X:
        return "x"
    if cell == O:
        return "o"
    if cell == EMPTY:
        return None
    return repr(cell)


def notation(board):
    try:
        return "/".join("".join(mark(cell) or "." for cell in row) for row in board)
    except TypeError:
        return repr(board)


def pair(action):
    try:
        row, col = action
        return [row, col]
    except (TypeError, ValueError):
        return repr(action)


def call(name, board, words):
    """The value for the grader, and the value as the module returned it."""
    if name == "player":
        raw = ttt.player(board)
        return mark(raw), raw
    if name == "actions":
        raw = ttt.actions(board)
        return sorted((pair(action) for action in raw), key=repr), None
    if name == "result":
        raw = ttt.result(board, (int(words[2]), int(words[3])))
        return notation(raw), None
    if name == "winner":
        raw = ttt.winner(board)
        return mark(raw), raw
    if name == "terminal":
        raw = ttt.terminal(board)
        return raw, raw
    if name == "utility":
        raw = ttt.utility(board)
        return raw, raw
    if name == "minimax":
        raw = ttt.minimax(board)
        return (None if raw is None else pair(raw)), raw
    raise LookupError(f"no function {name}")


say({"ready": True})
for line in sys.stdin:
    words = line.split()
    if len(words) < 2:
        say({"error": "the grader sent an empty request"})
        continue
    board = board_of(words[1])
    given = copy.deepcopy(board)
    try:
        value, raw = call(words[0], board, words)
        reply = {"value": value}
        if words[0] not in ("actions", "result"):
            reply["repr"] = repr(raw)
    except RecursionError:
        reply = {"error": "RecursionError: maximum recursion depth exceeded"}
    except Exception as error:
        reply = {"error": f"{type(error).__name__}: {error}"}
    if board != given:
        reply["modified"] = True
    say(reply)
