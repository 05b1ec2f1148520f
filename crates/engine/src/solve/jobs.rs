//! A proof split into jobs that any machine can prove on its own, and the
//! check that puts their certificates back together (with the `serde`
//! feature).
//!
//! [`split`] expands the top of the game from a position: every way it can
//! go for `depth` moves, up to symmetry. The positions it reaches at that
//! depth with the game still on are the open leaves; each gives two
//! [`Job`]s, one question each: does X get k in a row first from here, and
//! does O? A job is proven alone ([`prove`]), and its certificate says
//! `x-wins` or `o-holds` (for X's question), `o-wins` or `x-holds` (for
//! O's): a certificate of the position's value (`draw`, say) answers it too.
//!
//! The top tree itself is no file: [`Assembly`] works it out again from
//! the manifest's position and depth, with the certificate checker's own
//! rules, and refuses a manifest whose jobs are not exactly its open
//! leaves. It then takes each job's certificate, checks it, matches it to
//! its job (the same position up to symmetry, a claim that answers the
//! job's question), and says what the whole proves: the attacker wins a
//! node where it is to move if it wins after some move, and where the
//! other side is to move if it wins after every move; the value of the
//! position follows from its two questions. Jobs the answer does not need
//! may be left unproven (once X is known to win after one move, X's other
//! moves do not matter); a needed job without a certificate, a certificate
//! that does not check, or one for another position or question, is
//! refused.
//!
//! The engine reads and writes no file: the [`Manifest`] and each
//! [`JobFile`] are serde types, the certificates come through readers.
//! The command line puts them in a directory (see docs/PROOFS.md).
//!
//! ```
//! use tictactoe_engine::Board;
//! use tictactoe_engine::solve::jobs::{self, Assembly};
//! use tictactoe_engine::solve::{Bounds, Techniques, Outcome};
//!
//! let board = Board::empty(4, 3)?;
//! let split = jobs::split(&board, 2);
//! let manifest = split.manifest();
//! let mut assembly = Assembly::new(&manifest)?;
//! for job in &split.jobs {
//!     let answer = jobs::prove(job, Techniques::all(), Bounds::default()).expect("no bound");
//!     let certificate: String = answer.certificate().map(|line| line + "\n").collect();
//!     assembly.add(job.id, certificate.as_bytes())?;
//! }
//! let whole = assembly.finish()?;
//! assert_eq!(whole.value, Outcome::Win(tictactoe_engine::Player::X));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::io::BufRead;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::certificate::check::{Position, Rules, position_of, read_board};
use super::certificate::{self, CheckError, Claim, ReadError, check_reader};
use super::strategy::{Strategy, question_strategy};
use super::{Bounds, Counts, Outcome, Solver, Stop, Techniques};
use crate::board::Board;
use crate::player::Player;

/// The manifest's format name.
pub const MANIFEST_FORMAT: &str = "tictactoe-jobs";

/// A job file's format name.
pub const JOB_FORMAT: &str = "tictactoe-job";

/// The version of the manifest and job files.
pub const JOBS_VERSION: u64 = 1;

/// The deepest split: 8 moves.
pub const MAX_DEPTH: u32 = 8;

/// One question of a split proof: does `attacker` get k in a row first
/// from `board`, however the other side plays?
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// Its number in the manifest, from 0.
    pub id: usize,
    /// The position (one of its symmetric images: the first the split met).
    pub board: Board,
    /// Whose win is asked about.
    pub attacker: Player,
}

/// The top of a proof split into jobs.
#[derive(Debug, Clone)]
pub struct Split {
    /// The position the whole proof is about.
    pub board: Board,
    /// How many moves the top tree goes down.
    pub depth: u32,
    /// Two jobs for each open leaf of the top tree (X's question, then
    /// O's), leaves in the order the split met them.
    pub jobs: Vec<Job>,
}

