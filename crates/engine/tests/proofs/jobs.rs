//! A proof split into jobs, each proven alone, and put back together.

use tictactoe_engine::solve::certificate::Claim;
use tictactoe_engine::solve::jobs::{self, Assembly, JobFile, JobsError, Manifest, Split};
use tictactoe_engine::solve::{Bounds, Outcome, Techniques};
use tictactoe_engine::{Board, Player};

/// Every job of `split` proven alone (a solver each, as separate machines
/// would): its certificate's text.
fn prove_all(split: &Split) -> Vec<String> {
    split
        .jobs
        .iter()
        .map(|job| {
            let answer = jobs::prove(job, Techniques::all(), Bounds::default()).expect("no bound");
            assert_eq!(answer.job, *job);
            answer.certificate().map(|line| line + "\n").collect()
        })
        .collect()
}

/// The manifest as a file holds it, read back.
fn through_json(manifest: &Manifest) -> Manifest {
    let text = serde_json::to_string(manifest).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_split_proof_of_6x6_with_four_in_a_row_is_put_back_together() {
    let board = Board::empty(6, 4).unwrap();
    let split = jobs::split(&board, 1);
    assert_eq!(
        split.jobs.len(),
        12,
        "six first moves up to symmetry, two questions each"
    );
    // X wins if it wins after one first move: the job of X's move to c3
    // settles it, and the ten others are not needed.
    let job = split
        .jobs
        .iter()
        .find(|job| {
            job.attacker == Player::X
                && job.board.to_string() == "....../....../..x.../....../....../......"
        })
        .expect("the move to c3");
    let answer = jobs::prove(job, Techniques::all(), Bounds::default()).expect("no bound");
    assert_eq!(answer.claim(), Claim::Wins(Player::X));
    let certificate: String = answer.certificate().map(|line| line + "\n").collect();
    let mut assembly = Assembly::new(&through_json(&split.manifest())).unwrap();
    // Before any answer: X needs one first move (a proof number of 1), and
    // X's not winning needs all six (a disproof number of 6); O's question
    // is the other way round.
    assert_eq!(assembly.numbers(Player::X), (1, 6));
    assert_eq!(assembly.numbers(Player::O), (6, 1));
    assert_eq!(
        assembly.add(job.id, certificate.as_bytes()).unwrap(),
        Claim::Wins(Player::X)
    );
    assert_eq!(assembly.numbers(Player::X), (0, u64::MAX), "X wins");
    // O's question is left as it was: the value needs no answer to it.
    assert_eq!(assembly.numbers(Player::O), (6, 1));
    let whole = assembly.finish().unwrap();
    assert_eq!(whole.value, Outcome::Win(Player::X));
    assert_eq!((whole.checked, whole.unneeded.len()), (1, 11));
}

#[test]
fn a_drawn_board_needs_both_questions_and_jobs_it_does_not_need_may_be_missing() {
    let board = Board::empty(4, 4).unwrap();
    let split = jobs::split(&board, 2);
    let certificates = prove_all(&split);
    let mut assembly = Assembly::new(&split.manifest()).unwrap();
    for (id, certificate) in certificates.iter().enumerate() {
        assembly.add(id, certificate.as_bytes()).unwrap();
    }
    let whole = assembly.finish().unwrap();
    assert_eq!(whole.value, Outcome::Draw);
    assert_eq!(whole.checked, split.jobs.len());

    // X wins 4x4 with three in a row: O's questions are not needed.
    let board = Board::empty(4, 3).unwrap();
    let split = jobs::split(&board, 2);
    let certificates = prove_all(&split);
    let mut assembly = Assembly::new(&split.manifest()).unwrap();
    for job in split.jobs.iter().filter(|job| job.attacker == Player::X) {
        assembly
            .add(job.id, certificates[job.id].as_bytes())
            .unwrap();
    }
    let whole = assembly.finish().unwrap();
    assert_eq!(whole.value, Outcome::Win(Player::X));
    assert_eq!(whole.unneeded.len(), split.jobs.len() / 2);
}

#[test]
fn a_missing_tampered_or_mismatched_job_is_refused() {
    let board = Board::empty(4, 3).unwrap();
    let split = jobs::split(&board, 2);
    let certificates = prove_all(&split);
    let x_jobs: Vec<usize> = split
        .jobs
        .iter()
        .filter(|job| job.attacker == Player::X)
        .map(|job| job.id)
        .collect();

    // Missing: O's questions answered (O never wins), X's not: whether X
    // wins is still open, and the first of its jobs is named.
    let mut assembly = Assembly::new(&split.manifest()).unwrap();
    for job in split.jobs.iter().filter(|job| job.attacker == Player::O) {
        assembly
            .add(job.id, certificates[job.id].as_bytes())
            .unwrap();
    }
    match assembly.finish() {
        Err(JobsError::Missing { id, missing }) => {
            assert_eq!(id, x_jobs[0]);
            assert_eq!(missing, x_jobs.len());
        }
        other => panic!("{other:?}"),
    }

    // Tampered: a move of the certificate changed.
    let mut assembly = Assembly::new(&split.manifest()).unwrap();
    let id = x_jobs[0];
    let tampered = tamper(&certificates[id]);
    assert!(matches!(
        assembly.add(id, tampered.as_bytes()),
        Err(JobsError::Certificate { .. })
    ));

    // Mismatched: another job's certificate, and the right position with
    // the wrong question.
    let other = x_jobs[1];
    let error = assembly
        .add(id, certificates[other].as_bytes())
        .unwrap_err();
    assert!(matches!(error, JobsError::OtherPosition { .. }), "{error}");
    let o_job = split
        .jobs
        .iter()
        .find(|job| job.attacker == Player::O && job.board == split.jobs[id].board)
        .unwrap();
    let mut holds_for_x = certificates[o_job.id].clone();
    if !holds_for_x.contains(r#""claim": "x-holds""#) {
        // O's question answered "O wins" would say X does not: make it a hold claim for O.
        holds_for_x = holds_for_x.replace(r#""claim": "o-wins""#, r#""claim": "o-holds""#);
    }
    let answer = assembly.add(id, holds_for_x.as_bytes());
    assert!(answer.is_err(), "X holding does not answer whether X wins");
    assert!(matches!(
        assembly.add(99_999, certificates[id].as_bytes()),
        Err(JobsError::UnknownJob(_))
    ));
    assembly.add(id, certificates[id].as_bytes()).unwrap();
    assert!(matches!(
        assembly.add(id, certificates[id].as_bytes()),
        Err(JobsError::Twice(_))
    ));

    // A manifest whose jobs are not its top tree's.
    let mut manifest = split.manifest();
    manifest.jobs.pop();
    assert!(matches!(
        Assembly::new(&manifest),
        Err(JobsError::Jobs { .. })
    ));
    let mut manifest = split.manifest();
    manifest.jobs[3].attacker = manifest.jobs[3].attacker.other();
    assert!(matches!(
        Assembly::new(&manifest),
        Err(JobsError::Jobs { id: 3, .. })
    ));
    let mut manifest = split.manifest();
    manifest.depth = 3;
    assert!(matches!(
        Assembly::new(&manifest),
        Err(JobsError::Jobs { .. })
    ));
    let mut manifest = split.manifest();
    manifest.format = "tictactoe-proof".into();
    assert!(matches!(
        Assembly::new(&manifest),
        Err(JobsError::Format { .. })
    ));
}

/// The certificate with the first move of its strategy changed to another empty square.
fn tamper(certificate: &str) -> String {
    let mut lines: Vec<String> = certificate.lines().map(str::to_string).collect();
    let node = lines
        .iter()
        .position(|line| line.contains(r#""move""#))
        .unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&lines[node]).unwrap();
    let board: Board = Board::parse_with_k(value["board"].as_str().unwrap(), Some(3)).unwrap();
    let mv = value["move"].as_str().unwrap().to_string();
    let other = board
        .legal_moves()
        .into_iter()
        .map(|square| square.to_string())
        .find(|square| *square != mv)
        .unwrap();
    value["move"] = other.into();
    lines[node] = value.to_string();
    lines.iter().map(|line| format!("{line}\n")).collect()
}

#[test]
fn a_job_file_holds_all_a_machine_needs() {
    let board = Board::empty(5, 4).unwrap();
    let split = jobs::split(&board, 2);
    for job in &split.jobs {
        let file = split.job_file(job);
        let text = serde_json::to_string(&file).unwrap();
        let read: JobFile = serde_json::from_str(&text).unwrap();
        assert_eq!(read.job().unwrap(), *job);
    }
    let mut file = split.job_file(&split.jobs[0]);
    file.version = 7;
    assert!(matches!(file.job(), Err(JobsError::Version(7))));
    // Depth 0: the position's own two questions.
    assert_eq!(jobs::split(&board, 0).jobs.len(), 2);
}
