//! A proof split into jobs, on disk: `solve --split DEPTH --jobs DIR`
//! writes the folder, `solve --job FILE` proves one job of it, and
//! `verify DIR` checks the whole (the engine's `solve::jobs`).
//!
//! The folder holds `manifest.json` (the split, written last), one file
//! per job, `job-0000.json` and on (four digits at least, more for more
//! jobs), and beside each job proven its certificate, `job-0000.proof.jsonl`.
//! Nothing else is written there, and nothing else is read.

use std::fs;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use tictactoe_engine::Board;
use tictactoe_engine::solve::Techniques;
use tictactoe_engine::solve::jobs::{self, Assembly, Job, JobFile, JobsError, Manifest};
use tictactoe_engine::{Outcome, Player};
use tictactoe_game::files::{self, Existing, Permissions, Problem};
use tictactoe_game::json;
use tictactoe_game::present::{claim_words, outcome_words};
use tictactoe_game::text::{count, thousands};

use super::verify::{MAX_CERTIFICATE_BYTES, said};
use super::{ExitStatus, ProofBounds, Streams};

/// The manifest's name in a split's folder.
pub const MANIFEST: &str = "manifest.json";

/// The largest job file read: 64 KiB (a job file takes a few hundred bytes).
const MAX_JOB_BYTES: u64 = 64 << 10;

/// The digits of job numbers in file names, for a split of `jobs` jobs:
/// four at least, so the names sort in order.
fn digits(jobs: usize) -> usize {
    jobs.saturating_sub(1).to_string().len().max(4)
}

/// The name of job `id`'s file, in a split of `jobs` jobs.
pub fn job_name(id: usize, jobs: usize) -> String {
    format!("job-{id:0width$}.json", width = digits(jobs))
}

/// The certificate of the job whose file is `job`: beside it, `.json`
/// replaced by `.proof.jsonl`.
pub fn certificate_of(job: &Path) -> PathBuf {
    let name = job
        .file_name()
        .map_or_else(|| "job".into(), |name| name.to_string_lossy().into_owned());
    let stem = name.strip_suffix(".json").unwrap_or(&name);
    job.with_file_name(format!("{stem}.proof.jsonl"))
}

/// A position in words: "the empty board" or its notation.
fn from_words(board: &Board) -> String {
    if board.move_count() == 0 {
        "the empty board".to_string()
    } else {
        board.to_string()
    }
}

/// Writes the split of `board` at `depth` to the folder `dir` (made if
/// missing; an existing one must be empty): the job files, then the
/// manifest.
pub fn write_split(
    board: &Board,
    depth: u32,
    dir: &Path,
    io: &mut Streams,
) -> io::Result<ExitStatus> {
    let shown = dir.display();
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => match fs::read_dir(dir) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return io.error_line(
                        &format!("{shown}: the folder is not empty: a split is written to a new or empty folder"),
                        ExitStatus::BadInput,
                    );
                }
            }
            Err(error) => {
                return io.error_line(
                    &format!("cannot read the folder {shown}: {error}"),
                    ExitStatus::Failure,
                );
            }
        },
        Ok(meta) => {
            return io.error_line(
                &format!(
                    "{shown}: {}, not a folder: a split is written to a new or empty folder",
                    if meta.is_file() {
                        "a file"
                    } else {
                        files::kind(meta.file_type())
                    }
                ),
                ExitStatus::BadInput,
            );
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            if let Err(error) = fs::create_dir(dir) {
                let status = if error.kind() == io::ErrorKind::NotFound {
                    ExitStatus::BadInput
                } else {
                    ExitStatus::Failure
                };
                return io.error_line(&format!("cannot make the folder {shown}: {error}"), status);
            }
        }
        Err(error) => {
            return io.error_line(
                &format!("cannot read the folder {shown}: {error}"),
                ExitStatus::Failure,
            );
        }
    }
    let split = jobs::split(board, depth);
    let total = split.jobs.len();
    for job in &split.jobs {
        let path = dir.join(job_name(job.id, total));
        let text = json::line(&split.job_file(job)) + "\n";
        if let Err(problem) = write_new(&path, text.as_bytes()) {
            return cannot_write(&path, &problem, io);
        }
    }
    let path = dir.join(MANIFEST);
    if let Err(problem) = write_new(&path, json::document(&split.manifest()).as_bytes()) {
        return cannot_write(&path, &problem, io);
    }
    let size = board.size();
    writeln!(
        io.out,
        "{size}x{size}, {} in a row, from {}: split {} deep into {} ({} open, two questions each) in {shown}",
        board.k(),
        from_words(board),
        count(u64::from(depth), "move", "moves"),
        count(total as u64, "job", "jobs"),
        count(total as u64 / 2, "position", "positions"),
    )?;
    if total > 0 {
        writeln!(
            io.out,
            "Prove each with `tictactoe solve --job {}` (and so on), then check the whole with `tictactoe verify {shown}`",
            dir.join(job_name(0, total)).display()
        )?;
    } else {
        writeln!(
            io.out,
            "Nothing is left to prove: check it with `tictactoe verify {shown}`"
        )?;
    }
    Ok(ExitStatus::Success)
}

