//! Serde for the data types (the `serde` feature): each is written as the
//! name the engine prints and reads back, so JSON and text say one thing.
//!
//! | type | as |
//! |---|---|
//! | [`Square`] | its name, `"b2"` |
//! | [`Player`] | `"x"` or `"o"` |
//! | [`Board`] | its notation, `"xo./.x./..o"` (read back with the default k for its size) |
//! | [`Level`], [`Scoring`], [`Technique`] | their names, `"perfect"`, `"depth"`, `"dead-cells"` |
//! | [`Outcome`] | `"x-wins"`, `"o-wins"` or `"draw"` |
//! | [`Standing`] | `"win"`, `"loss"` or `"draw"` |
//! | [`Goal`] | `"win"` or `"hold"` |
//! | [`Unproven`] | `"share"`, `"time"` or `"interrupted"` |
//! | [`Bound`] | `"exact"`, `"upper"` or `"lower"` |
//! | [`Status`] | `"x-wins"`, `"o-wins"`, `"draw"` or `"in-progress"` (written only: whose move it is lies in the board) |

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::ai::Level;
use crate::board::{Board, Status};
use crate::outcome::{Outcome, Standing};
use crate::player::Player;
use crate::score::Scoring;
use crate::solve::{Goal, Technique, Unproven};
use crate::square::Square;
use crate::teach::reference::Bound;

/// Reads a string through `FromStr`, without copying it first.
struct Parsed<T>(PhantomData<T>);

impl<T> Visitor<'_> for Parsed<T>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        text.parse().map_err(E::custom)
    }
}

/// Serialize by `Display`, Deserialize by `FromStr`.
macro_rules! by_text {
    ($($ty:ty),+) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                deserializer.deserialize_str(Parsed(PhantomData))
            }
        }
    )+};
}

by_text!(Board, Level, Scoring, Technique, Outcome, Standing);

// A square as its name, without formatting it first: every answer names
// one per move.
impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.name_in(&mut [0; 4]) {
            Some(name) => serializer.serialize_str(name),
            None => serializer.collect_str(self),
        }
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        deserializer.deserialize_str(Parsed(PhantomData))
    }
}

/// Serialize by a name, Deserialize by finding it among `$all`.
macro_rules! by_name {
    ($ty:ty, $kind:literal, $name:expr, [$($all:expr),+]) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let name: fn(&$ty) -> &'static str = $name;
                serializer.serialize_str(name(self))
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                struct Named;

                impl Visitor<'_> for Named {
                    type Value = $ty;

                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($kind)
                    }

                    fn visit_str<E: de::Error>(self, text: &str) -> Result<$ty, E> {
                        let name: fn(&$ty) -> &'static str = $name;
                        let all = [$($all),+];
                        all.into_iter().find(|value| name(value) == text).ok_or_else(|| {
                            let names: Vec<&str> = all.iter().map(name).collect();
                            E::custom(format!(
                                "{text:?} is not {}: it is one of {}",
                                $kind,
                                names.join(", ")
                            ))
                        })
                    }
                }

                deserializer.deserialize_str(Named)
            }
        }
    };
}

by_name!(
    Player,
    "a player",
    |player| match player {
        Player::X => "x",
        Player::O => "o",
    },
    [Player::X, Player::O]
);

by_name!(Goal, "a goal", |goal| goal.name(), [Goal::Win, Goal::Hold]);

by_name!(
    Unproven,
    "a reason a move is unproven",
    |why| why.name(),
    [Unproven::Share, Unproven::Time, Unproven::Interrupted]
);

by_name!(
    Bound,
    "a bound",
    |bound| bound.name(),
    [Bound::Exact, Bound::Upper, Bound::Lower]
);

/// A position's status: its result once the game is over, `"in-progress"` before.
impl Serialize for Status {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.outcome().map_or("in-progress", Outcome::name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json<T: Serialize>(value: T) -> String {
        serde_json::to_string(&value).expect("serializes")
    }

    fn back<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, String> {
        serde_json::from_str(text).map_err(|error| error.to_string())
    }

    #[test]
    fn each_type_is_written_as_its_name_and_read_back() {
        let board: Board = "xo./.x./..o".parse().unwrap();
        assert_eq!(json(Square::new(1, 1)), r#""b2""#);
        assert_eq!(json(Player::O), r#""o""#);
        assert_eq!(json(board), r#""xo./.x./..o""#);
        assert_eq!(json(Level::Perfect), r#""perfect""#);
        assert_eq!(json(Scoring::Plain), r#""plain""#);
        assert_eq!(json(Technique::DeadCells), r#""dead-cells""#);
        assert_eq!(json(Outcome::Win(Player::X)), r#""x-wins""#);
        assert_eq!(json(Standing::Loss), r#""loss""#);
        assert_eq!(json(Goal::Hold), r#""hold""#);
        assert_eq!(json(Bound::Upper), r#""upper""#);
        assert_eq!(json(board.status()), r#""in-progress""#);
        assert_eq!(
            json("xxx/oo./...".parse::<Board>().unwrap().status()),
            r#""x-wins""#
        );

        assert_eq!(back(r#""b2""#), Ok(Square::new(1, 1)));
        assert_eq!(back(r#""o""#), Ok(Player::O));
        assert_eq!(back(r#""xo./.x./..o""#), Ok(board));
        assert_eq!(back(r#""hard""#), Ok(Level::Hard));
        assert_eq!(back(r#""depth""#), Ok(Scoring::Depth));
        assert_eq!(back(r#""pairing""#), Ok(Technique::Pairing));
        assert_eq!(back(r#""draw""#), Ok(Outcome::Draw));
        assert_eq!(back(r#""win""#), Ok(Standing::Win));
        assert_eq!(back(r#""win""#), Ok(Goal::Win));
    }

    #[test]
    fn what_is_not_a_name_is_named_in_the_error() {
        let error = back::<Square>(r#""j9""#).unwrap_err();
        assert!(error.starts_with("j9 is off the 8x8 board"), "{error}");
        let error = back::<Player>(r#""X""#).unwrap_err();
        assert!(
            error.starts_with(r#""X" is not a player: it is one of x, o"#),
            "{error}"
        );
        let error = back::<Outcome>(r#""maybe""#).unwrap_err();
        assert!(error.starts_with(r#""maybe" is not a result"#), "{error}");
        let error = back::<Board>(r#""xx./.../...""#).unwrap_err();
        assert!(error.starts_with("impossible position"), "{error}");
        assert!(back::<Level>("3").is_err());
    }
}
