//! Max or min: the part a side plays in minimax.
//!
//! Minimax scores every position for one side, the maximizer: the side to
//! move in the position searched from. Where the maximizer is to move the
//! position takes the highest value of its moves, elsewhere the lowest.
//! Every view of the search (the trace, the tree, the walkthrough) asks
//! [`Role::of`]; the words for it are the caller's.

use super::player::Player;

/// The part of the side to move in minimax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// The side scores are counted for: takes the highest value.
    Max,
    /// The other side: takes the lowest value.
    Min,
}

impl Role {
    /// The role of `mover` in a search whose maximizer is `maximizer`.
    ///
    /// ```
    /// use tictactoe_engine::{Player, Role};
    ///
    /// assert_eq!(Role::of(Player::O, Player::X), Role::Min);
    /// assert_eq!(Role::of(Player::O, Player::O), Role::Max);
    /// ```
    pub const fn of(mover: Player, maximizer: Player) -> Role {
        match (mover, maximizer) {
            (Player::X, Player::X) | (Player::O, Player::O) => Role::Max,
            _ => Role::Min,
        }
    }

    /// The role one ply further down.
    ///
    /// ```
    /// use tictactoe_engine::Role;
    ///
    /// assert_eq!(Role::Max.other(), Role::Min);
    /// ```
    pub const fn other(self) -> Role {
        match self {
            Role::Max => Role::Min,
            Role::Min => Role::Max,
        }
    }

    /// True for [`Role::Max`].
    pub const fn is_max(self) -> bool {
        matches!(self, Role::Max)
    }

    /// True when `score` is better for this role than `than`.
    ///
    /// ```
    /// use tictactoe_engine::Role;
    ///
    /// assert!(Role::Max.prefers(9, -8));
    /// assert!(Role::Min.prefers(-8, 9));
    /// assert!(!Role::Min.prefers(0, 0));
    /// ```
    pub const fn prefers(self, score: i32, than: i32) -> bool {
        match self {
            Role::Max => score > than,
            Role::Min => score < than,
        }
    }

    /// The value this role takes of `scores`: the highest or the lowest.
    ///
    /// ```
    /// use tictactoe_engine::Role;
    ///
    /// assert_eq!(Role::Max.pick([-8, 9, -8]), Some(9));
    /// assert_eq!(Role::Min.pick([7, -8]), Some(-8));
    /// assert_eq!(Role::Min.pick([]), None);
    /// ```
    pub fn pick(self, scores: impl IntoIterator<Item = i32>) -> Option<i32> {
        let scores = scores.into_iter();
        match self {
            Role::Max => scores.max(),
            Role::Min => scores.min(),
        }
    }
}
