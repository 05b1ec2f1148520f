//! What the explain panel says about the position on screen: the scores'
//! legend, the line under the cursor, what scoring costs each way and the
//! hard level's deliberate slip. Text only; [`super::view`] draws it.

use std::time::Duration;

use super::app::App;
use super::message::Said;
use tictactoe_engine::teach::ladder::Rung;
use tictactoe_engine::teach::line::Line;
use tictactoe_engine::{Analysis, Level, Method, Square, Status};
use tictactoe_game::present::{
    capitalised, ended, move_list, move_rows, proof_words, result_for, row_reason, scoring_legend,
};
use tictactoe_game::text::{count as count_of, percent_saved, thousands};
use tictactoe_grade::lab::{Gain, gain_text};

/// The moves of a line from `board`, `mv` first, with the result:
/// "b2 X, a1 O, c3 X: X wins in 2". `None` unless `mv` has been scored.
pub fn line_text(analysis: &Analysis, line: &Line, mv: Square) -> Option<String> {
    let scored = analysis.moves.iter().find(|m| m.mv == mv)?;
    // A move and its side stay on one line: a no-break space joins them.
    let moves = move_list(
        &analysis.board,
        std::iter::once(mv).chain(line.moves.iter().copied()),
    )
    .replace(" X", "\u{a0}X")
    .replace(" O", "\u{a0}O");
    let result = if line.proven {
        result_for(analysis.outlook_of(*scored), analysis.board.to_move())
    } else {
        "as far as the search looked".to_string()
    };
    Some(format!("{moves}: {result}"))
}

/// What the explain panel says about the position on screen, each with its
/// importance: 1 is kept longest when space is short.
pub fn explain_items(app: &App) -> Vec<(u8, Said)> {
    let mut items: Vec<(u8, Said)> = Vec::new();
    let board = app.board();
    let Status::InProgress { to_move } = board.status() else {
        let end = capitalised(&ended(board.status()).unwrap_or_default());
        items.push((1, Said::Text(format!("{end}: no move left to score."))));
        return items;
    };
    let analysis = app.overlay();
    let scoring = app.scores();
    items.push((1, Said::Heading(format!("Scores for {to_move} to move:"))));
    // What a proof covers, on boards bigger than 3x3: the scores may be estimates.
    if let Some(words) = analysis.and_then(proof_words) {
        items.push((2, Said::Text(format!("{words}."))));
    }
    // One item, so a short screen drops the legend whole, never half a sentence.
    let win = board.geometry().win_score();
    items.push((5, Said::Faint(format!("{}.", scoring_legend(scoring, win)))));
    if analysis.is_some_and(|a| !a.exact()) {
        items.push((3, Said::Faint("? estimated, not proven".into())));
    }
    // The line of the square under the cursor; on a taken square, the best move's.
    let cursor = app.cursor();
    let best = analysis
        .and_then(|analysis| analysis.best_by(scoring))
        .map(|best| best.mv);
    let (label, shown) = match (board.get(cursor), best) {
        (None, _) => ("Line", Some(cursor)),
        (Some(_), best) => ("Best", best),
    };
    // How the number on that square is counted, next to the numbers.
    if let Some((analysis, mv)) = analysis.zip(shown)
        && let Some(row) = move_rows(analysis, scoring)
            .into_iter()
            .find(|row| row.mv == mv)
    {
        let reason = row_reason(&row, to_move, scoring, win);
        items.push((2, Said::Text(format!("{mv}: {reason}"))));
    }
    items.push((6, Said::Gap));
    let line = analysis.zip(shown).and_then(|(analysis, mv)| {
        let line = app.line(mv)?;
        line_text(analysis, line, mv)
    });
    match line {
        Some(text) => items.push((1, Said::Text(format!("{label}: {text}")))),
        None => items.push((2, Said::Faint(format!("{label}: …")))),
    }
    if board.get(cursor).is_some() {
        items.push((
            5,
            Said::Faint("(an empty square under the cursor shows its own line)".into()),
        ));
    }
    items.push((6, Said::Gap));
    if app.lab_on() {
        lab(app, &mut items);
    } else {
        costs(app, analysis, &mut items);
    }
    if let Some(note) = slip_note(app) {
        items.push((6, Said::Gap));
        items.push((1, Said::Text(note)));
    }
    items
}