/// Writes a new file whole.
fn write_new(path: &Path, bytes: &[u8]) -> Result<(), Problem> {
    files::write_whole(path, Existing::Refuse, Permissions::New(0o666), |out| {
        out.write_all(bytes)
    })
}

/// Says why `path` cannot be written: status 2 for what the user's input
/// put there, 1 when the system refused.
fn cannot_write(path: &Path, problem: &Problem, io: &mut Streams) -> io::Result<ExitStatus> {
    let status = match problem {
        Problem::Exists | Problem::NotAFile(_) => ExitStatus::BadInput,
        _ => ExitStatus::Failure,
    };
    io.error_line(
        &format!("cannot write {}: {problem}", path.display()),
        status,
    )
}

/// Reads a file of the split that this program wrote: a record, or the one
/// line that says why not, with its status.
fn read_record<T: json::DeserializeOwned>(
    path: &Path,
    cap: u64,
    what: &str,
) -> Result<T, (String, ExitStatus)> {
    let shown = path.display();
    let bytes = files::read_whole(path, cap).map_err(|problem| {
        let status = if problem.is_bad_input() {
            ExitStatus::BadInput
        } else {
            ExitStatus::Failure
        };
        let why = match &problem {
            Problem::NotAFile(kind) => format!("{kind}, not a regular file: {what}"),
            Problem::TooBig { size, cap } => format!(
                "{} bytes is too big for {what} (at most {})",
                thousands(*size),
                thousands(*cap)
            ),
            other => format!("cannot read it: {other}"),
        };
        (format!("{shown}: {why}"), status)
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        (
            format!("{shown}: not UTF-8 text: not {what}"),
            ExitStatus::BadInput,
        )
    })?;
    json::read(&text).map_err(|error| {
        (
            format!("{shown}: not {what}: {error}"),
            ExitStatus::BadInput,
        )
    })
}

/// Proves the job in the file `path` and writes its certificate beside it;
/// a job whose certificate is there already is skipped.
pub fn prove_job(
    path: &Path,
    techniques: Techniques,
    bounds: &ProofBounds,
    io: &mut Streams,
) -> io::Result<ExitStatus> {
    let file: JobFile = match read_record(
        path,
        MAX_JOB_BYTES,
        "a job file that `tictactoe solve --split` wrote",
    ) {
        Ok(file) => file,
        Err((line, status)) => return io.error_line(&line, status),
    };
    let job = match file.job() {
        Ok(job) => job,
        Err(error) => {
            return io.error_line(
                &format!("{}: {error}", path.display()),
                ExitStatus::BadInput,
            );
        }
    };
    let target = certificate_of(path);
    let shown = target.display();
    match fs::symlink_metadata(&target) {
        Ok(meta) if meta.is_file() => {
            writeln!(io.out, "job {}: already proven ({shown}): skipped", job.id)?;
            return Ok(ExitStatus::Success);
        }
        Ok(meta) => {
            return io.error_line(
                &format!(
                    "{shown}: {}, not a file: a job's certificate is written to a regular file",
                    files::kind(meta.file_type())
                ),
                ExitStatus::BadInput,
            );
        }
        Err(_) => {}
    }
    // What a killed run of this job left behind.
    files::remove_stale_temps(&target);
    let watch = bounds.watch(false);
    let proven = jobs::prove(&job, techniques, watch.bounds());
    let progress = watch.finish();
    let answer = match proven {
        Ok(answer) => answer,
        Err(stop) => {
            let line = format!(
                "job {}: {} ({} positions; does {} win: proof number {}, disproof number {})",
                job.id,
                bounds.stopped(stop),
                thousands(progress.positions),
                job.attacker,
                progress.proof,
                progress.disproof,
            );
            return io.error_line(&line, bounds.status(stop));
        }
    };
    let written = files::write_whole(&target, Existing::Refuse, Permissions::New(0o666), |out| {
        let (mut lines, mut bytes) = (0u64, 0u64);
        for line in answer.certificate() {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
            lines += 1;
            bytes += line.len() as u64 + 1;
        }
        Ok((lines, bytes))
    });
    let (lines, bytes) = match written {
        Ok(written) => written,
        // Another process proved it meanwhile.
        Err(Problem::Exists) => {
            writeln!(io.out, "job {}: already proven ({shown}): skipped", job.id)?;
            return Ok(ExitStatus::Success);
        }
        Err(problem) => return cannot_write(&target, &problem, io),
    };
    let size = job.board.size();
    writeln!(
        io.out,
        "job {} ({size}x{size}, {} in a row, does {} win from {}?): {}",
        job.id,
        job.board.k(),
        job.attacker,
        job.board,
        claim_words(answer.claim())
    )?;
    writeln!(
        io.out,
        "Proven in {:.3} s, {} positions; certificate {shown} ({} lines, {} bytes)",
        answer.elapsed.as_secs_f64(),
        thousands(answer.counts.positions),
        thousands(lines),
        thousands(bytes)
    )?;
    Ok(ExitStatus::Success)
}

