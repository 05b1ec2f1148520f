//! The documentation and the house: the docs' examples run, their flag
//! tables against the command line, the files they name, and the crate
//! graph against the design.

#[path = "../support/mod.rs"]
mod support;

mod architecture;
mod examples;
mod paths;
mod readme_flags;
