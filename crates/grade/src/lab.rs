//! The lab: what each search technique buys. One position is searched by
//! GeeksforGeeks' minimax, then with alpha-beta, move ordering, a
//! transposition table, symmetry and iterative deepening added one after
//! another, and on 3×3 looked up in the compiled table: a row each with the
//! positions searched, the time, and the factor gained over the row before
//! ([`ladder`]). Every row must find the same value; [`Ladder::agrees`]
//! says whether they did. The searches are the engine's readable teaching
//! code ([`tictactoe_engine::teach::ladder`]).

use std::time::{Duration, Instant};

use tictactoe_engine::teach::ladder::{Refused, Rung, Searched, search};
use tictactoe_engine::{Board, Scoring, Status};

use tictactoe_game::json;
use tictactoe_game::present::scoring_legend;
use tictactoe_game::text::{signed, thousands};

/// The most positions a row searches before it gives up, unless asked otherwise:
/// enough for GeeksforGeeks' minimax on the empty 3×3 board (549,946).
pub const DEFAULT_BUDGET: u64 = 1_000_000;

/// One row of the ladder: a technique, what it found and how long it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The technique added in this row.
    pub rung: Rung,
    /// The value and the positions searched, or why there are none.
    pub found: Result<Searched, Refused>,
    /// Wall time of the search (or the lookup).
    pub time: Duration,
}

/// Every row of the ladder for one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ladder {
    /// The position searched.
    pub board: Board,
    /// How the values are counted.
    pub scoring: Scoring,
    /// The rows, from GeeksforGeeks' minimax up; the compiled table only on 3×3.
    pub rows: Vec<Row>,
}

impl Ladder {
    /// The value every row found (the first row's that found one).
    pub fn value(&self) -> Option<i32> {
        self.rows
            .iter()
            .find_map(|row| row.found.ok().map(|found| found.value))
    }

    /// True when every row that found a value found the same one.
    pub fn agrees(&self) -> bool {
        let value = self.value();
        self.rows
            .iter()
            .all(|row| row.found.is_err() || row.found.ok().map(|f| f.value) == value)
    }

    /// What row `index` gains over the row before it: the ratio of their
    /// positions searched, or of their times when this row searched none
    /// (a lookup). `None` for the first row and next to a row that gave up.
    pub fn gain(&self, index: usize) -> Option<Gain> {
        let before = self.rows.get(index.checked_sub(1)?)?;
        let row = self.rows.get(index)?;
        let (earlier, now) = (before.found.ok()?, row.found.ok()?);
        if now.positions == 0 {
            let time = before.time.as_secs_f64() / row.time.as_secs_f64().max(1e-9);
            return Some(Gain::Time(time));
        }
        Some(Gain::Positions(
            earlier.positions as f64 / now.positions as f64,
        ))
    }
}

/// What a row gains over the row before it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gain {
    /// Searching `n` times fewer positions (below 1: more).
    Positions(f64),
    /// Taking `n` times less time, for a row that searches nothing.
    Time(f64),
}

/// Searches `board` with every rung of the ladder that applies to it,
/// each allowed at most `budget` positions.
pub fn ladder(board: &Board, scoring: Scoring, budget: u64) -> Ladder {
    let rows = Rung::ALL
        .into_iter()
        .filter(|rung| rung.applies(board))
        .map(|rung| {
            let started = Instant::now();
            let found = search(board, rung, scoring, budget);
            Row {
                rung,
                found,
                time: started.elapsed(),
            }
        })
        .collect();
    Ladder {
        board: *board,
        scoring,
        rows,
    }
}

/// The row's technique as the table names it.
pub fn technique(rung: Rung) -> &'static str {
    match rung {
        Rung::Minimax => "GeeksforGeeks' minimax",
        Rung::AlphaBeta => "+ alpha-beta",
        Rung::Ordering => "+ move ordering",
        Rung::Table => "+ transposition table",
        Rung::Symmetry => "+ symmetry",
        Rung::Deepening => "+ iterative deepening",
        Rung::Compiled => "compiled table",
    }
}

