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
