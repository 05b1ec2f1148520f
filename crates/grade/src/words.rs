//! The grader's sentences about mistakes, in the names of the article the
//! student followed, and the lines of play that refute a move.

use tictactoe_engine::{Board, Player, Scoring, Square, find_best_move};

use super::diagnosis::Article;
use super::players::{Model, Slip};

/// The names an article gives the parts of its program.
struct Names {
    /// Who the program plays for, as declared.
    side: &'static str,
    /// The function that finds a line.
    evaluate: &'static str,
    /// The check for moves left.
    moves_left: &'static str,
    /// The function at the top, which picks the move.
    find: &'static str,
    /// Its call on the position after each move.
    root_call: &'static str,
    /// The line restoring the board after a recursive call.
    undo: &'static str,
    /// The top's best score, as it starts.
    best_start: &'static str,
    /// The comparison that keeps a better move.
    compare: &'static str,
}

const fn names(article: Article) -> Names {
    match article {
        Article::Gfg => Names {
            side: "char player = 'x', opponent = 'o';",
            evaluate: "evaluate",
            moves_left: "isMovesLeft",
            find: "findBestMove",
            root_call: "minimax(board, 0, false)",
            undo: "board[i][j] = '_'; (\"Undo the move\")",
            best_start: "int bestVal = -1000;",
            compare: "if (moveVal > bestVal)",
        },
        Article::Fcc => Names {
            side: "var aiPlayer = \"X\"; var huPlayer = \"O\";",
            evaluate: "winning(board, player)",
            moves_left: "the check `availSpots.length === 0`",
            find: "minimax(origBoard, aiPlayer)",
            root_call: "minimax(newBoard, huPlayer)",
            undo: "newBoard[availSpots[i]] = move.index;",
            best_start: "var bestScore = -10000;",
            compare: "if(moves[i].score > bestScore)",
        },
        Article::Cs50 => Names {
            side: "player(board)",
            evaluate: "winner(board)",
            moves_left: "terminal(board)",
            find: "minimax(board)",
            root_call: "minvalue(result(board, action)) for X (maxvalue for O)",
            undo: "result(board, action) returning a deep copy (copy.deepcopy(board))",
            best_start: "score = -math.inf",
            compare: "if min_val > score:",
        },
    }
}

