"""
Tic Tac Toe Player: a CS50 AI solution with two usual mistakes, for
`tictactoe grade --cs50` to find: result() neither checks the action nor
refuses a taken square, and minimax() takes the maximum for O too.
"""

import copy
import functools
import math

X = "X"
O = "O"
EMPTY = None


def initial_state():
    """Returns starting state of the board."""
    return [[EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY]]


def player(board):
    """Returns player who has the next turn on a board."""
    xs = sum(row.count(X) for row in board)
    os = sum(row.count(O) for row in board)
    return X if xs <= os else O


def actions(board):
    """Returns set of all possible actions (i, j) available on the board."""
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] == EMPTY}


def result(board, action):
    """Returns the board that results from making move (i, j) on the board."""
    i, j = action
    new = copy.deepcopy(board)
    new[i][j] = player(board)
    return new


def winner(board):
    """Returns the winner of the game, if there is one."""
    lines = [[(r, 0), (r, 1), (r, 2)] for r in range(3)]
    lines += [[(0, c), (1, c), (2, c)] for c in range(3)]
    lines += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
    for (a, b), (c, d), (e, f) in lines:
        if board[a][b] is not EMPTY and board[a][b] == board[c][d] == board[e][f]:
            return board[a][b]
    return None


def terminal(board):
    """Returns True if game is over, False otherwise."""
    return winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def utility(board):
    """Returns 1 if X has won the game, -1 if O has won, 0 otherwise."""
    won = winner(board)
    return 1 if won == X else -1 if won == O else 0


def frozen(board):
    """The board as a key for the cache: minimax looks each position up once."""
    return tuple(tuple(row) for row in board)


def max_value(board):
    return max_of(frozen(board))


def min_value(board):
    return min_of(frozen(board))


@functools.lru_cache(maxsize=None)
def max_of(key):
    board = [list(row) for row in key]
    if terminal(board):
        return utility(board)
    value = -math.inf
    for action in actions(board):
        value = max(value, min_value(result(board, action)))
    return value


@functools.lru_cache(maxsize=None)
def min_of(key):
    board = [list(row) for row in key]
    if terminal(board):
        return utility(board)
    value = math.inf
    for action in actions(board):
        value = min(value, max_value(result(board, action)))
    return value


def minimax(board):
    """Returns the optimal action for the current player on the board."""
    if terminal(board):
        return None
    if player(board) == X:
        return max(actions(board), key=lambda action: min_value(result(board, action)))
    return max(actions(board), key=lambda action: max_value(result(board, action)))
