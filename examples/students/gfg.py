"""GeeksforGeeks' Python minimax, with the depth the article's text asks for,
speaking `tictactoe grade`'s protocol: a board and what is asked in, one line
out. `tictactoe grade -- python3 examples/students/gfg.py`"""

import sys


def is_moves_left(board):
    for i in range(3):
        for j in range(3):
            if board[i][j] == '_':
                return True
    return False


def evaluate(b, player, opponent):
    lines = [[(r, 0), (r, 1), (r, 2)] for r in range(3)]
    lines += [[(0, c), (1, c), (2, c)] for c in range(3)]
    lines += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
    for (a, b1), (c, d), (e, f) in lines:
        if b[a][b1] == b[c][d] == b[e][f]:
            if b[a][b1] == player:
                return 10
            if b[a][b1] == opponent:
                return -10
    return 0


def minimax(board, depth, is_max, player, opponent):
    score = evaluate(board, player, opponent)
    if score == 10:
        return score - depth
    if score == -10:
        return score + depth
    if not is_moves_left(board):
        return 0
    best = -1000 if is_max else 1000
    mark = player if is_max else opponent
    for i in range(3):
        for j in range(3):
            if board[i][j] == '_':
                board[i][j] = mark
                value = minimax(board, depth + 1, not is_max, player, opponent)
                board[i][j] = '_'
                best = max(best, value) if is_max else min(best, value)
    return best


def find_best_move(board, player, opponent, move_depth):
    best_val, best_move, scores = -1000, (-1, -1), []
    for i in range(3):
        for j in range(3):
            if board[i][j] == '_':
                board[i][j] = player
                move_val = minimax(board, move_depth, False, player, opponent)
                board[i][j] = '_'
                scores.append(f"{'abc'[j]}{i + 1} {move_val}")
                if move_val > best_val:
                    best_move, best_val = (i, j), move_val
    return best_move, scores


def read_board(notation):
    """`o.x/x.x/.oo` as GeeksforGeeks' board: rows of 'x', 'o' and '_'."""
    return [['_' if c == '.' else c for c in row] for row in notation.split('/')]


def main():
    # The depth findBestMove gives the board after a move: the article's 0.
    move_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    for line in sys.stdin:
        words = line.split()
        board = read_board(words[0])
        xs = sum(row.count('x') for row in board)
        os_ = sum(row.count('o') for row in board)
        player, opponent = ('o', 'x') if xs > os_ else ('x', 'o')
        (row, col), scores = find_best_move(board, player, opponent, move_depth)
        if len(words) > 1 and words[1] == 'scores':
            print(' '.join(scores), flush=True)
        else:
            print(row, col, flush=True)


if __name__ == '__main__':
    main()