/// The top tree of a position: every way the game goes for `depth` moves,
/// up to symmetry, met breadth first with moves in reading order.
struct Tree {
    nodes: Vec<TreeNode>,
}

struct TreeNode {
    /// The position as first met.
    position: Position,
    depth: u32,
    /// The positions after each move (their indices), each once.
    children: Vec<usize>,
}

impl Tree {
    fn new(rules: &Rules, start: Position, depth: u32) -> Tree {
        let mut nodes = vec![TreeNode {
            position: start,
            depth: 0,
            children: Vec::new(),
        }];
        let mut index = HashMap::from([(rules.key(start), 0)]);
        let mut next = 0;
        while next < nodes.len() {
            let (position, level) = (nodes[next].position, nodes[next].depth);
            if level < depth && !rules.over(position) {
                let mut children = Vec::new();
                for child in rules.moves(position) {
                    let count = nodes.len();
                    let at = *index.entry(rules.key(child)).or_insert(count);
                    if at == count {
                        nodes.push(TreeNode {
                            position: child,
                            depth: level + 1,
                            children: Vec::new(),
                        });
                    }
                    if !children.contains(&at) {
                        children.push(at);
                    }
                }
                nodes[next].children = children;
            }
            next += 1;
        }
        Tree { nodes }
    }

    /// The open leaves: at the full depth, the game still on.
    fn leaves<'t>(&'t self, rules: &'t Rules, depth: u32) -> impl Iterator<Item = usize> + 't {
        (0..self.nodes.len())
            .filter(move |&i| self.nodes[i].depth == depth && !rules.over(self.nodes[i].position))
    }
}

/// The board of a position of `board`'s shape.
fn board_of(board: &Board, position: Position) -> Board {
    Board::from_bits(board.geometry(), position.x, position.o)
        .expect("the split plays legal moves only")
}

/// Splits the proof of `board` at `depth` moves (at most [`MAX_DEPTH`]):
/// two jobs per open leaf of the top tree. Depth 0 gives the two questions
/// of the position itself.
///
/// ```
/// use tictactoe_engine::Board;
/// use tictactoe_engine::solve::jobs::split;
///
/// let split = split(&Board::empty(4, 4)?, 1);
/// // Three first moves up to symmetry (a corner, an edge, a middle square), two questions each.
/// assert_eq!(split.jobs.len(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split(board: &Board, depth: u32) -> Split {
    let depth = depth.min(MAX_DEPTH);
    let rules = Rules::new(board.size(), board.k());
    let tree = Tree::new(&rules, position_of(board, &rules), depth);
    let jobs = tree
        .leaves(&rules, depth)
        .flat_map(|leaf| [Player::X, Player::O].map(|attacker| (leaf, attacker)))
        .enumerate()
        .map(|(id, (leaf, attacker))| Job {
            id,
            board: board_of(board, tree.nodes[leaf].position),
            attacker,
        })
        .collect();
    Split {
        board: *board,
        depth,
        jobs,
    }
}

/// The manifest of a split: the position, the depth and every job, as
/// JSON (one document).
///
/// ```text
/// {"format": "tictactoe-jobs", "version": 1, "size": 8, "k": 5, "board": "......../...",
///  "depth": 2, "jobs": [{"id": 0, "board": "......../...", "attacker": "x"}, ...]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// [`MANIFEST_FORMAT`].
    pub format: String,
    /// [`JOBS_VERSION`].
    pub version: u64,
    /// Side of the board.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// The position the whole proof is about, in the notation.
    pub board: String,
    /// How many moves the top tree goes down.
    pub depth: u32,
    /// Every job, by its id.
    pub jobs: Vec<JobEntry>,
}

/// A job as the manifest lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobEntry {
    /// Its number, from 0.
    pub id: usize,
    /// The position, in the notation.
    pub board: String,
    /// Whose win is asked about.
    pub attacker: Player,
}

