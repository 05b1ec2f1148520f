//! The commands a client may run instead of the game: `leaderboard` (the
//! best players of each board) and `history` (a key's own games, each as a
//! record in this program's notation, so that `ssh HOST history |
//! tictactoe review -` reviews them), each as text or `--json`. Results
//! are said as everywhere in the program: `x-wins`, `o-wins`, `draw`.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::reads::{Asked, READ_BURST, READ_EVERY, Reads};
use super::store::{Account, Kind, Lane, Rating, Store, StoredGame};
use super::table::LEADERS;
use tictactoe_engine::{Board, Player};
use tictactoe_game::json;
use tictactoe_game::record::Record;
use tictactoe_game::versus::Termination;

/// Games `history` lists, newest first.
const HISTORY: u32 = 100;

/// The commands, as the client types them.
pub(super) const NAMES: [&str; 2] = ["leaderboard", "history"];

/// Why `history` lists nothing.
const NO_HISTORY: &str = "no games of this key's are kept yet: only games between two keys are, not those against the AI or a guest";

/// A command's answer: its output, and a note for standard error.
#[derive(Debug)]
pub(super) struct Answer {
    /// What the command prints.
    pub text: String,
    /// A line beside the output, for the person reading.
    pub note: Option<String>,
    /// Given again as it was kept: nothing it shows changed since.
    pub cached: bool,
}

/// Who asks: from where, with which key (its fingerprint) and, when the
/// key has played here, its player.
pub(super) struct Asker<'a> {
    pub address: IpAddr,
    pub key: Option<&'a str>,
    pub account: Option<&'a Account>,
}

/// What a command answers: its output, or why it cannot. A client that
/// asks too often is told to wait; an answer kept is given again while what
/// it shows has not changed; the database is read by the store's thread,
/// in its reading lane.
pub(super) async fn run(
    command: &str,
    asker: Asker<'_>,
    store: &Store,
    reads: &Reads,
) -> Result<Answer, String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let json = match words.get(1..) {
        Some([]) => false,
        Some(["--json"]) => true,
        _ => return Err(format!("{} takes no arguments but --json", words[0])),
    };
    if let Err(wait) = reads.admit(asker.address, asker.key, Instant::now()) {
        return Err(format!(
            "too many requests from your address or key ({READ_BURST} at once, then one every {}); try again in {}",
            humantime::format_duration(READ_EVERY),
            humantime::format_duration(Duration::from_secs(wait.as_secs_f64().ceil() as u64))
        ));
    }
    let (command, player) = match words[0] {
        "leaderboard" => ("leaderboard", None),
        "history" if asker.key.is_none() => {
            return Err(
                "history is a key's: connect with a key (ssh -i KEY) to see yours".to_string(),
            );
        }
        // A key that has not played here has no games, and takes no name.
        "history" => match asker.account {
            Some(account) => ("history", Some(account)),
            None => {
                let text = if json {
                    history_json(None, &[], &[])
                } else {
                    String::new()
                };
                let note = (!json).then(|| NO_HISTORY.to_string());
                return Ok(Answer {
                    text,
                    note,
                    cached: false,
                });
            }
        },
        other => return Err(format!("no command {other}")),
    };
    let asked = Asked {
        command,
        json,
        player: player.map(|account| account.id),
    };
    let version = reads.version(&asked);
    if let Some(kept) = reads.cached(&asked, version) {
        let (text, note) = (*kept).clone();
        return Ok(Answer {
            text,
            note,
            cached: true,
        });
    }
    let (text, note) = read(json, player, store).await?;
    reads.keep(asked, version, Arc::new((text.clone(), note.clone())));
    Ok(Answer {
        text,
        note,
        cached: false,
    })
}

/// Reads the leaderboard (`player` none) or the player's history, and
/// writes it as text or JSON, with a note for standard error.
async fn read(
    json: bool,
    player: Option<&Account>,
    store: &Store,
) -> Result<(String, Option<String>), String> {
    let failed =
        |error: rusqlite::Error| format!("the server could not read its database: {error}");
    let closed = || "the server is going down".to_string();
    let Some(account) = player else {
        let boards = store
            .ask(Lane::Reading, |db| {
                let mut boards = Vec::new();
                for kind in db.rated_kinds()? {
                    boards.push((kind, db.leaderboard(kind, LEADERS)?));
                }
                Ok(boards)
            })
            .await
            .ok_or_else(closed)?
            .map_err(failed)?;
        let text = if json {
            leaderboard_json(&boards)
        } else {
            leaderboard_text(&boards)
        };
        return Ok((text, None));
    };
    let id = account.id;
    let (ratings, games) = store
        .ask(Lane::Reading, move |db| {
            Ok((db.ratings_of(id)?, db.history(id, HISTORY)?))
        })
        .await
        .ok_or_else(closed)?
        .map_err(failed)?;
    Ok(if json {
        (history_json(Some(account), &ratings, &games), None)
    } else {
        // The output stays a records file (an empty one); the note, on
        // standard error, says why it is empty.
        let note = games.is_empty().then(|| NO_HISTORY.to_string());
        (history_text(&games), note)
    })
}

