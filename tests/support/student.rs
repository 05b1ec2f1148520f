//! The compiled student: `examples/student.rs`, GeeksforGeeks' minimax
//! ported to Rust, built with rustc. Shared by the grading tests
//! (`tests/grade/`, through `support`) and the grading benchmark
//! (`benches/grade.rs`, which includes this file by its path).

use std::path::Path;
use std::process::Command;

/// Builds `examples/student.rs` at `built`, optimised, with the rustc
/// Cargo uses (`RUSTC`) or the one on the path.
pub fn build_student(built: &Path) {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/student.rs");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let status = Command::new(rustc)
        .args(["--edition", "2024", "-O", "-o"])
        .arg(built)
        .arg(&source)
        .status()
        .expect("rustc runs");
    assert!(status.success(), "the student builds");
}
