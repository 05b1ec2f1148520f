//! The documentation and the house: the docs' examples run, their flag
//! tables against the command line, and the crate graph against the design.

#[path = "../support/mod.rs"]
mod support;

mod architecture;
mod examples;
mod readme_flags;
