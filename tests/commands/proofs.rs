//! Proofs from the command line: a proof split into jobs that separate
//! processes prove (run by `xargs -P 2`, as docs/PROOFS.md shows) and
//! `verify DIR` puts back together, refusing a missing, tampered or
//! mismatched job; the table's size, threads and progress; 8x8 boards.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::support;

use support::{binary, output_within, run};

/// The binary with `args`, run to its end.
fn tictactoe(args: &[&str]) -> Output {
    run(binary().args(args), &args.join(" "))
}

fn str(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `out` succeeded; its standard output.
fn success(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{:?}: {}{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// `out` was refused with status 2 and one line that says `says`.
fn refused(out: &Output, says: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(says), "{err:?} should say {says:?}");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
}

/// X on c3 and O on d4 of 6x6 with four in a row: a split one move deep
/// gives 38 jobs that prove in seconds together.
const SIX: &str = "....../....../..x.../...o../....../......";

/// Splits [`SIX`] one move deep into `dir`.
fn split_six(dir: &Path) -> String {
    success(&tictactoe(&[
        "solve",
        "--size",
        "6",
        "--k",
        "4",
        "--board",
        SIX,
        "--split",
        "1",
        "--jobs",
        str(dir),
    ]))
}

/// Proves every job in `dir` with `xargs -P 2`, a process per job.
fn prove_all_with_xargs(dir: &Path) {
    let out = run(
        Command::new("sh")
            .arg("-c")
            .arg(r#"ls "$1"/job-*.json | xargs -P 2 -n 1 "$0" solve --threads 1 --job"#)
            .arg(env!("CARGO_BIN_EXE_tictactoe"))
            .arg(dir),
        "xargs",
    );
    success(&out);
}

/// The job files of `dir`, in order.
fn job_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("the folder")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("job-") && name.ends_with(".json"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_split_of_6x6_proven_by_separate_processes_is_verified_as_a_whole() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = dir.path().join("jobs");
    let said = split_six(&jobs);
    assert!(said.contains("into 38 jobs"), "{said}");
    let files = job_files(&jobs);
    assert_eq!(files.len(), 38);
    assert_eq!(files[0], "job-0000.json");
    // The manifest lists every job; each job file holds its own.
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(jobs.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["format"], "tictactoe-jobs");
    assert_eq!(manifest["jobs"].as_array().unwrap().len(), 38);
    let job: Value =
        serde_json::from_str(&fs::read_to_string(jobs.join("job-0001.json")).unwrap()).unwrap();
    assert_eq!(job["id"], 1);
    assert_eq!(job["attacker"], "o");
    assert_eq!(job["board"], manifest["jobs"][1]["board"]);

    // Nothing proven yet: refused, with how far the whole is from an answer.
    let out = tictactoe(&["verify", str(&jobs)]);
    refused(&out, "not proven: job 0 is needed and has no certificate");
    assert!(text(&out.stderr).contains("does X win: proof number 1"));

    prove_all_with_xargs(&jobs);
    let certificates = fs::read_dir(&jobs)
        .unwrap()
        .filter(|entry| {
            let name = entry.as_ref().unwrap().file_name();
            name.to_string_lossy().ends_with(".proof.jsonl")
        })
        .count();
    assert_eq!(certificates, 38, "a certificate beside every job");
    let said = success(&tictactoe(&["verify", str(&jobs)]));
    assert!(
        said.starts_with(&format!("verified: {SIX} (6x6, 4 in a row): X wins\n")),
        "{said}"
    );
    assert!(
        said.contains("38 jobs' certificates checked, 0 jobs not needed"),
        "{said}"
    );
    // The whole agrees with the proof in one piece.
    let whole = success(&tictactoe(&[
        "solve", "--size", "6", "--k", "4", "--board", SIX,
    ]));
    assert!(whole.contains(": X wins\n"), "{whole}");

    // A job proven already is skipped, its certificate left as it was.
    let before = fs::read(jobs.join("job-0005.proof.jsonl")).unwrap();
    let again = success(&tictactoe(&[
        "solve",
        "--job",
        str(&jobs.join("job-0005.json")),
    ]));
    assert_eq!(
        again,
        format!(
            "job 5: already proven ({}): skipped\n",
            str(&jobs.join("job-0005.proof.jsonl"))
        )
    );
    assert_eq!(fs::read(jobs.join("job-0005.proof.jsonl")).unwrap(), before);

    a_missing_tampered_or_mismatched_job_is_refused(dir.path(), &jobs);
}

/// A missing, tampered or mismatched job of the proven split in `jobs`
/// (in `dir`) is refused, and so is what is not a split's.
fn a_missing_tampered_or_mismatched_job_is_refused(dir: &Path, jobs: &Path) {
    let certificate = |id: usize| jobs.join(format!("job-{id:04}.proof.jsonl"));
    let verify = || tictactoe(&["verify", str(jobs)]);
    success(&verify());

    // Missing: X's questions. X wins if it wins after one of its moves, so
    // any one does; with none of them, X's win is not proven, and neither is
    // O's hold (O's questions only say O does not win).
    let kept: Vec<Vec<u8>> = (0..38)
        .map(|id| fs::read(certificate(id)).unwrap())
        .collect();
    for id in (0..38).step_by(2) {
        fs::remove_file(certificate(id)).unwrap();
    }
    refused(
        &verify(),
        "not proven: job 0 is needed and has no certificate (19 jobs have none)",
    );
    for id in (2..38).step_by(2) {
        fs::write(certificate(id), &kept[id]).unwrap();
    }
    // One is enough: the others are not needed.
    let said = success(&verify());
    assert!(
        said.contains("37 jobs' certificates checked, 1 job not needed"),
        "{said}"
    );
    // Mismatched: another job's certificate in its place.
    fs::copy(certificate(2), certificate(0)).unwrap();
    refused(&verify(), "job 0: the certificate is about");
    // Tampered: a move of the strategy changed.
    let tampered =
        String::from_utf8(kept[0].clone())
            .unwrap()
            .replacen(r#""move": ""#, r#""move": "a1"#, 1);
    fs::write(certificate(0), tampered).unwrap();
    refused(&verify(), "job-0000.proof.jsonl: not verified: job 0: ");
    fs::write(certificate(0), &kept[0]).unwrap();
    success(&verify());

    // A job file that is not the manifest's job.
    let job = jobs.join("job-0003.json");
    let original = fs::read_to_string(&job).unwrap();
    fs::write(
        &job,
        original.replace(r#""attacker":"o""#, r#""attacker":"x""#),
    )
    .unwrap();
    refused(&verify(), "the job file is not the manifest's job 3");
    fs::write(&job, &original).unwrap();

    // A manifest that is not one, or whose jobs are not its tree's.
    let manifest = jobs.join("manifest.json");
    let good = fs::read_to_string(&manifest).unwrap();
    fs::write(&manifest, "{\"format\": \"something else\"}").unwrap();
    refused(&verify(), "manifest.json: not a split's manifest");
    fs::write(&manifest, good.replacen("\"depth\": 1", "\"depth\": 2", 1)).unwrap();
    refused(&verify(), "the manifest's jobs are not its top tree's");
    fs::write(&manifest, b"\xff\xfe").unwrap();
    refused(&verify(), "not UTF-8");
    fs::write(&manifest, &good).unwrap();

    // A certificate that is a named pipe is refused unread, not waited on.
    fs::remove_file(certificate(1)).unwrap();
    support::named_pipe(&certificate(1));
    refused(&verify(), "a named pipe, not a regular file");
    fs::remove_file(certificate(1)).unwrap();
    // Not a split's folder at all.
    refused(
        &tictactoe(&["verify", str(dir)]),
        "manifest.json: cannot read it",
    );
}

#[test]
fn a_split_goes_to_a_new_or_empty_folder_and_a_job_file_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let args = |to: &Path| {
        tictactoe(&[
            "solve",
            "--size",
            "4",
            "--k",
            "3",
            "--split",
            "1",
            "--jobs",
            str(to),
        ])
    };
    let file = dir.path().join("file");
    fs::write(&file, "mine").unwrap();
    refused(&args(&file), "a file, not a folder");
    refused(&args(dir.path()), "the folder is not empty");
    refused(&args(&dir.path().join("no/such")), "cannot make the folder");
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(dir.path().join("elsewhere"), &link).unwrap();
    refused(&args(&link), "a symbolic link, not a folder");
    assert!(!dir.path().join("elsewhere").exists());
    let said = success(&args(&dir.path().join("jobs")));
    assert!(said.contains("into 6 jobs (3 positions open"), "{said}");

    // A job file: a file this program wrote, of its format.
    let job = |path: &Path| tictactoe(&["solve", "--job", str(path)]);
    refused(&job(&file), "not a job file");
    refused(&job(dir.path()), "a folder, not a regular file");
    let fifo = dir.path().join("fifo");
    support::named_pipe(&fifo);
    refused(&job(&fifo), "a named pipe, not a regular file");
    let other = dir.path().join("other.json");
    let good = fs::read_to_string(dir.path().join("jobs/job-0000.json")).unwrap();
    fs::write(&other, good.replace("tictactoe-job", "tictactoe-jobz")).unwrap();
    refused(&job(&other), "not a tictactoe-job file");
    // A certificate's place taken by a link: refused, not followed.
    let target = dir.path().join("jobs/job-0000.proof.jsonl");
    std::os::unix::fs::symlink(&file, &target).unwrap();
    refused(
        &job(&dir.path().join("jobs/job-0000.json")),
        "a symbolic link, not a file",
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "mine");
    fs::remove_file(&target).unwrap();
    // A job that died: its half-written certificate, an hour old, is
    // removed when the job is run again, and the certificate written whole.
    let stale = dir.path().join("jobs/job-0000.proof.jsonl.tmp-abc123");
    fs::write(&stale, "{\"format\": \"tictactoe-proof\"").unwrap();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    let said = success(&job(&dir.path().join("jobs/job-0000.json")));
    assert!(
        said.starts_with("job 0 (4x4, 3 in a row, does X win from "),
        "{said}"
    );
    assert!(!stale.exists(), "the dead run's file is removed");
    assert!(target.is_file());
    // Flags that mean nothing for a job.
    let out = tictactoe(&["solve", "--job", str(&other), "--size", "5"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The last JSON line of progress `solve --progress --json` wrote to
/// standard error.
fn last_progress(out: &Output) -> Value {
    let err = text(&out.stderr);
    let line = err.lines().last().expect("a line of progress");
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn a_table_smaller_than_the_proof_needs_still_completes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.jsonl");
    // 7x7 with five in a row fills 32 MiB of table unbounded; in 16 MiB
    // the table replaces what cost least and the proof goes on.
    let out = tictactoe(&[
        "solve",
        "--size",
        "7",
        "--k",
        "5",
        "--max-memory",
        "16",
        "--threads",
        "1",
        "--progress",
        "--json",
        "--certificate",
        str(&path),
    ]);
    let answer: Value = serde_json::from_str(success(&out).trim()).unwrap();
    assert_eq!(answer["result"], "draw");
    let progress = last_progress(&out);
    assert!(progress["replaced"].as_u64().unwrap() > 0, "{progress}");
    assert!(
        progress["table_budget"].as_u64().unwrap() <= 16 << 20,
        "{progress}"
    );
    let said = success(&tictactoe(&["verify", str(&path)]));
    assert!(said.contains(": draw\n"), "{said}");
}

#[test]
fn two_threads_prove_the_same_value_with_a_certificate_that_checks() {
    let dir = tempfile::tempdir().unwrap();
    for threads in ["1", "2"] {
        let path = dir.path().join(format!("proof-{threads}.jsonl"));
        let out = tictactoe(&[
            "solve",
            "--size",
            "6",
            "--k",
            "4",
            "--threads",
            threads,
            "--progress",
            "--json",
            "--certificate",
            str(&path),
        ]);
        let answer: Value = serde_json::from_str(success(&out).trim()).unwrap();
        assert_eq!(answer["result"], "x-wins", "{threads} threads");
        let said = success(&tictactoe(&["verify", str(&path)]));
        assert!(said.contains("(6x6, 4 in a row): X wins\n"), "{said}");
        // Progress goes to standard error, the answer alone to standard output.
        assert!(last_progress(&out)["positions"].as_u64().unwrap() > 0);
    }
}

#[test]
fn progress_in_words_and_the_flags_shared_by_the_three_commands() {
    let out = tictactoe(&["solve", "--size", "5", "--k", "4", "--progress"]);
    success(&out);
    let err = text(&out.stderr);
    assert!(err.starts_with("proving: "), "{err}");
    assert!(err.contains(" positions ("), "{err}");
    // Without --progress and with standard error no terminal: nothing.
    let out = tictactoe(&["solve", "--size", "5", "--k", "4"]);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    // The same flags for analyze --solve and best --solve.
    for command in ["analyze", "best"] {
        let out = tictactoe(&[
            command,
            "..../..../..../....",
            "--solve",
            "--threads",
            "2",
            "--max-memory",
            "16",
            "--progress",
        ]);
        success(&out);
        assert!(text(&out.stderr).starts_with("proving: "), "{command}");
    }
    let out = tictactoe(&["solve", "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_8x8_boards_in_reach_are_proven_and_verified() {
    let dir = tempfile::tempdir().unwrap();
    for (k, value) in [("6", "draw"), ("7", "draw"), ("8", "draw")] {
        let path = dir.path().join(format!("8x8-{k}.jsonl"));
        let said = success(&tictactoe(&[
            "solve",
            "--size",
            "8",
            "--k",
            k,
            "--certificate",
            str(&path),
        ]));
        assert!(
            said.starts_with(&format!(
                "8x8, {k} in a row, from the empty board: {value}\n"
            )),
            "{said}"
        );
        let said = success(&tictactoe(&["verify", str(&path)]));
        assert!(
            said.contains(&format!("(8x8, {k} in a row): {value}\n")),
            "{said}"
        );
    }
}

#[test]
fn analyze_and_best_take_8x8_and_say_their_scores_are_unproven() {
    let empty = "......../......../......../......../......../......../......../........";
    let out = tictactoe(&["analyze", empty, "--k", "5", "--think-ms", "100", "--json"]);
    let answer: Value = serde_json::from_str(success(&out).trim()).unwrap();
    assert_eq!(answer["size"], 8);
    assert_eq!(answer["moves"].as_array().unwrap().len(), 64);
    assert_eq!(answer["value_exact"], false, "{answer}");
    assert_eq!(answer["result"], Value::Null, "{answer}");
    let best = success(&tictactoe(&[
        "best",
        empty,
        "--k",
        "5",
        "--think-ms",
        "100",
        "--coord",
    ]));
    assert_eq!(best.trim().len(), 2, "a square such as d4: {best}");
}

#[test]
fn ctrl_c_interrupts_a_proof_with_one_line_and_status_130() {
    use rustix::process::{Pid, Signal, kill_process};
    use std::io::{BufRead, BufReader};

    let mut child = binary()
        .args([
            "solve",
            "--size",
            "8",
            "--k",
            "5",
            "--threads",
            "1",
            "--progress",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut err = BufReader::new(child.stderr.take().expect("piped"));
    // The first line of progress says the proof is under way.
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    assert!(first.starts_with("proving: "), "{first}");
    let pid = Pid::from_raw(child.id() as i32).expect("a process id");
    kill_process(pid, Signal::INT).expect("the signal is delivered");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let out = output_within(child, "solve interrupted");
    assert_eq!(out.status.code(), Some(130), "{rest}");
    let last = rest.lines().last().unwrap_or_default();
    assert_eq!(
        last,
        "error: the proof was interrupted (Ctrl-C) before it had an answer"
    );
    assert!(out.stdout.is_empty());
}