/// Checks a split's folder: its manifest, each job file there against it,
/// and every certificate there; says what the whole proves.
pub fn verify_dir(dir: &Path, io: &mut Streams) -> io::Result<ExitStatus> {
    let shown = dir.display();
    let manifest: Manifest = match read_record(
        &dir.join(MANIFEST),
        MAX_CERTIFICATE_BYTES,
        "a split's manifest that `tictactoe solve --split` wrote",
    ) {
        Ok(manifest) => manifest,
        Err((line, status)) => return io.error_line(&line, status),
    };
    let mut assembly = match Assembly::new(&manifest) {
        Ok(assembly) => assembly,
        Err(error) => {
            return io.error_line(
                &format!("{}: not verified: {error}", dir.join(MANIFEST).display()),
                ExitStatus::BadInput,
            );
        }
    };
    let jobs: Vec<Job> = assembly.jobs().copied().collect();
    let total = jobs.len();
    for job in &jobs {
        let path = dir.join(job_name(job.id, total));
        // A job file is the manifest's job, or it is refused.
        match fs::symlink_metadata(&path) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            _ => {
                let file: JobFile = match read_record(
                    &path,
                    MAX_JOB_BYTES,
                    "a job file that `tictactoe solve --split` wrote",
                ) {
                    Ok(file) => file,
                    Err((line, status)) => return io.error_line(&line, status),
                };
                let entry = &manifest.jobs[job.id];
                if file.id != entry.id
                    || file.board != entry.board
                    || file.attacker != entry.attacker
                    || file.size != manifest.size
                    || file.k != manifest.k
                    || file.job().is_err()
                {
                    return io.error_line(
                        &format!(
                            "{}: not verified: the job file is not the manifest's job {} (does {} win from {}?)",
                            path.display(),
                            job.id,
                            job.attacker,
                            entry.board
                        ),
                        ExitStatus::BadInput,
                    );
                }
            }
        }
        let target = certificate_of(&path);
        if matches!(fs::symlink_metadata(&target), Err(error) if error.kind() == io::ErrorKind::NotFound)
        {
            continue;
        }
        let name = target.display();
        let file = match files::open_capped(&target, MAX_CERTIFICATE_BYTES) {
            Ok(file) => file,
            Err(problem) => {
                let status = if problem.is_bad_input() {
                    ExitStatus::BadInput
                } else {
                    ExitStatus::Failure
                };
                return io.error_line(&format!("{name}: {}", said(&problem)), status);
            }
        };
        // The checker caps its lines itself.
        if let Err(error) = assembly.add(job.id, BufReader::new(file.take(MAX_CERTIFICATE_BYTES))) {
            let status = match &error {
                JobsError::Certificate { error, .. } if is_unreadable(error) => ExitStatus::Failure,
                _ => ExitStatus::BadInput,
            };
            return io.error_line(&format!("{name}: not verified: {error}"), status);
        }
    }
    let numbers = [Player::X, Player::O].map(|attacker| assembly.numbers(attacker));
    let checked = match assembly.finish() {
        Ok(whole) => whole,
        Err(error @ JobsError::Missing { .. }) => {
            let line = format!(
                "{shown}: not verified: {error}; still open: {}",
                open_words(&numbers)
            );
            return io.error_line(&line, ExitStatus::BadInput);
        }
        Err(error) => {
            return io.error_line(
                &format!("{shown}: not verified: {error}"),
                ExitStatus::BadInput,
            );
        }
    };
    let board = checked.board;
    let size = board.size();
    writeln!(
        io.out,
        "verified: {board} ({size}x{size}, {} in a row): {}",
        board.k(),
        outcome_words(checked.value)
    )?;
    writeln!(
        io.out,
        "  a split {} deep: {} checked, {} not needed",
        count(u64::from(manifest.depth), "move", "moves"),
        count(
            checked.checked as u64,
            "job's certificate",
            "jobs' certificates"
        ),
        count(checked.unneeded.len() as u64, "job", "jobs"),
    )?;
    if let Outcome::Draw = checked.value {
        writeln!(
            io.out,
            "  neither side wins: X's and O's questions are both answered no"
        )?;
    }
    Ok(ExitStatus::Success)
}

/// The root's numbers of both questions, in words.
fn open_words(numbers: &[(u64, u64); 2]) -> String {
    let one = |(proof, disproof): (u64, u64)| {
        let n = |n: u64| {
            if n == u64::MAX {
                "infinite".to_string()
            } else {
                thousands(n)
            }
        };
        format!("proof number {}, disproof number {}", n(proof), n(disproof))
    };
    format!(
        "does X win: {}; does O win: {} (a job without a certificate counts 1)",
        one(numbers[0]),
        one(numbers[1])
    )
}

/// True when a certificate could not be read to its end (the system's
/// fault, not the certificate's).
fn is_unreadable(error: &tictactoe_engine::solve::certificate::ReadError) -> bool {
    matches!(
        error,
        tictactoe_engine::solve::certificate::ReadError::Unreadable { .. }
    )
}