fn rating_json(rating: &Rating) -> json::Rating {
    json::Rating {
        rating: rating.glicko.rating,
        deviation: rating.glicko.deviation,
        volatility: rating.glicko.volatility,
        provisional: rating.provisional(),
        games: rating.games,
    }
}

fn leaderboard_json(boards: &[(Kind, Vec<(String, Rating)>)]) -> String {
    let boards = boards
        .iter()
        .map(|(kind, players)| json::RatedBoard {
            size: kind.size,
            k: kind.k,
            players: players
                .iter()
                .enumerate()
                .map(|(i, (name, rating))| json::Leader {
                    rank: i + 1,
                    name: name.clone(),
                    rating: rating_json(rating),
                })
                .collect(),
        })
        .collect();
    format!("{}\n", json::line(&json::Leaderboard { boards }))
}

fn leaderboard_text(boards: &[(Kind, Vec<(String, Rating)>)]) -> String {
    if boards.is_empty() {
        return "No rated games yet.\n".to_string();
    }
    let mut out =
        String::from("Ratings are Glicko-2; ? marks a provisional one (few games yet).\n");
    for (kind, players) in boards {
        out.push_str(&format!("\n{kind}\n"));
        for (i, (name, rating)) in players.iter().enumerate() {
            let games = tictactoe_game::text::count(u64::from(rating.games), "game", "games");
            out.push_str(&format!(
                "{:>3}. {name:<16} {:>6}  {games}\n",
                i + 1,
                rating.to_string()
            ));
        }
    }
    out
}

/// A game's record in the notation, with the server's tags: the result the
/// board reached (`*` when time, a resignation or a forfeit ended it), and
/// how it really ended in `Outcome` and `Termination`.
fn record(game: &StoredGame) -> Option<Record> {
    let start = Board::empty(game.kind.size, game.kind.k).ok()?;
    let geometry = start.geometry();
    let moves = game
        .moves
        .iter()
        .map(|m| geometry.parse_square(&m.square).ok())
        .collect::<Option<Vec<_>>>()?;
    let date = game.started.get(..10).unwrap_or(&game.started).to_string();
    let mut record = Record::new(start, moves)
        .ok()?
        .with_players(&game.x.name, &game.o.name)
        .with_date(date)
        .with_tag("Site", format!("tictactoe serve, game {}", game.id))
        .with_tag("Rated", if game.rated { "yes" } else { "no" });
    if let Some(control) = game.control {
        record = record.with_tag("TimeControl", control.to_string());
    }
    if let Some(finish) = game.finish {
        record = record
            .with_tag("Outcome", finish.result_word())
            .with_tag("Termination", finish.termination.word());
    }
    if let Some([(x_before, x_after), (o_before, o_after)]) = game.ratings {
        record = record
            .with_tag("XRating", format!("{x_before:.0} -> {x_after:.0}"))
            .with_tag("ORating", format!("{o_before:.0} -> {o_after:.0}"));
    }
    Some(record)
}

/// Oldest first, and nothing but records: the output is a records file as it is.
fn history_text(games: &[StoredGame]) -> String {
    let records: Vec<Record> = games.iter().rev().filter_map(record).collect();
    tictactoe_game::record::notation::write_all(&records)
}

fn history_json(
    account: Option<&Account>,
    ratings: &[(Kind, Rating)],
    games: &[StoredGame],
) -> String {
    let ratings = ratings
        .iter()
        .map(|(kind, rating)| json::ShapeRating {
            size: kind.size,
            k: kind.k,
            rating: rating_json(rating),
        })
        .collect();
    let games = games
        .iter()
        .map(|game| json::HistoryGame {
            id: game.id,
            size: game.kind.size,
            k: game.kind.k,
            rated: game.rated,
            clock: game.control.map(|c| c.to_string()),
            x: game.x.name.clone(),
            o: game.o.name.clone(),
            you: if account.is_some_and(|a| game.x.id == a.id) {
                Player::X
            } else {
                Player::O
            },
            started: game.started.clone(),
            result: game.finish.and_then(|f| f.verdict),
            ending: game.finish.map(|f| f.termination.word()),
            aborted: game
                .finish
                .is_some_and(|f| f.termination == Termination::Aborted),
            moves: game.moves.iter().map(|m| m.square.clone()).collect(),
            record: record(game).map(|r| tictactoe_game::record::write(&r)),
        })
        .collect();
    let history = json::History {
        player: account.map(|a| a.name.clone()),
        ratings,
        games,
    };
    format!("{}\n", json::line(&history))
}
