//! How long grading a correct program takes: all 4,520 unfinished positions,
//! asked of a compiled student (`examples/student.rs`, built here with
//! `rustc -O`) and of a Python one (`examples/students/gfg.py`, GeeksforGeeks'
//! Python with the depth, run with `python3`), each a plain minimax that
//! searches every position from scratch.
//!
//! `cargo bench --bench grade`. The grader runs in process (core's
//! `grade::grade`, the program as a child process); each sample grades every
//! position once, and the bench prints the median and the range of the
//! samples' wall times with the student's CPU (its user and system time,
//! as the kernel counts reaped children's).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tictactoe_grade::child::Program;
use tictactoe_grade::{Options, all_positions, grade};

#[path = "../tests/support/student.rs"]
mod student;

use student::build_student;

/// Samples of the compiled student, and of the Python one (a few seconds each).
const SAMPLES: [usize; 2] = [7, 3];

/// The compiled student, built once.
fn compiled() -> PathBuf {
    let built = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-student");
    build_student(&built);
    built
}

/// CPU time of the children reaped so far, user and system: fields 16 and
/// 17 of `/proc/self/stat`, in clock ticks.
fn children_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("Linux's /proc");
    let (_, after_name) = stat.rsplit_once(')').expect("a command in parentheses");
    // After the name come the state (field 3) and the fields from 4 on.
    let fields: Vec<u64> = after_name
        .split_whitespace()
        .skip(1)
        .map(|field| field.parse().unwrap_or(0))
        .collect();
    let ticks = fields[16 - 4] + fields[17 - 4];
    Duration::from_secs_f64(ticks as f64 / rustix::param::clock_ticks_per_second() as f64)
}

/// Grades every position `samples` times; the wall times and the
/// student's CPU, per sample.
fn measure(program: &Program, samples: usize) -> (Vec<Duration>, Vec<Duration>) {
    let positions = all_positions();
    let stop = AtomicBool::new(false);
    let options = Options::default();
    let (mut walls, mut cpus) = (Vec::new(), Vec::new());
    for _ in 0..samples {
        let cpu = children_cpu();
        let started = Instant::now();
        let summary = grade(program, &positions, &options, &stop, &mut |_| {});
        walls.push(started.elapsed());
        cpus.push(children_cpu() - cpu);
        assert!(summary.all_right(), "the student is right everywhere");
    }
    (walls, cpus)
}

fn median(mut times: Vec<Duration>) -> (Duration, Duration, Duration) {
    times.sort();
    (times[0], times[times.len() / 2], times[times.len() - 1])
}

fn report(name: &str, samples: usize, (walls, cpus): (Vec<Duration>, Vec<Duration>)) {
    let (low, mid, high) = median(walls);
    let (_, cpu, _) = median(cpus);
    println!(
        "{name}: {:.2} s median of {samples} (range {:.2}-{:.2} s); the student's CPU {:.2} s",
        mid.as_secs_f64(),
        low.as_secs_f64(),
        high.as_secs_f64(),
        cpu.as_secs_f64()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test` runs benches only to check they start.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    println!("grading a correct program on all 4,520 positions, simplest first:");
    let student = Program {
        command: compiled().into_os_string(),
        args: Vec::new(),
    };
    report(
        "compiled student (examples/student.rs)",
        SAMPLES[0],
        measure(&student, SAMPLES[0]),
    );
    let python = Program {
        command: "python3".into(),
        args: vec![
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("examples/students/gfg.py")
                .into_os_string(),
        ],
    };
    report(
        "Python student (examples/students/gfg.py)",
        SAMPLES[1],
        measure(&python, SAMPLES[1]),
    );
}