/// What `slip` is, in a sentence a student understands, pointing at the
/// line of `article` it breaks.
pub fn sentence(slip: Slip, article: Article, scoring: Scoring) -> String {
    let n = names(article);
    let title = article.title();
    let owner = article.possessive();
    match slip {
        Slip::PlayerAlwaysX | Slip::PlayerAlwaysO => {
            let (fixed, other) = match slip {
                Slip::PlayerAlwaysX => ("X", "O"),
                _ => ("O", "X"),
            };
            let fix = match article {
                Article::Gfg => {
                    "set `player` to the side to move (X when X and O have as many marks, \
                     else O) and `opponent` to the other, for every board"
                }
                Article::Fcc => {
                    "set `aiPlayer` to the side to move (X when X and O have as many marks, \
                     else O) and `huPlayer` to the other, for every board"
                }
                Article::Cs50 => {
                    "the side to move is player(board): X when X and O have as many marks, \
                     else O"
                }
            };
            format!(
                "Your program always plays for {fixed}: with {other} to move it places \
                 {fixed}'s mark, as if {fixed} moved again. {title} declares `{}` once, for its \
                 example where X is to move; the grader's boards are either side's turn: {fix}.",
                n.side
            )
        }
        Slip::NoDepth => match article {
            Article::Fcc => "Your minimax scores every win +10 however deep it lies, as \
                 freeCodeCamp's code does (`return {score:10}`), so a slow win ties with a \
                 quick one. The grader counts the depth, as GeeksforGeeks' text asks (a win \
                 at depth d scores 10 - d); --scores plain grades freeCodeCamp's bare scores."
                .into(),
            _ => format!(
                "Your minimax scores every win +10 however deep it lies (or subtracts a depth \
                 that never grows: each recursive call must pass `depth + 1`), so it may take \
                 a slow win over a quick one, or a quick loss over a slow one. GeeksforGeeks' \
                 text subtracts the depth: \"return WIN_SCORE - depth\" and \"return \
                 LOOSE_SCORE + depth\" (a win in 2 moves scores 10 - 2 = 8, one in 4 scores 6), \
                 though its code listing returns the bare score; the grader counts the depth \
                 (--scores {}; --scores plain grades the bare ±10).",
                scoring.name()
            ),
        },
        Slip::Depth => "Your scores count the depth (a win at depth d scores 10 - d), where \
             --scores plain asks for the bare +10 and -10 of the articles' code."
            .into(),
        Slip::Deeper | Slip::Shallower => {
            let (way, from) = match slip {
                Slip::Deeper => ("nearer zero", "too deep"),
                _ => ("further from zero", "too shallow"),
            };
            format!(
                "Every win and loss you score is one step {way} than GeeksforGeeks' minimax: \
                 your depth starts one ply {from}. The article's findBestMove scores each move \
                 with \"minimax(board, 0, false)\" on the board after it."
            )
        }
        Slip::RowsOnly | Slip::NoColumns | Slip::NoDiagonals | Slip::NoAntiDiagonal => {
            let missing = match slip {
                Slip::RowsOnly => {
                    "checks the rows only: a line down a column or along a \
                                   diagonal is not seen"
                }
                Slip::NoColumns => "leaves out the columns: a line down a column is not seen",
                Slip::NoDiagonals => "leaves out the diagonals: a line along either is not seen",
                _ => "leaves out the anti-diagonal (c1, b2, a3): a line along it is not seen",
            };
            let all = match article {
                Article::Fcc => {
                    "freeCodeCamp's `winning` lists all 8 lines: 3 rows, 3 columns, \
                                 2 diagonals"
                }
                Article::Cs50 => "a line is 3 rows, 3 columns and 2 diagonals",
                Article::Gfg => {
                    "GeeksforGeeks' evaluate checks the rows, the columns, then \
                                 both diagonals, b[0][0]-b[1][1]-b[2][2] and b[0][2]-b[1][1]-b[2][0]"
                }
            };
            format!(
                "Your {} {missing}, so a move that lets the opponent complete one looks as good \
                 as any: {all}.",
                n.evaluate
            )
        }
        Slip::EvaluateForX => match article {
            Article::Cs50 => "Your minimax plays for X whoever is to move: it takes the action \
                 whose minvalue is highest even when O is to move. CS50's minimax takes, for O, \
                 the action whose maxvalue is lowest (the article's `elif player(board) == O:` \
                 branch)."
                .into(),
            Article::Fcc => "Your minimax scores for X whoever is to move (+10 when X has a \
                 line, -10 when O has): with O to move it keeps the move best for X, and below \
                 it each side picks its own worst reply. freeCodeCamp's minimax returns -10 for \
                 `winning(newBoard, huPlayer)` and +10 for `winning(newBoard, aiPlayer)`, with \
                 aiPlayer the side to move."
                .into(),
            Article::Gfg => "Your evaluate scores for X whoever is to move (+10 for a line of \
                 x, -10 for a line of o): with O to move, findBestMove keeps the move best for \
                 X, and below it each side picks its own worst reply. GeeksforGeeks' evaluate \
                 compares with `player` and `opponent` (`if (b[row][0]==player) return +10;`), \
                 so +10 is always a line of the side choosing the move."
                .into(),
        },
        Slip::MovesLeftInverted => format!(
            "Your {} answers the wrong way round: it says no move is left while a square is \
             empty, so minimax stops at once and calls every unfinished position a draw (and on \
             a full board it tries no move and returns its starting -1000 or +1000). It must \
             say true as soon as it finds an empty square.",
            n.moves_left
        ),
        Slip::FullBoardFirst => format!(
            "A full board with a line on it is scored as a draw: your minimax asks {} before it \
             looks for a winner. GeeksforGeeks evaluates first (\"int score = evaluate(board); \
             if (score == 10) return score;\") and only then \"if (isMovesLeft(board)==false) \
             return 0;\".",
            n.moves_left
        ),
        Slip::BestValZero => format!(
            "Your {} starts its best score at 0: where no move scores above 0 (a draw at best, \
             or a loss) none replaces it, and you answer -1 -1. The article starts below every \
             score: `{}`.",
            n.find, n.best_start
        ),
        Slip::BestZero => "Your minimax starts `best` at 0 where the article starts it at \
             -1000 for the maximizer and 1000 for the minimizer: a loss never goes below 0 where \
             the maximizer chooses, a win never above 0 where the minimizer does."
            .into(),
        Slip::NoUndo | Slip::RootNoUndo => {
            // Left out in the minimizer's branch alone, the moves are the
            // same as left out in both (the grader's moves on every
            // position): only every move's score tells them apart.
            let place = match slip {
                Slip::NoUndo => "minimax, in the minimizer's branch at least,",
                _ => n.find,
            };
            let scores = match slip {
                Slip::NoUndo => {
                    " (Left out in the minimizer's branch alone, it answers the same moves as \
                     left out in both; --ask scores tells them apart.)"
                }
                _ => "",
            };
            format!(
                "Your {place} does not restore the board after the recursive call, so marks \
                 pile up and later moves are judged on a board no game reaches. The article \
                 undoes each move: `{}`.{scores}",
                n.undo
            )
        }
        Slip::MaxNoUndo | Slip::MinNoUndo => {
            let max = slip == Slip::MaxNoUndo;
            let piles = "so those marks pile up and later moves are judged on a board no game \
                         reaches";
            match article {
                Article::Gfg => format!(
                    "Your minimax restores the board after the recursive call in one branch but \
                     not in the {}, {piles}. The article undoes every move, in both branches: \
                     `{}`.",
                    if max {
                        "maximizer's (`if (isMax)`)"
                    } else {
                        "minimizer's (the `else`)"
                    },
                    n.undo
                ),
                Article::Fcc => {
                    let (left, undone) = if max {
                        ("aiPlayer's", "huPlayer's")
                    } else {
                        ("huPlayer's", "aiPlayer's")
                    };
                    format!(
                        "Your minimax restores the board after the recursive call on {undone} \
                         moves but not on {left}, {piles}. freeCodeCamp undoes every move, \
                         whoever makes it: `{}`.",
                        n.undo
                    )
                }
                Article::Cs50 => {
                    let (changes, other) = if max {
                        ("maxvalue", "minvalue")
                    } else {
                        ("minvalue", "maxvalue")
                    };
                    format!(
                        "Your {changes} changes the board it is given (a mark set and not taken \
                         back, or a result that is not a copy) where {other} does not, {piles}. \
                         CS50's result returns a new board, a deep copy \
                         (`copy.deepcopy(board)`), and leaves the one it is given as it was."
                    )
                }
            }
        }
        Slip::RootIsMax => match article {
            Article::Fcc => "Your top call scores each move with `minimax(newBoard, aiPlayer)`: \
                 after the AI's move the AI moves again. freeCodeCamp passes huPlayer: the \
                 opponent replies."
                .into(),
            _ => format!(
                "Your {} calls minimax(board, 0, true): after your move the same side moves \
                 again. The article calls `{}`: after `player`'s move the opponent, the \
                 minimizer, replies.",
                n.find, n.root_call
            ),
        },
        Slip::KeepsLast => format!(
            "On equal scores you keep the last move. The article replaces its best move only \
             `{}`, strictly better, so the first best move in reading order stays.",
            n.compare
        ),
        Slip::KeepsFirst => "On equal scores you keep the first move, as the articles do; \
             `--ties last` asks for the last: replace the best move on equal scores too (>=)."
            .into(),
        Slip::ColumnOrder => "You try the squares column by column, so of equal moves you keep \
             another than the article. GeeksforGeeks walks the board row by row: \"for (int i = \
             0; i<3; i++) for (int j = 0; j<3; j++)\", i the row."
            .into(),
        Slip::Transposed | Slip::PrintedSwapped => match article {
            Article::Cs50 => "Your actions have the row and the column swapped: CS50's action \
                 (i, j) is row i, column j, the cell board[i][j]."
                .into(),
            Article::Fcc => "Your moves are right with the row and the column swapped: you \
                 read the board column by column, or print the column first. The grader's \
                 board runs row by row, top to bottom, as freeCodeCamp's 9 cells do (index = 3 \
                 * row + col), and the answer is `ROW COL`: index / 3, then index % 3."
                .into(),
            Article::Gfg => "Your moves are right with the row and the column swapped: you \
                 read the board column by column, or print the column first. The grader's \
                 board runs row by row, top to bottom: board[i][j] is the j-th character of the \
                 i-th row, and the answer is `ROW COL`, as GeeksforGeeks prints `ROW: 2 COL: 2`."
                .into(),
        },
        Slip::AlphaBetaBound | Slip::AlphaBetaClamp => {
            let how = match slip {
                Slip::AlphaBetaBound => "a bound (at most that much)",
                _ => "alpha itself",
            };
            format!(
                "Your scores after the best so far are alpha-beta's bounds, not values: {} \
                 passes its best so far down as alpha, so a move that cannot beat it stops early \
                 and returns {how}. The move you choose is right; to print every move's score, \
                 search each with the window open (alpha -1000, beta +1000), or with plain \
                 minimax.",
                n.find
            )
        }
        Slip::XAlwaysMax => match article {
            Article::Cs50 => "With O to move your minimax picks the action best for X: O is \
                 the minimizer. CS50's minimax takes, for O, the action whose maxvalue is \
                 lowest."
                .into(),
            _ => "With O to move your program places O's mark but still scores for X and keeps \
                 the highest score, which is O's worst move. The side choosing the move is the \
                 maximizer: GeeksforGeeks' evaluate gives +10 to `player`, and findBestMove \
                 keeps the highest score for `player`; with O to move, `player` is O."
                .into(),
        },
        Slip::WrongSide => match article {
            Article::Cs50 => "Your minimax picks each side's worst action: after a move the \
                 other side chooses, so X's move is judged by minvalue of the board after it, \
                 and O's by maxvalue."
                .into(),
            _ => format!(
                "You score each move for the opponent, so you keep the worst move. In {owner} \
                 code +10 is a line of the side choosing the move, and {} scores each move with \
                 `{}`: after the move the opponent, the minimizer, replies.",
                n.find, n.root_call
            ),
        },
    }
}