/// What answering the position costs: plain minimax's calls and alpha-beta's
/// as the trace counts them (call 1 included), what pruning saves, the
/// positions the engine's search examines to score every move and what
/// that saves in all, and on 3x3 the compiled table that makes it a lookup.
/// Every count says what it counts.
fn costs(app: &App, analysis: Option<&Analysis>, items: &mut Vec<(u8, Said)>) {
    let costs = app.costs();
    items.push((2, Said::Text("Calls, as trace counts:".into())));
    let figure = |label: &str, value: String| Said::Figure(label.to_string(), value);
    let counted = |count: Option<Option<u64>>, one: &str, many: &str| match count {
        None => "counting…".to_string(),
        Some(None) => "too many".to_string(),
        Some(Some(n)) => count_of(n, one, many),
    };
    let minimax = costs.map(|c| c.minimax);
    let alpha_beta = costs.map(|c| c.alpha_beta);
    items.push((1, figure("minimax", counted(minimax, "call", "calls"))));
    if alpha_beta != Some(None) {
        items.push((
            2,
            figure("alpha-beta", counted(alpha_beta, "call", "calls")),
        ));
        if let Some(saving) = saving(alpha_beta.flatten(), minimax.flatten()) {
            items.push((2, figure(" pruning saves", saving)));
        }
    }
    let table = analysis.is_some_and(|a| a.method == Method::Table);
    let searched = match analysis.map(|a| a.method) {
        Some(Method::Search { nodes, .. }) => Some(nodes),
        _ => costs.and_then(|c| c.search),
    };
    // The engine's own search, not one of the lab's rows: it adds threat
    // checks to them (docs/LEARN.md, the lab).
    let search_label = "engine";
    match searched {
        Some(nodes) => {
            items.push((
                1,
                figure(search_label, count_of(nodes, "position", "positions")),
            ));
            if let Some(saving) = saving(Some(nodes), minimax.flatten()) {
                items.push((4, figure(" saves in all", saving)));
            }
        }
        None => items.push((1, figure(search_label, "scoring…".into()))),
    }
    if let Some(depth) = analysis.and_then(Analysis::depth) {
        items.push((3, figure(" depth", format!("{depth} plies"))));
    }
    let ms = |time: Duration| format!("{:.3} ms", time.as_secs_f64() * 1e3);
    if let Some(time) = costs.and_then(|c| c.search_time).filter(|_| table) {
        items.push((5, figure(" search time", ms(time))));
    }
    if table {
        items.push((1, figure("compiled table", "a lookup".into())));
    }
    if let Some(analysis) = analysis {
        let label = if table { "lookup time" } else { "time" };
        items.push((3, figure(label, ms(analysis.elapsed))));
    }
}

/// The lab's ladder: each technique's positions and its gain over the row
/// before, as `tictactoe lab` shows them.
fn lab(app: &App, items: &mut Vec<(u8, Said)>) {
    items.push((
        2,
        Said::Text("The lab: GeeksforGeeks' minimax, then a technique added each row:".into()),
    ));
    let Some(ladder) = app.ladder() else {
        items.push((1, Said::Faint("searching…".into())));
        return;
    };
    for (index, row) in ladder.rows.iter().enumerate() {
        let positions = match row.found {
            Ok(found) if found.positions == 0 => "a lookup".to_string(),
            Ok(found) => thousands(found.positions),
            Err(_) => "gave up".to_string(),
        };
        // A gain by time is too long for the panel: the lookup says it all.
        let gain = match ladder.gain(index) {
            Some(gain @ Gain::Positions(_)) => format!(" {}", gain_text(gain)),
            _ => String::new(),
        };
        let label = match row.rung {
            Rung::Minimax => "minimax".to_string(),
            Rung::Compiled => "compiled".to_string(),
            rung => format!("+ {}", rung.name()),
        };
        let importance = if index == 0 { 1 } else { 2 };
        items.push((
            importance,
            Said::Figure(label, format!("{positions}{gain}")),
        ));
    }
    if !ladder.agrees() {
        items.push((1, Said::Text("The rows disagree: a bug.".into())));
    }
    items.push((
        5,
        Said::Faint("(positions searched; L again: the costs; tictactoe lab: times)".into()),
    ));
}

/// "93.8 %" for what doing `part` instead of `whole` saves; "+5.0 %" when
/// it costs more.
fn saving(part: Option<u64>, whole: Option<u64>) -> Option<String> {
    let (part, whole) = (part?, whole?);
    if part > whole {
        let more = percent_saved(whole, part)?;
        return Some(format!("costs more ({more} % less)"));
    }
    percent_saved(part, whole).map(|percent| format!("{percent} %"))
}

/// When the last move on the board was the hard level's deliberate slip,
/// what it chose instead of its best.
fn slip_note(app: &App) -> Option<String> {
    let report = app.report()?;
    let analysis = report.decision.analysis.as_ref()?;
    let after = report.before.play(report.decision.mv).ok()?;
    // Only while its move is the last one on the board.
    if report.level != Level::Hard || after != app.board() {
        return None;
    }
    let chosen = analysis.moves.iter().find(|m| m.mv == report.decision.mv)?;
    let best = analysis.best()?;
    if chosen.score >= best.score {
        return None;
    }
    Some(format!(
        "{} (hard) played {} on purpose: its second-best move ({}), where {} was {}.",
        report.player,
        report.decision.mv,
        analysis.outlook_of(*chosen),
        best.mv,
        analysis.outlook_of(best),
    ))
}