/// One job as a file of its own: all a machine needs to prove it,
/// without the manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobFile {
    /// [`JOB_FORMAT`].
    pub format: String,
    /// [`JOBS_VERSION`].
    pub version: u64,
    /// Side of the board.
    pub size: u8,
    /// Marks in a row that win.
    pub k: u8,
    /// The position of the whole proof, in the notation (for people).
    pub split: String,
    /// The split's depth (for people).
    pub depth: u32,
    /// The job's number in the manifest.
    pub id: usize,
    /// The job's position, in the notation.
    pub board: String,
    /// Whose win is asked about.
    pub attacker: Player,
}

impl Split {
    /// The manifest of this split.
    pub fn manifest(&self) -> Manifest {
        Manifest {
            format: MANIFEST_FORMAT.to_string(),
            version: JOBS_VERSION,
            size: self.board.size(),
            k: self.board.k(),
            board: self.board.to_string(),
            depth: self.depth,
            jobs: self
                .jobs
                .iter()
                .map(|job| JobEntry {
                    id: job.id,
                    board: job.board.to_string(),
                    attacker: job.attacker,
                })
                .collect(),
        }
    }

    /// The file of one job of this split.
    pub fn job_file(&self, job: &Job) -> JobFile {
        JobFile {
            format: JOB_FORMAT.to_string(),
            version: JOBS_VERSION,
            size: self.board.size(),
            k: self.board.k(),
            split: self.board.to_string(),
            depth: self.depth,
            id: job.id,
            board: job.board.to_string(),
            attacker: job.attacker,
        }
    }
}

impl JobFile {
    /// The job this file describes, checked: this format and version, a
    /// board of its shape.
    pub fn job(&self) -> Result<Job, JobsError> {
        if self.format != JOB_FORMAT {
            return Err(JobsError::Format {
                found: self.format.clone(),
                expected: JOB_FORMAT,
            });
        }
        if self.version != JOBS_VERSION {
            return Err(JobsError::Version(self.version));
        }
        Ok(Job {
            id: self.id,
            board: read(&self.board, self.size, self.k)?,
            attacker: self.attacker,
        })
    }
}

/// A board of the given shape, or why not.
fn read(text: &str, size: u8, k: u8) -> Result<Board, JobsError> {
    read_board(0, text, size, k).map_err(|error| match error {
        CheckError::Malformed { problem, .. } => JobsError::Board(problem),
        other => JobsError::Board(other.to_string()),
    })
}

/// A job proven: its answer and the strategy behind it.
#[derive(Debug)]
pub struct Answer {
    /// The job.
    pub job: Job,
    /// Whether its attacker wins.
    pub attacker_wins: bool,
    /// What the search did.
    pub counts: Counts,
    /// Wall time of the proof and the strategy.
    pub elapsed: Duration,
    strategy: Strategy,
}

impl Answer {
    /// What the job's certificate claims: the attacker's win, or the
    /// other side's hold.
    pub fn claim(&self) -> Claim {
        if self.attacker_wins {
            Claim::Wins(self.job.attacker)
        } else {
            Claim::Holds(self.job.attacker.other())
        }
    }

    /// The job's certificate, a line at a time (no line ends in a newline).
    pub fn certificate(&self) -> impl Iterator<Item = String> + '_ {
        certificate::claim_lines(
            &self.job.board,
            self.claim(),
            std::slice::from_ref(&self.strategy),
        )
    }
}

/// Proves one job within `bounds`: the answer to its question and the
/// strategy behind it, or why it stopped.
pub fn prove(job: &Job, techniques: Techniques, bounds: Bounds) -> Result<Answer, Stop> {
    let started = Instant::now();
    let mut solver = Solver::with_techniques(job.board.geometry(), techniques);
    solver.set_bounds(bounds);
    let stopped = |solver: &Solver| solver.stopped().unwrap_or(Stop::Interrupted);
    let Some(attacker_wins) = solver.wins(&job.board, job.attacker, None) else {
        return Err(stopped(&solver));
    };
    let strategy = question_strategy(&mut solver, &job.board, job.attacker, attacker_wins)
        .map_err(|_| stopped(&solver))?;
    Ok(Answer {
        job: *job,
        attacker_wins,
        counts: solver.counts(),
        elapsed: started.elapsed(),
        strategy,
    })
}