/// What the article's code as printed is, what its text adds and what the
/// grader expects.
pub fn printed(article: Article, scoring: Scoring) -> String {
    let depth = scoring == Scoring::Depth;
    match article {
        Article::Fcc => format!(
            "This is freeCodeCamp's code as printed: `var aiPlayer = \"X\"` fixed, and the bare \
             +10, -10, 0. The article's AI is X on its one board; the grader asks for the best \
             move of the side to move on every board{}",
            if depth {
                ", and by default counts the depth, as GeeksforGeeks' text asks (--scores \
                 plain grades the bare scores)."
            } else {
                " (--scores plain: the bare scores are right)."
            }
        ),
        _ => format!(
            "This is GeeksforGeeks' code as printed: `char player = 'x', opponent = 'o';` fixed, \
             and evaluate's ±10 returned as it is. The article's own text adds the depth \
             (\"return WIN_SCORE - depth\": a win in 2 moves scores 8, in 4 scores 6) and means \
             findBestMove for whichever side is to move; the grader expects {}.",
            if depth {
                "both: the side to move as `player`, and the depth counted (--scores depth; \
                 --scores plain grades the bare ±10)"
            } else {
                "the side to move as `player` (with --scores plain the bare ±10 is right)"
            }
        ),
    }
}

/// The lines `player` holds on `board`, in words: `row 1`, `column c`,
/// `diagonal a1-c3`, joined by "and".
pub fn line_name(board: &Board, player: Player) -> String {
    const LINES: [([usize; 3], &str); 8] = [
        ([0, 1, 2], "row 1"),
        ([3, 4, 5], "row 2"),
        ([6, 7, 8], "row 3"),
        ([0, 3, 6], "column a"),
        ([1, 4, 7], "column b"),
        ([2, 5, 8], "column c"),
        ([0, 4, 8], "diagonal a1-c3"),
        ([2, 4, 6], "diagonal c1-a3"),
    ];
    let names: Vec<&str> = LINES
        .iter()
        .filter(|(cells, _)| {
            cells
                .iter()
                .all(|&cell| board.get(Square::from_index(cell, 3)) == Some(player))
        })
        .map(|&(_, name)| name)
        .collect();
    names.join(" and ")
}

