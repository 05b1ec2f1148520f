//! The headless commands and the line-based front ends through the real
//! binary: output, JSON, records, statistics, files under a hostile user,
//! plain mode and the screen reader.

#[path = "../support/mod.rs"]
mod support;

mod cli;
mod escapes;
mod files;
mod json;
mod lab;
mod plain;
mod proofs;
mod quiz;
mod records;
mod seeds;
mod stats;