/// What the row's technique does, in a sentence.
pub fn what_it_does(rung: Rung) -> &'static str {
    match rung {
        Rung::Minimax => "every position of the tree, as the article searches it",
        Rung::AlphaBeta => "stops trying replies once one shows the move is no better than another",
        Rung::Ordering => "tries a win first, then a block, then the squares nearest the centre",
        Rung::Table => "looks up a position reached again by another order of the same moves",
        Rung::Symmetry => "counts rotations and reflections of a position as one",
        Rung::Deepening => {
            "searches one ply deeper at a time, the best move so far first, and stops once the value is certain"
        }
        Rung::Compiled => "the value of every 3x3 position, worked out when the program was built",
    }
}

/// The gain in words: `x26.4`, `x0.52`, `x1,320 (time)`.
pub fn gain_text(gain: Gain) -> String {
    let (factor, unit) = match gain {
        Gain::Positions(factor) => (factor, ""),
        Gain::Time(factor) => (factor, " (time)"),
    };
    let figure = if factor >= 100.0 {
        thousands(factor.round() as u64)
    } else if factor >= 10.0 {
        format!("{factor:.1}")
    } else {
        format!("{factor:.2}")
    };
    format!("x{figure}{unit}")
}

/// A time for the table: `210 ms`, `8.12 ms`, `0.004 ms`.
pub fn time_text(time: Duration) -> String {
    let ms = time.as_secs_f64() * 1e3;
    if ms >= 100.0 {
        format!("{ms:.0} ms")
    } else if ms >= 1.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.3} ms")
    }
}

/// The positions column: `549,946`, `a lookup`, or why the row has none.
fn positions_text(found: &Result<Searched, Refused>) -> String {
    match found {
        Ok(found) if found.positions == 0 => "a lookup".to_string(),
        Ok(found) => thousands(found.positions),
        Err(Refused::OverBudget { budget }) => format!("over {}", thousands(*budget)),
        Err(Refused::NoTable) => "3x3 only".to_string(),
    }
}

