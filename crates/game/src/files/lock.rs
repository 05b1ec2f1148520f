//! Locks held by one program at a time, waited for with patience.

use std::fs::{File, TryLockError};
use std::io;
use std::thread;
use std::time::{Duration, Instant};

/// Why a lock was not taken.
#[derive(Debug)]
pub enum Locked {
    /// Another program held it for longer than the patience.
    Elsewhere,
    /// The system refused.
    Io(io::Error),
}

/// Takes the lock on `file`, waiting at most `patience` for another
/// program to let go of it (checking often at first, then every 25 ms).
pub fn lock(file: &File, patience: Duration) -> Result<(), Locked> {
    let deadline = Instant::now() + patience;
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(25));
            }
            Err(TryLockError::WouldBlock) => return Err(Locked::Elsewhere),
            Err(TryLockError::Error(error)) => return Err(Locked::Io(error)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_waited_for_then_refused_and_taken_once_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file.lock");
        let holder = File::create(&path).unwrap();
        holder.lock().unwrap();
        // Another open file, as another program has.
        let waiter = File::open(&path).unwrap();
        let patience = Duration::from_millis(50);
        let started = Instant::now();
        assert!(matches!(lock(&waiter, patience), Err(Locked::Elsewhere)));
        assert!(started.elapsed() >= patience, "it waited its patience");
        holder.unlock().unwrap();
        lock(&waiter, patience).expect("free once let go");
        // And held now by the waiter: the first holder waits in turn.
        assert!(matches!(lock(&holder, patience), Err(Locked::Elsewhere)));
    }
}
