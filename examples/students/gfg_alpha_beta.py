# GeeksforGeeks' program with alpha-beta pruning, as its next article
# ("Set 4, Alpha-Beta Pruning") writes minimax: `best` returned, `alpha` and
# `beta` narrowed as replies are tried, and the search stopped once
# `beta <= alpha`. Its findBestMove passes its best value so far down as
# alpha, so it finds the best move sooner: right with `best`, but a move
# after the first is scored by a bound, not its value, which `--ask scores`
# shows. `tictactoe grade --ask scores -- python3 examples/students/gfg_alpha_beta.py`
import sys

# Python3 program to find the next optimal move for a player
player, opponent = 'x', 'o'

# This function returns true if there are moves
# remaining on the board. It returns false if
# there are no moves left to play.
def isMovesLeft(board) :

    for i in range(3) :
        for j in range(3) :
            if (board[i][j] == '_') :
                return True
    return False

# This is the evaluation function as discussed
# in the previous article ( http://goo.gl/sJgv68 )
def evaluate(b) :

    # Checking for Rows for X or O victory.
    for row in range(3) :
        if (b[row][0] == b[row][1] and b[row][1] == b[row][2]) :
            if (b[row][0] == player) :
                return 10
            elif (b[row][0] == opponent) :
                return -10

    # Checking for Columns for X or O victory.
    for col in range(3) :

        if (b[0][col] == b[1][col] and b[1][col] == b[2][col]) :

            if (b[0][col] == player) :
                return 10
            elif (b[0][col] == opponent) :
                return -10

    # Checking for Diagonals for X or O victory.
    if (b[0][0] == b[1][1] and b[1][1] == b[2][2]) :

        if (b[0][0] == player) :
            return 10
        elif (b[0][0] == opponent) :
            return -10

    if (b[0][2] == b[1][1] and b[1][1] == b[2][0]) :

        if (b[0][2] == player) :
            return 10
        elif (b[0][2] == opponent) :
            return -10

    # Else if none of them have won then return 0
    return 0

# The minimax function with alpha-beta pruning.
def minimax(board, depth, isMax, alpha, beta) :
    score = evaluate(board)

    if (score == 10) :
        return score - depth

    if (score == -10) :
        return score + depth

    if (isMovesLeft(board) == False) :
        return 0

    if (isMax) :
        best = -1000
        for i in range(3) :
            for j in range(3) :
                if (board[i][j]=='_') :
                    board[i][j] = player
                    val = minimax(board, depth + 1, not isMax, alpha, beta)
                    board[i][j] = '_'
                    best = max(best, val)
                    alpha = max(alpha, best)
                    if (beta <= alpha) :
                        return best
        return best
    else :
        best = 1000
        for i in range(3) :
            for j in range(3) :
                if (board[i][j] == '_') :
                    board[i][j] = opponent
                    val = minimax(board, depth + 1, not isMax, alpha, beta)
                    board[i][j] = '_'
                    best = min(best, val)
                    beta = min(beta, best)
                    if (beta <= alpha) :
                        return best
        return best

# Each move's value, for the grader's `scores`: "b3 -10".
moveVals = []

# This will return the best possible move for the player
def findBestMove(board) :
    bestVal = -1000
    bestMove = (-1, -1)

    # Traverse all cells, evaluate minimax function for
    # all empty cells. And return the cell with optimal
    # value.
    for i in range(3) :
        for j in range(3) :

            # Check if cell is empty
            if (board[i][j] == '_') :

                # Make the move
                board[i][j] = player

                # compute evaluation function for this
                # move.
                moveVal = minimax(board, 0, False, bestVal, 1000)

                # Undo the move
                board[i][j] = '_'
                moveVals.append("abc"[j] + str(i + 1) + " " + str(moveVal))

                # If the value of the current move is
                # more than the best value, then update
                # best/
                if (moveVal > bestVal) :
                    bestMove = (i, j)
                    bestVal = moveVal

    print("The value of the best Move is :", bestVal, file=sys.stderr)
    return bestMove

# Driver code: the grader's boards, one a line ("xox/oox/... best").
for line in sys.stdin :
    words = line.split()
    board = [['_' if c == '.' else c for c in row] for row in words[0].split('/')]
    moveVals.clear()
    xs = words[0].count('x')
    os_ = words[0].count('o')
    player, opponent = ('x', 'o') if xs == os_ else ('o', 'x')
    bestMove = findBestMove(board)
    if words[1:] == ['scores'] :
        print(' '.join(moveVals), flush=True)
    else :
        print(bestMove[0], bestMove[1], flush=True)