/// The ladder as a table, with a heading and what each row adds.
pub fn text(ladder: &Ladder) -> String {
    let board = &ladder.board;
    let mut out = format!(
        "The lab on {board} ({size}x{size}, {k} in a row)",
        size = board.size(),
        k = board.k()
    );
    match board.status() {
        Status::InProgress { to_move } => out.push_str(&format!(", {to_move} to move.\n")),
        status => out.push_str(&format!(": {status}.\n")),
    }
    out.push_str(
        "Each row adds one technique to those above it; every row must find the same value.\n\n",
    );
    // The time last: it is the one column that changes from run to run.
    let rows: Vec<[String; 4]> = ladder
        .rows
        .iter()
        .enumerate()
        .map(|(index, row)| {
            [
                technique(row.rung).to_string(),
                positions_text(&row.found),
                ladder.gain(index).map(gain_text).unwrap_or_default(),
                time_text(row.time),
            ]
        })
        .collect();
    let header = ["technique", "positions", "gain", "time"].map(str::to_string);
    let width = |column: usize| {
        std::iter::once(&header)
            .chain(&rows)
            .map(|row| row[column].chars().count())
            .max()
            .unwrap_or(0)
    };
    // A gain by time (the lookup's, last) changes from run to run: it may
    // stick out rather than move every other row's time.
    let by_positions = (0..ladder.rows.len())
        .filter(|&index| matches!(ladder.gain(index), Some(Gain::Positions(_))))
        .map(|index| rows[index][2].chars().count());
    let widths = [width(0), width(1), by_positions.max().unwrap_or(0).max(4)];
    for row in std::iter::once(&header).chain(&rows) {
        let line = format!(
            "{:<w0$}  {:>w1$}  {:<w2$}  {}",
            row[0],
            row[1],
            row[2],
            row[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    let win = board.geometry().win_score();
    // What each row did: found the value, gave up, or could not apply.
    let names = |keep: &dyn Fn(&Row) -> bool| -> Vec<String> {
        ladder
            .rows
            .iter()
            .filter(|row| keep(row))
            .map(|row| technique(row.rung).trim_start_matches("+ ").to_string())
            .collect()
    };
    let found = names(&|row| row.found.is_ok());
    let gave_up: Vec<String> = ladder
        .rows
        .iter()
        .filter_map(|row| match row.found {
            Err(Refused::OverBudget { budget }) => Some(format!(
                "{} gave up at {} positions",
                technique(row.rung).trim_start_matches("+ "),
                thousands(budget)
            )),
            _ => None,
        })
        .collect();
    let finding = |value: i32| {
        format!(
            "the value {} ({})",
            signed(value),
            scoring_legend(ladder.scoring, win)
        )
    };
    match (ladder.value(), ladder.agrees()) {
        (Some(value), true) if gave_up.is_empty() => {
            out.push_str(&format!("Every row finds {}.\n", finding(value)));
        }
        (Some(value), true) => {
            out.push_str(&format!(
                "{} of {} rows finished, and found {}: {}.\n",
                found.len(),
                ladder.rows.len(),
                finding(value),
                found.join(", ")
            ));
            out.push_str(&format!("The others did not: {}.\n", gave_up.join("; ")));
        }
        (None, _) => out.push_str(&format!(
            "No row finished within its positions: {}.\n",
            gave_up.join("; ")
        )),
        (Some(_), false) => {
            let values: Vec<String> = ladder
                .rows
                .iter()
                .filter_map(|row| {
                    let value = row.found.ok()?.value;
                    Some(format!("{} {}", row.rung.name(), signed(value)))
                })
                .collect();
            out.push_str(&format!(
                "The rows disagree: {}. This is a bug.\n",
                values.join(", ")
            ));
        }
    }
    out.push('\n');
    for row in &ladder.rows {
        out.push_str(&format!(
            "{}: {}.\n",
            technique(row.rung).trim_start_matches("+ "),
            what_it_does(row.rung)
        ));
    }
    out
}

/// The ladder's JSON (`lab --json`).
pub fn json(ladder: &Ladder) -> json::Ladder {
    let rows = ladder
        .rows
        .iter()
        .enumerate()
        .map(|(index, row)| {
            let gain = ladder.gain(index);
            json::LadderRow {
                technique: row.rung.name(),
                value: row.found.ok().map(|found| found.value),
                positions: row.found.ok().map(|found| found.positions),
                refused: row.found.err().map(|refused| refused.to_string()),
                time_ms: row.time.as_secs_f64() * 1e3,
                gain: gain.map(|gain| match gain {
                    Gain::Positions(factor) | Gain::Time(factor) => factor,
                }),
                gain_by: gain.map(|gain| match gain {
                    Gain::Positions(_) => "positions",
                    Gain::Time(_) => "time",
                }),
            }
        })
        .collect();
    json::Ladder {
        board: ladder.board,
        size: ladder.board.size(),
        k: ladder.board.k(),
        scores: ladder.scoring,
        value: ladder.value(),
        agrees: ladder.agrees(),
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_of_freecodecamps_board() {
        let board: Board = "o.x/x.x/.oo".parse().unwrap();
        let ladder = ladder(&board, Scoring::Depth, DEFAULT_BUDGET);
        assert!(ladder.agrees());
        let names: Vec<&str> = ladder.rows.iter().map(|row| row.rung.name()).collect();
        assert_eq!(
            names,
            [
                "minimax",
                "alpha-beta",
                "ordering",
                "table",
                "symmetry",
                "deepening",
                "compiled"
            ]
        );
        assert_eq!(ladder.rows[0].found.unwrap().positions, 9);
        assert_eq!(ladder.gain(1), Some(Gain::Positions(9.0 / 8.0)));
        assert!(matches!(ladder.gain(6), Some(Gain::Time(_))));
        let text = text(&ladder);
        assert!(text.contains("GeeksforGeeks' minimax"), "{text}");
        assert!(text.contains("a lookup"), "{text}");
    }

    #[test]
    fn gains_in_words() {
        assert_eq!(gain_text(Gain::Positions(26.38)), "x26.4");
        assert_eq!(gain_text(Gain::Positions(0.5)), "x0.50");
        assert_eq!(gain_text(Gain::Time(1320.4)), "x1,320 (time)");
    }
}
