//! Files a user names: every reader and writer of the program's files goes
//! through here, so each behaves the same way.
//!
//! - Reading ([`open`], [`read_whole`]): a path is opened without waiting
//!   (a named pipe with no writer would wait for ever) and without taking a
//!   terminal as the controlling one; what was opened is then looked at, and
//!   only a regular file is read. A symbolic link is followed to what it
//!   names, as `cat` follows it: what is read is checked on the open file, so
//!   a link to a pipe or a device is refused as the pipe or the device is.
//!   A size cap is checked on the file's real size and said in the error.
//! - Lines ([`LineCap`]): a line longer than its cap is an error, never a
//!   buffer that grows with the file.
//! - Writing in place ([`open_to_append`]): never through a symbolic link,
//!   never to anything but a regular file.
//! - Writing a whole file ([`write_whole`]): to a temporary file in the same
//!   folder, renamed into place once everything is written, so the path
//!   holds the old file or the new one and a failed write leaves nothing.
//!   A link, a named pipe, a device or a folder at the path is refused, and
//!   so is a file unless the caller says to replace it.
//! - Locks ([`lock`]): waited for with patience, never for ever.
//! - A [`Background`] thread that writes while the game goes on.

mod background;
mod lines;
mod lock;
mod whole;

use std::fs::{File, FileType};
use std::io::{self, Read};
use std::path::Path;

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;
use thiserror::Error;

use crate::text::thousands;

pub use background::Background;
pub use lines::{LineCap, LineTooLong};
pub use lock::{Locked, lock};
pub use whole::{Existing, Permissions, check_target, remove_stale_temps, write_whole};

/// Opened without waiting: opening a named pipe would wait for the other
/// end, and a terminal is never made the controlling one.
const NEVER_WAIT: OFlags = OFlags::NONBLOCK
    .union(OFlags::NOCTTY)
    .union(OFlags::CLOEXEC);

/// Why a file named by the user cannot be used, without its path (the
/// caller's message names the file).
#[derive(Debug, Error)]
pub enum Problem {
    /// Something other than a regular file is at the path.
    #[error("{0}, not a file")]
    NotAFile(&'static str),
    /// Bigger than the reader takes.
    #[error("{} bytes, more than the {} read", thousands(*size), thousands(*cap))]
    TooBig {
        /// The file's size in bytes.
        size: u64,
        /// The most read.
        cap: u64,
    },
    /// A file is at the path, and it is not to be replaced.
    #[error("a file is there already")]
    Exists,
    /// The system refused.
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl Problem {
    /// True when nothing is at the path.
    pub fn is_missing(&self) -> bool {
        matches!(self, Problem::Io(error) if error.kind() == io::ErrorKind::NotFound)
    }

    /// True when the path is wrong (nothing there, not a file, too big, a
    /// file not to be replaced): the user's input is at fault, not the system.
    pub fn is_bad_input(&self) -> bool {
        match self {
            Problem::Io(error) => matches!(
                error.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ),
            _ => true,
        }
    }
}

/// What a path holds when it is not a regular file, for people: "a
/// symbolic link", "a folder", "a named pipe", "a socket", "a device".
pub fn kind(kind: FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a folder"
    } else if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "not a file"
    }
}

/// What an open failed on: the kind of thing at the path when it is not a
/// file (a socket cannot be opened at all), else the system's error.
fn open_failed(path: &Path, errno: Errno) -> Problem {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Problem::NotAFile(kind(meta.file_type())),
        _ => Problem::Io(errno.into()),
    }
}

/// Opens the regular file at `path` for reading, with its size: the one
/// place a path the user names is opened to be read.
pub fn open(path: &Path) -> Result<(File, u64), Problem> {
    let file = rustix::fs::open(path, OFlags::RDONLY | NEVER_WAIT, Mode::empty())
        .map(File::from)
        .map_err(|errno| open_failed(path, errno))?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(Problem::NotAFile(kind(meta.file_type())));
    }
    Ok((file, meta.len()))
}

/// Opens the regular file at `path` for reading, refusing one of more than
/// `cap` bytes (its real size in the error).
pub fn open_capped(path: &Path, cap: u64) -> Result<File, Problem> {
    let (file, size) = open(path)?;
    if size > cap {
        return Err(Problem::TooBig { size, cap });
    }
    Ok(file)
}

