//! The prover's integration tests, one binary (with the `serde` feature,
//! which the certificates need): the 8×8 boards, certificates as the
//! checker reads them, proofs split into jobs, and the prover's resources
//! (its table, threads, monitor).

#![cfg(feature = "serde")]

mod big_boards;
mod certificates;
mod jobs;
mod resources;
