//! The engine and the prover: the rules, the scores, the articles' minimax, the
//! search and the proofs, through the library and through the commands that
//! show them (`analyze`, `solve`, `verify`).

#[path = "../support/mod.rs"]
mod support;

mod articles;
mod big_boards;
mod bounds;
mod engine_exhaustive;
mod learn;
mod levels;
mod one_best;
mod one_truth;
mod properties;
mod proven;
mod rules;
mod seed_port;
mod solve;