/// Reads the whole regular file at `path`, of at most `cap` bytes: never
/// more, even when the file grows while it is read.
pub fn read_whole(path: &Path, cap: u64) -> Result<Vec<u8>, Problem> {
    let file = open_capped(path, cap)?;
    let mut bytes = Vec::new();
    (&file).take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        let size = file.metadata()?.len().max(bytes.len() as u64);
        return Err(Problem::TooBig { size, cap });
    }
    Ok(bytes)
}

/// Opens the regular file at `path` to be written in place, made if it is
/// missing (mode 0666 less the umask): a symbolic link is refused
/// unfollowed, a named pipe neither waited on nor written to. With
/// `append`, every write goes to the end.
pub fn open_to_append(path: &Path, append: bool) -> Result<File, Problem> {
    let mut flags = OFlags::CREATE | OFlags::RDWR | OFlags::NOFOLLOW | NEVER_WAIT;
    if append {
        flags |= OFlags::APPEND;
    }
    let file = match rustix::fs::open(path, flags, Mode::from(0o666)) {
        Ok(fd) => File::from(fd),
        Err(Errno::LOOP) => return Err(Problem::NotAFile("a symbolic link")),
        Err(Errno::ISDIR) => return Err(Problem::NotAFile("a folder")),
        // A named pipe with nobody reading it.
        Err(Errno::NXIO) => return Err(Problem::NotAFile("a named pipe")),
        Err(errno) => return Err(Problem::Io(errno.into())),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(Problem::NotAFile(kind(meta.file_type())));
    }
    Ok(file)
}

/// What is at `path` when it is not a regular file, without following a
/// link: `None` for a file, or for nothing there yet.
pub fn not_a_file(path: &Path) -> Option<&'static str> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_file() => Some(kind(meta.file_type())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn fifo_in(dir: &Path) -> std::path::PathBuf {
        let fifo = dir.join("fifo");
        assert!(
            Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        fifo
    }

    #[test]
    fn only_regular_files_are_read_and_pipes_are_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = fifo_in(dir.path());
        let named = |path: &Path| match open(path) {
            Err(Problem::NotAFile(kind)) => kind,
            other => panic!("{}: {other:?}", path.display()),
        };
        assert_eq!(named(&fifo), "a named pipe");
        assert_eq!(named(Path::new("/dev/zero")), "a device");
        assert_eq!(named(dir.path()), "a folder");
        // A link is followed to what it names, and that is what is judged.
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&fifo, &link).unwrap();
        assert_eq!(named(&link), "a named pipe");
        let file = dir.path().join("file");
        std::fs::write(&file, "hello").unwrap();
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_whole(&link, 5).unwrap(), b"hello");
        assert!(open(&dir.path().join("nothing")).unwrap_err().is_missing());
    }

    #[test]
    fn a_file_over_its_cap_is_refused_with_its_real_size() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("big");
        std::fs::write(&file, vec![b'\n'; 1000]).unwrap();
        match read_whole(&file, 10) {
            Err(
                error @ Problem::TooBig {
                    size: 1000,
                    cap: 10,
                },
            ) => {
                assert_eq!(error.to_string(), "1,000 bytes, more than the 10 read");
            }
            other => panic!("{other:?}"),
        }
        // The cap is the most read: a file of the cap is read whole, one
        // byte more is over it.
        std::fs::write(&file, vec![b'\n'; 10]).unwrap();
        assert_eq!(read_whole(&file, 10).unwrap().len(), 10);
        std::fs::write(&file, vec![b'\n'; 11]).unwrap();
        assert!(matches!(
            read_whole(&file, 10),
            Err(Problem::TooBig { size: 11, cap: 10 })
        ));
        // Refused by its size, unread: 2 GB on paper (a sparse file, no
        // room on disk), which reading would take seconds and gigabytes.
        let huge = 2_000_000_000;
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_len(huge)
            .unwrap();
        assert!(matches!(
            read_whole(&file, 1 << 20),
            Err(Problem::TooBig { size, .. }) if size == huge
        ));
    }

    #[test]
    fn appends_refuse_links_and_pipes_unopened() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = fifo_in(dir.path());
        assert!(matches!(
            open_to_append(&fifo, true),
            Err(Problem::NotAFile("a named pipe"))
        ));
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("made-through-the-link", &link).unwrap();
        assert!(matches!(
            open_to_append(&link, true),
            Err(Problem::NotAFile("a symbolic link"))
        ));
        assert!(!dir.path().join("made-through-the-link").exists());
        assert_eq!(not_a_file(&link), Some("a symbolic link"));
        assert!(matches!(
            open_to_append(dir.path(), true),
            Err(Problem::NotAFile("a folder"))
        ));
    }
}