/// True when an evaluate with the student's slips misses every line of `names`.
fn unseen(names: &str, model: Option<&Model>) -> bool {
    let Some(model) = model else { return false };
    !names.is_empty()
        && names.split(" and ").all(|name| {
            if name.starts_with("row") {
                false
            } else if name.starts_with("column") {
                model.has(Slip::RowsOnly) || model.has(Slip::NoColumns)
            } else if name == "diagonal c1-a3" {
                model.has(Slip::RowsOnly)
                    || model.has(Slip::NoDiagonals)
                    || model.has(Slip::NoAntiDiagonal)
            } else {
                model.has(Slip::RowsOnly) || model.has(Slip::NoDiagonals)
            }
        })
}

/// The line of best play after `mv` on `board`, in words: `X plays c3 and
/// wins: column c`, `O plays a1, X plays c2: a draw`, `you win: row 1`.
/// With the student's `model`, a line its evaluate misses is said so, in
/// the words of `article` (GeeksforGeeks' evaluate, freeCodeCamp's
/// winning, CS50's winner).
pub fn after(board: &Board, mv: Square, model: Option<&Model>, article: Article) -> Option<String> {
    let mut now = board.play(mv).ok()?;
    let mut plays = Vec::new();
    while !now.status().is_over() {
        let next = find_best_move(&now)?;
        plays.push(format!("{} plays {next}", now.to_move()));
        now = now.play(next).ok()?;
    }
    let Some(winner) = now.winner() else {
        if plays.is_empty() {
            return Some("a draw".into());
        }
        return Some(format!("{}: a draw", plays.join(", ")));
    };
    let lines = line_name(&now, winner);
    let checker = match article {
        Article::Gfg => "evaluate",
        Article::Fcc => "winning",
        Article::Cs50 => "winner",
    };
    let note = match (unseen(&lines, model), lines.contains(" and ")) {
        (false, _) => String::new(),
        (true, true) => format!(", which your {checker} does not see"),
        (true, false) => format!(", a line your {checker} does not see"),
    };
    Some(if plays.is_empty() {
        format!("you win: {lines}{note}")
    } else {
        format!("{} and wins: {lines}{note}", plays.join(", "))
    })
}