/// Why a split proof's parts prove nothing together.
#[derive(Debug, Error)]
pub enum JobsError {
    /// A file of another format.
    #[error("not a {expected} file: the format is {found:?}")]
    Format {
        /// The format found.
        found: String,
        /// The format expected.
        expected: &'static str,
    },
    /// A version this engine does not read.
    #[error("version {0} is not one this engine reads (it reads {JOBS_VERSION})")]
    Version(u64),
    /// A board that is not one of the shape.
    #[error("{0}")]
    Board(String),
    /// A depth past [`MAX_DEPTH`].
    #[error("a split {0} moves deep is deeper than {MAX_DEPTH}")]
    Depth(u32),
    /// The manifest's jobs are not the open leaves of its top tree.
    #[error("the manifest's jobs are not its top tree's: job {id} {problem}")]
    Jobs {
        /// The first job that differs.
        id: usize,
        /// How.
        problem: String,
    },
    /// A certificate for a job the manifest does not list.
    #[error("there is no job {0}")]
    UnknownJob(usize),
    /// A second certificate for one job.
    #[error("job {0} has a certificate already")]
    Twice(usize),
    /// A job's certificate proves nothing.
    #[error("job {id}: {error}")]
    Certificate {
        /// The job.
        id: usize,
        /// Why not.
        error: ReadError,
    },
    /// A job's certificate is about another position.
    #[error("job {id}: the certificate is about {found}, not the job's {expected}")]
    OtherPosition {
        /// The job.
        id: usize,
        /// The certificate's position.
        found: String,
        /// The job's.
        expected: String,
    },
    /// A job's certificate does not answer its question.
    #[error("job {id}: the claim {} does not say whether {} wins", claim.name(), attacker.notation())]
    OtherQuestion {
        /// The job.
        id: usize,
        /// The certificate's claim.
        claim: Claim,
        /// The job's attacker.
        attacker: Player,
    },
    /// The certificates given do not settle the position: a job it needs
    /// has none.
    #[error("not proven: job {id} is needed and has no certificate ({missing} jobs have none)")]
    Missing {
        /// The first needed job without a certificate.
        id: usize,
        /// Jobs without a certificate, needed or not.
        missing: usize,
    },
}

/// What a split proof proves, put back together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Whole {
    /// The position.
    pub board: Board,
    /// Its value with best play.
    pub value: Outcome,
    /// Jobs whose certificates were checked.
    pub checked: usize,
    /// Jobs without a certificate that the value does not need.
    pub unneeded: Vec<usize>,
}

/// Puts a split proof back together: the manifest's top tree worked out
/// again, then each job's certificate checked and matched to its job.
pub struct Assembly {
    board: Board,
    rules: Rules,
    tree: Tree,
    /// The tree node of each job, and the job.
    jobs: Vec<(usize, Job)>,
    /// Each job's answer, once its certificate is checked.
    answers: Vec<Option<bool>>,
}

