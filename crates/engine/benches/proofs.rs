//! One proof per process, for whole-process time and memory.
//!
//! `cargo bench -p tictactoe-engine --bench proofs -- SIZE K [THREADS [MIB
//! [SECS]]]` proves the empty board of that shape with that many threads
//! (1 by default), a table of that many MiB (the engine's default if not
//! given) and a time limit, and prints one line: the value, the positions
//! the prover created, the wall time of the proof and how full the table
//! was. Run it under `/usr/bin/time -f '%e s %U user %M KiB'` for the
//! process's peak memory (the figures in docs/BENCHMARKS.md were taken so).
//! `-- --verify FILE` checks a certificate from a file instead, through
//! `check_reader`, and prints what it proved (run under `/usr/bin/time`
//! for the checker's memory); `--write FILE` writes the certificate of the
//! proof to FILE (with `--certificate`).
//!
//! With `--without-pairing` the prover works without pairing strategies,
//! the hardest way to prove 7x7 with five in a row; with `--certificate`
//! the strategies are read from the proof too, as `solve --certificate`
//! does; with `--progress` the monitor's figures go to standard error
//! every ten seconds.

use std::time::{Duration, Instant};

use tictactoe_engine::Board;
use tictactoe_engine::solve::{Bounds, Monitor, Technique, Techniques, solve_within};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path_after = |flag: &str| {
        args.iter()
            .position(|arg| arg == flag)
            .and_then(|at| args.get(at + 1))
            .cloned()
    };
    #[cfg(feature = "serde")]
    if let Some(path) = path_after("--verify") {
        verify(&path);
        return;
    }
    let write = path_after("--write");
    let without_pairing = args.iter().any(|arg| arg == "--without-pairing");
    let certify = args.iter().any(|arg| arg == "--certificate");
    if certify && cfg!(not(feature = "serde")) {
        eprintln!("--certificate needs the serde feature");
        std::process::exit(2);
    }
    let report = args.iter().any(|arg| arg == "--progress");
    let numbers: Vec<u64> = args.iter().filter_map(|arg| arg.parse().ok()).collect();
    let (size, k) = match numbers[..] {
        [size, k, ..] => (size as u8, k as u8),
        _ => {
            eprintln!("usage: proofs SIZE K [THREADS [MIB [SECS]]] [--without-pairing]");
            std::process::exit(2);
        }
    };
    let threads = numbers.get(2).map_or(1, |&n| n as usize);
    let memory = numbers.get(3).map(|&mib| (mib as usize) << 20);
    let deadline = numbers
        .get(4)
        .map(|&secs| Instant::now() + Duration::from_secs(secs));
    let techniques = if without_pairing {
        Techniques::all().without(Technique::Pairing)
    } else {
        Techniques::all()
    };
    let board = Board::empty(size, k).expect("a shape the engine plays");
    let monitor = Monitor::new();
    let bounds = Bounds {
        deadline,
        memory,
        threads,
        monitor: Some(monitor.clone()),
    };
    let started = Instant::now();
    if report {
        let monitor = monitor.clone();
        std::thread::spawn(move || {
            let mut last = (started, 0);
            loop {
                std::thread::sleep(Duration::from_secs(10));
                let progress = monitor.progress();
                let now = Instant::now();
                let rate = (progress.positions - last.1) as f64 / (now - last.0).as_secs_f64();
                last = (now, progress.positions);
                eprintln!(
                    "{:>6.0} s: {} positions ({rate:.0}/s), {:?} to win: pn {} dn {}, {} threads, table {} of {} ({} MiB), {} replaced",
                    started.elapsed().as_secs_f64(),
                    progress.positions,
                    progress.question,
                    progress.proof,
                    progress.disproof,
                    progress.threads,
                    progress.table.entries,
                    progress.table.capacity,
                    progress.table.bytes >> 20,
                    progress.table.replaced,
                );
            }
        });
    }
    let proof = solve_within(&board, techniques, bounds);
    let elapsed = started.elapsed().as_secs_f64();
    let progress = monitor.progress();
    let table = progress.table;
    let answer = match &proof {
        Ok(proof) => format!(
            "{} (settled early: {} by threats, {} by pairs, {} by the potential)",
            proof.value, proof.counts.threat_wins, proof.counts.pairings, proof.counts.potential
        ),
        Err(stop) => format!("stopped ({stop:?})"),
    };
    #[cfg(feature = "serde")]
    if certify && let Ok(mut proof) = proof {
        let started = Instant::now();
        let strategies = proof.strategies().expect("the strategies");
        let mut lines = 0;
        let mut file = write.as_ref().map(|path| {
            std::io::BufWriter::new(std::fs::File::create(path).expect("a file to write"))
        });
        for line in tictactoe_engine::solve::certificate::lines(&board, proof.value, &strategies) {
            lines += 1;
            if let Some(file) = &mut file {
                use std::io::Write;
                writeln!(file, "{line}").expect("written");
            }
        }
        println!(
            "certificate: {lines} lines in {:.3} s, {} positions in all",
            started.elapsed().as_secs_f64(),
            monitor.progress().positions
        );
    }
    println!(
        "{size}x{size} k={k}, {threads} thread(s): {answer} in {elapsed:.3} s, {} positions ({:.0}/s), table {} of {} entries ({} MiB of {}), {} replaced",
        progress.positions,
        progress.positions as f64 / elapsed,
        table.entries,
        table.capacity,
        table.bytes >> 20,
        table.budget >> 20,
        table.replaced,
    );
}

/// Checks the certificate in the file at `path` and says what it proved.
#[cfg(feature = "serde")]
fn verify(path: &str) {
    use tictactoe_engine::solve::certificate::check_reader;

    let started = Instant::now();
    let file = std::fs::File::open(path).expect("a certificate to read");
    match check_reader(std::io::BufReader::new(file)) {
        Ok(verified) => {
            println!(
                "verified in {:.3} s: {} ({}x{}, k={}): {}",
                started.elapsed().as_secs_f64(),
                verified.board,
                verified.board.size(),
                verified.board.size(),
                verified.board.k(),
                verified.claim
            );
            for replayed in verified.strategies {
                println!(
                    "  {} for {}: {} positions, {} nodes ({} pairs), {} unreachable, {} held at most",
                    replayed.goal.name(),
                    replayed.player,
                    replayed.positions,
                    replayed.nodes,
                    replayed.pair_nodes,
                    replayed.unreachable,
                    replayed.held
                );
            }
        }
        Err(error) => {
            println!("not verified: {error}");
            std::process::exit(1);
        }
    }
}
