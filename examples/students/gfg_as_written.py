"""GeeksforGeeks' program as written, given the grader's boards: its
`player, opponent = 'x', 'o'` kept, whoever is to move. `tictactoe grade`
finds what that does to the boards where O is to move."""

import sys

from gfg import find_best_move, read_board

player, opponent = 'x', 'o'

for line in sys.stdin:
    board = read_board(line.split()[0])
    (row, col), scores = find_best_move(board, player, opponent, 0)
    print(row, col, flush=True)