/// `X` or `O` as the player who moves, for sentences.
pub fn side(player: Player) -> &'static str {
    match player {
        Player::X => "X",
        Player::O => "O",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refuting_line_says_how_the_game_ends() {
        let board: Board = "xox/oxx/o..".parse().unwrap();
        let rows_only =
            Model::right(Scoring::Depth, crate::players::Keep::First).with(&[Slip::RowsOnly]);
        // After O's b3, X plays c3: column c, and the diagonal a1-c3 too.
        let line = after(&board, Square::new(2, 1), Some(&rows_only), Article::Gfg).unwrap();
        assert_eq!(
            line,
            "X plays c3 and wins: column c and diagonal a1-c3, which your evaluate does not see"
        );
        assert_eq!(
            after(&board, Square::new(2, 2), None, Article::Gfg).unwrap(),
            "X plays b3: a draw"
        );
        let win: Board = "xox/oox/...".parse().unwrap();
        assert_eq!(
            after(&win, Square::new(2, 2), None, Article::Gfg).unwrap(),
            "you win: column c"
        );
        // In freeCodeCamp's words, the function that finds a line is winning.
        let line = after(&board, Square::new(2, 1), Some(&rows_only), Article::Fcc).unwrap();
        assert!(line.ends_with("which your winning does not see"), "{line}");
    }

    #[test]
    fn an_undo_left_out_of_one_branch_is_said_in_each_articles_terms() {
        let said = |slip, article| sentence(slip, article, Scoring::Depth);
        assert!(said(Slip::MaxNoUndo, Article::Gfg).contains("maximizer's (`if (isMax)`)"));
        assert!(said(Slip::MinNoUndo, Article::Gfg).contains("minimizer's (the `else`)"));
        assert!(said(Slip::MaxNoUndo, Article::Fcc).contains("but not on aiPlayer's"));
        assert!(said(Slip::MinNoUndo, Article::Cs50).starts_with("Your minvalue changes"));
        // Each names the article's own undo.
        for article in Article::ALL {
            let undo = names(article).undo;
            let words = said(Slip::MaxNoUndo, article);
            assert!(
                words.contains(undo) || words.contains("copy.deepcopy(board)"),
                "{words}"
            );
        }
    }
}
