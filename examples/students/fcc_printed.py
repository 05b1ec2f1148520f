"""freeCodeCamp's minimax ("How to make your Tic Tac Toe game unbeatable by
using the minimax algorithm") ported to Python line by line, as printed:
`aiPlayer` fixed at "X", `huPlayer` at "O", and the bare +10, -10, 0. Only
the driver is the grader's: each board it sends becomes origBoard, and the
index minimax returns is printed as ROW COL.
`tictactoe grade --article fcc -- python3 examples/students/fcc_printed.py`"""

import sys

# human
huPlayer = "O"
# ai
aiPlayer = "X"


# returns the available spots on the board
def emptyIndexies(board):
    return [s for s in board if s != "O" and s != "X"]


# winning combinations using the board indexies
def winning(board, player):
    if ((board[0] == player and board[1] == player and board[2] == player) or
            (board[3] == player and board[4] == player and board[5] == player) or
            (board[6] == player and board[7] == player and board[8] == player) or
            (board[0] == player and board[3] == player and board[6] == player) or
            (board[1] == player and board[4] == player and board[7] == player) or
            (board[2] == player and board[5] == player and board[8] == player) or
            (board[0] == player and board[4] == player and board[8] == player) or
            (board[2] == player and board[4] == player and board[6] == player)):
        return True
    else:
        return False


# the main minimax function
def minimax(newBoard, player):
    # available spots
    availSpots = emptyIndexies(newBoard)

    # checks for the terminal states such as win, lose, and tie
    # and returning a value accordingly
    if winning(newBoard, huPlayer):
        return {"score": -10}
    elif winning(newBoard, aiPlayer):
        return {"score": 10}
    elif len(availSpots) == 0:
        return {"score": 0}

    # an array to collect all the objects
    moves = []

    # loop through available spots
    for i in range(len(availSpots)):
        # create an object for each and store the index of that spot
        move = {}
        move["index"] = newBoard[availSpots[i]]

        # set the empty spot to the current player
        newBoard[availSpots[i]] = player

        # collect the score resulted from calling minimax
        # on the opponent of the current player
        if player == aiPlayer:
            result = minimax(newBoard, huPlayer)
            move["score"] = result["score"]
        else:
            result = minimax(newBoard, aiPlayer)
            move["score"] = result["score"]

        # reset the spot to empty
        newBoard[availSpots[i]] = move["index"]

        # push the object to the array
        moves.append(move)

    # if it is the computer's turn loop over the moves and choose the move
    # with the highest score
    bestMove = None
    if player == aiPlayer:
        bestScore = -10000
        for i in range(len(moves)):
            if moves[i]["score"] > bestScore:
                bestScore = moves[i]["score"]
                bestMove = i
    else:
        # else loop over the moves and choose the move with the lowest score
        bestScore = 10000
        for i in range(len(moves)):
            if moves[i]["score"] < bestScore:
                bestScore = moves[i]["score"]
                bestMove = i

    # return the chosen move (object) from the moves array
    return moves[bestMove]


# The grader's boards, one a line ("o.x/x.x/.oo best"): empty squares hold
# their index, as in the article's origBoard.
for line in sys.stdin:
    cells = line.split()[0].replace("/", "")
    origBoard = ["X" if c == "x" else "O" if c == "o" else i for i, c in enumerate(cells)]
    bestSpot = minimax(origBoard, aiPlayer)
    print(bestSpot["index"] // 3, bestSpot["index"] % 3, flush=True)