impl Assembly {
    /// Reads a manifest: refused unless its jobs are exactly the open
    /// leaves of the top tree of its position and depth, in order.
    pub fn new(manifest: &Manifest) -> Result<Assembly, JobsError> {
        if manifest.format != MANIFEST_FORMAT {
            return Err(JobsError::Format {
                found: manifest.format.clone(),
                expected: MANIFEST_FORMAT,
            });
        }
        if manifest.version != JOBS_VERSION {
            return Err(JobsError::Version(manifest.version));
        }
        if manifest.depth > MAX_DEPTH {
            return Err(JobsError::Depth(manifest.depth));
        }
        let board = read(&manifest.board, manifest.size, manifest.k)?;
        let rules = Rules::new(manifest.size, manifest.k);
        let tree = Tree::new(&rules, position_of(&board, &rules), manifest.depth);
        let expected: Vec<(usize, Player)> = tree
            .leaves(&rules, manifest.depth)
            .flat_map(|leaf| [Player::X, Player::O].map(|attacker| (leaf, attacker)))
            .collect();
        let differ = |id: usize, problem: String| JobsError::Jobs { id, problem };
        let mut jobs = Vec::with_capacity(expected.len());
        for (id, &(leaf, attacker)) in expected.iter().enumerate() {
            let entry = manifest
                .jobs
                .get(id)
                .ok_or_else(|| differ(id, "is missing from the manifest".to_string()))?;
            let job_board = read(&entry.board, manifest.size, manifest.k)?;
            let position = position_of(&job_board, &rules);
            if entry.id != id
                || rules.key(position) != rules.key(tree.nodes[leaf].position)
                || entry.attacker != attacker
            {
                return Err(differ(
                    id,
                    format!(
                        "should ask whether {} wins at {} (up to symmetry)",
                        attacker.notation(),
                        rules.notation(tree.nodes[leaf].position)
                    ),
                ));
            }
            jobs.push((
                leaf,
                Job {
                    id,
                    board: job_board,
                    attacker,
                },
            ));
        }
        if manifest.jobs.len() > expected.len() {
            return Err(differ(
                expected.len(),
                "is one more than the top tree has".to_string(),
            ));
        }
        Ok(Assembly {
            board,
            rules,
            tree,
            answers: vec![None; jobs.len()],
            jobs,
        })
    }

    /// The jobs, in order.
    pub fn jobs(&self) -> impl Iterator<Item = &Job> {
        self.jobs.iter().map(|(_, job)| job)
    }

    /// Checks job `id`'s certificate, read from `certificate`, and takes
    /// its answer: what it claims.
    pub fn add(&mut self, id: usize, certificate: impl BufRead) -> Result<Claim, JobsError> {
        let (leaf, job) = *self.jobs.get(id).ok_or(JobsError::UnknownJob(id))?;
        if self.answers[id].is_some() {
            return Err(JobsError::Twice(id));
        }
        let verified =
            check_reader(certificate).map_err(|error| JobsError::Certificate { id, error })?;
        let expected = self.tree.nodes[leaf].position;
        let found = position_of(&verified.board, &self.rules);
        if verified.board.size() != self.board.size()
            || verified.board.k() != self.board.k()
            || self.rules.key(found) != self.rules.key(expected)
        {
            return Err(JobsError::OtherPosition {
                id,
                found: format!("{} (k={})", verified.board, verified.board.k()),
                expected: job.board.to_string(),
            });
        }
        let attacker = job.attacker;
        let answer = match verified.claim {
            Claim::Wins(winner) => winner == attacker,
            Claim::Draw => false,
            Claim::Holds(holder) if holder != attacker => false,
            Claim::Holds(_) => {
                return Err(JobsError::OtherQuestion {
                    id,
                    claim: verified.claim,
                    attacker,
                });
            }
        };
        self.answers[id] = Some(answer);
        Ok(verified.claim)
    }

    /// What the certificates given prove together: the position's value,
    /// or the first job it still needs.
    pub fn finish(self) -> Result<Whole, JobsError> {
        let mut at_leaf: HashMap<(usize, Player), usize> = HashMap::new();
        for (id, &(leaf, job)) in self.jobs.iter().enumerate() {
            at_leaf.insert((leaf, job.attacker), id);
        }
        let mut wins = [None, None];
        for attacker in [Player::X, Player::O] {
            wins[attacker as usize] = self.settle(attacker, &at_leaf);
        }
        let value = match wins {
            [Some(true), _] => Some(Outcome::Win(Player::X)),
            [_, Some(true)] => Some(Outcome::Win(Player::O)),
            [Some(false), Some(false)] => Some(Outcome::Draw),
            _ => None,
        };
        let missing: Vec<usize> = (0..self.jobs.len())
            .filter(|&id| self.answers[id].is_none())
            .collect();
        let Some(value) = value else {
            let unsettled = |job: &Job| wins[job.attacker as usize].is_none();
            let id = missing
                .iter()
                .copied()
                .find(|&id| unsettled(&self.jobs[id].1))
                .unwrap_or(0);
            return Err(JobsError::Missing {
                id,
                missing: missing.len(),
            });
        };
        Ok(Whole {
            board: self.board,
            value,
            checked: self.answers.iter().flatten().count(),
            unneeded: missing,
        })
    }

    /// How far `attacker`'s question is from an answer, as the answers
    /// given so far leave it: the root's proof and disproof numbers, each
    /// job without an answer counting one for both ([`u64::MAX`] for a
    /// question settled the other way). `(0, u64::MAX)`: the attacker wins;
    /// `(u64::MAX, 0)`: it does not. A front end reports them while jobs
    /// are still out.
    pub fn numbers(&self, attacker: Player) -> (u64, u64) {
        let nodes = &self.tree.nodes;
        let mut at_leaf: HashMap<usize, usize> = HashMap::new();
        for (id, &(leaf, job)) in self.jobs.iter().enumerate() {
            if job.attacker == attacker {
                at_leaf.insert(leaf, id);
            }
        }
        const WON: (u64, u64) = (0, u64::MAX);
        const HELD: (u64, u64) = (u64::MAX, 0);
        let mut numbers = vec![(1u64, 1u64); nodes.len()];
        for i in (0..nodes.len()).rev() {
            let position = nodes[i].position;
            numbers[i] = if self.rules.has_line(position.marks(attacker)) {
                WON
            } else if self.rules.over(position) {
                HELD
            } else if nodes[i].children.is_empty() {
                match at_leaf.get(&i).and_then(|&id| self.answers[id]) {
                    Some(true) => WON,
                    Some(false) => HELD,
                    None => (1, 1),
                }
            } else {
                let children = nodes[i].children.iter().map(|&c| numbers[c]);
                let (min_of, sum_of) = children.fold((u64::MAX, 0u64), |(least, sum), (p, d)| {
                    if position.to_move() == attacker {
                        (least.min(p), sum.saturating_add(d))
                    } else {
                        (least.min(d), sum.saturating_add(p))
                    }
                });
                if position.to_move() == attacker {
                    (min_of, sum_of)
                } else {
                    (sum_of, min_of)
                }
            };
        }
        numbers[0]
    }

    /// Whether `attacker` wins from the root, as far as the answers go:
    /// the leaves' answers carried up the tree, deepest first.
    fn settle(&self, attacker: Player, at_leaf: &HashMap<(usize, Player), usize>) -> Option<bool> {
        let nodes = &self.tree.nodes;
        let mut wins: Vec<Option<bool>> = vec![None; nodes.len()];
        // Breadth first, so every child comes after its parent.
        for i in (0..nodes.len()).rev() {
            let position = nodes[i].position;
            wins[i] = if self.rules.has_line(position.marks(attacker)) {
                Some(true)
            } else if self.rules.over(position) {
                Some(false)
            } else if nodes[i].children.is_empty() {
                at_leaf.get(&(i, attacker)).and_then(|&id| self.answers[id])
            } else {
                let children = nodes[i].children.iter().map(|&c| wins[c]);
                if position.to_move() == attacker {
                    any(children)
                } else {
                    any(children.map(|w| w.map(|w| !w))).map(|w| !w)
                }
            };
        }
        wins[0]
    }
}

/// True if one is true, false if all are false, else unknown.
fn any(values: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut unknown = false;
    for value in values {
        match value {
            Some(true) => return Some(true),
            None => unknown = true,
            Some(false) => {}
        }
    }
    (!unknown).then_some(false)
}
